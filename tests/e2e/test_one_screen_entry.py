"""One deal on one screen (issue 34), measured in Chromium on a 390×844 phone with touch.

The demo's night of 12 deals (championship/demo/sheets/manche-02.json: a misdeal, two petits au
bout, a chelem with a double poignée, a Garde alone, a simple poignée, half points) is entered by
taps only: each tap counted, the keys of the page's own keypad counted apart, and each tap whose
target was not on the screen (outside it, or under the bar at its bottom) counted as a scroll the
secretary would have had to make. Before every save, « Enregistrer la donne » and the result line
are on the screen. The deals stored are the sheet's. Then: a Garde with partner, a passe and a
double poignée against their targets, « Comme la précédente », « Annuler » online and offline, no
name broken inside a word, and the landscape and tablet layouts (grid and form side by side). The
counts are printed (docs/mesures.md); with E2E_SCREENSHOTS set, the screens are kept there.
"""

import datetime
import json
import os
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect

from championship.labels import of_player
from championship.models import Deal
from championship.services import create_round
from tests.conftest import make_player
from tests.e2e.axe import serious_violations
from tests.e2e.chromium import requires_chromium
from tests.e2e.test_game_night import PHONE, Phone, log_in

SHEET = json.loads((Path(__file__).parents[2] / "championship/demo/sheets/manche-02.json").read_text())
NAMES = [seat["name"] for seat in SHEET["players"]]  # Fanny, Gaston, Hélène, Igor, Julie
CONTRACTS = {"prise": "Prise", "garde": "Garde", "garde_sans": "Garde sans", "garde_contre": "Garde contre"}
KINDS = {"passed": "Passe", "misdeal": "Fausse donne", "petit_sec": "Petit sec"}
SIDES = {"attack": "Attaque", "defence": "Défense"}
SCREEN = 844

pytestmark = requires_chromium
expect.set_options(timeout=10_000)

# Is the element on the screen, where a finger reaches it: inside the viewport, and the element
# found at its centre is itself (not the bar at the bottom of the screen over it)?
ON_SCREEN = """(element) => {
  const box = element.getBoundingClientRect();
  const inside = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
  if (!inside) return false;
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit !== null && (hit === element || element.contains(hit));
}"""

# Every occurrence of a player's name in a shown text broken over two lines: « Gasto/n ».
BROKEN_NAMES = """(names) => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const name of names) {
      let at = node.data.indexOf(name);
      while (at !== -1) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + name.length);
        const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
        const lines = new Set(rects.map(r => Math.round(r.top)));
        const where = node.parentElement.className || node.parentElement.tagName;
        if (lines.size > 1) broken.push(`${name} in ${where}`);
        at = node.data.indexOf(name, at + 1);
      }
    }
  }
  return broken;
}"""


@pytest.fixture
def night(browser, live_server, season, secretary):
    """The demo night's round (its players and colours), no deal yet, open on the phone."""
    players = [make_player(name, with_user=False) for name in NAMES]
    colours = [seat["colour"] for seat in SHEET["players"]]
    round_ = create_round(
        season,
        players,
        [],
        colours=colours,
        number=2,
        date=datetime.date(2010, 10, 8),
        place="Le Bar du Coin",
    )
    phone = Phone(browser, live_server.url, "une-donne-un-ecran")
    log_in(phone.page, secretary.user.username)
    phone.page.goto(f"/manches/{round_.pk}/saisie/")
    yield round_, phone
    assert phone.problems == []
    phone.close()


