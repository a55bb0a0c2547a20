"""The deal form measured again at the table (issue 23), on a 390×844 phone in Chromium: the taps
a deal takes, no drop-down, every tap target 44×44 px at least, and a chosen seat that keeps its
chip's colour; and on a laptop, a double poignée typed without the mouse. The taps measured are
printed (docs/mesures.md)."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from championship.models import Deal
from championship.services import create_round
from tests.conftest import make_player
from tests.e2e.chromium import requires_chromium
from tests.e2e.test_game_night import Phone, log_in
from tests.e2e.test_paper_sheet import LAPTOP, Counted, choice, expect_saved

PLAYERS = ["Alice", "Bruno", "Chloé", "David", "Émile"]
COLOURS = ["blanc", "jaune", "rouge", "bleu", "vert"]
SMALLEST = 44  # CSS pixels, both ways

pytestmark = requires_chromium
expect.set_options(timeout=10_000)

# Every interactive element of the deal form that shows (a radio or a checkbox drawn as a button
# is hidden at 1 px: its label is what is tapped), with its size when under 44×44 px.
SMALL_TARGETS = """(smallest) => {
  const form = document.querySelector('#saisie form.deal-form');
  form.querySelectorAll('details').forEach(d => { d.open = true; });
  const small = [];
  for (const el of form.querySelectorAll('a, button, input, select, textarea, summary, label')) {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width <= 1 || box.height <= 1 || style.visibility === 'hidden' || style.opacity === '0') continue;
    if (box.width < smallest || box.height < smallest)
      small.push(`${el.tagName.toLowerCase()} « ${el.textContent.trim().slice(0, 30)} » `
        + `${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  return small;
}"""

# The chip (colour dot) of a seat's button: its colour and its ring, and the button's behind it.
CHIP = """(label) => {
  const chip = label.querySelector('.chip');
  return {chip: getComputedStyle(chip).backgroundColor, ring: getComputedStyle(chip).borderTopColor,
          button: getComputedStyle(label.querySelector('span')).backgroundColor};
}"""


def keypad(form, digits, count):
    """The points typed on the page's own keypad: each key counted as a key, not a tap."""
    for digit in digits:
        form.locator(f".keypad button[data-digit='{digit}']").tap()
        count.keys += 1


@pytest.fixture
def entry(browser, live_server, season, secretary):
    players = [make_player(name, with_user=False) for name in PLAYERS]
    round_ = create_round(
        season, players, [], colours=COLOURS, number=3, date=datetime.date(2010, 11, 19), place="Chez Steph"
    )
    phone = Phone(browser, live_server.url, "taps")
    log_in(phone.page, secretary.user.username)
    phone.page.goto(f"/manches/{round_.pk}/saisie/")
    yield round_, phone
    assert phone.problems == []
    phone.close()


def test_a_played_deal_and_a_double_poignee_in_few_taps(entry, capsys):
    round_, phone = entry
    page, form = phone.page, phone.page.locator("#saisie")
    count = Counted(phone)

    # (a) Garde by Bruno, David called (his king's owner), 2 bouts, 49: the dealer is proposed.
    count.tap(choice(page, "Preneur", "Bruno"))
    count.tap(choice(page, "Appelé", "David"))
    count.tap(choice(page, "Contrat", "Garde"))
    count.tap(choice(page, "Bouts", "2"))
    keypad(form, "49", count)  # the page's keypad: no tap on the box, no phone keyboard (issue 34)
    expect(form.locator("#apercu")).to_contain_text("Garde de Bruno avec David, faite de 8")
    count.tap(form.get_by_role("button", name="Enregistrer la donne"))
    expect_saved(page, 1)
    played = count.taps
    assert played <= 7

    # (b) the same with Chloé's double poignée: one more tap, on her row of the poignées.
    count.reset()
    count.tap(choice(page, "Preneur", "Chloé"))
    count.tap(choice(page, "Appelé", "Alice"))
    count.tap(choice(page, "Contrat", "Garde"))
    count.tap(choice(page, "Bouts", "2"))
    keypad(form, "49", count)
    count.tap(form.locator("details.announces > summary"))  # the poignées, under « Annonces »
    count.tap(choice(page, "Poignée de Chloé", "double"))
    expect(form.locator("#apercu")).to_contain_text("Poignée double de Chloé")
    count.tap(form.get_by_role("button", name="Enregistrer la donne"))
    expect_saved(page, 2)
    double = count.taps
    assert double <= 8
    chloe = next(seat.player_id for seat in round_.seats.all() if seat.player.name == "Chloé")
    assert Deal.objects.get(round=round_, number=2).poignees == [{"player": chloe, "size": "double"}]
    with capsys.disabled():
        print(
            f"\ntouchers : donne jouée avec appelé {played}, avec une poignée double {double}"
            " (+ 2 touches du pavé)"
        )


def test_the_deal_form_has_no_drop_down_and_only_big_tap_targets(entry):
    page = entry[1].page
    form = page.locator("#saisie form.deal-form")
    expect(form.locator("select")).to_have_count(0)
    assert page.evaluate(SMALL_TARGETS, SMALLEST) == []
    choice(page, "Donne", "Passe").tap()  # what a passed deal shows
    assert page.evaluate(SMALL_TARGETS, SMALLEST) == []


def test_the_totals_shown_before_saving_are_those_of_the_cards_after(entry):
    page = entry[1].page
    form = page.locator("#saisie")
    for group, name in (("Preneur", "Bruno"), ("Appelé", "David"), ("Contrat", "Garde"), ("Bouts", "2")):
        choice(page, group, name).tap()
    form.get_by_label("Points du preneur", exact=True).fill("30")  # failed: the pot stays in play
    preview = form.locator("#apercu .preview-table tbody tr")
    expect(preview).to_have_count(5)
    shown = [preview.nth(index).locator("td").nth(2).inner_text() for index in range(5)]
    form.get_by_role("button", name="Enregistrer la donne").tap()
    expect_saved(page, 1)
    cards = page.get_by_role("region", name="Joueurs et totaux").locator(".seat-card:not(.pot) .seat-total")
    expect(cards).to_have_text([re.compile(rf"^\s*{re.escape(text)}\s*$") for text in shown])
    assert any(text.startswith("\u2212") for text in shown)  # a loss, with the true minus sign
    running = page.locator("#donne-1 .running")
    expect(running).to_have_text(shown)


@pytest.mark.parametrize(("group", "name"), [("Preneur", "David"), ("Appelé", "Émile"), ("Donneur", "Alice")])
def test_a_chosen_seat_keeps_its_chips_colour(entry, group, name):
    page = entry[1].page
    if group == "Donneur":  # folded on one line: « Donneur : Alice »
        page.locator("#saisie details.dealer-fold > summary").tap()
    button = choice(page, group, name)
    before = button.evaluate(CHIP)
    button.tap()
    expect(button.get_by_role("radio")).to_be_checked()
    after = button.evaluate(CHIP)
    assert (after["chip"], after["ring"]) == (before["chip"], before["ring"])  # no white ring instead
    assert after["chip"] != after["button"]


def test_a_double_poignee_from_the_laptops_keyboard(browser, live_server, season, secretary):
    """On a laptop, without the mouse: « 2 4 g 2 », the points, Tab to the poignées, « 3 » gives
    Chloé (seat 3) a simple poignée, « d » makes it double, Enter saves."""
    players = [make_player(name, with_user=False) for name in PLAYERS]
    round_ = create_round(
        season, players, [], colours=COLOURS, number=4, date=datetime.date(2010, 11, 19), place="Chez Steph"
    )
    laptop = Phone(browser, live_server.url, "clavier")
    laptop.context.close()
    laptop.context = browser.new_context(base_url=live_server.url, **LAPTOP)
    laptop.page = laptop.context.new_page()
    page = laptop.page
    log_in(page, secretary.user.username)
    page.goto(f"/manches/{round_.pk}/saisie/")
    form = page.locator("#saisie")
    expect(
        form.get_by_role("group", name="Donne", exact=True).get_by_role("radio", name="Jouée")
    ).to_be_focused()
    for key in ("2", "4", "g", "2"):
        page.keyboard.press(key)
    expect(form.get_by_label("Points du preneur", exact=True)).to_be_focused()
    page.keyboard.type("49")
    page.keyboard.press("Tab")
    page.keyboard.press("3")
    chloe = form.get_by_role("group", name="Poignée de Chloé")
    expect(chloe.get_by_role("radio", name="simple")).to_be_checked()
    page.keyboard.press("d")
    expect(chloe.get_by_role("radio", name="double")).to_be_checked()
    expect(chloe.get_by_role("radio", name="double")).to_be_focused()
    expect(form.locator("#apercu")).to_contain_text("Poignée double de Chloé")
    page.keyboard.press("Enter")
    expect_saved(page, 1)
    deal = Deal.objects.get(round=round_, number=1)
    assert (deal.taker.name, deal.partner.name, deal.contract, deal.bouts) == ("Bruno", "David", "garde", 2)
    assert deal.poignees == [{"player": players[2].pk, "size": "double"}]
    laptop.close()
