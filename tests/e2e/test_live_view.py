"""The live view of a round in a real browser: a player follows it on his phone while the
secretary saves a deal on hers, then the table signs the sheet and the board sees it.

Two phones (Playwright contexts) against pytest-django's `live_server`: Alice opens the live view
(the page the QR code of the entry page leads to), the secretary saves deal 5 on the entry page,
and Alice's page shows it by itself (htmx polling, no reload). Then Alice confirms the sheet,
Bruno disputes it with a comment, Alice's page shows the dispute (not its comment, which Bruno
and the board read), and the président sees both on the homologation page. Chromium is
Debian's (`tests.e2e.chromium`); without it, skipped.
"""

import re

from playwright.sync_api import expect

from championship.models import Signoff
from tests.conftest import make_player
from tests.e2e.chromium import requires_chromium
from tests.e2e.test_game_night import PLAYERS, Phone, choose, log_in
from tests.factories import make_round

pytestmark = requires_chromium
expect.set_options(timeout=15_000)  # a poll every 3 s, on a busy machine


def test_the_live_view_follows_a_save_and_the_table_signs_for_the_board(
    browser, live_server, season, secretary, president
):
    for name in PLAYERS:
        make_player(name)  # with an account: alice, bruno…
    round_ = make_round(season)  # the example sheet's 4 deals, a draft

    # Alice opens the live view, as the QR code of the entry page leads her there.
    alice = Phone(browser, live_server.url, "alice")
    log_in(alice.page, "alice")
    secretary_phone = Phone(browser, live_server.url, "secretaire")
    log_in(secretary_phone.page, secretary.user.username)
    secretary_phone.page.goto(f"/manches/{round_.pk}/saisie/")
    qr = secretary_phone.page.locator("#direct")
    qr.get_by_text("Suivre la manche sur un téléphone").click()
    expect(qr.locator("svg.qr")).to_be_visible()
    live_url = qr.get_by_role("link").get_attribute("href")
    alice.page.goto(live_url)
    live = alice.page.locator("#live")
    expect(live.locator(".next-dealer")).to_have_text(re.compile(r"Donne 5\s: David donne\."))
    alice.look("1-direct")

    # The secretary saves deal 5 (a passed deal, David dealing): Alice's page follows by itself.
    form = secretary_phone.page.locator("#saisie")
    choose(form, "Donne", "Passe")
    form.get_by_role("button", name="Enregistrer la donne").click()
    expect(secretary_phone.page.get_by_text("Donne 5 enregistrée.")).to_be_visible()
    expect(live.locator(".next-dealer")).to_have_text(re.compile(r"Donne 6\s: Émile donne\."))
    expect(live.locator(".live-deal").first).to_contain_text(re.compile(r"^\s*5\."))
    alice.look("2-direct-apres-la-donne-5")

    # Alice confirms the sheet; Bruno, on his phone, disputes it with a comment.
    alice.page.get_by_role("button", name="Je confirme la feuille").click()
    expect(alice.page.get_by_text("Feuille confirmée.")).to_be_visible()
    bruno = Phone(browser, live_server.url, "bruno")
    log_in(bruno.page, "bruno")
    bruno.page.goto(live_url)
    bruno.page.get_by_text("Contester la feuille…").click()
    bruno.page.get_by_label("Ce qui ne va pas").fill("La donne 3 était chutée de 2")
    bruno.page.get_by_role("button", name="Contester la feuille", exact=True).click()
    expect(bruno.page.get_by_text("Contestation enregistrée.")).to_be_visible()
    assert dict(Signoff.objects.values_list("player__name", "verdict")) == {
        "Alice": "confirmed",
        "Bruno": "disputed",
    }
    # Alice's page shows Bruno's dispute by itself too; what he wrote, the board and he alone read.
    expect(alice.page.locator("#table-signoffs")).to_contain_text("Bruno : contestée")
    expect(alice.page.locator("#table-signoffs")).not_to_contain_text("La donne 3 était chutée")
    expect(bruno.page.locator("#table-signoffs")).to_contain_text("La donne 3 était chutée de 2")
    alice.look("3-direct-signatures")

    # The président sees both on the homologation page, and the dispute asks him for an answer.
    board = Phone(browser, live_server.url, "president")
    log_in(board.page, president.user.username)
    board.page.goto(f"/manches/{round_.pk}/homologuer/")
    signatures = board.page.locator("#signatures")
    expect(signatures).to_contain_text("1 joueur conteste la feuille.")
    expect(signatures).to_contain_text("Alice : confirmée")
    expect(signatures).to_contain_text("La donne 3 était chutée de 2")
    expect(board.page.get_by_label("Réponse à la contestation")).to_be_visible()
    board.look("4-homologation")

    for phone in (alice, secretary_phone, bruno, board):
        assert [problem for problem in phone.problems if not refused_by_the_test_database(problem)] == []
        phone.close()


def refused_by_the_test_database(problem):
    """A poll refused by the test database alone: the live server's threads share one SQLite
    database in memory, where a read while another thread writes fails at once (« database
    table is locked », never retried), which neither a SQLite file in WAL mode nor PostgreSQL
    does. htmx leaves the page as it was and the next poll shows the change; the expectations
    above wait for it."""
    return problem.startswith("500 ") and "/direct/suivi/" in problem
