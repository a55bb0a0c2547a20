"""The number of queries of a page must not grow with the federation's history (issue 12):
measured with two seasons, then with four (same rounds in each; from two seasons on, the home
page has a past champion to show, whatever their number). Pages are read fresh: the cache is
cleared before each count. Times are the benchmark's (`tests/benchmarks/scale.py`); the suite
counts queries only.
"""

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from championship.models import Report, Round
from federation.models import Player, Season
from tests.championship.standings.test_standings import play, table
from tests.factories import make_round

NAMES = ["Alice", "Bruno", "Chloé", "David", "Émile"]
ROUNDS = 3


def add_season(year):
    """A season of `ROUNDS` homologated rounds, the first with its report, the others without."""
    season = Season.objects.create(
        name=f"{year}-{year + 1}",
        start_date=datetime.date(year, 9, 1),
        end_date=datetime.date(year + 1, 6, 30),
    )
    for day in range(ROUNDS):
        round_ = play(season, table(NAMES), date=datetime.date(year, 10, 1) + datetime.timedelta(days=day))
        if day == 0:
            Report.objects.create(round=round_, author=Player.objects.get(name="Alice"), filed_on=round_.date)
    return season


def count(client, url):
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


PAGES = [
    pytest.param(lambda: reverse("championship:season", args=["2010-2011"]), id="season standings"),
    pytest.param(lambda: reverse("championship:round_list", args=["2010-2011"]), id="round list"),
    pytest.param(lambda: reverse("federation:home"), id="home"),
    pytest.param(lambda: reverse("championship:seasons"), id="seasons list"),
    pytest.param(
        lambda: reverse("championship:player", args=[Player.objects.get(name="Alice").pk]), id="player page"
    ),
]


@pytest.mark.parametrize("url", PAGES)
def test_it_reads_the_page_in_as_many_queries_with_four_seasons_as_with_two(client, db, url):
    add_season(2010)
    add_season(2009)
    two = count(client, url())
    add_season(2008)
    add_season(2007)
    four = count(client, url())
    assert four <= two, f"{two} requêtes avec deux saisons, {four} avec quatre"


def test_it_reads_a_season_workbook_in_as_many_queries_with_six_rounds_as_with_three(client, season):
    def workbook_queries():
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("championship:season_workbook", args=[season.name, "xlsx"]))
        assert response.status_code == 200 and response.content.startswith(b"PK")
        return len(queries)

    for number in (1, 2, 3):
        make_round(season, number=number, status=Round.HOMOLOGATED)
    three = workbook_queries()
    for number in (4, 5, 6):
        make_round(season, number=number, status=Round.HOMOLOGATED)
    assert workbook_queries() <= three
