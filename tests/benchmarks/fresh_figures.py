"""Readers against gunicorn while writes commit: are the published figures the database's, how
fast, computed how many times (issue 20). Not part of the suite: run it by hand, report it.

    .venv/bin/python -m tests.benchmarks.fresh_figures                      # SQLite, file cache
    .venv/bin/python -m tests.benchmarks.fresh_figures --threads 8          # gunicorn threads
    .venv/bin/python -m tests.benchmarks.fresh_figures --cache redis://127.0.0.1:6379/5
    DATABASE_URL=postgres://u:p@127.0.0.1:5432/tarot .venv/bin/python -m tests.benchmarks.fresh_figures

It builds `generate_federation --players 60 --seasons 3 --rounds 100 --deals 20` once (kept in
the temporary directory between runs; `--rebuild` to start again), then:

1. **Cold and warm**, in this process: for each HTML page, a write (a malus, committed), then
   the first read (cold: its figures computed) and three more (warm), five times; median of each,
   their ratio and the queries of each.
2. **Under load**: gunicorn (`--workers`, `--threads`) with DEBUG off and the cache `--cache`;
   `--readers` threads read the standings and one player's page of the current season for
   `--seconds`, while this process commits a malus every `--every` seconds. A standings view is
   *stale* if it began after a write had committed and shows the sum of the points from before
   it. Reported: views, stale views, errors, p50 and p95, and the figures computed per write (the
   `championship.figures` log of the workers).
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from tests.benchmarks.scale import fresh_database

ROOT = Path(__file__).resolve().parents[2]
SCRATCH = Path(tempfile.gettempdir()) / "tarot-fresh-figures"
SIZE = ["--players", "60", "--seasons", "3", "--rounds", "100", "--deals", "20", "--seed", "20"]
POINTS = re.compile(
    r'<tr[^>]*>(?:(?!</tr>).)*?href="/joueurs/(\d+)/"'  # a row of either table: its player,
    r'(?:(?!</tr>).)*?col-points num">(?:<a [^>]*>)?([−-]?\d+)<',  # then its points
    re.S,
)
TOTAL = re.compile(r'grand-total"><th>[^<]*</th><td class="num">([−-]?\d+)</td>')


def setup_django(database_url, cache_url):
    """Django in this process, on the database and the cache of the workers: a write made here
    warms the figures where the workers read them, as a write by a worker would."""
    os.environ["DATABASE_URL"] = database_url
    os.environ["CACHE_URL"] = cache_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    os.environ.setdefault("DEBUG", "1")
    import django  # noqa: PLC0415

    django.setup()


def database_url(args):
    base = os.environ.get("DATABASE_URL", "")
    if not base or base.startswith("sqlite"):
        return f"sqlite:///{SCRATCH / 'federation.sqlite3'}"
    return base.rstrip("/") + "_fresh_figures"


def build(url, rebuild):
    marker = SCRATCH / f"built-{hashlib.sha256(url.encode()).hexdigest()[:12]}"
    if marker.exists() and not rebuild:
        return
    fresh_database(url)
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1"}
    for command in (["migrate", "-v0"], ["generate_federation", *SIZE]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    marker.write_text("ok")


class Writer:
    """Commits a malus (« absence ») to one seated player of one homologated round of the
    current season, a different one each time: the sum of the season's points goes down at each
    write, so a page showing a sum from before a write is seen."""

    def __init__(self):
        from championship.models import Round  # noqa: PLC0415
        from federation.models import Season  # noqa: PLC0415

        self.season = Season.objects.current()
        rounds = Round.objects.filter(season=self.season, status=Round.HOMOLOGATED, stage=Round.REGULAR)
        self.targets = list(rounds.order_by("-number").values_list("pk", "seats__player"))
        self.player = self.targets[0][1]  # whose page is read too
        self.commits = []  # (time committed, the sum of the season's points then)

    def total(self):
        """The sum of the points the standings page shows (ranked and unranked), computed afresh."""
        from championship.standings.lateness import default_as_of  # noqa: PLC0415
        from championship.standings.season import compute_standings, load_season  # noqa: PLC0415

        season = type(self.season).objects.get(pk=self.season.pk)
        standings = compute_standings(season, default_as_of(season), load_season(season))
        return sum(row.points for row in [*standings.ranked, *standings.unranked])

    def write(self):
        """A malus committed; returns the time of its commit (after the transaction's end)."""
        from championship import services  # noqa: PLC0415
        from championship.models import Round  # noqa: PLC0415
        from federation.models import Player  # noqa: PLC0415

        before = self.commits[-1][1] if self.commits else self.total()
        while True:
            round_pk, player_pk = self.targets.pop()
            services.add_adjustment(
                Round.objects.get(pk=round_pk), Player.objects.get(pk=player_pk), "absence", reason="mesure"
            )
            committed = time.time()
            total = self.total()
            if total != before:  # a malus over the round's limit changes nothing: another one
                self.commits.append((committed, total))
                return committed

    def replace_rulebook(self):
        """The season's rulebook replaced, a round's winner worth one point more each time: every
        round recomputed, the sum of the points up."""
        from championship import services  # noqa: PLC0415

        season = type(self.season).objects.get(pk=self.season.pk)
        first = int(re.search(r"\n5 = \[(\d+),", season.rulebook_text).group(1))
        text = season.rulebook_text.replace(f"\n5 = [{first},", f"\n5 = [{first + 1},", 1)
        services.update_season_rulebook(season, text, reason="mesure")
        committed = time.time()
        self.commits.append((committed, self.total()))
        return committed


def cold_and_warm(writer, repeats=5):
    """Each page: after a write, its first read (cold), with the warming off, then on and read
    at once, then on and read once it is done; and three reads after (warm)."""
    from django.conf import settings  # noqa: PLC0415
    from django.db import connection  # noqa: PLC0415
    from django.test import Client  # noqa: PLC0415

    from championship.views.warming import wait_for_warming  # noqa: PLC0415
    from tests.benchmarks.scale import QueryCounter  # noqa: PLC0415

    season = writer.season
    client = Client(HTTP_HOST="localhost")
    pages = {
        "accueil": "/",
        "saisons": "/saisons/",
        "classement": f"/saisons/{season.name}/",
        "joueur (saison)": f"/saisons/{season.name}/joueurs/{writer.player}/",
        "joueur": f"/joueurs/{writer.player}/",
        "manches": f"/saisons/{season.name}/manches/",
        "coupe": f"/saisons/{season.name}/coupe/",
        "qualifications": f"/saisons/{season.name}/coupe/qualifications/",
        "accessits": f"/saisons/{season.name}/accessits/",
    }

    def timed(url):
        counter = QueryCounter()
        with connection.execute_wrapper(counter):
            begin = time.perf_counter()
            response = client.get(url)
            elapsed = time.perf_counter() - begin
        assert response.status_code == 200, (url, response.status_code)
        return elapsed * 1000, counter.count

    for url in pages.values():
        timed(url)  # imports and templates loaded, as on a running server
    rows = []
    for name, url in pages.items():
        first = {"froid": [], "réchauffé, lu aussitôt": [], "réchauffé, lu après": []}
        warm, cold_queries, warm_queries = [], 0, 0
        for _ in range(repeats):
            for mode, readings in first.items():
                settings.WARM_FIGURES = mode != "froid"
                writer.write()
                if mode == "réchauffé, lu après":
                    wait_for_warming()
                elapsed, queries = timed(url)
                readings.append(elapsed)
                if mode == "froid":
                    cold_queries = queries
                wait_for_warming()
            for _ in range(3):
                elapsed, warm_queries = timed(url)
                warm.append(elapsed)
        rows.append(
            (name, {mode: statistics.median(r) for mode, r in first.items()}, statistics.median(warm))
        )
        rows[-1] += (cold_queries, warm_queries)
    modes = list(first)
    print(
        "\n| page | "
        + " | ".join(f"1re lecture : {mode}" for mode in modes)
        + " | chaud | requêtes froid ; chaud |"
    )
    print("|---|" + "---|" * (len(modes) + 2))
    for name, firsts, warm, cold_queries, warm_queries in rows:
        cells = " | ".join(f"{firsts[mode]:.0f} ms (×{firsts[mode] / warm:.1f})" for mode in modes)
        print(f"| {name} | {cells} | {warm:.1f} ms | {cold_queries} ; {warm_queries} |")
    return rows


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def launch_gunicorn(url, log, *, workers, threads=1, env=(), probe="/", tries=100):
    """gunicorn serving the database `url` on a free port (DEBUG off, the settings of a
    measure, `env` on top), its output to `log`: (process, base address) once `probe` answers."""
    port = free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "0",
        "SECRET_KEY": "mesure-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_MANIFEST": "0",
        "SECURE_COOKIES": "0",
        "LOG_LEVEL": "INFO",
        **dict(env),
    }
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "federation.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--timeout",
        "60",
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, env=environment, stdout=log, stderr=log, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(tries):
        try:
            urllib.request.urlopen(base + probe, timeout=2).read()
            return process, base
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn ne répond pas")


