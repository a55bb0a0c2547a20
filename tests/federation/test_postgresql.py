"""The production database: migrations, the demo and every machine-readable output on a real
PostgreSQL, compared with the same commands on SQLite.

Runs when TEST_POSTGRES_URL names a database the tests may empty (CI starts one, see .ci/run).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL n'est pas défini")

OUTPUTS = [
    ["standings", "2010-2011", "--format", "json", "--as-of", "2011-06-30"],
    ["standings", "2010-2011", "--format", "csv", "--as-of", "2011-06-30"],
    ["cup", "2010-2011", "--format", "json"],
    ["export_round", "2010-2011", "2"],
    ["export_round", "2010-2011", "1", "--stage", "playoff", "--table", "A"],
    ["export_round", "2010-2011", "1", "--stage", "final"],
]


def manage(database_url, *args):
    env = dict(os.environ, DATABASE_URL=database_url, DEBUG="0", SECRET_KEY="ci-" + "x" * 40)
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def load_demo(database_url):
    for args in (["migrate", "-v0"], ["flush", "--noinput"], ["demo"], ["demo"]):
        manage(database_url, *args)


def test_it_gives_the_same_outputs_on_postgresql_as_on_sqlite(tmp_path):
    sqlite_url = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    load_demo(POSTGRES_URL)
    load_demo(sqlite_url)
    vendor = "from django.db import connection; print(connection.vendor)"
    assert manage(POSTGRES_URL, "shell", "-v0", "-c", vendor).strip() == "postgresql"
    for args in OUTPUTS:
        assert manage(POSTGRES_URL, *args) == manage(sqlite_url, *args), args
