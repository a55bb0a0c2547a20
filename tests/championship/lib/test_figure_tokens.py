"""The token of a season's figures changes with every write of a row its figures are computed
from, whoever writes it (a service, the admin's save, a queryset update, SQL by hand, loaddata),
and only that season's (a player's row: every season's). Figures are stored only when computed
in a read snapshot, never from a transaction that wrote to the season (issue 20)."""

import datetime
import json
import logging

import pytest
from django.apps import apps
from django.core import serializers
from django.core.management import call_command
from django.db import connection, transaction
from simple_history.models import HistoricalChanges

from championship import services
from championship.lib import figure_tokens
from championship.lib.figure_tokens import UNCOUNTED, counted_tables, installed_triggers, read_tokens
from championship.models import Adjustment, ChampionshipLine, Deal, FigureToken, Report, Round, Seat
from championship.standings.lateness import default_as_of
from championship.standings.season import compute_standings, load_season, season_standings
from federation.models import Official, Player, Season
from federation.snapshot import in_read_snapshot, read_snapshot
from tests.championship.lib.test_read_cost import WRITES, figures, make_season, rounds_every_write_can_touch
from tests.factories import make_round, player


def token(season):
    return FigureToken.objects.get(season=season).token


def test_it_names_the_tables_the_triggers_write():
    assert FigureToken._meta.db_table == figure_tokens.TOKENS
    assert Round._meta.db_table == figure_tokens.ROUNDS
    assert Season._meta.db_table == figure_tokens.SEASONS


def test_it_counts_every_table_of_the_two_apps_but_the_history_and_those_it_lists():
    """A new model is counted as soon as it exists: nobody has to remember to."""
    counted = {table for table, _how, _column in counted_tables()}
    for label in ("federation", "championship"):
        for model in apps.get_app_config(label).get_models(include_auto_created=True):
            expected = not issubclass(model, HistoricalChanges) and model._meta.label not in UNCOUNTED
            assert (model._meta.db_table in counted) == expected, model._meta.label
    how = {table: how for table, how, _column in counted_tables()}
    assert how[Season._meta.db_table] == figure_tokens.SEASON
    assert how[ChampionshipLine._meta.db_table] == figure_tokens.SEASON_ID
    assert how[Official._meta.db_table] == figure_tokens.SEASON_ID
    assert {how[model._meta.db_table] for model in (Seat, Deal, Adjustment, Report)} == {
        figure_tokens.ROUND_ID
    }
    assert how[Player._meta.db_table] == figure_tokens.EVERY_SEASON


def test_it_installs_the_triggers_on_every_counted_table(db):
    assert installed_triggers() == {table for table, _how, _column in counted_tables()}


