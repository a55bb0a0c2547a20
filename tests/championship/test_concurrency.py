"""Concurrent writes and reads on a real shared database: the races of `tests/championship/races/`
run in a child pytest, their threads each on its own connection, on a file SQLite database (WAL,
immediate transactions) and, when TEST_POSTGRES_URL is set (CI, see .ci/run), on PostgreSQL in a
database of their own next to that one, with the file cache of one machine; the figure races
also with Redis when TEST_REDIS_URL is set. See the races' modules for what each proves.

Each database starts as a copy of the migrated one (tests/databases.py): the races' own `migrate`
then has nothing left to do.
"""

import os

import pytest

from tests.child_pytest import run_child_pytest
from tests.databases import sqlite_copy
from tests.postgres import side_database

REDIS_URL = os.environ.get("TEST_REDIS_URL")
ALL_RACES = "tests/championship/races"
FIGURE_RACES = "tests/championship/races/test_figure_races.py"


def run_races(database_url, cache_url, races=ALL_RACES, expected="13 passed"):
    env = {"DATABASE_URL": database_url, "CACHE_URL": cache_url, "TAROT_RACES": "1"}
    return run_child_pytest(races, env, expected, options=["-s"])


def test_concurrent_writes_lose_nothing_on_sqlite(tmp_path):
    run_races(sqlite_copy("migrated", tmp_path / "courses.sqlite3"), f"file://{tmp_path / 'cache'}")


@pytest.fixture
def postgres_url():
    with side_database("races", template="migrated") as url:
        yield url


@pytest.mark.postgresql
def test_concurrent_writes_lose_nothing_on_postgresql(postgres_url, tmp_path):
    run_races(postgres_url, f"file://{tmp_path / 'cache'}")


@pytest.mark.skipif(not REDIS_URL, reason="TEST_REDIS_URL n'est pas défini")
def test_figures_read_while_writes_commit_are_fresh_with_redis(tmp_path):
    """The cache of several machines (see docs): the figure races again, on Redis."""
    run_races(sqlite_copy("migrated", tmp_path / "courses.sqlite3"), REDIS_URL, FIGURE_RACES, "5 passed")