def start_gunicorn(url, args, log):
    return launch_gunicorn(
        url, log, workers=args.workers, threads=args.threads, env={"CACHE_URL": args.cache}
    )


class Counting(logging.Handler):
    """Counts the figures computed in this process (the warming after its writes)."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def emit(self, record):
        self.count += record.getMessage().startswith("calcul ")


def under_load(url, args, writer):
    warmed = Counting()
    figures_log = logging.getLogger("championship.figures")
    figures_log.addHandler(warmed)
    figures_log.setLevel(logging.INFO)
    figures_log.propagate = False
    log_path = SCRATCH / "gunicorn.log"
    with open(log_path, "w") as log:
        process, base = start_gunicorn(url, args, log)
        try:
            views = run_readers(base, args, writer)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(30)
    computed = log_path.read_text().count("calcul ")
    report_load(views, writer, computed, args, warmed.count)


def run_readers(base, args, writer):
    season, player = writer.season, writer.player
    urls = [f"{base}/saisons/{season.name}/", f"{base}/saisons/{season.name}/joueurs/{player}/"]
    views, lock, stop = [], threading.Lock(), threading.Event()

    def read(index):
        while not stop.is_set():
            target = urls[index % len(urls)]
            began = time.time()
            try:
                html = urllib.request.urlopen(target, timeout=60).read().decode()
                shown = shown_points(html, player, target == urls[0])
                error = None if shown is not None else "points introuvables"
            except OSError as failure:
                shown, error = None, repr(failure)
            ended = time.time()
            with lock:
                views.append((began, ended, time.perf_counter(), shown, error, ended - began))
            index += 1

    readers = [threading.Thread(target=read, args=(index,)) for index in range(args.readers)]
    for thread in readers:
        thread.start()
    deadline = time.time() + args.seconds
    time.sleep(min(2, args.every))
    while time.time() < deadline and writer.targets:
        writer.replace_rulebook() if args.write == "rulebook" else writer.write()
        time.sleep(args.every)
    stop.set()
    for thread in readers:
        thread.join(120)
    return views


def shown_points(html, player, standings_page):
    """The sum of the points of the standings' tables (the figure the writes move); a player's
    page is read for the load it makes, its total not compared."""
    if not standings_page:
        return "page" if TOTAL.search(html) else None
    points = POINTS.findall(html)
    return sum(int(value.replace("−", "-")) for _pk, value in points) if points else None


def report_load(views, writer, computed, args, warmed):
    """A view is stale if it began after a write committed and shows points other than those
    of that write or of a later one committed before the view ended."""
    commits = writer.commits
    stale = 0
    for began, ended, _perf, shown, error, _duration in views:
        if error or shown == "page":
            continue
        allowed = {points for committed, points in commits if committed <= ended}
        before = [points for committed, points in commits if committed <= began]
        if before:
            latest_before = commits[len(before) - 1][1]
            later = {points for committed, points in commits if began < committed <= ended}
            allowed = {latest_before} | later
        if shown not in allowed and before:
            stale += 1
    durations = sorted(view[5] * 1000 for view in views if not view[4])
    errors = sum(1 for view in views if view[4])
    p50 = statistics.median(durations) if durations else float("nan")
    p95 = durations[int(len(durations) * 0.95)] if durations else float("nan")
    print(
        f"\nsous charge ({args.workers} processus × {args.threads} fils, {args.readers} lecteurs, "
        f"une écriture ({args.write}) toutes les {args.every} s pendant {args.seconds} s, "
        f"cache {args.cache or 'fichiers'}) :"
    )
    print(f"  vues : {len(views)} ; périmées : {stale} ; erreurs : {errors}")
    print(f"  durée p50 : {p50:.0f} ms ; p95 : {p95:.0f} ms")
    writes = len(commits)
    print(
        f"  écritures : {writes} ; calculs par les lecteurs : {computed} ({computed / max(writes, 1):.1f} "
        f"par écriture) ; par le réchauffage de l'écrivain : {warmed} ({warmed / max(writes, 1):.1f})"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--readers", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--every", type=float, default=2)
    parser.add_argument("--cache", help="CACHE_URL des processus gunicorn (défaut : fichiers)")
    parser.add_argument("--skip-cold", action="store_true", help="seulement la charge")
    parser.add_argument(
        "--write", choices=["malus", "rulebook"], default="malus", help="l'écriture répétée sous charge"
    )
    args = parser.parse_args()
    SCRATCH.mkdir(parents=True, exist_ok=True)
    url = database_url(args)
    build(url, args.rebuild)
    args.cache = args.cache or f"file://{SCRATCH / 'cache'}"
    setup_django(url, args.cache)
    writer = Writer()
    if not args.skip_cold:
        cold_and_warm(writer)
    writer.commits.clear()
    under_load(url, args, writer)


if __name__ == "__main__":
    main()
