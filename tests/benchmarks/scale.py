"""How the pages, PDFs and writes grow with the federation: build 1×, 3× and 10× with
`generate_federation` into fresh databases, then time every page and write of issue 12.

Not part of the suite (timings vary with the machine): run it by hand and report the figures.

    .venv/bin/python -m tests.benchmarks.scale                      # SQLite, 1×, 3× and 10×
    .venv/bin/python -m tests.benchmarks.scale --sizes 1,3          # a quicker run
    DATABASE_URL=postgres://u:p@127.0.0.1:5432/tarot .venv/bin/python -m tests.benchmarks.scale

k× is 20·k players, k seasons of 30·k regular rounds of 20 deals (10×: 200 players, 10 seasons ×
300 rounds, 60,000 deals), every cup played. Each size is built and measured in a process of its
own, on a database of its own: SQLite files in the temporary directory, or on PostgreSQL
databases named after the one `DATABASE_URL` gives (`NAME_scale_3x`, dropped and created again;
its user needs CREATEDB). For each page and write, after one run not counted: best and median of
`--runs` runs (5) and the number of queries of the last, then one more run under `tracemalloc`
for the peak of the memory Python allocates during it (a PDF's layout happens in a child
process: not counted). PDFs are laid out afresh each run (an empty `PDF_CACHE_DIR`). `--profile`
writes a pyinstrument profile of each build next to the databases.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
SCRATCH = Path(tempfile.gettempdir()) / "tarot-scale"


def size_options(k):
    return {"players": 20 * k, "seasons": k, "rounds": 30 * k, "deals": 20}


def database_url(base, k):
    if not base or base.startswith("sqlite"):
        return f"sqlite:///{SCRATCH / f'scale-{k}x.sqlite3'}"
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path=f"{parts.path.rstrip('/')}_scale_{k}x"))


def fresh_database(url):
    """Drop and create the database `url` names (a SQLite file removed)."""
    if url.startswith("sqlite"):
        path = Path(url.removeprefix("sqlite:///"))
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return
    import psycopg  # noqa: PLC0415 (only for PostgreSQL)

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')


# --- in the measuring process -------------------------------------------------------------------


class QueryCounter:
    """A database execute wrapper counting queries (the query log keeps only the last 9,000)."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def build_federation(k, options, profile):
    """Migrate and generate k× (with a pyinstrument profile if asked); return its duration (s)."""
    import io  # noqa: PLC0415
    import time  # noqa: PLC0415

    from django.core.management import call_command  # noqa: PLC0415
    from django.db import connection  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    if profile:
        from pyinstrument import Profiler  # noqa: PLC0415

        profiler = Profiler()
        profiler.start()
    start = time.perf_counter()
    call_command("generate_federation", seed=12, stdout=io.StringIO(), **options)
    build = time.perf_counter() - start
    if profile:
        profiler.stop()
        (SCRATCH / f"build-{k}x-{connection.vendor}.txt").write_text(profiler.output_text(show_all=False))
    return build


