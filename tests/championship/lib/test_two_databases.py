"""Two databases on one cache (a copy of the site, a test run sharing the checkout, a shared
CACHE_URL): each site shows its own figures, whatever the other cached under the same season
and player ids (issue 20: the first site showed the second one's standings, and a player page
answered 500 on a piece cached from the other database).

Each site is a child process of its own, as gunicorn's workers are, on its own SQLite file (a
copy of the migrated database, tests/databases.py), with one file cache for both.
"""

import json

from tests.databases import sqlite_copy
from tests.federation.test_backup import manage

# The same season, players and rounds by id in both databases; other results in each.
BUILD = """
import datetime
from championship.models import Round
from federation.models import Season
from tests.factories import make_round
season = Season.objects.create(
    name="2010-2011", start_date=datetime.date(2010, 9, 1), end_date=datetime.date(2011, 6, 30)
)
totals = {totals}
for number in (1, 2, 3):
    make_round(season, totals=totals, date=datetime.date(2010, 10, number), status=Round.HOMOLOGATED)
"""
TOTALS = {
    "a": {"Alice": 300, "Bruno": -200, "Chloé": 100, "David": -150, "Émile": -50},
    "b": {"Alice": -300, "Bruno": 200, "Chloé": -100, "David": 150, "Émile": 50},
}

# What a site shows: the standings (`manage.py standings`) and the tables of its pages, as JSON.
OUTPUTS = """
import json, re
from io import StringIO
from django.core.management import call_command
from django.test import Client
from federation.models import Player
standings = StringIO()
call_command("standings", "2010-2011", stdout=standings)
client = Client()
pages = {}
players = [f"/joueurs/{p.pk}/" for p in Player.objects.order_by("pk")]
for url in ["/saisons/2010-2011/", "/saisons/", "/", *players]:
    response = client.get(url)
    pages[url] = [response.status_code, re.findall(r"<table.*?</table>", response.content.decode(), re.S)]
print(json.dumps({"standings": json.loads(standings.getvalue()), "pages": pages}))
"""


def outputs(url, env, before=""):
    """What the site of `url` shows, read by a process of its own (after running `before`)."""
    return json.loads(manage(url, "shell", "-v0", "-c", before + OUTPUTS, env=env).stdout)


def test_two_databases_on_one_cache_each_show_their_own_figures(tmp_path):
    shared = {"CACHE_URL": f"file://{tmp_path / 'cache'}"}
    alone = {"CACHE_URL": "locmem://"}  # nothing shared: the truth of each database
    urls, truth = {}, {}
    for name, totals in TOTALS.items():
        urls[name] = sqlite_copy("migrated", tmp_path / f"{name}.sqlite3")
        truth[name] = outputs(urls[name], alone, before=BUILD.format(totals=totals))
    assert truth["a"]["standings"] != truth["b"]["standings"]
    assert all(status == 200 for status, _tables in truth["a"]["pages"].values())

    for name in ["a", "b", "a", "b"]:  # each read after the other one cached its figures
        assert outputs(urls[name], shared) == truth[name], name
