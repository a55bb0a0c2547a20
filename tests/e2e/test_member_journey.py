"""Issue 31 end to end, on 390×844 phones in Chromium: Karim, a member with no password and no
e-mail, is at home on the site from the private link the board gave him.

He opens his link; the site, added to his home screen, still knows him; « Moi » shows his place,
his next night with its one-tap answer, the sheet waiting for his signature, his report due and
the links to his pages; he answers the night in one tap and is told he waits for a seat, then
that a seat freed for him; he scans the table's QR code, follows the live view and signs for
himself; another member cannot sign for him; the table's link dies at homologation. Every step's
taps are counted and printed; with E2E_SCREENSHOTS set to a folder, every page looked at is kept
there (docs/mesures.md, « Les touchers d'un membre »).
"""

import datetime
import re

from django.utils import timezone
from playwright.sync_api import expect

from championship import services
from championship.models import Report, Round, Signoff
from championship.rounds.table_link import signing_codes
from federation import private_links
from federation.models import Official, Season
from gamenights import services as nights
from gamenights.models import Rsvp
from tests.conftest import make_player
from tests.e2e.chromium import requires_chromium
from tests.e2e.conftest import between_requests
from tests.e2e.test_game_night import log_in
from tests.e2e.test_paper_sheet import Counted
from tests.e2e.test_private_link import Phone
from tests.factories import make_round

pytestmark = requires_chromium
expect.set_options(timeout=15_000)  # a poll every 3 s, on a busy machine

OTHERS = ("Alice", "Bruno", "Chloé", "David", "Émile")


def a_season_around_today():
    """A season that is running today, with its board and secretary; Karim (no account, no
    e-mail) ranked after three homologated rounds, the last won by him without its report."""
    today = timezone.localdate()
    start = today - datetime.timedelta(days=60)
    season = Season.objects.create(
        name=f"{start.year}-{start.year + 1}", start_date=start, end_date=today + datetime.timedelta(days=200)
    )
    board = make_player("Présidente")
    Official.objects.create(season=season, player=board, role=Official.PRESIDENT)
    secretary = make_player("Secrétaire")
    Official.objects.create(season=season, player=secretary, role=Official.SECRETARY)
    others = {name: make_player(name) for name in OTHERS}
    karim = make_player("Karim", with_user=False)
    played = [
        (40, ["Karim", "Alice", "Bruno", "Chloé", "David"], [100, 200, 0, -100, -200]),
        (20, ["Karim", "Alice", "Bruno", "Chloé", "Émile"], [0, 100, 200, -200, -100]),
        (2, ["Karim", "David", "Bruno", "Chloé", "Émile"], [200, 100, 0, -100, -200]),
    ]
    for days, names, totals in played:
        round_ = make_round(
            season,
            names,
            totals=dict(zip(names, totals, strict=True)),
            status=Round.HOMOLOGATED,
            date=today - datetime.timedelta(days=days),
        )
        winner = names[totals.index(max(totals))]
        if winner != "Karim":  # his report of the last one is due
            Report.objects.create(round=round_, author=round_.seats.get(player__name=winner).player)
    return season, board, secretary, others, karim


