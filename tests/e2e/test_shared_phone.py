"""A phone passed from hand to hand at the bar, in a real browser (Chromium at a phone's viewport,
its service worker running on http://localhost as on HTTPS): the threat model is in
docs/exploitation.md (« Comptes et sécurité »).

- Once the secretary has logged out, the phone holds none of her pages: the entry page the
  service worker kept for offline use is forgotten (the worker empties its pages when someone
  logs in or out; the logout's `Clear-Site-Data: "cache"` empties the browser's cache), so that,
  offline, the next person gets the browser's « no network » page, not hers (her name, her form,
  its CSRF token). Each mechanism is tested alone too: the worker without the header.
"""

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from federation import accounts
from tests.e2e import test_game_night as night
from tests.e2e.chromium import headless_chromium, requires_chromium
from tests.e2e.test_offline_entry import open_entry_page, wait_for
from tests.factories import make_round

pytestmark = requires_chromium
expect.set_options(timeout=10_000)


@pytest.fixture
def browser(live_server):
    with headless_chromium() as chromium:
        yield chromium


@pytest.fixture
def empty_round(season, secretary, president):
    return make_round(season, deals=[])


def entry_path(round_):
    return f"/manches/{round_.pk}/saisie/"


def kept_page(page, round_):
    """Whether the service worker holds a copy of the round's entry page."""
    return page.evaluate(
        "async (path) => Boolean(await caches.match(location.origin + path))", entry_path(round_)
    )


def page_content(page):
    """The page's HTML, once the browser has settled on what it shows (its error page is drawn
    after the failed navigation)."""
    for _attempt in range(50):
        try:
            return page.content()
        except PlaywrightError:
            page.wait_for_timeout(100)
    return page.content()


def caches_content(page):
    """{cache name: [addresses]} of the site's caches on the phone."""
    return page.evaluate(
        """async () => {
            const content = {};
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                content[name] = (await cache.keys()).map((request) => new URL(request.url).pathname);
            }
            return content;
        }"""
    )


@pytest.mark.parametrize("header", [True, False], ids=["clear-site-data-et-worker", "worker-seul"])
def test_after_logging_out_the_phone_shows_none_of_the_accounts_pages_offline(
    browser, live_server, secretary, empty_round, monkeypatch, header
):
    if not header:  # the service worker alone must forget the pages (a browser without the header)
        plain_logout = super(accounts.LogoutView, accounts.LogoutView).post
        monkeypatch.setattr(accounts.LogoutView, "post", plain_logout)
    phone = open_entry_page(browser, live_server, secretary, empty_round, f"deconnexion-{header}")
    page = phone.page
    assert kept_page(page, empty_round)
    answers = []
    page.on(
        "response", lambda response: answers.append(response) if "/deconnexion/" in response.url else None
    )

    night.log_out(page, secretary.user.username)
    cleared = [answer.all_headers().get("clear-site-data") for answer in answers]
    assert cleared == (['"cache"'] if header else [None])
    wait_for(lambda: not kept_page(page, empty_round), "la page de saisie oubliée")
    content = caches_content(page)
    pages = [path for name, paths in content.items() for path in paths if not path.startswith("/static/")]
    assert pages == [], content

    phone.context.set_offline(True)
    with pytest.raises(PlaywrightError, match=r"net::ERR_(FAILED|INTERNET_DISCONNECTED)"):
        page.goto(entry_path(empty_round))  # the browser's own page: nothing of hers
    shown = page_content(page)
    assert secretary.user.username not in shown and "csrfmiddlewaretoken" not in shown
    phone.context.set_offline(False)
    assert phone.problems == []
    phone.close()
