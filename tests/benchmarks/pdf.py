"""What the first layout of a report PDF and of a season bulletin costs on a big season.

Not part of the suite (timings vary with the machine): run it by hand and report the figures.

    DATABASE_URL=sqlite:////tmp/bench-pdf-big.sqlite3 .venv/bin/python -m tests.benchmarks.pdf

It builds one season through ``championship.services.create_round`` (``--players`` players,
``--rounds`` homologated rounds of five, most of them totals only, a few with their deals, a
report for most rounds, some late, some missing), then lays out the report PDF of a round with
deals and the season bulletin ``--runs`` times each, the store bypassed (every layout is a first
one), in the long-lived render child as the site does; it prints the minimum and the median, the
bulletin's page count, and writes both PDFs next to the database for a look (``pdftoppm``).
"""

import argparse
import datetime
import io
import os
import random
import statistics
import tempfile
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("PDF_CACHE_DIR", tempfile.mkdtemp(prefix="bench-pdf-"))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from championship.lib.pdf import RENDERER, Limits, render_html  # noqa: E402
from championship.models import Round  # noqa: E402
from championship.reports.bulletin import bulletin_context  # noqa: E402
from championship.reports.display import report_display  # noqa: E402
from championship.services import create_round  # noqa: E402
from federation.models import Player, Season  # noqa: E402
from tests.factories import EXAMPLE_DEALS  # noqa: E402

SEASON = "2030-2031"


def build(players, rounds, seed):
    """The season, built once (kept in the database between runs)."""
    season = Season.objects.filter(name=SEASON).first()
    if season is not None:
        return season
    rng = random.Random(seed)
    season = Season.objects.create(
        name=SEASON, start_date=datetime.date(2030, 9, 1), end_date=datetime.date(2031, 6, 30)
    )
    people = [Player.objects.get_or_create(name=f"Joueur {index:03d}")[0] for index in range(players)]
    start = time.perf_counter()
    for number in range(1, rounds + 1):
        date = season.start_date + datetime.timedelta(days=number * 270 // rounds)
        table = rng.sample(people, 5)
        author = table[0]
        filed = rng.random()
        report = None
        if filed < 0.85:
            late_days = 0 if filed < 0.7 else rng.randint(8, 30)
            report = {
                "author": author,
                "text": "Une belle soirée, **Alice** a tout raflé.",
                "filed_on": date + datetime.timedelta(days=late_days),
            }
        with transaction.atomic():
            if number % 25 == 1:
                names = {"Alice": table[0], "Bruno": table[1], "Chloé": table[2], "David": table[3]}
                names["Émile"] = table[4]
                deals = [
                    {key: _rename(value, names) for key, value in deal.items()} for deal in EXAMPLE_DEALS
                ]
                totals = None
            else:
                deals = ()
                values = [rng.randrange(-60, 61, 10) for _ in range(4)]
                totals = dict(zip([p.name for p in table], [*values, -sum(values)], strict=True))
            create_round(
                season,
                table,
                deals,
                totals=totals,
                number=number,
                date=date,
                place=f"Bar {number % 7}",
                status=Round.HOMOLOGATED,
                report=report,
            )
    print(f"saison construite : {rounds} manches, {players} joueurs, {time.perf_counter() - start:.1f} s")
    return season


def _rename(value, names):
    if isinstance(value, str):
        return names[value].name if value in names else value
    if isinstance(value, list):
        return [_rename(item, names) for item in value]
    if isinstance(value, tuple):
        return tuple(_rename(item, names) for item in value)
    return value


def time_layouts(label, html, runs):
    """Lay ``html`` out ``runs`` times in the render child (started before the first run)."""
    RENDERER._stop()
    RENDERER._ensure_child(Limits.from_settings())  # the child's start is not a layout
    timings, content = [], b""
    for _ in range(runs):
        start = time.perf_counter()
        content = RENDERER.render(html)
        timings.append(time.perf_counter() - start)
    pages = len(PdfReader(io.BytesIO(content)).pages)
    print(
        f"{label:<32} min {min(timings):5.2f} s  médiane {statistics.median(timings):5.2f} s  "
        f"{pages:3d} pages  {len(content) // 1024:5d} Kio"
    )
    return content


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--out", default=tempfile.gettempdir())
    options = parser.parse_args()
    call_command("migrate", verbosity=0)
    season = build(options.players, options.rounds, options.seed)
    round_ = Round.objects.select_related("season").filter(season=season, totals_only=False).first()
    as_of = season.end_date

    start = time.perf_counter()
    report_html = render_html(
        "championship/reports/report_pdf.html", {"display": report_display(round_, as_of)}
    )
    print(f"{'HTML du compte-rendu':<32} {time.perf_counter() - start:9.2f} s")
    start = time.perf_counter()
    bulletin_html = render_html("championship/reports/bulletin_pdf.html", bulletin_context(season, as_of))
    print(f"{'HTML du bulletin':<32} {time.perf_counter() - start:9.2f} s")

    report = time_layouts("compte-rendu (PDF)", report_html, options.runs)
    bulletin = time_layouts("bulletin de saison (PDF)", bulletin_html, options.runs)
    os.makedirs(options.out, exist_ok=True)
    for name, content in (("bench-compte-rendu.pdf", report), ("bench-bulletin.pdf", bulletin)):
        path = os.path.join(options.out, name)
        with open(path, "wb") as file:
            file.write(content)
        print(f"écrit : {path}")
    RENDERER._stop()


if __name__ == "__main__":
    main()
