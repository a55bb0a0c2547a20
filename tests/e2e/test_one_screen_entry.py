"""scratch"""
import datetime

import pytest
from playwright.sync_api import expect

from championship.services import create_round
from tests.conftest import make_player
from tests.e2e.chromium import headless_chromium, requires_chromium
from tests.e2e.test_game_night import Phone, log_in
from tests.e2e.test_paper_sheet import choice

PLAYERS = ["Alice", "Bruno", "Chloé", "David", "Gaston"]
COLOURS = ["blanc", "jaune", "rouge", "bleu", "vert"]
pytestmark = requires_chromium


@pytest.fixture
def chromium(live_server):
    with headless_chromium() as browser:
        yield browser


def test_look(chromium, live_server, season, secretary):
    players = [make_player(name, with_user=False) for name in PLAYERS]
    round_ = create_round(season, players, [], colours=COLOURS, number=3, date=datetime.date(2010, 11, 19), place="Chez Steph")
    phone = Phone(chromium, live_server.url, "look")
    log_in(phone.page, secretary.user.username)
    page = phone.page
    page.goto(f"/manches/{round_.pk}/saisie/")
    page.screenshot(path="/tmp/shots/a.png", scale="css")
    for group, name in (("Preneur", "Bruno"), ("Appelé", "David"), ("Contrat", "Garde"), ("Bouts", "2")):
        choice(page, group, name).tap()
    page.screenshot(path="/tmp/shots/a2.png", scale="css")
    page.locator(".keypad button[data-digit='4']").tap()
    page.locator(".keypad button[data-digit='9']").tap()
    expect(page.locator("#apercu")).to_contain_text("faite de 8")
    page.screenshot(path="/tmp/shots/b.png", scale="css")
    page.locator("#saisie").get_by_role("button", name="Enregistrer la donne").tap()
    expect(page.get_by_text("Donne 1 enregistrée.")).to_be_visible()
    page.screenshot(path="/tmp/shots/c.png", scale="css")
    page.screenshot(path="/tmp/shots/c-full.png", scale="css", full_page=True)
    assert phone.problems == []
