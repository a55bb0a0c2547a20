import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password, get_hasher
from django.core.management import call_command
from django.urls import reverse

from championship.cup.state import cup_state
from championship.management.commands.demo import DEMO_PASSWORD, current_round_dates, current_season_dates
from championship.models import ChampionshipLine, Deal, Report, Round
from championship.reports.due import reports_due
from championship.rounds.display import round_display
from championship.standings.season import season_standings
from federation.models import Official, Player, Season

DEMO_MODELS = (Player, Season, Official, Round, Deal, Report, ChampionshipLine)


def counts():
    return [model.objects.count() for model in DEMO_MODELS]


def test_it_builds_the_demo_twice_without_duplicating_anything(db, capsys):
    call_command("demo")
    first = capsys.readouterr().out
    before = counts()
    call_command("demo")
    capsys.readouterr()
    assert counts() == before
    assert before[0] == 12
    assert "identifiant « bruno »" in first and "tarot-biere" in first
    assert Official.objects.filter(role=Official.PRESIDENT, player__name="Bruno").count() == 2


def test_it_hashes_the_shared_demo_password_once(db, monkeypatch):
    """Every demo account has the one published password: it is hashed once, not once an account
    (with the site's hasher, a few tenths of a second each for a dozen accounts). The suite's
    hasher (tests/conftest.py) is counted; the demo uses whichever the settings name."""
    hasher = type(get_hasher())
    encoded, real_encode = [], hasher.encode

    def counted(self, *args, **kwargs):
        encoded.append(args)
        return real_encode(self, *args, **kwargs)

    monkeypatch.setattr(hasher, "encode", counted)
    call_command("demo", stdout=io.StringIO())
    assert len(encoded) == 1
    passwords = set(get_user_model().objects.values_list("password", flat=True))
    assert len(passwords) == 1 and get_user_model().objects.count() == 12
    assert check_password(DEMO_PASSWORD, passwords.pop())


def test_it_gives_the_finished_demo_season_a_whole_cup(db, demo):
    past = Season.objects.get(name="2010-2011")
    assert not past.is_open
    standings = season_standings(past)
    assert len(standings.ranked) >= 10
    state = cup_state(past)
    assert len(state.seeds) == 10 and len(state.finalists) == 5
    assert state.champion is not None
    assert past.rounds.filter(stage=Round.FINAL, status=Round.HOMOLOGATED).exists()


def test_it_shows_the_current_demo_season_in_progress(db, demo, client):
    current = Season.objects.current()
    assert current.is_open and current.name != "2010-2011"
    assert current.rounds.filter(status=Round.SUBMITTED).count() == 1
    assert reports_due(current)
    html = client.get(reverse("federation:home")).content.decode()
    assert f"Saison {current.name}" in html
    assert "Comptes-rendus attendus" in html
    assert "Champion du Monde 2010-2011" in html
    # its round awaiting homologation was checked against a paper sheet that forgot a deal
    pending = current.rounds.get(status=Round.SUBMITTED)
    check = round_display(pending).paper
    assert check.entered and not check.agrees
    forgotten = max(deal.number for deal in pending.deals.all() if any(deal.shares.values()))
    assert all(forgotten in row.suspects for row in check.rows if row.gap)


@pytest.mark.parametrize(
    ("today", "name"),
    [
        (datetime.date(2027, 9, 3), "2027-2028"),  # early September: the season starts sooner
        (datetime.date(2027, 11, 29), "2027-2028"),
        (datetime.date(2028, 3, 1), "2027-2028"),
        (datetime.date(2028, 8, 1), "2027-2028"),  # summer break: the season ends later
    ],
)
def test_it_fits_the_current_demo_season_around_its_rounds_whatever_the_day(today, name):
    season_name, start, end = current_season_dates(today)
    dates = current_round_dates(today)
    assert season_name == name
    assert len(dates) == 10
    assert start <= dates[0] and dates[-1] < today <= end
