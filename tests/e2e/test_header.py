"""The header on a 390×844 phone (issue 35): one line at most 64 px tall while its menu is closed,
the brand, « Moi » for an identified member (« Connexion » for a visitor) and the menu's button,
each target at least 44 px tall and on one line; the menu opens without script (a <details>) and
each of its links is 44 px tall; « Mot de passe » is not among them (it is on « Mon compte »). On a
1366×900 screen the menu's links show in the header without opening anything.
"""

import pytest
from playwright.sync_api import expect

from tests.e2e import test_game_night as night
from tests.e2e.chromium import requires_chromium

pytestmark = requires_chromium

HIGHEST = 64  # CSS pixels, the closed header on the phone
TARGET = 44  # CSS pixels, each thing one taps in the header
DESKTOP = {"viewport": {"width": 1366, "height": 900}, "locale": "fr-FR", "timezone_id": "Europe/Paris"}

# The header's box, and each target's box and number of lines (a wrapped label has two).
MEASURE = """() => {
  const header = document.querySelector('.site-header');
  const box = el => el.getBoundingClientRect();
  const lines = el => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const rects = [...range.getClientRects()].filter(r => r.width > 0).sort((a, b) => a.top - b.top);
    let count = 0, bottom = -Infinity;  // a rect below the previous line's bottom starts a new line
    for (const r of rects) {
      if (r.top >= bottom - 1) { count += 1; bottom = r.bottom; } else bottom = Math.max(bottom, r.bottom);
    }
    return count;
  };
  const visible = el => { const b = box(el); return el.checkVisibility() && b.width > 1 && b.height > 1; };
  const targets = [...header.querySelectorAll('a, summary, button')].filter(visible).map(el => ({
    text: el.textContent.trim().replace(/\\s+/g, ' '), height: box(el).height, lines: lines(el),
    top: box(el).top, bottom: box(el).bottom,
  }));
  return {height: box(header).height, targets, sideways: document.documentElement.scrollWidth - innerWidth};
}"""


def closed_header(page):
    measured = page.evaluate(MEASURE)
    assert measured["height"] <= HIGHEST, measured
    assert measured["sideways"] <= 0, measured
    for target in measured["targets"]:
        assert target["height"] >= TARGET, target
        assert target["lines"] == 1, target
        assert target["bottom"] <= HIGHEST, target  # nothing below the line: no second row
    return [target["text"] for target in measured["targets"]]


def open_menu(page):
    page.locator(".site-menu > summary").click()
    measured = page.evaluate(MEASURE)
    links = [t for t in measured["targets"] if t["top"] >= measured["height"] - 1]
    assert links, measured
    for target in links:
        assert target["height"] >= TARGET, target
        assert target["lines"] == 1, target
    return [t["text"] for t in links]


@pytest.mark.django_db
def test_the_phone_header_is_one_line_with_a_menu_that_opens(browser, live_server, season, member):
    phone = night.Phone(browser, live_server.url, "en-tete")
    page = phone.page
    try:
        page.goto("/")
        shown = closed_header(page)
        assert shown == ["♣ Tarot-Bière", "Connexion", "Menu"]
        expect(page.get_by_role("link", name="Calendrier")).to_be_hidden()  # until the menu opens
        phone.look("visiteur")
        assert open_menu(page) == ["Accueil", "Classement", "Saisons", "Calendrier", "Palmarès"]
        phone.look("visiteur-menu")

        night.log_in(page, "membre")
        page.goto(f"/saisons/{season.name}/")
        shown = closed_header(page)
        assert shown[:2] == ["♣ Tarot-Bière", "Moi"] and shown[2].startswith("Menu"), shown
        phone.look("membre")
        opened = open_menu(page)
        assert "Mon compte" in opened and "Déconnexion (membre)" in opened, opened
        assert not any("Mot de passe" in text for text in opened), opened
        phone.look("membre-menu")
        page.get_by_role("link", name="Moi").click()
        expect(page.locator("#moi")).to_be_visible()
        assert page.url.endswith("/#moi")
        assert phone.problems == []
    finally:
        phone.close()


@pytest.mark.django_db
def test_the_header_of_a_wide_screen_shows_the_menu_in_its_line(browser, live_server, season):
    context = browser.new_context(base_url=live_server.url, **DESKTOP)
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.locator(".site-menu > summary")).to_be_hidden()
        for name in ("Accueil", "Classement", "Saisons", "Calendrier", "Palmarès", "Connexion"):
            expect(page.locator(".site-header").get_by_role("link", name=name, exact=True)).to_be_visible()
        assert page.evaluate(MEASURE)["height"] <= HIGHEST
    finally:
        context.close()
