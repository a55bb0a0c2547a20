"""The production database: migrations, the demo and the standings on a real PostgreSQL.

Runs when TEST_POSTGRES_URL names an empty database (CI starts one, see .ci/run).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="TEST_POSTGRES_URL n'est pas défini")


def manage(*args):
    env = dict(os.environ, DATABASE_URL=POSTGRES_URL, DEBUG="0", SECRET_KEY="ci-" + "x" * 40)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def shell(code):
    result = manage("shell", "-v0", "-c", code)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_it_migrates_and_loads_the_demo_on_postgresql():
    for args in (["migrate", "-v0"], ["flush", "--noinput"], ["demo"], ["demo"]):
        result = manage(*args)
        assert result.returncode == 0, result.stderr
    assert shell("from django.db import connection; print(connection.vendor)") == "postgresql"
    assert shell("from federation.models import Player; print(Player.objects.count())") == "12"
