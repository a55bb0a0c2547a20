"""The qualification page's statuses and « Ce qu'il faut à chacun » are computed once per state
of the season (`championship.cup.outlook.season_race`, one `scoring.needs` pass for both) and are
never stale: a write, once committed, is seen by the next read."""

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from championship.cup.outlook import season_race, status_rows
from championship.models import Round
from championship.standings.season import season_standings
from federation.models import Season
from federation.snapshot import read_snapshot
from scoring import needs as rules
from scoring.playoff_race import playoff_race, playoff_status
from scoring.rulebook import default_rulebook_text
from tests.factories import EXAMPLE_TOTALS, make_round

RESULTS_2 = {"Alice": 300, "Bruno": -200, "Chloé": 100, "David": -150, "Émile": -50}


@pytest.fixture
def race_season(transactional_db):
    """A season of two homologated rounds, 2 rounds still to play and 2 play-off places."""
    season = Season.objects.create(
        name="2010-2011",
        start_date=datetime.date(2010, 9, 1),
        end_date=datetime.date(2011, 6, 30),
        remaining_rounds=2,
        rulebook_text=default_rulebook_text().replace("playoff_players = 10", "playoff_players = 2"),
    )
    make_round(season, totals=EXAMPLE_TOTALS, date=datetime.date(2010, 10, 1), status=Round.HOMOLOGATED)
    make_round(season, totals=RESULTS_2, date=datetime.date(2010, 10, 8), status=Round.HOMOLOGATED)
    return season


def needs_of(client, season):
    url = reverse("championship:cup_status", args=[season.name]) + "?format=json"
    data = client.get(url).json()
    return data["remaining"], {need["player"]: need for need in data["needs"]}


def test_the_statuses_and_the_needs_come_from_one_computation(race_season):
    with read_snapshot():
        standings = season_standings(race_season)
        race = season_race(race_season, standings)
    current = [row.season for row in race.rows]
    statuses, needs = playoff_race(current, 2, race_season.rulebook, round_late=race.outlook.round_late)
    assert statuses == playoff_status(current, 2, race_season.rulebook, round_late=race.outlook.round_late)
    assert needs == rules.needs(
        current,
        2,
        places=2,
        minimum_rounds=race_season.rulebook.championship.minimum_rounds,
        loss=race.outlook.loss,
        gain=race.outlook.gain,
        round_late=race.outlook.round_late,
    )
    assert [need for _player, need in race.needs] == [needs[entry.player] for entry in current]
    assert {row.player.name: row.status for row in race.rows} == {
        row.player.name: row.status for row in status_rows(race_season, standings)
    }


def test_the_qualification_page_is_read_from_the_cache_when_warm(client, race_season):
    url = reverse("championship:cup_status", args=[race_season.name])
    assert "Ce qu'il faut à chacun" in client.get(url).content.decode()
    with CaptureQueriesContext(connection) as warm:
        assert "Ce qu'il faut à chacun" in client.get(url).content.decode()
    seats = [query["sql"] for query in warm if "championship_seat" in query["sql"]]
    assert seats == [], "a warm page reads no seat: its statuses and needs are cached"


@pytest.mark.parametrize("write", ["remaining_rounds", "new_round"])
def test_a_write_is_seen_by_the_next_read_of_the_needs(client, race_season, write):
    remaining, before = needs_of(client, race_season)
    assert (remaining, needs_of(client, race_season)[1]) == (2, before)  # cached, the same
    if write == "remaining_rounds":
        race_season.remaining_rounds = 3
        race_season.save()
    else:  # Alice wins a third round: she needs fewer points
        make_round(
            race_season, totals=EXAMPLE_TOTALS, date=datetime.date(2010, 10, 15), status=Round.HOMOLOGATED
        )
    remaining, after = needs_of(client, race_season)
    assert after != before
    cache.clear()
    assert needs_of(client, race_season) == (remaining, after)  # what a computation from scratch gives
    if write == "remaining_rounds":
        assert remaining == 3 and {need["remaining"] for need in after.values()} == {3}
    else:
        assert remaining == 2