class Taps:
    """The taps of one deal, the keys of the page's keypad, and the scrolls a tap needed."""

    def __init__(self, page):
        self.page, self.form = page, page.locator("#saisie")
        self.taps = self.keys = self.scrolls = 0

    def settle(self):
        """Nothing asked of the server any more (the preview, a save): the screen is still."""
        expect(self.page.locator(".htmx-request")).to_have_count(0, timeout=20_000)  # a busy machine

    def tap(self, locator, *, key=False):
        self.settle()
        if not locator.evaluate(ON_SCREEN):
            self.scrolls += 1
        if key:
            self.keys += 1
        else:
            self.taps += 1
        locator.tap()

    def choice(self, group, name):
        """The button `name` of the row `group`, tapped unless it is lit already (a default the
        page chose, such as « Prise »): the secretary sees it lit and goes on."""
        row = self.form.get_by_role("group", name=group, exact=True)
        self.settle()
        if not row.get_by_role("radio", name=name, exact=True).is_checked():
            self.tap(row.locator("label").filter(has=self.page.get_by_role("radio", name=name, exact=True)))

    def points(self, value):
        for key in str(value).replace(".", ","):
            if key == ",":
                self.tap(self.form.locator(".keypad button[data-digit=',']"), key=True)
                break  # « ,5 »: the half point in one key
            self.tap(self.form.locator(f".keypad button[data-digit='{key}']"), key=True)

    def extras(self):
        self.tap(self.form.locator("details.announces > summary"))

    def save(self, number):
        """« Enregistrer la donne »: on the screen with the result line above it, then tapped."""
        self.settle()
        button = self.form.get_by_role("button", name="Enregistrer la donne")
        self.bottom = button.bounding_box()["y"] + button.bounding_box()["height"]
        assert self.bottom <= SCREEN
        preview = self.form.locator("#apercu")
        if preview.inner_text().strip():
            box = preview.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= SCREEN, box
        self.tap(button)
        expect(self.page.get_by_text(f"Donne {number} enregistrée.")).to_be_visible()
        expect(self.page.locator(f"#donne-{number}")).to_be_attached()


def enter(taps, deal, number):
    """One deal of the sheet by taps: taker, partner, contract, bouts, points, the petit au bout,
    then the other extras (« Autres annonces » opened)."""
    if deal.get("kind", "played") != "played":
        taps.choice("Donne", KINDS[deal["kind"]])
        taps.save(number)
        return
    taps.choice("Preneur", deal["taker"])
    taps.choice("Appelé", deal.get("partner") or "Seul")
    taps.choice("Contrat", CONTRACTS[deal["contract"]])
    taps.choice("Bouts", str(deal.get("bouts", 0)))
    taps.points(deal["points"])
    if deal.get("petit_au_bout"):  # on the folded line of the extras, in one tap
        taps.choice("Petit au bout", SIDES[deal["petit_au_bout"]])
    if deal.get("poignees") or deal.get("chelem") or deal.get("miseres"):
        taps.extras()
    for poignee in deal.get("poignees", []):
        taps.choice(f"Poignée {of_player(poignee['player'])}", poignee["size"])
    if chelem := deal.get("chelem"):
        if chelem.get("announced"):
            taps.tap(taps.form.locator("label").filter(has_text="Chelem annoncé"))
            maker = taps.form.get_by_role("group", name="Chelem", exact=True)
            expect(maker.get_by_role("radio", name="L'attaque", exact=True)).to_be_checked()  # lit with it
        taps.choice("Chelem", "L'attaque" if chelem["made_by"] == "attack" else "La défense")
    taps.save(number)


