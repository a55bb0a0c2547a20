"""A game night entered from a phone, submitted and homologated, in a real browser.

One scenario, driven through a headless Chromium (Playwright, sync API) at a phone viewport
against pytest-django's `live_server`: the secretary logs in, creates the round, enters the deals
of the example sheet of docs/feuille.md (plus one refused deal), submits; the président
homologates; an anonymous visitor reads the public page. Every step waits for what a person would
see (a deal's row `#donne-N`, a total, a message), never for a page load, so it holds whether a
deal is saved by a full page reload or by htmx.

Chromium is Debian's (/usr/bin/chromium, or $CHROMIUM_PATH): Playwright's own browser download is
not used. Without it the module is skipped; CI installs it. With E2E_SCREENSHOTS set to a folder,
every step leaves its screenshots there, to look at what the phone showed.
"""

import datetime
import os
import re
from pathlib import Path

from playwright.sync_api import expect

from championship.models import Deal, Round, Seat
from tests.conftest import make_player
from tests.e2e.chromium import requires_chromium

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "fr-FR",
    "timezone_id": "Europe/Paris",
}
PASSWORD = "secret-pass-1"  # what tests.conftest.make_player gives every user
PLAYERS = ["Alice", "Bruno", "Chloé", "David", "Émile"]
COLOURS = ["blanc", "jaune", "rouge", "bleu", "vert"]
EXAMPLE_TOTALS = {"Alice": -650, "Bruno": 380, "Chloé": 50, "David": 220, "Émile": 0}
# The score cards of a draft: the running totals after deal 4, the 80 of the pot still in play
# (docs/regles.md §4.3: the totals less what the pot pays back at the end).
EXAMPLE_RUNNING = {"Alice": -660, "Bruno": 370, "Chloé": 10, "David": 210, "Émile": -10}
TEMPLATE_SOURCE = re.compile(r"\{[#%{]|[#%}]\}")

pytestmark = requires_chromium
expect.set_options(timeout=10_000)


class Phone:
    """A phone's browser context, with what went wrong in it: uncaught script errors, server
    errors, missing static files."""

    def __init__(self, browser, base_url, name):
        self.context = browser.new_context(base_url=base_url, **PHONE)
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.name = name
        self.problems = []
        self.page.on("pageerror", lambda error: self.problems.append(f"script: {error}"))
        self.page.on("response", self._check_response)

    def _check_response(self, response):
        if response.status >= 500 or ("/static/" in response.url and response.status >= 400):
            self.problems.append(f"{response.status} {response.url}")

    def look(self, step, showing=None):
        """Screenshots of what the phone's screen shows (scrolled to `showing`) and of the whole
        page; and no template source may show through (e.g. a `{# … #}` comment on two lines)."""
        expect(self.page.locator("body")).not_to_contain_text(TEMPLATE_SOURCE)
        if showing is not None:
            showing.scroll_into_view_if_needed()
        folder = os.environ.get("E2E_SCREENSHOTS")
        if folder:
            shot = Path(folder) / f"e2e-{self.name}-{step}"
            self.page.screenshot(path=f"{shot}.png", scale="css")
            self.page.screenshot(path=f"{shot}-page.png", scale="css", full_page=True)

    def close(self):
        self.context.close()


def signed(value):
    """A regex for an integer as the pages may print it: minus as "-" or "−" (U+2212)."""
    return ("[-\u2212]" if value < 0 else r"\+?") + str(abs(value))


def db_totals(round_):
    return dict(Seat.objects.filter(round=round_).values_list("player__name", "total"))


def log_in(page, username):
    page.goto("/connexion/")
    page.get_by_label(re.compile("utilisateur", re.I)).fill(username)
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Se connecter").click()
    expect(page.get_by_role("button", name=f"Déconnexion ({username})", include_hidden=True)).to_be_attached()
    show_menu(page)
    expect(page.get_by_role("button", name=f"Déconnexion ({username})")).to_be_visible()


def show_menu(page):
    """Opens the header's menu where it is a button (on a phone; a wide screen shows it)."""
    summary = page.locator(".site-menu > summary")
    if summary.is_visible() and page.locator(".site-menu[open]").count() == 0:
        summary.click()


def log_out(page, username):
    show_menu(page)
    page.get_by_role("button", name=f"Déconnexion ({username})").click()
    expect(page.get_by_role("link", name="Connexion")).to_be_visible()


def choose(form, group, option):
    """Tap one option of a segmented control (radio buttons drawn as buttons), unfolded first if
    it is folded (the dealer's line, « Annonces »)."""
    unfold(form, group)
    row = form.get_by_role("group", name=group, exact=True)
    radio = row.get_by_role("radio", name=option, exact=True)
    if not radio.is_checked():  # (a chosen button tapped again clears its row on a touch screen)
        radio = form.page.locator(f"#{radio.get_attribute('id')}")  # (the dealer's line folds once chosen)
        row.locator("label").filter(has=radio).tap()
    expect(radio).to_be_checked()


