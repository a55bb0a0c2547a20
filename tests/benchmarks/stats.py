"""Time the statistics pages (issue 25) cold and warm, and count their queries.

Not part of the suite (timings vary with the machine): run it by hand on a built federation and
report the figures, e.g. on the 10× one of `tests.benchmarks.scale`:

    DATABASE_URL=sqlite:////tmp/tarot-scale/scale-10x.sqlite3 .venv/bin/python -m tests.benchmarks.stats

(or build one: ``manage.py generate_federation --players 200 --seasons 10 --rounds 300 --deals 20
--seed 12`` into an empty database). For each page: *cold*, the cache emptied before the request
(every season's pieces computed); *after a write*, only the current season's token changed (its
pieces computed again, the other seasons' read from the cache), as the first reader after a
write without warming sees it; *after a write, warmed*: the same, once the warming that follows
every write (`championship.views.warming.warm`) has computed the season's pieces, as the first
reader sees it in production; *at his table, warmed*: a real write (a deal of a round the
measured player sat at, made instead of failed or the reverse by `services.change_deal`, then
put back), warmed, then the first read; *warm*, the best and the median of `--runs` requests with
everything cached; and the queries of a warm request. The token change alone is what a write at
a table the player did not sit at does to his pages. The benchmark writes to the database: run
it on a copy. Each time is the process's CPU time
(`time.process_time`: SQLite runs in the process; steadier than the wall clock on a machine
shared with other work), the wall clock of the cold and warm requests beside it; the load
average of the machine is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import uuid

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("WARM_FIGURES", "0")  # nothing computed behind the measures

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import resolve  # noqa: E402

from championship import services  # noqa: E402
from championship.lib.figure_tokens import read_tokens  # noqa: E402
from championship.models import Deal, FigureToken, Round  # noqa: E402
from championship.rounds.data import DEAL_FIELDS  # noqa: E402
from championship.views.warming import warm as warm_season  # noqa: E402
from federation.models import Player, Season  # noqa: E402


def season_changed(season):
    """A new token for `season`, as any write to it gives (`championship.figure_tokens`)."""
    FigureToken.objects.filter(season=season).update(token=uuid.uuid4().hex)
    read_tokens([season.pk])


def his_deal(player, season):
    """A played deal of a homologated round of `season` at which `player` sat."""
    return (
        Deal.objects.filter(
            round__season=season,
            round__status=Round.HOMOLOGATED,
            round__seats__player=player,
            kind=Deal.PLAYED,
        )
        .select_related("round")
        .order_by("-round__date", "-round__number", "number")
        .first()
    )


def set_points(deal, points):
    """The deal's taker's points set to `points`, as an official's correction (with a reason)."""
    deal = Deal.objects.select_related("round").get(pk=deal.pk)
    fields = {name: getattr(deal, name) for name in DEAL_FIELDS}
    services.change_deal(deal, {**fields, "points": points}, reason="mesure des statistiques")


def flipped(deal):
    """Points that make the deal's contract fail if it was made, made if it failed: every share
    of the deal changes, so do the figures of its five players."""
    target = deal.round.season.rulebook.deal.targets[deal.bouts]
    return target - 5 if deal.points >= target else target + 5


def pages():
    current = Season.objects.order_by("-start_date").first()
    player = max(Player.objects.all(), key=lambda p: p.seats.count())
    other = Player.objects.exclude(pk=player.pk).order_by("pk").first()
    return (
        current,
        player,
        [
            ("joueur, carrière", f"/joueurs/{player.pk}/statistiques/"),
            ("joueur, saison", f"/joueurs/{player.pk}/statistiques/?saison={current.name}"),
            ("joueur, carrière (JSON)", f"/joueurs/{player.pk}/statistiques/?format=json"),
            ("donnes d'un chiffre (prises, carrière)", f"/joueurs/{player.pk}/statistiques/take/"),
            ("face-à-face", f"/joueurs/{player.pk}/face-a-face/{other.pk}/"),
            ("partenaires et rivaux", f"/saisons/{current.name}/partenaires/"),
            ("cote", f"/saisons/{current.name}/cote/"),
            ("palmarès", "/palmares/"),
            ("qualification (ce qu'il faut)", f"/saisons/{current.name}/coupe/qualifications/"),
            ("qualification (JSON)", f"/saisons/{current.name}/coupe/qualifications/?format=json"),
        ],
    )


def timed(client, url):
    """(CPU ms, wall ms) of one request."""
    start, cpu = time.perf_counter(), time.process_time()
    response = client.get(url)
    elapsed, used = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
    assert response.status_code == 200, (url, response.status_code)
    return used, elapsed


def load():
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", help="the pages whose label contains this text")
    args = parser.parse_args()
    current, player, listed = pages()
    deal = his_deal(player, current)
    client = Client(HTTP_HOST="localhost")
    resolve("/palmares/")  # every view imported before the first measure
    print(f"{Player.objects.count()} joueurs, {Season.objects.count()} saisons ({connection.vendor})")
    print(f"charge de la machine : {load()}")
    print(
        f"{'page (temps CPU, mur entre crochets)':<40} {'froid':>17} {'après écriture':>15}"
        f" {'réchauffé':>10} {'à sa table':>10} {'chaud (min/méd.)':>25} {'requêtes':>9}"
    )
    for label, url in listed:
        if args.only and args.only not in label:
            continue
        cache.clear()
        cold, cold_wall = timed(client, url)
        season_changed(current)
        after, _wall = timed(client, url)
        season_changed(current)
        warm_season(current.pk)
        warmed, _wall = timed(client, url)
        set_points(deal, flipped(deal))
        warm_season(current.pk)
        at_table, _wall = timed(client, url)
        set_points(deal, deal.points)
        timed(client, url)
        runs = [timed(client, url) for _ in range(args.runs)]
        warm, warm_wall = [cpu for cpu, _wall in runs], [wall for _cpu, wall in runs]
        with CaptureQueriesContext(connection) as captured:
            timed(client, url)
        print(
            f"{label:<40} {cold:7.0f} [{cold_wall:6.0f}] ms {after:12.0f} ms {warmed:7.0f} ms"
            f" {at_table:7.0f} ms"
            f" {min(warm):6.1f} / {statistics.median(warm):5.1f} [{statistics.median(warm_wall):5.1f}] ms"
            f" {len(captured):9d}"
        )
    print(f"charge de la machine : {load()}")


if __name__ == "__main__":
    main()