def look(page, name):
    folder = os.environ.get("E2E_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"e2e-une-donne-{name}.png"), scale="css")


def test_the_demo_night_by_taps_only_one_screen_a_deal(night, capsys):
    round_, phone = night
    page = phone.page
    measured = []
    for number, deal in enumerate(SHEET["deals"], start=1):
        taps = Taps(page)
        enter(taps, deal, number)
        measured.append((taps.taps, taps.keys, taps.scrolls))
        if number == 5:
            look(page, "apres-le-chelem")
    stored = Deal.objects.filter(round=round_).select_related("taker", "partner").order_by("number")
    names = {seat.player_id: seat.player.name for seat in round_.seats.select_related("player")}
    for deal, sheet in zip(stored, SHEET["deals"], strict=True):
        assert deal.kind == sheet.get("kind", "played")
        if deal.kind == "played":
            assert (deal.taker.name, deal.partner.name if deal.partner else None) == (
                sheet["taker"],
                sheet.get("partner"),
            )
            assert (deal.contract, deal.bouts, deal.points) == (
                sheet["contract"],
                sheet.get("bouts", 0),
                Decimal(str(sheet["points"])),
            )
            poignees = [{"player": names[item["player"]], "size": item["size"]} for item in deal.poignees]
            assert poignees == sheet.get("poignees", [])
            assert deal.petit_au_bout == sheet.get("petit_au_bout", "")
            chelem = sheet.get("chelem", {})
            assert (deal.chelem_announced, deal.chelem_made_by) == (
                chelem.get("announced", False),
                chelem.get("made_by", ""),
            )
    total = sum(taps for taps, _keys, _scrolls in measured)
    assert [scrolls for _taps, _keys, scrolls in measured] == [0] * 12  # never a scroll
    assert measured[1][0] <= 2  # the misdeal: « Fausse donne », « Enregistrer »
    ordinary = [
        taps
        for (taps, _keys, _scrolls), deal in zip(measured, SHEET["deals"], strict=True)
        if deal.get("kind", "played") == "played" and not set(deal) & {"poignees", "petit_au_bout", "chelem"}
    ]
    assert max(ordinary) <= 5
    assert measured[0][0] == 4  # a Prise: « Prise » lit already (taker, partner, bouts, save)
    assert measured[2][0] == 6  # a Garde with the petit au bout: one tap for it, nothing unfolded
    # The issue asks ≤ 60 for the night (docs/mesures.md): 67 before « Prise » lit by default,
    # the petit au bout in one tap and « Chelem annoncé » lighting « L'attaque ».
    assert total <= 60
    assert page.evaluate(BROKEN_NAMES, NAMES) == []
    with capsys.disabled():
        print(
            f"\nsoirée de démonstration, 12 donnes : {total} touchers, {sum(k for _t, k, _s in measured)} "
            f"touches du pavé, {sum(s for _t, _k, s in measured)} défilements ; par donne {measured}"
        )


def test_a_garde_with_partner_a_passe_and_a_double_poignee_fit_the_screen(night, capsys):
    round_, phone = night
    page = phone.page
    # One screen: the form at the top of the screen, « Enregistrer » at its bottom.
    button = page.locator("#saisie").get_by_role("button", name="Enregistrer la donne")
    assert button.bounding_box()["y"] + button.bounding_box()["height"] <= SCREEN
    look(page, "1-ouverte")
    contract = page.locator("#saisie").get_by_role("group", name="Contrat", exact=True)
    prise = contract.locator("label").filter(has=page.get_by_role("radio", name="Prise", exact=True))
    expect(prise.get_by_role("radio", name="Prise")).to_be_checked()  # lit on a new deal
    prise.tap()  # tapped out of habit: it stays lit (the other rows clear when tapped again)
    expect(prise.get_by_role("radio", name="Prise")).to_be_checked()
    played = Taps(page)
    enter(played, {"taker": "Gaston", "partner": "Julie", "contract": "garde", "bouts": 2, "points": 49}, 1)
    passe = Taps(page)
    enter(passe, {"kind": "passed"}, 2)
    double = Taps(page)
    deal = {
        "taker": "Hélène",
        "partner": "Fanny",
        "contract": "garde",
        "bouts": 2,
        "points": 47,
        "poignees": [{"player": "Hélène", "size": "double"}],
    }
    taps = double
    for what, name in (("Preneur", "Hélène"), ("Appelé", "Fanny"), ("Contrat", "Garde"), ("Bouts", "2")):
        taps.choice(what, name)
    taps.points(deal["points"])
    taps.extras()
    taps.choice("Poignée d'Hélène", "double")
    expect(page.locator("#apercu")).to_contain_text("Poignée double d'Hélène")
    look(page, "2-poignee-double")
    assert page.evaluate(BROKEN_NAMES, NAMES) == []
    taps.save(3)
    assert (played.taps, passe.taps, double.taps) <= (5, 2, 7)
    assert played.taps <= 5 and passe.taps <= 2 and double.taps <= 7
    assert played.scrolls + passe.scrolls + double.scrolls == 0
    with capsys.disabled():
        print(
            f"\nGarde avec appelé {played.taps} touchers + {played.keys} touches ; passe {passe.taps} ; "
            f"poignée double {double.taps} + {double.keys} ; bas d'« Enregistrer » : "
            f"{played.bottom:.0f}, {passe.bottom:.0f}, {double.bottom:.0f} px"
        )


def secretary_user(round_):
    return Deal.history.filter(round_id=round_.pk, history_type="+").first().history_user


def test_like_the_previous_one_then_undo_it(night):
    round_, phone = night
    page = phone.page
    enter(
        Taps(page),
        {"taker": "Igor", "partner": "Gaston", "contract": "prise", "bouts": 1, "points": "46.5"},
        1,
    )
    # « Comme la précédente »: Igor, Gaston, Prise chosen in one tap; the bouts and points remain.
    taps = Taps(page)
    taps.tap(page.locator("#saisie").get_by_role("link", name="Comme la précédente"))
    form = page.locator("#saisie")
    for group, name in (("Preneur", "Igor"), ("Appelé", "Gaston"), ("Contrat", "Prise")):
        expect(
            form.get_by_role("group", name=group, exact=True).get_by_role("radio", name=name, exact=True)
        ).to_be_checked()
    taps.choice("Bouts", "2")
    taps.points(52)
    expect(form.locator("#apercu")).to_contain_text("Prise d'Igor avec Gaston")
    taps.save(2)
    assert taps.taps == 3
    # « Annuler » just after: deal 2 leaves the round (the service's delete, in its history) and
    # the form is deal 2's again, its dealer the same.
    undo = form.get_by_role("button", name="Annuler la donne 2")
    expect(undo).to_be_visible()
    look(page, "3-annuler")
    form.locator("details.announces").evaluate("(details) => { details.open = true; }")
    assert [violation["id"] for violation in serious_violations(page)] == []  # « Annuler », extras open
    form.locator("details.announces").evaluate("(details) => { details.open = false; }")
    undo.tap()
    expect(page.get_by_text("Donne 2 annulée.")).to_be_visible()
    look(page, "4-annulee")
    expect(form.get_by_role("heading", name="Donne 2")).to_be_visible()
    expect(page.locator("#donne-2")).to_have_count(0)
    expect(form.locator(".dealer-name")).to_have_text("Gaston")  # the dealer line, folded
    assert list(Deal.objects.filter(round=round_).values_list("number", flat=True)) == [1]
    removed = Deal.history.get(round_id=round_.pk, number=2, history_type="-")
    assert (removed.history_user, removed.history_change_reason) == (
        secretary_user(round_),
        "annulée juste après sa saisie",
    )


def test_undo_a_deal_kept_offline(night):
    round_, phone = night
    page = phone.page
    form = page.locator("#saisie")
    phone.context.set_offline(True)
    form.get_by_role("group", name="Donne", exact=True).locator("label").filter(has_text="Passe").tap()
    form.get_by_role("button", name="Enregistrer la donne").tap()
    pending = page.locator(".pending-list > li")
    expect(pending).to_have_count(1)
    expect(form.get_by_role("heading", name="Donne 2")).to_be_visible()
    undo = page.get_by_role("button", name="Annuler la donne 1")
    expect(undo).to_be_visible()
    undo.tap()
    expect(pending).to_have_count(0)
    expect(page.get_by_text("Donne 1 annulée\N{NO-BREAK SPACE}: elle ne partira pas.")).to_be_visible()
    expect(form.get_by_role("heading", name="Donne 1")).to_be_visible()
    expect(form.locator(".dealer-name")).to_have_text("Fanny")  # the dealer line, folded
    phone.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    page.wait_for_timeout(500)  # (a chance for a queue to be sent: there is none)
    assert not Deal.objects.filter(round=round_).exists()


@pytest.mark.parametrize(("name", "size"), [("paysage", (844, 390)), ("tablette", (1024, 768))])
def test_landscape_and_tablet_put_the_grid_and_the_form_side_by_side(
    browser, live_server, season, secretary, name, size
):
    players = [make_player(player, with_user=False) for player in NAMES]
    round_ = create_round(
        season, players, [], number=2, date=datetime.date(2010, 10, 8), place="Le Bar du Coin"
    )
    context = browser.new_context(
        base_url=live_server.url, **{**PHONE, "viewport": dict(zip(("width", "height"), size, strict=True))}
    )
    page = context.new_page()
    log_in(page, secretary.user.username)
    page.goto(f"/manches/{round_.pk}/saisie/")
    grid, form = page.locator("#donnes").bounding_box(), page.locator("#saisie").bounding_box()
    assert grid["x"] + grid["width"] <= form["x"]  # the grid on the left, the form beside it
    assert form["y"] < grid["y"] + grid["height"]
    look(page, name)
    context.close()
