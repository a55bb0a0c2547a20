"""The Content-Security-Policy in a real browser: the main pages, a deal saved by htmx and the
administration run with no violation reported, and htmx inserts no style element of its own.

Chromium reports each thing the policy blocks as a console error ("Refused to …"); the test
first checks that it sees such a report when the policy does block something, then that the
site's pages cause none. Login throttling (django-axes) is on: the secretary logs in through the
form, as anyone would.
"""

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from championship.models import Report
from tests.e2e import test_game_night as night
from tests.e2e.chromium import requires_chromium
from tests.factories import make_round

PASSWORD = night.PASSWORD

pytestmark = requires_chromium


class Watched(night.Phone):
    """A phone that also records what the Content-Security-Policy refused."""

    def __init__(self, browser, base_url, name):
        super().__init__(browser, base_url, name)
        self.violations = []
        self.page.on("console", self._check_console)

    def _check_console(self, message):
        text = message.text
        if "Content Security Policy" in text or "Refused to" in text:
            self.violations.append(f"{self.page.url}: {text}")

    def visit(self, url):
        response = self.page.goto(url)
        assert response.status < 400, f"{url}: {response.status}"
        assert "script-src 'self'" in response.headers["content-security-policy"]
        self.page.wait_for_load_state("load")
        return response

    def style_elements(self):
        return self.page.evaluate("document.querySelectorAll('style').length")


def test_the_browser_reports_what_the_policy_blocks(browser, live_server, db):
    """The control: an inline handler added to a page is refused, and the test sees the report."""
    phone = Watched(browser, live_server.url, "csp-controle")
    phone.visit("/")
    phone.page.evaluate(
        "document.body.insertAdjacentHTML('beforeend',"
        ' \'<img src="/nulle-part.png" onerror="window.ran = 1">\')'
    )
    expect(phone.page.locator("img[src='/nulle-part.png']")).to_be_attached()
    phone.page.wait_for_timeout(500)
    assert phone.page.evaluate("window.ran === undefined")
    assert any("inline event handler" in violation for violation in phone.violations), phone.violations
    phone.close()


def test_the_main_pages_run_without_any_violation(
    browser, live_server, settings, season, secretary, president
):
    settings.AXES_ENABLED = True
    homologated = make_round(season, status="homologated")
    draft = make_round(season, date=homologated.date.replace(day=26))
    player = homologated.seats.first().player
    Report.objects.create(
        round=homologated,
        author=player,
        text="Une **belle** soirée, [photos](https://example.org).",
        filed_on=homologated.date,
    )

    phone = Watched(browser, live_server.url, "csp")
    page = phone.page
    for url in [
        "/",
        f"/saisons/{season.name}/",
        f"/saisons/{season.name}/joueurs/{player.pk}/",
        f"/joueurs/{player.pk}/",
        f"/saisons/{season.name}/manches/",
        f"/manches/{homologated.pk}/",
        f"/manches/{homologated.pk}/compte-rendu/",
        f"/saisons/{season.name}/coupe/",
        "/connexion/",
        "/compte/mot-de-passe-oublie/",
    ]:
        phone.visit(url)
        if url == f"/manches/{homologated.pk}/":
            # The pot's bars keep their heights without a style attribute (SVG geometry).
            heights = page.locator("#pot svg.narrow-only rect.bar").evaluate_all(
                "bars => bars.map(b => b.getBoundingClientRect().height)"
            )
            assert len(set(heights)) > 1, heights
            phone.look("manche", showing=page.locator("#pot"))

    night.log_in(page, secretary.user.username)
    phone.visit(f"/manches/{draft.pk}/saisie/")
    expect(page.locator("#donne-4")).to_be_visible()
    form = page.locator("#saisie")
    night.choose(form, "Donne", "Passe")
    night.save_deal(page, 5)  # answered in place by htmx
    phone.look("saisie")
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    assert phone.style_elements() == 0  # htmx inserted none
    phone.visit("/compte/mot-de-passe/")
    assert phone.violations == []
    assert phone.problems == []
    phone.close()

    # The administration, as a superuser.
    get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    phone = Watched(browser, live_server.url, "csp-admin")
    page = phone.page
    phone.visit("/admin/login/")  # the site's login, the admin as its next page (federation.two_step)
    page.get_by_label(re.compile("utilisateur", re.I)).fill("root")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    expect(page.locator("#site-name")).to_be_visible()
    for url in [
        "/admin/",
        "/admin/championship/round/",
        f"/admin/championship/round/{homologated.pk}/change/",
    ]:
        phone.visit(url)
    assert phone.violations == []
    assert phone.problems == []
    phone.close()
