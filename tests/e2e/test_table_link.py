"""The table's link in a real browser, on 390×844 phones (issue 31): the QR code of the entry
page opens the live view without an account; Alice, logged in on her phone, signs in two taps
(the scan, « Je confirme la feuille »: at most 3 asked); Chloé, without an account, signs with
the code the secretary's screen shows her; once the round is homologated, her page goes to the
published round. The taps are counted (tests/e2e/test_paper_sheet.py, `Counted`) and printed.
"""

import re

from playwright.sync_api import expect

from championship import services
from championship.models import Signoff
from tests.conftest import make_player
from tests.e2e.chromium import requires_chromium
from tests.e2e.conftest import between_requests
from tests.e2e.test_game_night import Phone, log_in
from tests.e2e.test_paper_sheet import Counted
from tests.factories import make_round

pytestmark = requires_chromium
expect.set_options(timeout=15_000)  # a poll every 3 s, on a busy machine


def test_from_the_scan_to_the_signature(browser, live_server, season, secretary, capsys):
    for name in ("Alice", "Bruno", "David", "Émile"):
        make_player(name)  # with an account: alice, bruno…
    make_player("Chloé", with_user=False)
    round_ = make_round(season)  # the example sheet's 4 deals, a draft

    # The secretary's phone: the QR code and, under it, the table's link; the players' codes.
    desk = Phone(browser, live_server.url, "secretaire")
    log_in(desk.page, secretary.user.username)
    desk.page.goto(f"/manches/{round_.pk}/saisie/")
    qr = desk.page.locator("#direct")
    qr.get_by_text("Suivre la manche sur un téléphone").click()
    expect(qr.locator("svg.qr")).to_be_visible()
    table_link = qr.get_by_role("link").get_attribute("href")
    assert re.fullmatch(rf"/manches/{round_.pk}/table/[A-Za-z0-9_-]{{16}}/", table_link)
    desk.look("1-qr", qr)

    # Alice, logged in on her phone: the scan, then « Je confirme la feuille ».
    alice = Phone(browser, live_server.url, "alice")
    log_in(alice.page, "alice")
    taps = Counted(alice)
    taps.taps += 1  # the scan: the camera opens the link
    alice.page.goto(table_link)
    expect(alice.page).to_have_url(re.compile(rf"/manches/{round_.pk}/direct/$"))
    taps.tap(alice.page.locator("#signature").get_by_role("button", name="Je confirme la feuille"))
    expect(alice.page.get_by_text("Feuille confirmée.")).to_be_visible()
    identified = taps.taps
    assert identified <= 3
    assert list(Signoff.objects.values_list("player__name", "verdict")) == [("Alice", "confirmed")]
    alice.look("2-signee")

    # Chloé has no account: « Signer pour moi », her name, the code the secretary shows her.
    chloe = Phone(browser, live_server.url, "chloe")
    taps = Counted(chloe)
    taps.taps += 1  # the scan
    chloe.page.goto(table_link)
    live = chloe.page.locator("#live")
    expect(live.locator(".next-dealer")).to_have_text(re.compile(r"Donne 5\s: David donne\."))
    chloe.look("3-direct-sans-compte")
    codes = desk.page.locator("#codes")
    codes.get_by_text("Chloé", exact=True).click()
    code = codes.get_by_label("Code de Chloé").inner_text()
    expect(codes.get_by_label("Code de Alice")).to_be_hidden()  # one code at a time
    desk.look("4-code-de-chloe", codes)
    form = chloe.page.locator("#signer-pour-moi")
    taps.tap(form.get_by_text("Signer pour moi"))
    expect(form.get_by_role("radio", name="Alice")).to_have_count(0)  # she signed
    taps.tap(form.locator("label").filter(has_text="Chloé"))
    taps.tap(form.get_by_label("Votre code"))
    taps.type(code.replace(" ", ""))
    chloe.look("5-signer-pour-moi", form)
    taps.tap(form.get_by_role("button", name="Je confirme la feuille"))
    expect(chloe.page.get_by_text("Feuille confirmée.")).to_be_visible()
    by_code = taps.taps, taps.keys
    assert Signoff.objects.get(player__name="Chloé").verdict == "confirmed"
    expect(chloe.page.locator("#table-signoffs")).to_contain_text("2 joueurs sur 5 ont confirmé")

    # Homologated: Chloé's page leaves the live view for the published round by itself.
    with between_requests(live_server):  # the live views poll the round meanwhile
        services.homologate_round(round_)
    expect(chloe.page).to_have_url(re.compile(rf"/manches/{round_.pk}/$"))
    chloe.page.goto(table_link)
    expect(chloe.page.get_by_text("Cette manche est homologuée")).to_be_visible()
    chloe.look("6-homologuee")

    for phone in (desk, alice, chloe):
        assert phone.problems == []
        phone.close()
    with capsys.disabled():
        print(
            f"\ntouchers, du scan à la signature : membre identifié {identified} ; "
            f"par code {by_code[0]} et {by_code[1]} chiffres (plus 1 toucher du secrétaire)"
        )
