"""The play-off statuses count the regular nights still on the calendar (gamenights.schedule),
no longer a number typed by hand; the data migration turns such a number into nights. A night
whose table is on seats only those who said « je viens » (docs/regles.md §6.4)."""

import datetime
import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import reverse

from championship.cup.outlook import remaining_rounds, season_statuses
from championship.models import Round
from championship.standings.season import season_standings
from gamenights import schedule, services
from gamenights.models import GameNight
from scoring.outlook.season import ELIMINATED, IN_CONTENTION
from tests.championship.cup.cup_helpers import leaders_and_trailers, names, play_totals

pytestmark = pytest.mark.django_db
TODAY = datetime.date(2011, 3, 1)


@pytest.fixture(autouse=True)
def today_in_the_season(monkeypatch):
    monkeypatch.setattr(schedule.timezone, "localdate", lambda *args: TODAY)


def statuses(season):
    return {player.name: status for player, status in season_statuses(season).items()}


def nights(season, count, start=TODAY):
    return [
        services.schedule_night(season, date=start + datetime.timedelta(days=7 * i)) for i in range(count)
    ]


def test_without_any_night_the_season_keeps_its_typed_count(season):
    season.remaining_rounds = 3
    season.save()
    assert schedule.remaining_regular_rounds(season) == 3


def test_the_statuses_follow_the_calendar(season):
    leaders_and_trailers(season, 10, 1)
    season.remaining_rounds = 40  # ignored as soon as the season has a night
    season.save()
    scheduled = nights(season, 6)
    # Not regular rounds: play-off nights, written here as the cup's scheduler writes them once
    # the seeding is known (which this season's calendar does not let it be yet).
    for week in (1, 2):
        GameNight.objects.create(
            season=season, date=TODAY + datetime.timedelta(weeks=week), stage=GameNight.PLAYOFF, table="A"
        )
    services.schedule_night(season, date=TODAY - datetime.timedelta(days=1))  # past: not to come
    assert schedule.remaining_regular_rounds(season) == 6
    assert statuses(season)["S11"].code == IN_CONTENTION  # 6 rounds × 30 points can close the gap

    for night in scheduled[1:]:
        services.cancel_night(night, reason="salle fermée")
    assert schedule.remaining_regular_rounds(season) == 1
    eliminated = statuses(season)["S11"]
    assert eliminated.code == ELIMINATED
    assert eliminated.prospect.need.most == 10  # one round left to him: a win's rank points at most


def test_a_confirmed_night_seats_only_those_who_come_at_as_many_tables_as_they_fill(season, member):
    from federation.models import Player  # noqa: PLC0415

    leaders_and_trailers(season, 10, 1)
    [open_night, full_night] = nights(season, 2)
    comers = [Player.objects.get(name=name) for name in names(1, 2, 3, 4, 5, 6, 7, 8, 11)]
    for player in comers:
        services.answer(full_night, player, "yes", now=datetime.datetime(2011, 3, 1, 12, tzinfo=datetime.UTC))
    found = schedule.coming_rounds(season)
    assert [(r.size, r.seats, r.night) for r in found] == [
        (None, None, open_night.pk),
        (5, frozenset(p.pk for p in comers), full_night.pk),
        (4, frozenset(p.pk for p in comers), full_night.pk),
    ]
    # S11 comes to the second night: he may sit at one of its two tables, not at both
    assert statuses(season)["S11"].prospect.need.most == 20


def test_a_night_whose_round_is_entered_counts_once_as_a_round_to_homologate(season):
    leaders_and_trailers(season, 10, 1)
    [night] = nights(season, 1)
    play_totals(season, names(1, 2, 3, 11), status=Round.SUBMITTED, date=night.date)
    assert schedule.remaining_regular_rounds(season) == 0
    assert remaining_rounds(season, season_standings(season)) == 1  # the submitted round


def test_the_migration_turns_the_count_into_tentative_nights(season, monkeypatch):
    migration = importlib.import_module("gamenights.migrations.0002_nights_from_remaining_rounds")
    monkeypatch.setattr(migration.timezone, "localdate", lambda *args: TODAY)
    play_totals(season, names(1, 2, 3, 4), date=datetime.date(2011, 3, 4))
    season.remaining_rounds = 3
    season.save()
    migration.nights_from_counts(apps, None)
    created = list(GameNight.objects.filter(season=season))
    assert [n.date for n in created] == [
        datetime.date(2011, 3, 11),
        datetime.date(2011, 3, 18),
        datetime.date(2011, 3, 25),
    ]
    assert all(n.tentative and n.stage == "regular" for n in created)
    season.refresh_from_db()
    assert season.remaining_rounds == 0
    assert schedule.remaining_regular_rounds(season) == 3
    migration.counts_from_nights(apps, None)
    season.refresh_from_db()
    assert (season.remaining_rounds, GameNight.objects.count()) == (3, 0)


def test_the_admin_says_the_typed_count_serves_only_a_season_without_nights(client, season):
    """The count typed in the season's admin decides the play-off statuses only while the season
    has no night on its calendar (`schedule.remaining_regular_rounds`): its label and help say so,
    no longer « sert à décider … qui est qualifié »."""
    client.force_login(get_user_model().objects.create_superuser(username="root", password="secret-pass-1"))
    html = client.get(reverse("admin:federation_season_change", args=[season.pk])).content.decode()
    assert "Sert à décider" not in html
    assert "sans calendrier" in html
    assert "Dès la première soirée programmée, seul le calendrier compte" in html
    listing = client.get(reverse("admin:federation_season_changelist")).content.decode()
    assert "sans calendrier" in listing