def unfold(form, group):
    """Open the folded line (`<details>`) that holds the row `group`, as a person taps it."""
    for fold in form.locator("details:not([open])").all():
        if fold.get_by_role("group", name=group, exact=True, include_hidden=True).count():
            fold.locator("summary").click()


def dealer(form, name):
    """The dealer's button (proposed by the rotation; its line folded on the entry page)."""
    return form.locator(".field-dealer label").filter(has_text=name).locator("input[type=radio]")


def open_announces(form):
    details = form.locator("details.announces")
    if details.get_attribute("open") is None:
        details.get_by_text("Annonces").click()
    expect(form.get_by_role("group", name="Misères")).to_be_visible()


def save_deal(page, number):
    page.locator("#saisie").get_by_role("button", name="Enregistrer la donne").click()
    # The new deal's row in the grid and the confirmation: after a full reload or an htmx swap alike.
    expect(page.locator(f"#donne-{number}")).to_be_visible()
    expect(page.get_by_text(f"Donne {number} enregistrée.")).to_be_visible()
    expect(page.locator("#saisie")).to_have_count(1)  # one form for the next deal, not one per swap


def expect_scoreboard(page, totals):
    board = page.get_by_role("region", name="Joueurs et totaux")
    for name, total in totals.items():
        card = board.locator(".seat-card").filter(has_text=name)
        expect(card.locator(".seat-total")).to_have_text(re.compile(rf"^\s*{signed(total)}\s*$"))


