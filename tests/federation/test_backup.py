"""`manage.py backup` and `manage.py restore`: a restore gives back every output of the site and
every row of every table, timestamps to the microsecond, on SQLite and (when TEST_POSTGRES_URL is
set, see .ci/run) on PostgreSQL.

Each test runs the commands in a child process against its own database, as an administrator
would; the PostgreSQL test works in a database of its own, next to the one of TEST_POSTGRES_URL.
The round trips start from a copy of the demo's database (tests/databases.py): `manage.py demo`
is not what they test.
"""

import json
import os
import re
import sqlite3
import stat
import subprocess
import sys
from contextlib import closing, contextmanager
from io import StringIO
from pathlib import Path

import pytest

from tests.databases import sqlite_copy
from tests.postgres import side_database

ROOT = Path(__file__).resolve().parents[2]
needs_postgresql = pytest.mark.postgresql


def manage(database_url, *args, stdin=None, env=None, ok=True):
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": "t-" + "x" * 40,
        **(env or {}),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if ok:
        assert result.returncode == 0, result.stderr
    return result


# --- what must come back -------------------------------------------------------------------------


def print_snapshot():
    """Run by `manage.py shell`: every machine-readable output of the site (the sheet of every
    round, the standings and the cup of every season) and every row of every table, each value
    by its repr (a datetime with its microseconds), as JSON on stdout."""
    from django.apps import apps
    from django.core.management import call_command
    from django.test import Client

    from championship.models import Round
    from federation.models import Season

    def output(*args):
        buffer = StringIO()
        call_command(*args, stdout=buffer)
        return buffer.getvalue()

    outputs = {}
    for round_ in Round.objects.select_related("season").order_by("season__name", "stage", "table", "number"):
        args = ["export_round", round_.season.name, str(round_.number), "--stage", round_.stage]
        args += ["--table", round_.table] if round_.table else []
        outputs[" ".join(args)] = output(*args)
    for season in Season.objects.order_by("name"):
        for args in (
            ["standings", season.name, "--format", "json"],
            ["cup", season.name, "--format", "json"],
        ):
            outputs[" ".join(args)] = output(*args)
        for page in (f"/saisons/{season.name}/", f"/saisons/{season.name}/coupe/qualifications/"):
            response = Client().get(page)
            assert response.status_code == 200, page
            outputs[page] = re.findall(r"<table.*?</table>", response.content.decode(), re.S)
    tables, history_dates = {}, []
    for model in apps.get_models(include_auto_created=True):
        rows = list(model._base_manager.order_by("pk").values_list())
        tables[model._meta.db_table] = [[repr(value) for value in row] for row in rows]
        if model._meta.db_table.endswith(("_historicalround", "_historicalseat", "_historicalreport")):
            history_dates += model._base_manager.values_list("history_date", flat=True)
    microseconds = [date.microsecond for date in history_dates]
    print(json.dumps({"outputs": outputs, "tables": tables, "history_microseconds": microseconds}))


def snapshot(database_url, env=None, before="", after=""):
    """The snapshot of `database_url`, read by a process of its own that runs the code `before`
    first (the changes of a site going on) and `after` last."""
    code = f"{before}\nfrom tests.federation.test_backup import print_snapshot; print_snapshot()\n{after}"
    return json.loads(manage(database_url, "shell", "-v0", "-c", code, env=env).stdout)


# Changes after the backup: a report and a round's history deleted, a total and a date changed,
# a round homologated (its championship points, a new history row), a player added.
CHANGES = """
import datetime
from championship.models import Report, Round, Seat
from championship.services import homologate_round
from federation.models import Player
Report.objects.order_by("pk").first().delete()
Round.history.filter(id=Round.objects.order_by("pk").first().pk).delete()
Seat.objects.filter(pk=Seat.objects.order_by("pk").first().pk).update(total=12345)
Round.objects.filter(pk=Round.objects.order_by("-pk").first().pk).update(date=datetime.date(2000, 1, 1))
homologate_round(Round.objects.get(status=Round.SUBMITTED))
Player.objects.create(name="Arrivé après la sauvegarde")
"""


def round_trip(database_url, backup_file, writing):
    """On the demo's database: backup (while `writing()` holds an uncommitted write), changes,
    restore: the same outputs and rows as at the backup. Every command shares one file cache, as
    the processes of a site do: the figures cached between the backup and the restore are never
    shown after it."""
    cache = {"CACHE_URL": f"file://{backup_file.parent / 'cache'}"}
    before = snapshot(database_url, cache)
    assert before["outputs"] and before["history_microseconds"]
    # The history's timestamps carry microseconds: a restore cut to the millisecond would show.
    assert any(microsecond % 1000 for microsecond in before["history_microseconds"])

    with writing():
        result = manage(database_url, "backup", str(backup_file), env=cache)
    assert "sauvegardée" in result.stdout
    assert stat.S_IMODE(backup_file.stat().st_mode) == 0o600

    changed = snapshot(database_url, cache, before=CHANGES)
    assert changed["outputs"] != before["outputs"]
    assert changed["tables"] != before["tables"]

    refused = manage(database_url, "restore", str(backup_file), stdin="non\n", env=cache)
    assert "remplace TOUT le contenu" in refused.stdout and "Restauration annulée" in refused.stdout
    assert snapshot(database_url, cache) == changed

    result = manage(database_url, "restore", str(backup_file), stdin="oui\n", env=cache)
    assert "restaurée" in result.stdout
    # Then the site goes on from the restored state (checked below: new rows get new ids).
    after = snapshot(database_url, cache, after=CHANGES)
    for key, output in before["outputs"].items():
        assert after["outputs"][key] == output, key
    assert after["outputs"].keys() == before["outputs"].keys()
    for table, rows in before["tables"].items():
        assert after["tables"][table] == rows, table
    assert after == before

    manage(database_url, "restore", str(backup_file), "--noinput", env=cache)
    assert snapshot(database_url, cache) == before


