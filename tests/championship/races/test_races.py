"""Concurrent writes, each in its own thread and database connection, against a shared database
(run by `tests/championship/test_concurrency.py`, on PostgreSQL and on a file SQLite database).

The audit's failures, each proved gone: a homologation racing a bonus never leaves a round
without its championship lines; the same add-deal form sent 20 times at once stores one deal;
two edits read at the same version: the second is refused, nothing is lost unseen; the same for
a report; and no writer ever fails with « database is locked ».
"""

import threading
import uuid
from decimal import Decimal

import pytest
from django.db import connection

from championship import services
from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, SubmissionKey
from championship.rounds import data as round_data
from championship.services import RoundError
from tests.factories import fifth_deal, make_round, player

from .conftest import RACES

pytestmark = [
    pytest.mark.skipif(not RACES, reason="lancé par tests/championship/test_concurrency.py"),
    pytest.mark.django_db(transaction=True),
]

ROUNDS = 30  # as many as the audit raced


def race(*writers):
    """Run each `writer(ready)` in its own thread; `ready()` waits until all are ready, so that
    what follows it runs at the same moment. Returns per writer ("ok", value), (code, message)
    for a RoundError, or ("crash", repr) for anything else (« database is locked » included)."""
    barrier = threading.Barrier(len(writers), timeout=60)
    results = [None] * len(writers)

    def run(index, writer):
        try:
            results[index] = ("ok", writer(barrier.wait))
        except RoundError as error:
            results[index] = (error.code, error.message)
        except Exception as error:  # noqa: BLE001 — the test reports it
            results[index] = ("crash", repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, writer)) for i, writer in enumerate(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert all(result is not None for result in results), "un écrivain n'a pas fini"
    crashes = [result for result in results if result[0] == "crash"]
    assert crashes == [], crashes
    return results


def lines_of(round_):
    return list(
        ChampionshipLine.objects.filter(round=round_)
        .order_by("order")
        .values_list("player__name", "code", "points", "label")
    )


def test_it_uses_the_database_it_was_given():
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            assert cursor.fetchone()[0] == "wal"
        assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    else:
        assert connection.vendor == "postgresql"


def test_homologating_while_a_bonus_is_added_leaves_the_right_championship_lines(
    season, president, secretary
):
    outcomes = []
    for number in range(1, ROUNDS + 1):
        round_ = make_round(season, number=number, status=Round.SUBMITTED)

        def homologate(ready, pk=round_.pk):
            seen = Round.objects.get(pk=pk)  # the board's page, read while the round is submitted
            ready()
            return services.homologate_round(seen, president.user)

        def add_bonus(ready, pk=round_.pk):
            seen = Round.objects.get(pk=pk)  # the secretary's page, read while submitted too
            ready()
            return services.add_adjustment(seen, player("Émile"), "retard", entered_by=secretary.user)

        results = race(homologate, add_bonus)
        round_.refresh_from_db()
        assert round_.status == Round.HOMOLOGATED
        assert results[0][0] == "ok"
        # The bonus came first, or it was refused: the round was homologated, only the board
        # corrects it now, with a motif.
        assert results[1][0] in ("ok", "reason"), results[1]
        stored = lines_of(round_)
        assert {name for name, code, *_ in stored if code == "rank"} == {
            "Alice",
            "Bruno",
            "Chloé",
            "David",
            "Émile",
        }
        has_bonus = Adjustment.objects.filter(round=round_).exists()
        assert has_bonus == (results[1][0] == "ok")
        assert any(code == "retard" for _name, code, *_ in stored) == has_bonus
        services.rescore_round(round_)  # what the stored inputs give, computed again alone
        assert lines_of(round_) == stored
        outcomes.append(results[1][0])
    print(f"bonus avant l'homologation : {outcomes.count('ok')}, refusé après : {outcomes.count('reason')}")


def test_the_same_deal_sent_twenty_times_at_once_is_stored_once(season, secretary):
    round_ = make_round(season)
    key = uuid.uuid4()
    fields = fifth_deal()

    def send(ready):
        seen = Round.objects.get(pk=round_.pk)
        ready()
        return services.add_deal(seen, fields, number=5, key=key, user=secretary.user).number

    results = race(*[send] * 20)
    assert sorted(code for code, _value in results) == ["duplicate"] * 19 + ["ok"]
    assert round_.deals.count() == 5 and SubmissionKey.objects.filter(key=key).count() == 1


def test_two_edits_of_one_deal_read_at_the_same_version_the_second_is_refused(season, secretary, president):
    for attempt in range(5):
        round_ = make_round(season, number=attempt + 1)
        read_at = round_.version

        def edit(points, user, round_=round_, read_at=read_at):
            def writer(ready):
                deal = Deal.objects.get(round=round_, number=4)
                fields = {name: getattr(deal, name) for name in round_data.DEAL_FIELDS}
                ready()
                return services.change_deal(
                    deal, {**fields, "points": Decimal(points)}, version=read_at, user=user
                )

            return writer

        results = race(edit(52, secretary.user), edit(60, president.user))
        codes = sorted(code for code, _value in results)
        assert codes == ["ok", "stale"], results
        winner = 52 if results[0][0] == "ok" else 60
        assert round_.deals.get(number=4).points == Decimal(winner)
        refused = next(message for code, message in results if code == "stale")
        assert "donne 4 modifiée par" in refused


def test_a_report_edited_by_its_author_and_the_board_at_once_loses_nothing_unseen(season, president):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    services.save_report(round_, "Premier jet.", author=player("Alice"), version=0)

    def write(text, user):
        def writer(ready):
            ready()
            return services.save_report(round_, text, version=1, user=user).text

        return writer

    results = race(write("Texte de l'auteur.", None), write("Texte de la Direction.", president.user))
    assert sorted(code for code, _value in results) == ["ok", "stale"], results
    stored = Report.objects.get(round=round_)
    assert stored.version == 2 and stored.text == next(value for code, value in results if code == "ok")