def test_it_enters_a_game_night_from_a_phone_then_submits_and_homologates_it(
    browser, live_server, season, secretary, president
):
    for name in PLAYERS:
        make_player(name, with_user=False)
    secretary_login, president_login = secretary.user.username, president.user.username

    # --- the secretary, on her phone ---------------------------------------------------------------
    phone = Phone(browser, live_server.url, "secretaire")
    page = phone.page
    log_in(page, secretary_login)

    page.goto(f"/saisons/{season.name}/manches/")
    page.get_by_role("link", name="Nouvelle manche").click()
    expect(page.get_by_role("heading", name=re.compile("^Nouvelle manche"))).to_be_visible()
    page.get_by_label("Date").fill("2010-11-19")
    page.get_by_label("Lieu").fill("Chez Steph")
    page.get_by_label("Numéro").fill("12")
    for row, (name, colour) in enumerate(zip(PLAYERS, COLOURS, strict=True), start=1):
        page.get_by_label(f"Place {row}").select_option(label=name)
        page.get_by_label(f"Jetons {row}").select_option(colour)
    phone.look("1-nouvelle-manche")
    page.get_by_role("button", name="Créer la manche").click()

    expect(page).to_have_url(re.compile(r"/manches/\d+/saisie/"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Manche 12")
    round_ = Round.objects.get(season=season, number=12)
    assert (round_.date, round_.place, round_.status) == (datetime.date(2010, 11, 19), "Chez Steph", "draft")
    seats = Seat.objects.filter(round=round_).order_by("position")
    assert [(seat.player.name, seat.colour) for seat in seats] == list(zip(PLAYERS, COLOURS, strict=True))

    form = page.locator("#saisie")

    # Deal 1: Garde by Bruno calling cœur, David partner, 2 bouts, 49; Bruno's simple poignée,
    # Chloé's misère, petit au bout for the attack. Alice deals first (proposed).
    expect(dealer(form, "Alice")).to_be_checked()
    choose(form, "Donne", "Jouée")
    choose(form, "Preneur", "Bruno")
    choose(form, "Appelé", "David")
    choose(form, "Contrat", "Garde")
    choose(form, "Roi appelé (facultatif)", "♥ cœur")
    choose(form, "Bouts", "2")
    form.get_by_label("Points du preneur", exact=True).fill("49")
    open_announces(form)
    choose(form, "Poignée de Bruno", "simple")
    form.get_by_role("group", name="Misères").get_by_label("Chloé").check()
    choose(form, "Petit au bout", "Attaque")
    phone.look("2-donne-1")
    save_deal(page, 1)
    expect_scoreboard(page, db_totals(round_))  # the page shows what was stored
    phone.look("3-donne-1-enregistree")

    # Deal 2: passed; Bruno deals (proposed by rotation).
    expect(dealer(form, "Bruno")).to_be_checked()
    choose(form, "Donne", "Passe")
    save_deal(page, 2)

    # Deal 3: misdeal; Chloé deals.
    expect(dealer(form, "Chloé")).to_be_checked()
    choose(form, "Donne", "Fausse donne")
    save_deal(page, 3)

    # Deal 4: Garde sans by Alice calling pique, alone, 1 bout, 44,5 typed with a comma;
    # Chloé deals again after her misdeal.
    expect(dealer(form, "Chloé")).to_be_checked()
    choose(form, "Donne", "Jouée")
    choose(form, "Preneur", "Alice")
    choose(form, "Appelé", "Seul")
    choose(form, "Contrat", "Garde sans")
    choose(form, "Roi appelé (facultatif)", "♠ pique")
    choose(form, "Bouts", "1")
    form.get_by_label("Points du preneur", exact=True).fill("44,5")
    save_deal(page, 4)

    expect_scoreboard(page, EXAMPLE_RUNNING)
    phone.look("4-quatre-donnes", showing=page.get_by_role("region", name="Joueurs et totaux"))
    assert db_totals(round_) == EXAMPLE_TOTALS
    deal_4 = Deal.objects.get(round=round_, number=4)
    assert (deal_4.taker.name, deal_4.partner, str(deal_4.points)) == ("Alice", None, "44.5")

    # Deal 5, refused: 92 card points. The error names the deal and the field, next to the field.
    expect(dealer(form, "David")).to_be_checked()
    choose(form, "Donne", "Jouée")
    choose(form, "Preneur", "Émile")
    choose(form, "Appelé", "Alice")
    choose(form, "Contrat", "Prise")
    choose(form, "Roi appelé (facultatif)", "♣ trèfle")
    choose(form, "Bouts", "0")
    form.get_by_label("Points du preneur", exact=True).fill("92")
    form.get_by_role("button", name="Enregistrer la donne").click()
    points_field = form.locator(".field").filter(has=page.get_by_label("Points du preneur"))
    expect(points_field).to_contain_text("Donne 5, points :")
    expect(points_field).to_contain_text("entre 0 et 91")
    expect(form.get_by_label("Points du preneur", exact=True)).to_have_attribute("aria-invalid", "true")
    expect(form.get_by_role("alert").first).to_contain_text("Donne 5 non enregistrée")
    expect(form.get_by_label("Points du preneur", exact=True)).to_have_value("92")  # what was typed is kept
    phone.look("5-donne-refusee", showing=points_field)
    expect(page.locator("#donne-5")).to_have_count(0)
    expect_scoreboard(page, EXAMPLE_RUNNING)
    assert Deal.objects.filter(round=round_).count() == 4
    assert db_totals(round_) == EXAMPLE_TOTALS

    # The phone shows the page without sideways scrolling (wide tables scroll inside their box).
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"la page de saisie déborde de {overflow} px sur un téléphone de 390 px"

    page.get_by_text("Soumettre pour homologation…").click()  # a confirmation first
    page.get_by_role("button", name="Confirmer la soumission").click()
    expect(page.get_by_text("Manche soumise pour homologation.")).to_be_visible()
    round_.refresh_from_db()
    assert round_.status == Round.SUBMITTED
    phone.look("6-soumise")
    log_out(page, secretary_login)
    assert phone.problems == []
    phone.close()

    # --- the président homologates, from his phone -------------------------------------------------
    phone = Phone(browser, live_server.url, "president")
    page = phone.page
    log_in(page, president_login)
    page.goto(f"/saisons/{season.name}/manches/")
    row = page.get_by_role("row").filter(has_text="Chez Steph")
    expect(row).to_contain_text("soumise")
    row.get_by_role("link", name="saisir").click()
    expect_scoreboard(page, EXAMPLE_TOTALS)
    page.get_by_role("link", name="Homologuer", exact=True).click()
    expect(page.get_by_role("heading", name="Homologuer cette manche ?")).to_be_visible()
    page.get_by_role("button", name="Homologuer", exact=True).click()
    expect(page.get_by_text("Manche homologuée.")).to_be_visible()
    phone.look("7-homologuee")
    round_.refresh_from_db()
    assert round_.status == Round.HOMOLOGATED
    assert round_.homologated_by == president.user
    assert db_totals(round_) == EXAMPLE_TOTALS
    assert phone.problems == []
    phone.close()

    # --- anyone reads the homologated round ----------------------------------------------------------
    phone = Phone(browser, live_server.url, "visiteur")
    page = phone.page
    page.goto(f"/manches/{round_.pk}/")
    expect(page.get_by_role("link", name="Connexion")).to_be_visible()  # anonymous indeed
    expect(page.get_by_role("heading", level=1)).to_contain_text("Manche 12")
    expect(page.get_by_role("heading", level=1)).to_contain_text("homologuée")
    ranking = page.locator("#classement").get_by_role("table")
    total_column = ranking.get_by_role("columnheader").all_inner_texts().index("Total")
    for name, total in EXAMPLE_TOTALS.items():
        row = ranking.get_by_role("row").filter(has=page.get_by_role("link", name=name, exact=True))
        expect(row.get_by_role("cell").nth(total_column)).to_have_text(
            re.compile(rf"^\s*{signed(total)}\s*$")
        )
    for number in range(1, 5):
        expect(page.locator(f"#donne-{number}")).to_be_attached()
    phone.look("8-page-publique")
    assert phone.problems == []
    phone.close()
