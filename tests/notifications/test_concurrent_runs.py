"""Two runs of the reminders at once (tests/notifications/races/), in a child pytest on a file
SQLite database (WAL, immediate transactions) and, when TEST_POSTGRES_URL is set, on PostgreSQL in
a database of their own next to that one."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import POSTGRES_URL, side_database

ROOT = Path(__file__).resolve().parents[2]
RACES = "tests/notifications/races"


def run_races(database_url):
    env = {**os.environ, "DATABASE_URL": database_url, "TAROT_REMINDER_RACES": "1", "DEBUG": "0"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", RACES],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "2 passed" in output, output
    assert "database is locked" not in output


def test_two_runs_at_once_send_each_reminder_once_on_sqlite(tmp_path):
    run_races(f"sqlite:///{tmp_path / 'rappels.sqlite3'}")


@pytest.fixture
def postgres_url():
    with side_database("reminders") as url:
        yield url


@pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL n'est pas défini")
def test_two_runs_at_once_send_each_reminder_once_on_postgresql(postgres_url):
    run_races(postgres_url)