def measure_size(k, runs, profile, built=False):
    """Build k× in the database of `DATABASE_URL` (unless `built`) and measure; return a dict."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("WARM_FIGURES", "0")  # nothing computed behind the measures
    import django  # noqa: PLC0415

    django.setup()
    import io  # noqa: PLC0415
    import resource  # noqa: PLC0415
    import statistics  # noqa: PLC0415
    import time  # noqa: PLC0415
    import tracemalloc  # noqa: PLC0415

    from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: PLC0415
    from django.core.management import call_command  # noqa: PLC0415
    from django.db import connection  # noqa: PLC0415
    from django.test import Client, override_settings  # noqa: PLC0415

    from championship.demo.cup import random_deal_specs  # noqa: PLC0415
    from championship.models import Round  # noqa: PLC0415
    from championship.rounds.data import next_round_number
    from championship.services import create_round  # noqa: PLC0415
    from championship.sheets.export import export_sheet  # noqa: PLC0415
    from federation.models import Official, Player, Season  # noqa: PLC0415

    options = size_options(k)
    build = None
    if not built:
        build = build_federation(k, options, profile)
    results = {"size": k, "vendor": connection.vendor, "build_s": build, **options, "rows": []}

    season = Season.objects.order_by("-name").first()
    president = Official.objects.get(season=season, role=Official.PRESIDENT).player.user
    secretary = Official.objects.get(season=season, role=Official.SECRETARY).player.user
    # The player page: the player with most rounds (all seasons).
    player = max(Player.objects.all(), key=lambda p: p.seats.count())
    regular = Round.objects.filter(season=season, stage=Round.REGULAR).order_by("number")
    reported = regular.filter(report__isnull=False).first()
    anonymous = Client(HTTP_HOST="localhost")
    official = Client(HTTP_HOST="localhost")
    official.force_login(secretary)

    def record(label, action, setup=None):
        timings, queries = [], 0
        if setup:  # a first run, not counted: caches and lazy imports warmed as on a live server
            setup()
        action()
        for _ in range(runs):
            if setup:
                setup()
            counter = QueryCounter()
            with connection.execute_wrapper(counter):
                begin = time.perf_counter()
                action()
                timings.append(time.perf_counter() - begin)
            queries = counter.count
        if setup:
            setup()
        tracemalloc.start()
        action()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        row = {
            "what": label,
            "min_ms": min(timings) * 1000,
            "median_ms": statistics.median(timings) * 1000,
            "queries": queries,
            "peak_mib": peak / 2**20,
        }
        results["rows"].append(row)
        print(
            f"{k:>3}× {label:<44} {row['min_ms']:9.1f} {row['median_ms']:9.1f} ms {queries:6d} req. "
            f"{row['peak_mib']:7.1f} Mio",
            flush=True,
        )

    def get(client, url):
        def action():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return action

    cache = []

    def drop_pdf_cache():
        if cache:
            previous = cache.pop()
            previous.disable()
            shutil.rmtree(previous.options["PDF_CACHE_DIR"], ignore_errors=True)

    def fresh_pdf_cache():
        """An empty PDF_CACHE_DIR: the next PDF is laid out, not served from the cache."""
        drop_pdf_cache()
        cache.append(override_settings(PDF_CACHE_DIR=tempfile.mkdtemp(dir=SCRATCH)))
        cache[-1].enable()

    for label, url in [
        ("classement de la saison", f"/saisons/{season.name}/"),
        ("accueil", "/"),
        ("liste des saisons", "/saisons/"),
        ("page d'un joueur (toutes saisons)", f"/joueurs/{player.pk}/"),
        ("liste des manches", f"/saisons/{season.name}/manches/"),
        ("coupe : qualifications", f"/saisons/{season.name}/coupe/qualifications/"),
    ]:
        record(label, get(anonymous, url))
    record(
        "compte-rendu en PDF (mise en page)",
        get(anonymous, f"/manches/{reported.pk}/compte-rendu.pdf"),
        fresh_pdf_cache,
    )
    record(
        "bulletin de saison en PDF (mise en page)",
        get(anonymous, f"/saisons/{season.name}/bulletin.pdf"),
        fresh_pdf_cache,
    )
    drop_pdf_cache()

    # The rulebook changed (garde ×2 ⇄ ×3), the whole season recomputed, by the command.
    rulebook = SCRATCH / f"rulebook-{k}x.toml"
    flip = {"value": 3}

    def write_rulebook():
        text = Season.objects.get(pk=season.pk).rulebook_text
        current = "\ngarde = 2\n" if "\ngarde = 2\n" in text else "\ngarde = 3\n"
        rulebook.write_text(text.replace(current, f"\ngarde = {flip['value']}\n"), "utf-8")
        flip["value"] = 5 - flip["value"]

    record(
        "recalcul de la saison (commande rulebook)",
        lambda: call_command(
            "rulebook",
            season.name,
            file=str(rulebook),
            reason="mesure",
            by=president.username,
            stdout=io.StringIO(),
        ),
        write_rulebook,
    )

    # One deal entered with htmx into a draft round of 20 deals.
    seated = list(Player.objects.order_by("pk")[:5])
    import random  # noqa: PLC0415

    rng = random.Random(1)
    draft = create_round(
        season,
        seated,
        random_deal_specs(seated, rng, 20),
        number=next_round_number(season),
        date=season.end_date,
        place="Mesure",
        user=secretary,
    )
    entry = f"/manches/{draft.pk}/saisie/"
    form = {}

    def next_deal():
        last = draft.deals.order_by("-number").first()  # the next dealer by rotation
        order = [p.pk for p in seated]
        dealer = last.dealer_id if last.kind == "misdeal" else order[(order.index(last.dealer_id) + 1) % 5]
        others = [p.pk for p in seated if p.pk != dealer]
        form.clear()
        form.update(
            kind="played", dealer=dealer, taker=others[0], contract="garde", called="coeur",
            partner=others[1], bouts="2", points="49",
        )  # fmt: skip

    def post_deal():
        response = official.post(entry, form, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and b"errorlist" not in response.content, response.content[:300]

    record("saisie d'une donne (POST htmx)", post_deal, next_deal)

    # One 20-deal sheet imported (a copy of a regular round under a new number).
    sheet = export_sheet(reported)
    upload = {}

    def next_sheet():
        sheet["number"] = next_round_number(season)
        sheet.pop("results", None)
        content = json.dumps(sheet, ensure_ascii=False, default=str).encode()
        upload["sheet"] = SimpleUploadedFile("manche.json", content, content_type="application/json")

    def post_sheet():
        before = Round.objects.count()
        response = official.post("/manches/importer/", upload)
        assert response.status_code in (200, 302) and Round.objects.count() == before + 1, response.content[
            :500
        ]

    record("import d'une feuille de 20 donnes", post_sheet, next_sheet)
    results["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return results


# --- the driver ---------------------------------------------------------------------------------


def growth_table(all_results):
    sizes = [result["size"] for result in all_results]
    first, last = all_results[0], all_results[-1]
    lines = [
        "| mesure | "
        + " | ".join(f"{k}× médiane (min) ; requêtes" for k in sizes)
        + f" | {sizes[-1]}×/{sizes[0]}× |",
        "|---|" + "---|" * (len(sizes) + 1),
    ]
    for index, row in enumerate(first["rows"]):
        cells = []
        for result in all_results:
            other = result["rows"][index]
            cells.append(f"{other['median_ms']:.0f} ms ({other['min_ms']:.0f}) ; {other['queries']}")
        end = last["rows"][index]
        ratio_t = end["median_ms"] / row["median_ms"] if row["median_ms"] else float("nan")
        ratio_q = end["queries"] / row["queries"] if row["queries"] else float("nan")
        lines.append(f"| {row['what']} | " + " | ".join(cells) + f" | ×{ratio_t:.1f} ; ×{ratio_q:.1f} |")
    if all(result["build_s"] for result in all_results):
        lines.append(
            "| construction (generate_federation) | "
            + " | ".join(f"{result['build_s']:.1f} s" for result in all_results)
            + f" | ×{last['build_s'] / first['build_s']:.0f} |"
        )
    lines.append(
        "| mémoire max. du processus | "
        + " | ".join(f"{result['max_rss_mib']:.0f} Mio" for result in all_results)
        + " | |"
    )
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,3,10", help="tailles à construire, par exemple 1,3")
    parser.add_argument("--runs", type=int, default=5, help="passages par mesure")
    parser.add_argument("--profile", action="store_true", help="profil pyinstrument de chaque construction")
    parser.add_argument(
        "--no-build",
        action="store_true",
        help="mesurer les bases d'un passage précédent, sans les reconstruire (ses écritures y restent)",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a size, in its own process
    args = parser.parse_args()
    SCRATCH.mkdir(parents=True, exist_ok=True)
    if args.one is not None:
        results = measure_size(args.one, args.runs, args.profile, built=args.no_build)
        (SCRATCH / f"results-{args.one}x.json").write_text(json.dumps(results))
        return
    base = os.environ.get("DATABASE_URL", "")
    all_results = []
    for k in (int(size) for size in args.sizes.split(",")):
        url = database_url(base, k)
        command = [sys.executable, "-m", "tests.benchmarks.scale", "--one", str(k), "--runs", str(args.runs)]
        if args.no_build:
            command.append("--no-build")
        else:
            fresh_database(url)
        if args.profile:
            command.append("--profile")
        subprocess.run(command, cwd=ROOT, env={**os.environ, "DATABASE_URL": url}, check=True)
        result = json.loads((SCRATCH / f"results-{k}x.json").read_text())
        if result["build_s"] is not None:
            print(f"{k:>3}× construit en {result['build_s']:.1f} s ({result['vendor']})", flush=True)
        all_results.append(result)
    print()
    print(growth_table(all_results))


if __name__ == "__main__":
    main()
