"""The production database: migrations, the demo and every machine-readable output on a real
PostgreSQL, compared with the same commands on SQLite. On each, the demo's database is built once
for the run by `manage.py migrate` on an empty database then `manage.py demo` (tests/databases.py:
a command that fails fails the test that needed it); the tests work on copies.

Runs when TEST_POSTGRES_URL names a server where the tests may create databases (CI starts one,
see .ci/run); each test works in a database of its own there.
"""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.databases import sqlite_copy
from tests.postgres import side_database

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.postgresql

OUTPUTS = [
    ["standings", "2010-2011", "--format", "json", "--as-of", "2011-06-30"],
    ["standings", "2010-2011", "--format", "csv", "--as-of", "2011-06-30"],
    ["cup", "2010-2011", "--format", "json"],
    ["export_round", "2010-2011", "2"],
    ["export_round", "2010-2011", "1", "--stage", "playoff", "--table", "A"],
    ["export_round", "2010-2011", "1", "--stage", "final"],
]


# The JSON of every statistics page (docs/statistiques.md §8) of the demo: every season's pages,
# the career, each season and a few figures' deals of the first players, two head to heads.
STATS_JSON = """
from django.test import Client
from federation.models import Player, Season
client = Client()
players = list(Player.objects.order_by("name")[:3])
seasons = list(Season.objects.order_by("start_date"))
urls = ["/palmares/"]
for season in seasons:
    urls += [f"/saisons/{season.name}/{page}/" for page in ("partenaires", "cote", "coupe/qualifications")]
for player in players:
    base = f"/joueurs/{player.pk}/statistiques/"
    urls += [base, *(f"{base}?saison={season.name}" for season in seasons)]
    urls += [f"{base}{figure}/" for figure in ("take", "called", "defended_failed", "miseres")]
urls += [f"/joueurs/{players[0].pk}/face-a-face/{other.pk}/" for other in players[1:]]
for url in urls:
    response = client.get(url + ("&" if "?" in url else "?") + "format=json")
    assert response.status_code == 200, (url, response.status_code)
    print(url, response.content.decode())
"""


def manage(database_url, *args, **env):
    env = dict(os.environ, DATABASE_URL=database_url, DEBUG="0", SECRET_KEY="ci-" + "x" * 40, **env)
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


# The database's vendor, then every output of OUTPUTS as JSON, then the statistics' pages: one
# process reads them all (the commands' arguments are parsed as on the command line).
ALL_OUTPUTS = f"""
import json, shlex
from io import StringIO
from django.core.management import call_command
from django.db import connection
outputs = {{}}
for args in {OUTPUTS!r}:
    buffer = StringIO()
    call_command(*args, stdout=buffer)
    outputs[shlex.join(args)] = buffer.getvalue()
print(json.dumps({{"vendor": connection.vendor, "outputs": outputs}}))
{STATS_JSON}
"""


def read_outputs(database_url):
    """What ALL_OUTPUTS prints on `database_url`: the vendor and outputs, the statistics' lines."""
    first, *stats = manage(
        database_url, "shell", "-v0", "-c", ALL_OUTPUTS, ALLOWED_HOSTS="testserver"
    ).splitlines()
    return json.loads(first), stats


@pytest.fixture
def postgres_url():
    """A copy of the demo's PostgreSQL database: migrations then the demo, run once for the run
    on an empty database of the server (tests/databases.py)."""
    with side_database("outputs", template="demo") as url:
        yield url


def test_it_gives_the_same_outputs_on_postgresql_as_on_sqlite(tmp_path, postgres_url):
    # As a site is updated: the migrations again (none left to apply), the demo again (which
    # changes nothing: the outputs below are those of the demo made once on SQLite).
    assert "No migrations to apply." in manage(postgres_url, "migrate")
    manage(postgres_url, "demo")
    sqlite_url = sqlite_copy("demo", tmp_path / "demo.sqlite3")
    (postgresql, postgresql_stats), (sqlite, sqlite_stats) = map(read_outputs, (postgres_url, sqlite_url))
    assert (postgresql["vendor"], sqlite["vendor"]) == ("postgresql", "sqlite")
    assert list(postgresql["outputs"]) == [shlex.join(args) for args in OUTPUTS]
    for args, output in postgresql["outputs"].items():
        assert output == sqlite["outputs"][args], args
    # The command line itself gives what the commands gave in the shell.
    assert manage(postgres_url, *OUTPUTS[0]) == postgresql["outputs"][shlex.join(OUTPUTS[0])]
    stats = "\n".join(postgresql_stats)
    assert stats.count("/palmares/ {") == 1 and '"takes"' in stats  # the pages were read
    assert postgresql_stats == sqlite_stats


@pytest.fixture
def migrated_postgres_url():
    with side_database("bounds", template="migrated") as url:
        yield url


def test_it_refuses_out_of_range_input_in_french_on_postgresql(tmp_path, migrated_postgres_url):
    """What PostgreSQL alone used to refuse with a crash (a 32-bit total, a NUL byte) is refused by
    the import's own rules, in French, before the database is reached."""
    players = ["Alice", "Bruno", "Chloé", "David", "Émile"]
    sheet = {
        "season": "2030-2031",
        "number": 1,
        "date": "2030-11-19",
        "place": "Chez\u0000Steph",
        "players": [{"name": name} for name in players],
        "totals": dict(zip(players, [3 * 10**9, -(3 * 10**9), 0, 0, 0], strict=True)),
    }
    path = tmp_path / "bornes.json"
    path.write_text(json.dumps(sheet), "utf-8")
    env = dict(os.environ, DATABASE_URL=migrated_postgres_url, DEBUG="0", SECRET_KEY="ci-" + "x" * 40)
    result = subprocess.run(
        [sys.executable, "manage.py", "import_round", str(path), "--create-players"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "bornes.json, champ « place » : caractère de contrôle U+0000 interdit" in result.stderr
    assert "champ « totals.Alice » : 3000000000 n'est pas entre -1000000 et 1000000" in result.stderr
