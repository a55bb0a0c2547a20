"""Two runs of the reminders at once, two confirmations of one new address at once, and a first
visit of « Mon compte » while another write commits (tests/notifications/races/), in a child
pytest on a file SQLite database (WAL, immediate transactions) and, when TEST_POSTGRES_URL is set,
on PostgreSQL in a database of their own next to that one; each a copy of the migrated database
(tests/databases.py)."""

import pytest

from tests.child_pytest import run_child_pytest
from tests.databases import sqlite_copy
from tests.postgres import side_database

RACES = "tests/notifications/races"


def run_races(database_url):
    run_child_pytest(RACES, {"DATABASE_URL": database_url, "TAROT_REMINDER_RACES": "1"}, "5 passed")


def test_two_runs_at_once_send_each_reminder_once_on_sqlite(tmp_path):
    run_races(sqlite_copy("migrated", tmp_path / "rappels.sqlite3"))


@pytest.fixture
def postgres_url():
    with side_database("reminders", template="migrated") as url:
        yield url


@pytest.mark.postgresql
def test_two_runs_at_once_send_each_reminder_once_on_postgresql(postgres_url):
    run_races(postgres_url)
