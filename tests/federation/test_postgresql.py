"""The production database: migrations, the demo and every machine-readable output on a real
PostgreSQL, compared with the same commands on SQLite.

Runs when TEST_POSTGRES_URL names a database the tests may empty (CI starts one, see .ci/run).
"""

import json
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
    stats = [
        manage(url, "shell", "-v0", "-c", STATS_JSON, ALLOWED_HOSTS="testserver")
        for url in (POSTGRES_URL, sqlite_url)
    ]
    assert stats[0].count("/palmares/ {") == 1 and '"takes"' in stats[0]  # the pages were read
    assert stats[0].splitlines() == stats[1].splitlines()


def test_it_refuses_out_of_range_input_in_french_on_postgresql(tmp_path):
    """What PostgreSQL alone used to refuse with a crash (a 32-bit total, a NUL byte) is refused by
    the import's own rules, in French, before the database is reached."""
    manage(POSTGRES_URL, "migrate", "-v0")
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
    env = dict(os.environ, DATABASE_URL=POSTGRES_URL, DEBUG="0", SECRET_KEY="ci-" + "x" * 40)
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
