"""The round's pot chart: one bar per deal that left something in the pot, its height to scale,
all within the drawing whatever the number of deals; the phone's drawing numbers fewer deals.
On the round page: the drawing (server-side SVG) and its figures in a table."""

import re

import pytest
from django.urls import reverse

from championship.models import Round
from championship.rounds.pot_chart import PHONE_POT_CHART, pot_chart
from tests.factories import make_round

TRACK = [(1, 0), (2, 0), (3, 50), (4, 0), (5, 0), (6, 50), (7, 0), (8, 50), (9, 60), (10, 0)]


def test_it_draws_a_bar_for_each_deal_leaving_a_pot_to_scale():
    chart = pot_chart(TRACK)
    assert [title for *_box, title in chart.bars] == [
        "Donne 3 : 50 dans le pot",
        "Donne 6 : 50 dans le pot",
        "Donne 8 : 50 dans le pot",
        "Donne 9 : 60 dans le pot",
    ]
    heights = [height for _x, _y, _width, height, _title in chart.bars]
    assert heights[0] == heights[1] == heights[2] < heights[3]
    assert heights[3] / heights[0] == pytest.approx(60 / 50, rel=0.02)
    for x, y, width, height, _title in chart.bars:
        assert chart.left <= x and x + width <= chart.right
        assert chart.top <= y and y + height == pytest.approx(chart.bottom)
    assert chart.y_ticks[0][1] == "0" and chart.zero == chart.bottom


def test_the_bars_keep_their_order_and_numbered_deals_end_with_the_last():
    chart = pot_chart(TRACK)
    xs = [x for x, *_rest in chart.bars]
    assert xs == sorted(xs)
    assert [label for _x, label in chart.x_ticks] == [str(n) for n in range(1, 11)]


@pytest.mark.parametrize("deals", [1, 16, 21, 40])
def test_the_phone_chart_stays_small_and_readable_whatever_the_number_of_deals(deals):
    track = [(number, (number % 4) * 20) for number in range(1, deals + 1)]
    wide, phone = pot_chart(track), pot_chart(track, *PHONE_POT_CHART)
    assert (phone.width, phone.height) == (360, 200)
    assert len(phone.x_ticks) <= 9 and phone.x_ticks[-1][1] == str(deals)
    assert len(phone.x_ticks) <= len(wide.x_ticks)
    for chart in (wide, phone):
        assert all(chart.left <= x and x + width <= chart.right for x, _y, width, _h, _t in chart.bars)


def test_an_empty_pot_draws_no_bar():
    chart = pot_chart([(1, 0), (2, 0)])
    assert chart.bars == () and [label for _x, label in chart.x_ticks] == ["1", "2"]


def test_the_round_page_draws_the_pot_and_gives_its_figures(client, season):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    html = client.get(reverse("championship:round", args=[round_.pk])).content.decode()
    pot = html[html.index('id="pot"') :]
    pot = pot[: pot.index("</section>")]
    assert pot.count("<svg") == 2  # the wide drawing and the phone's
    assert 'role="img"' in pot and "pot-track" not in pot
    assert "<rect" in pot and 'style="' not in pot  # geometry in attributes: the CSP refuses inline styles
    table = pot[pot.index("<table") : pot.index("</table>")]
    pots = [deal.pot_after for deal in round_.deals.order_by("number")]
    cells = re.findall(r'<td class="num">([^<]*)</td>', table)
    assert cells == [str(p) for p in pots]


@pytest.mark.parametrize(
    ("deals", "numbered"), [(14, "1 3 5 7 9 11 14"), (21, "1 4 7 10 13 16 21"), (8, "1 2 3 4 5 6 7 8")]
)
def test_the_last_deal_is_numbered_without_crowding_the_one_before(deals, numbered):
    chart = pot_chart([(number, 10) for number in range(1, deals + 1)], *PHONE_POT_CHART)
    assert " ".join(label for _x, label in chart.x_ticks) == numbered
