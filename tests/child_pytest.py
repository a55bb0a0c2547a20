"""Tests run again in a child pytest, on a database shared for real (a file SQLite, a PostgreSQL
database of their own): for races whose threads or processes each need their own connection,
which the parent's in-memory test database cannot give."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_child_pytest(target, env, expected, *, options=(), unset=()):
    """Run the tests `target` with the environment's variables `env` added (and `unset` removed);
    they must all pass, `expected` (« 2 passed ») in the output, and SQLite never say « database is
    locked ». The output."""
    child_env = {**os.environ, "DEBUG": "0", **env}
    for name in unset:
        child_env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *options, "-p", "no:xdist", "-p", "no:cacheprovider", target],
        cwd=ROOT,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert expected in output, output
    assert "database is locked" not in output
    return output
