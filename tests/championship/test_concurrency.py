"""Concurrent writes on a real shared database: the races of `tests/championship/races/` run in a
child pytest, their threads each on its own connection, on a file SQLite database (WAL,
immediate transactions) and, when TEST_POSTGRES_URL is set (CI, see .ci/run), on PostgreSQL in a
database of their own next to that one. See the races' module for what each proves.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import POSTGRES_URL, side_database

ROOT = Path(__file__).resolve().parents[2]


def run_races(database_url):
    env = {**os.environ, "DATABASE_URL": database_url, "TAROT_RACES": "1", "DEBUG": "0"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "tests/championship/races",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "5 passed" in output, output
    assert "database is locked" not in output
    return output


def test_concurrent_writes_lose_nothing_on_sqlite(tmp_path):
    run_races(f"sqlite:///{tmp_path / 'courses.sqlite3'}")


@pytest.fixture
def postgres_url():
    with side_database("races") as url:
        yield url


@pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL n'est pas défini")
def test_concurrent_writes_lose_nothing_on_postgresql(postgres_url):
    run_races(postgres_url)