def test_karim_at_home_on_the_site_without_a_password(browser, live_server, capsys):
    season, board, secretary, others, karim = a_season_around_today()
    today = timezone.localdate()
    night = nights.schedule_night(season, date=today + datetime.timedelta(days=7), place="Chez Bruno")
    for name in OTHERS:  # five seats, taken before Karim answers
        nights.answer(night, others[name], Rsvp.YES)
    sheet = make_round(season, ["Alice", "Bruno", "Chloé", "David", "Karim"], date=today)  # a draft
    taps = {}

    # The board gave him his link (the board's page: tests/e2e/test_private_link.py); he opens it.
    link = live_server.url + "/moi/lien/#" + private_links.issue(karim)
    phone = Phone(browser, live_server.url, "parcours-karim")
    counted = Counted(phone)
    counted.taps += 1  # the link tapped in his messages (or the QR code scanned)
    phone.page.goto(link)
    expect(phone.page.get_by_text(re.compile("Bonjour Karim : ce téléphone vous reconnaît"))).to_be_visible()
    taps["ouvrir son lien"] = counted.taps
    phone.fits()
    phone.look("1-accueil")

    # Added to the home screen: the manifest's start address, opened anew, still knows him, for a year.
    manifest = phone.page.locator('link[rel="manifest"]').get_attribute("href")
    start_url = phone.page.request.get(manifest).json()["start_url"]
    session = next(c for c in phone.context.cookies() if c["name"] == "sessionid")
    assert session["expires"] - timezone.now().timestamp() > 300 * 24 * 3600
    launched = phone.context.new_page()  # the icon tapped: a new window, the same phone's cookies
    launched.goto(start_url)
    expect(launched.locator("#moi").get_by_role("heading", name="Moi — Karim")).to_be_visible()
    launched.close()
    phone.page.goto(start_url)
    moi = phone.page.locator("#moi")

    # « Moi »: his place, his next night, the sheet to sign, his report due, his pages.
    expect(moi.locator(".moi-place")).to_contain_text(re.compile(r"du classement, \S+ points en 3 manches"))
    expect(moi.locator(".moi-night")).to_contain_text("Vous n'avez pas encore répondu.")
    expect(moi.locator(".moi-sheets")).to_contain_text("Feuille qui attend votre signature")
    expect(moi.locator(".moi-report")).to_contain_text("à rendre au plus tard le")
    for name in ("Ma page", "Mes statistiques", "Mes face-à-face"):
        expect(moi.get_by_role("link", name=name)).to_be_visible()
    phone.fits()
    phone.look("2-moi", moi)

    # One tap: « Je viens ». Five came before him: he is told he waits, first on the list.
    counted.reset()
    counted.tap(moi.get_by_role("button", name="Je viens"))
    expect(phone.page.locator("#moi .moi-night")).to_contain_text("Votre réponse : « je viens »")
    taps["répondre à la soirée"] = counted.taps
    assert Rsvp.objects.get(night=night, player=karim).answer == Rsvp.YES
    phone.page.goto(night.get_absolute_url())
    expect(phone.page.get_by_text(re.compile("Vous êtes en tête de la liste d'attente"))).to_be_visible()
    phone.fits()
    phone.look("3-liste-d-attente")
    with between_requests(live_server):
        nights.answer(night, others["Émile"], Rsvp.NO)  # a seat freed: it goes to him
    phone.page.reload()
    expect(phone.page.get_by_text("Vous avez une place à une table.")).to_be_visible()
    phone.look("4-une-place")

    # The table: the secretary's QR code; Karim scans it, follows the live view, signs.
    desk = Phone(browser, live_server.url, "parcours-secretaire")
    log_in(desk.page, secretary.user.username)
    desk.page.goto(f"/manches/{sheet.pk}/saisie/")
    qr = desk.page.locator("#direct")
    qr.get_by_text("Suivre la manche sur un téléphone").click()
    table_link = qr.get_by_role("link").get_attribute("href")

    # Another member cannot sign for him: a phone without an account, with David's own code.
    seated = list(sheet.seats.values_list("player_id", flat=True))
    davids_code = signing_codes(sheet.pk, seated)[others["David"].pk]
    stranger = Phone(browser, live_server.url, "parcours-autre")
    stranger.page.goto(table_link)
    form = stranger.page.locator("#signer-pour-moi")
    form.get_by_text("Signer pour moi").click()
    form.locator("label").filter(has_text="Karim").click()
    form.get_by_label("Votre code").fill(davids_code)
    form.get_by_role("button", name="Je confirme la feuille").click()
    expect(stranger.page.get_by_text(re.compile("Code : ce n'est pas le vôtre"))).to_be_visible()
    assert not Signoff.objects.filter(player=karim).exists()
    stranger.look("5-pas-pour-un-autre")
    # … nor can David, logged in on his own phone: he signs for himself only.
    david = Phone(browser, live_server.url, "parcours-david")
    log_in(david.page, "david")
    david.page.goto(table_link)
    expect(
        david.page.locator("#signature").get_by_role("button", name="Je confirme la feuille")
    ).to_be_visible()
    expect(david.page.locator("#signer-pour-moi")).to_have_count(0)

    counted.reset()
    counted.taps += 1  # the scan: the camera opens the link
    phone.page.goto(table_link)
    expect(phone.page).to_have_url(re.compile(rf"/manches/{sheet.pk}/direct/$"))
    expect(phone.page.locator("#live")).to_be_visible()
    phone.fits()
    phone.look("6-direct")
    counted.tap(phone.page.locator("#signature").get_by_role("button", name="Je confirme la feuille"))
    expect(phone.page.get_by_text("Feuille confirmée.")).to_be_visible()
    taps["du scan à la signature"] = counted.taps
    signed = Signoff.objects.get(player=karim)
    assert signed.verdict == Signoff.CONFIRMED
    assert "par son lien" in signed.history.latest().history_change_reason
    phone.look("7-signee")

    # Homologated: the table's link is dead; the phone without an account goes to the published round.
    with between_requests(live_server):  # four pages poll the round meanwhile
        services.homologate_round(sheet, board.user)
    expect(stranger.page).to_have_url(re.compile(rf"/manches/{sheet.pk}/$"))
    stranger.page.goto(table_link)
    expect(stranger.page.get_by_text("Cette manche est homologuée")).to_be_visible()
    stranger.look("8-lien-mort")

    # « Moi » after all this: the sheet is signed, the night answered.
    phone.page.goto("/")
    expect(phone.page.locator("#moi .moi-sheets")).to_have_count(0)
    expect(phone.page.locator("#moi .moi-night")).to_contain_text("Votre réponse : « je viens »")

    for each in (phone, desk, stranger, david):
        assert each.violations == [], (each.name, each.violations)
        assert each.problems == [], each.problems
        each.close()
    assert all(count <= 3 for count in taps.values()), taps
    with capsys.disabled():
        print("\ntouchers de Karim : " + " ; ".join(f"{step} {count}" for step, count in taps.items()))
