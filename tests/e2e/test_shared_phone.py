"""A phone passed from hand to hand at the bar, in a real browser (Chromium at a phone's viewport,
its service worker running on http://localhost as on HTTPS): the threat model is in
docs/exploitation.md (« Comptes et sécurité »).

- Once the secretary has logged out, the phone holds none of her pages: the entry page the
  service worker kept for offline use is forgotten (the worker empties its pages when someone
  logs in or out; the logout's `Clear-Site-Data: "cache"` empties the browser's cache), so that,
  offline, the next person gets the browser's « no network » page, not hers (her name, her form,
  its CSRF token). Each mechanism is tested alone too: the worker without the header.
- A deal she kept offline stays on the phone (never erased by a logout) but belongs to her: in
  another account's session it is listed « gardée par secrétaire » and not sent; it leaves when
  she logs in again, and its history names her.
"""

import datetime
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from championship.models import Deal
from federation import accounts
from tests.e2e import test_game_night as night
from tests.e2e.chromium import requires_chromium
from tests.e2e.test_offline_entry import open_entry_page, passed_deal, pending, settled, stored, wait_for

pytestmark = requires_chromium
expect.set_options(timeout=10_000)


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


def explain(round_, requests):
    """What the phone asked about deals, and who stored which deal when (UTC): a failure's story."""
    history = Deal.history.filter(round_id=round_.pk).order_by("history_date")
    stories = [
        f"{h.history_date:%H:%M:%S.%f} {h.history_type} donne {h.number} par {h.history_user}"
        for h in history
    ]
    return "\n".join(["requêtes :", *requests, "historique :", *stories])


def record_deal_requests(context, requests):
    """Every request of the phone's pages about deals, whichever page made it (one closed since too)."""

    def record(request):
        if "/donnes/" in request.url or "/saisie/" in request.url:
            requests.append(
                f"{datetime.datetime.now(datetime.UTC):%H:%M:%S.%f} {request.method} {request.url}"
            )

    context.on("request", record)


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


def test_a_deal_kept_by_one_account_is_sent_only_in_its_session(
    browser, live_server, secretary, president, empty_round
):
    phone = open_entry_page(browser, live_server, secretary, empty_round, "deux-comptes")
    page = phone.page
    requests = []
    record_deal_requests(phone.context, requests)  # to explain a failure
    phone.context.set_offline(True)
    passed_deal(page, "Alice")
    expect(pending(page)).to_have_count(1)
    settled(phone)
    # She leaves the page while offline: her deal waits on the phone. Left first, then closed: a
    # page being closed may still live a moment in Chromium, and an entry page that sees the
    # network come back sends its account's kept deals (here hers, in her session, still open
    # until the logout below), which a full run of the suite once caught.
    page.goto("about:blank")
    page.close()

    page = phone.page = phone.context.new_page()
    sent = []
    page.on("request", lambda request: sent.append(request) if "/donnes/envoi/" in request.url else None)
    phone.context.set_offline(False)
    page.goto("/")
    night.log_out(page, secretary.user.username)
    night.log_in(page, president.user.username)

    page.goto(entry_path(empty_round))
    others = pending(page)
    expect(others).to_have_count(1)
    expect(others.first).to_contain_text(f"Donne gardée par {secretary.user.username} sur ce téléphone")
    expect(others.first).to_contain_text("Donneur : Alice")
    expect(others.first.get_by_role("button")).to_have_count(0)  # not his to send, correct or delete
    settled(phone)
    phone.look("1-donne-d-un-autre-compte", showing=page.locator(".pending-deals"))
    assert sent == [] and stored(empty_round) == [], explain(empty_round, requests)

    # His own deal, online, is not held behind hers.
    form = page.locator("#saisie")
    night.choose(form, "Donne", "Passe")
    night.save_deal(page, 1)
    settled(phone)
    assert sent == [] and stored(empty_round) == [(1, "Alice", "passed")]
    added = Deal.history.filter(round_id=empty_round.pk, history_type="+")
    assert added.get(number=1).history_user == president.user

    # She logs in again: her deal leaves, in her session (refused first: the round changed since
    # she kept it; sent again as the round now is, by her).
    night.log_out(page, president.user.username)
    night.log_in(page, secretary.user.username)
    page.goto(entry_path(empty_round))
    refused = pending(page).first
    expect(refused).to_contain_text("Donne 2 — refusée")
    expect(refused).to_contain_text("donne 1 ajoutée par Président")
    settled(phone)
    refused.get_by_role("button", name="Renvoyer").click()
    expect(pending(page)).to_have_count(0)
    expect(page.locator("#donne-2")).to_be_visible()
    settled(phone)
    assert {re.sub(r"\d+", "N", request.url.removeprefix(live_server.url)) for request in sent} == {
        "/manches/N/donnes/envoi/"
    }
    assert stored(empty_round) == [(1, "Alice", "passed"), (2, "Alice", "passed")]
    assert added.get(number=2).history_user == secretary.user
    settled(phone)
    assert phone.problems == []
    phone.close()
