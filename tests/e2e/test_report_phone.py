"""A round's compte-rendu on a 390×844 phone (issue 35): the page reads there first, the whole of
it within three screens (its ranking with each player's total, its bonuses, its story, its chart),
the deal-by-deal grid folded under one tap; its PDF opens in the browser."""

import datetime
from decimal import Decimal

import pytest

from championship.models import Report, Round
from tests.e2e.chromium import requires_chromium
from tests.e2e.test_game_night import PHONE
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, make_round, player

pytestmark = requires_chromium

SCREEN = PHONE["viewport"]["height"]
STORY = (
    "Soirée de seize donnes. **Bruno** l'emporte, Alice ferme la marche.\n\n"
    "- Donne 7 : la plus grosse de la soirée.\n\n"
    "La bière était fraîche et le pot bien garni."
)


def an_evening():
    """Sixteen deals as a night brings them: each player dealing in turn, one petit au bout."""
    deals = [dict(EXAMPLE_DEALS[0], dealer="Alice")]
    for number in range(1, 16):
        taker = EXAMPLE_PLAYERS[(number + 1) % 5]
        partner = EXAMPLE_PLAYERS[(number + 3) % 5]
        deals.append(
            dict(
                dealer=EXAMPLE_PLAYERS[number % 5],
                taker=taker,
                contract="prise" if number % 3 else "garde",
                called="coeur",
                partner=partner,
                bouts=number % 3 + 1,
                points=Decimal(30 + number * 2),
            )
        )
    return deals


@pytest.fixture
def evening(season):
    round_ = make_round(
        season,
        deals=an_evening(),
        status=Round.HOMOLOGATED,
        adjustments=[("Émile", "retard", -1, "arrivé à 21h30")],
    )
    Report.objects.create(
        round=round_, author=player("Bruno"), text=STORY, filed_on=datetime.date(2010, 11, 24)
    )
    return round_


def test_the_report_reads_on_a_phone_within_three_screens(browser, live_server, evening):
    context = browser.new_context(base_url=live_server.url, **PHONE)
    page = context.new_page()
    page.goto(f"/manches/{evening.pk}/compte-rendu/")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 3 * SCREEN, f"the report is {height / SCREEN:.2f} screens long"
    ranking = page.locator(".report-ranking table")
    box = ranking.bounding_box()
    assert box["y"] + box["height"] <= SCREEN * 1.5, "the ranking ends within the first screen and a half"
    for name in ("Alice", "Bruno", "Chloé", "David", "Émile"):
        assert name in ranking.inner_text()
    assert "Total" in ranking.inner_text()
    # The deals, one tap away, with the evening's totals under them.
    grid = page.locator(".report-deals table")
    assert not grid.is_visible()
    page.locator(".report-deals summary").click()
    assert grid.is_visible() and "Total de la soirée" in grid.inner_text()
    pdf_link = page.get_by_role("link", name="Ouvrir le PDF")
    assert pdf_link.get_attribute("href") == f"/manches/{evening.pk}/compte-rendu.pdf"
    context.close()