def test_it_restores_every_output_and_every_timestamp_from_a_sqlite_backup(tmp_path):
    database = tmp_path / "site.sqlite3"
    url = sqlite_copy("demo", database)

    @contextmanager
    def writing():
        """Another connection in the middle of a write: the backup neither waits nor takes it."""
        with closing(sqlite3.connect(database, isolation_level=None)) as writer:
            writer.execute("BEGIN IMMEDIATE")
            writer.execute(
                "INSERT INTO federation_player (name, nickname, active) VALUES ('Pas encore', '', 1)"
            )
            yield
            writer.execute("COMMIT")

    round_trip(url, tmp_path / "sauvegarde.sqlite3", writing)


@pytest.fixture
def postgres_url():
    """A copy of the demo's database on the server of TEST_POSTGRES_URL (a restore drops every
    table, so it must not share one with the other tests)."""
    with side_database("backup", template="demo") as url:
        yield url


@needs_postgresql
def test_it_restores_every_output_and_every_timestamp_from_a_postgresql_backup(tmp_path, postgres_url):
    import psycopg

    @contextmanager
    def writing():
        with psycopg.connect(postgres_url) as writer:
            writer.execute(
                "INSERT INTO federation_player (name, nickname, active) VALUES ('Pas encore', '', true)"
            )
            yield
            writer.commit()

    round_trip(postgres_url, tmp_path / "sauvegarde.dump", writing)


# --- refusals -------------------------------------------------------------------------------------

# No server listens there: the commands must refuse before connecting.
UNREACHABLE_POSTGRES = "postgres://tarot:secret@127.0.0.1:9/tarot"


def sqlite_file(path, *tables):
    with closing(sqlite3.connect(path)) as database:
        for table in tables or ["anything"]:
            database.execute(f"CREATE TABLE {table} (id integer)")
    return path


def test_it_refuses_a_postgresql_backup_on_a_sqlite_database(tmp_path):
    database = tmp_path / "site.sqlite3"
    dump = tmp_path / "sauvegarde.dump"
    dump.write_bytes(b"PGDMP\x01\x0e\x00" + bytes(64))
    result = manage(f"sqlite:///{database}", "restore", str(dump), "--noinput", ok=False)
    assert result.returncode == 1
    assert (
        "est une sauvegarde PostgreSQL, mais la base configurée est SQLite : rien n'est restauré"
        in result.stderr
    )
    assert not database.exists()


def test_it_refuses_a_sqlite_backup_on_a_postgresql_database(tmp_path):
    backup = sqlite_file(tmp_path / "sauvegarde.sqlite3", "django_migrations")
    result = manage(UNREACHABLE_POSTGRES, "restore", str(backup), ok=False)
    assert result.returncode == 1
    assert (
        "est une sauvegarde SQLite, mais la base configurée est PostgreSQL : rien n'est restauré"
        in result.stderr
    )
    assert "Tapez" not in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"-- PostgreSQL database dump\nCREATE TABLE", "n'est pas une sauvegarde de la base"),
        (None, "pas une sauvegarde du site (aucune table django_migrations)"),
        ("missing", "Fichier introuvable"),
    ],
)
def test_it_refuses_a_file_that_is_no_backup_of_the_site(tmp_path, content, message):
    database = sqlite_file(tmp_path / "site.sqlite3", "django_migrations", "federation_player")
    url = f"sqlite:///{database}"
    before = database.read_bytes()
    candidate = tmp_path / "candidat"
    if content is None:
        sqlite_file(candidate)
    elif content != "missing":
        candidate.write_bytes(content)
    result = manage(url, "restore", str(candidate), "--noinput", ok=False)
    assert result.returncode == 1 and message in result.stderr
    assert database.read_bytes() == before


def test_it_refuses_to_write_a_backup_over_the_database_itself(tmp_path):
    database = sqlite_file(tmp_path / "site.sqlite3", "django_migrations")
    url = f"sqlite:///{database}"
    before = database.read_bytes()
    result = manage(url, "backup", str(database), ok=False)
    assert result.returncode == 1 and "est la base elle-même" in result.stderr
    result = manage(url, "restore", str(database), "--noinput", ok=False)
    assert result.returncode == 1 and "est la base elle-même" in result.stderr
    assert database.read_bytes() == before