def test_it_installs_them_again_after_a_migration_rebuilt_a_table(db):
    """SQLite drops a table's triggers with the table; every `migrate` installs them again."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f'DROP TRIGGER "{figure_tokens.PREFIX}_{Seat._meta.db_table}_insert"')
        else:
            cursor.execute(f'DROP TRIGGER {figure_tokens.PREFIX} ON "{Seat._meta.db_table}"')
    assert Seat._meta.db_table not in installed_triggers()
    call_command("migrate", verbosity=0)
    assert installed_triggers() == {table for table, _how, _column in counted_tables()}


# --- every write changes the token: each in its own transaction --------------------------------


def sql_seat_total(season):
    seat = Seat.objects.filter(round__season=season).first()
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{Seat._meta.db_table}" SET total = total + 10 WHERE id = %s', [seat.pk])


def queryset_update(season):
    Deal.objects.filter(round__season=season, number=1).update(points=30)


def admin_save_of_a_round(season):
    round_ = Round.objects.filter(season=season).first()
    round_.place = "Ailleurs"
    round_.save()


def board_changed(season):
    Official.objects.create(season=season, player=player("Alice"), role=Official.SECRETARY)


def line_deleted(season):
    ChampionshipLine.objects.filter(season=season).first().delete()


def report_text(season):
    report = Report.objects.filter(round__season=season).first()
    Report.objects.filter(pk=report.pk).update(text="Un autre récit.")


EVERY_WRITE = {
    **WRITES,
    "sql_seat_total": sql_seat_total,
    "queryset_update": queryset_update,
    "admin_save_of_a_round": admin_save_of_a_round,
    "board_changed": board_changed,
    "line_deleted": line_deleted,
    "report_text": report_text,
}


@pytest.mark.parametrize("write", EVERY_WRITE)
def test_every_write_changes_its_season_token_and_no_other(transactional_db, write):
    season, other = make_season(2010), make_season(2012)
    rounds_every_write_can_touch(season)
    services.save_report(
        Round.objects.filter(season=season, status=Round.HOMOLOGATED).first(),
        "Récit.",
        author=player("Alice"),
        today=datetime.date(2010, 10, 2),
    )
    make_round(other, date=datetime.date(2012, 10, 1), status=Round.HOMOLOGATED)
    before, other_before = token(season), token(other)

    EVERY_WRITE[write](Season.objects.get(pk=season.pk))

    assert token(season) != before
    if write == "player_renamed":  # a name is shown in every season
        assert token(other) != other_before
    else:
        assert token(other) == other_before


def test_a_new_season_has_a_token_and_a_deleted_one_takes_it_away(transactional_db):
    season = make_season(2010)
    assert len(token(season)) == 32
    pk = season.pk
    season.delete()
    assert not FigureToken.objects.filter(season_id=pk).exists()


def test_tokens_are_random_so_that_two_databases_never_share_one(transactional_db):
    seasons = [make_season(2000 + index) for index in range(20)]
    assert len({token(season) for season in seasons}) == 20


def test_loaddata_gives_a_new_token_even_with_the_tokens_in_the_fixture(transactional_db, tmp_path):
    """A fixture's rows may not be the state its tokens were computed for: loaded, they get new
    ones."""
    season = make_season(2010)
    make_round(season, date=datetime.date(2010, 10, 1), status=Round.HOMOLOGATED)
    fixture = tmp_path / "saison.json"
    models = [Player, Season, Round, Seat, Deal, FigureToken]
    fixture.write_text(
        serializers.serialize("json", [row for model in models for row in model.objects.all()]),
        encoding="utf-8",
    )
    dumped = json.loads(fixture.read_text(encoding="utf-8"))
    dumped_token = next(
        row["fields"]["token"] for row in dumped if row["model"] == "championship.figuretoken"
    )
    call_command("flush", interactive=False, verbosity=0)
    call_command("loaddata", str(fixture), verbosity=0)
    assert token(Season.objects.get()) != dumped_token


# --- what is stored ---------------------------------------------------------------------------------


@pytest.fixture
def computations(caplog):
    caplog.set_level(logging.INFO, logger="championship.figures")

    def count(kind="standings"):
        return sum(1 for record in caplog.records if record.getMessage().startswith(f"calcul {kind} "))

    return count


def test_it_stores_the_figures_computed_in_a_read_snapshot(transactional_db, computations):
    season = make_season(2010)
    rounds_every_write_can_touch(season)
    for _ in range(3):
        with read_snapshot():
            assert in_read_snapshot()
            season_standings(season)
    assert computations() == 1


def test_it_stores_nothing_computed_outside_a_snapshot(transactional_db, computations):
    season = make_season(2010)
    rounds_every_write_can_touch(season)
    assert not in_read_snapshot()
    season_standings(season)
    season_standings(season)
    assert computations() == 2


def test_it_stores_nothing_computed_by_a_transaction_that_wrote_to_the_season(transactional_db, computations):
    """The write's transaction may go on writing after the read, or roll back: what it computed
    is never served to anyone."""
    season = make_season(2010)
    rounds_every_write_can_touch(season)
    round_ = Round.objects.filter(season=season, status=Round.HOMOLOGATED).first()
    with read_snapshot():
        services.add_adjustment(round_, player("Émile"), "absence", reason="r")
        during = season_standings(season)
        services.add_adjustment(round_, player("Alice"), "absence", reason="r")
    with read_snapshot():
        after = season_standings(season)
    assert computations() == 2
    fresh = compute_standings(season, default_as_of(season), load_season(season))
    assert figures(after) == figures(fresh) != figures(during)


def test_postgresql_tells_which_seasons_the_transaction_wrote(transactional_db):
    season, other = make_season(2010), make_season(2012)
    with transaction.atomic():
        assert read_tokens([season.pk, other.pk])[season.pk][1] is False
        season.is_open = False
        season.save()
        changed = read_tokens([season.pk, other.pk])
    if connection.vendor == "postgresql":
        assert changed[season.pk][1] is True
    else:  # every row written changes the token again: nothing to tell
        assert changed[season.pk][1] is False
    assert changed[other.pk][1] is False
    assert read_tokens([season.pk])[season.pk][1] is False  # committed: nothing pending
