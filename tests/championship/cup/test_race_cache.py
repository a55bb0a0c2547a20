"""The qualification page's statuses and outlook are computed once per state of the season and of
its calendar (`championship.cup.outlook.season_race`, one `scoring.outlook.season.prospects` pass
for both) and are never stale: a write, once committed, is seen by the next read, and so is an
answer to a night, which changes no figure of the season but who may sit at its table."""

import datetime
import logging

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from championship import services as round_services
from championship.cup.outlook import contenders, playable, season_outlook, season_race, status_rows
from championship.models import Round
from championship.standings.season import season_standings
from federation.models import Player, Season
from federation.snapshot import read_snapshot
from gamenights import schedule, services
from scoring.outlook import season as outlook_module
from scoring.outlook.season import Rules, forget, prospects
from scoring.rulebook import default_rulebook_text
from tests.factories import EXAMPLE_DEALS, EXAMPLE_TOTALS, fifth_deal, make_round

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
    return data["remaining"], {player["player"]: player for player in data["players"]}


def test_the_statuses_and_the_needs_come_from_one_computation(race_season):
    with read_snapshot():
        standings = season_standings(race_season)
        race = season_race(race_season, standings)
        outlook = season_outlook(race_season, standings)
        players, _current = contenders(race_season, standings, outlook)
    found = prospects(players, playable(outlook.coming, players), Rules.of(race_season.rulebook))
    assert [row.prospect for row in race.rows] == [found[player.name] for player in players]
    assert [row.status.code for row in race.rows] == [found[player.name].certain.status for player in players]
    assert {row.player.name: row.status for row in race.rows} == {
        row.player.name: row.status for row in status_rows(race_season, standings)
    }


def test_the_qualification_page_is_read_from_the_cache_when_warm(client, race_season):
    url = reverse("championship:cup_status", args=[race_season.name])
    assert "Le détail de chacun" in client.get(url).content.decode()
    with CaptureQueriesContext(connection) as warm:
        assert "Le détail de chacun" in client.get(url).content.decode()
    seats = [query["sql"] for query in warm if "championship_seat" in query["sql"]]
    assert seats == [], "a warm page reads no seat: its statuses and needs are cached"


def test_an_answer_that_seats_a_night_is_seen_by_the_next_read(client, race_season, monkeypatch):
    """Four of the five players say « je viens » to the one night left: the table is on, and the
    fifth can no longer play; the figures' token does not change, the calendar's digest does."""
    monkeypatch.setattr(schedule.timezone, "localdate", lambda *args: datetime.date(2011, 3, 1))
    night = services.schedule_night(race_season, date=datetime.date(2011, 3, 8))
    remaining, before = needs_of(client, race_season)
    assert remaining == 1 and before["Émile"]["need"]["most"] == 10  # he may still win it
    before_the_night = datetime.datetime(2011, 3, 1, 12, tzinfo=datetime.UTC)
    for name in ("Alice", "Bruno", "Chloé", "David"):
        services.answer(night, Player.objects.get(name=name), "yes", now=before_the_night)
    remaining, after = needs_of(client, race_season)
    assert remaining == 1 and after["Émile"]["need"]["most"] == 0  # no seat for him
    assert after["Alice"]["need"]["most"] == 10


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
    forget()  # nor the answers the process remembers
    assert needs_of(client, race_season) == (remaining, after)  # what a computation from scratch gives
    if write == "remaining_rounds":
        assert remaining == 3 and after["Alice"]["need"]["most"] == 30  # three wins at most
    else:
        assert remaining == 2


def test_a_deal_entered_is_read_anew_without_a_new_search(client, race_season, monkeypatch, caplog):
    """A deal entered in a round not yet homologated changes the figures' token: the page is
    computed again, from the database; but nothing the race is computed from (points, rounds,
    seats, calendar) has changed: its answers are the process's, not a new search."""
    forget()
    searches = []
    search = outlook_module._prospects
    monkeypatch.setattr(outlook_module, "_prospects", lambda *args: searches.append(args) or search(*args))
    draft = make_round(race_season, deals=EXAMPLE_DEALS[:4], date=datetime.date(2010, 10, 22))
    caplog.set_level(logging.INFO, logger="championship.figures")
    before = needs_of(client, race_season)
    round_services.add_deal(Round.objects.get(pk=draft.pk), fifth_deal(), number=5)
    after = needs_of(client, race_season)
    races = [record for record in caplog.records if "cup:race" in record.getMessage()]
    assert len(races) == 2, "the deal changed the token: the race is computed again"
    assert after == before and len(searches) == 1
    forget()
    cache.clear()
    assert needs_of(client, race_season) == before and len(searches) == 2  # what a search gives