# --- how pg_dump and pg_restore are called --------------------------------------------------------

FAKE_PG_PROGRAM = """#!/bin/sh
# Records how it was called, then behaves like the real program enough for the command.
printf '%s\\n' "$@" > "$(dirname "$0")/$(basename "$0").args"
printf '%s' "$PGPASSWORD" > "$(dirname "$0")/$(basename "$0").password"
for argument in "$@"; do
  case "$argument" in --file=*) printf 'PGDMP' > "${argument#--file=}";; esac
done
exit "${FAKE_EXIT:-0}"
"""


@pytest.fixture
def fake_pg(tmp_path):
    """A folder with stand-ins for pg_dump and pg_restore, first on the PATH."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for program in ("pg_dump", "pg_restore"):
        path = folder / program
        path.write_text(FAKE_PG_PROGRAM)
        path.chmod(0o755)
    return folder


def fake_env(folder, **extra):
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}", **extra}


def test_it_connects_pg_dump_as_the_settings_say_with_the_password_in_the_environment(tmp_path, fake_pg):
    url = "postgres://tarot:s3cr%C3%A8t@db.example.org:5433/federation"
    backup = tmp_path / "sauvegarde.dump"
    result = manage(url, "backup", str(backup), env=fake_env(fake_pg))
    arguments = (fake_pg / "pg_dump.args").read_text().splitlines()
    assert "--format=custom" in arguments
    assert {"--username=tarot", "--host=db.example.org", "--port=5433", "--dbname=federation"} <= set(
        arguments
    )
    assert "--no-password" in arguments
    assert not any("s3cr" in argument for argument in arguments)
    assert (fake_pg / "pg_dump.password").read_text() == "s3crèt"
    assert backup.read_bytes() == b"PGDMP"
    assert "PostgreSQL « federation » sur db.example.org:5433 sauvegardée" in result.stdout


def test_it_restores_with_pg_restore_in_one_transaction_with_the_password_in_the_environment(
    tmp_path, fake_pg
):
    url = "postgres://tarot:s3cret@127.0.0.1:9/federation"  # no server: only pg_restore runs
    dump = tmp_path / "sauvegarde.dump"
    dump.write_bytes(b"PGDMP")
    result = manage(url, "restore", str(dump), "--noinput", env=fake_env(fake_pg), ok=False)
    arguments = (fake_pg / "pg_restore.args").read_text().splitlines()
    expected = {"--clean", "--if-exists", "--single-transaction", "--exit-on-error", "--dbname=federation"}
    expected |= {"--username=tarot", "--host=127.0.0.1", "--port=9"}
    assert expected <= set(arguments)
    assert arguments[-1] == str(dump)
    assert not any("s3cret" in argument for argument in arguments)
    assert (fake_pg / "pg_restore.password").read_text() == "s3cret"
    assert "restaurée" in result.stdout  # then checking migrations fails: no such server


def test_it_leaves_no_file_behind_when_pg_dump_fails(tmp_path, fake_pg):
    backup = tmp_path / "sauvegarde.dump"
    result = manage(
        UNREACHABLE_POSTGRES, "backup", str(backup), env=fake_env(fake_pg, FAKE_EXIT="1"), ok=False
    )
    assert result.returncode == 1 and "pg_dump a échoué (code 1)" in result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bin"]


def test_it_says_how_to_install_pg_dump_when_it_is_missing(tmp_path):
    result = manage(
        UNREACHABLE_POSTGRES, "backup", str(tmp_path / "x.dump"), env={"PATH": str(tmp_path)}, ok=False
    )
    assert result.returncode == 1
    assert "pg_dump introuvable : installez le client PostgreSQL" in result.stderr


def test_it_asks_for_migrate_after_restoring_a_backup_older_than_the_code(tmp_path):
    database = tmp_path / "site.sqlite3"
    url = f"sqlite:///{database}"
    manage(url, "migrate", "contenttypes", "-v0")  # an old site: only the first migrations
    manage(url, "backup", str(tmp_path / "ancienne.sqlite3"))
    result = manage(url, "restore", str(tmp_path / "ancienne.sqlite3"), "--noinput")
    assert "restaurée" in result.stdout
    assert "lancez « python manage.py migrate »" in result.stdout


@pytest.mark.parametrize("answer", ["", "non\n", "OUI, enfin non\n"])
def test_it_restores_nothing_without_a_yes(tmp_path, answer):
    database = sqlite_file(tmp_path / "site.sqlite3", "django_migrations", "federation_player")
    backup = sqlite_file(tmp_path / "sauvegarde.sqlite3", "django_migrations")
    before = database.read_bytes()
    result = manage(f"sqlite:///{database}", "restore", str(backup), stdin=answer)
    assert "Tapez « oui » pour continuer" in result.stdout
    assert "Restauration annulée : la base n'a pas changé." in result.stdout
    assert database.read_bytes() == before
