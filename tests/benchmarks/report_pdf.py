"""What a report PDF costs: a normal report, one at the length limit, the worst Markdown at the
limit, a stored PDF served again, and a document far over the limit stopped by the render limits.

Not part of the suite (timings vary with the machine): run it by hand and report the figures.

    DATABASE_URL=sqlite:////tmp/bench-pdf.sqlite3 .venv/bin/python -m tests.benchmarks.report_pdf

Each layout runs in a fresh render child; its CPU time and peak memory (resident, and address
space, which is what PDF_RENDER_MEMORY_MB bounds) are read from /proc before it is stopped.
"""

import dataclasses
import io
import os
import statistics
import tempfile
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("PDF_CACHE_DIR", tempfile.mkdtemp(prefix="bench-pdf-"))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from championship.lib.pdf import RENDERER, PdfRenderError, render_html  # noqa: E402
from championship.models import Report, Round  # noqa: E402
from championship.reports.display import render_markdown, report_display  # noqa: E402
from championship.services.reports import file_report as save_report  # noqa: E402

LIMIT = Report.TEXT_MAX_LENGTH
SENTENCE = "Bruno a pris une garde sans au cœur, Alice l'a appelé et la défense a sombré avec ses bouts. "


def filled(unit, size, head=""):
    body = unit * ((size - len(head)) // len(unit) + 1)
    return (head + body)[:size]


CASES = [
    ("prose à la limite", filled(SENTENCE * 6 + "\n\n", LIMIT)),
    (
        "tableau de 4 colonnes à la limite",
        filled("| 1 | Bruno | garde | 56 |\n", LIMIT, "| D | P | C | Pts |\n|-|-|-|-|\n"),
    ),
    ("tableau minimal à la limite (pire tableau)", filled("|x|y|\n", LIMIT, "|a|b|\n|-|-|\n")),
    (
        "tableau de 200 colonnes à la limite",
        filled("|x" * 200 + "|\n", LIMIT, "|a" * 200 + "|\n" + "|-" * 200 + "|\n"),
    ),
    ("liste à la limite", filled("- x\n", LIMIT)),
    ("retours à la ligne à la limite (pire cas)", filled("a\n", LIMIT)),
]


def vm_size(pid="self"):
    """The address space of a process, in MiB."""
    return int(_status(pid)["VmSize"].split()[0]) / 1024


def _status(pid):
    with open(f"/proc/{pid}/status") as file:
        return dict(line.split(":", 1) for line in file.read().splitlines())


def child_figures():
    """CPU seconds, peak resident memory, and peak address space above the fork server's (the
    child's at its start: what the child added, which PDF_RENDER_MEMORY_MB bounds), in MiB, of the
    current render child."""
    pid = RENDERER._process.pid
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = _status(pid)
    peak = int(status["VmPeak"].split()[0]) / 1024
    return cpu, int(status["VmHWM"].split()[0]) / 1024, peak - vm_size(status["PPid"].strip())


def fresh_child():
    RENDERER._stop()  # the next layout starts a new child: its peak is this document's alone


def report_case(client, round_, label, text):
    if text is not None:
        save_report(round_, text)
    url = f"/manches/{round_.pk}/compte-rendu.pdf"
    fresh_child()
    start = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - start
    assert response.status_code == 200, (label, response.status_code)
    cpu, resident, address = child_figures()
    hits = []
    for _ in range(5):
        start = time.perf_counter()
        again = client.get(url)
        hits.append(time.perf_counter() - start)
        assert again.content == response.content
    length = len(text) if text is not None else len(round_.report.text)
    print(
        f"{label:<44} {length:>6} car.  {elapsed:6.2f} s  CPU {cpu:5.2f} s  "
        f"RSS max {resident:5.0f} Mio  adresses +{address:4.0f} Mio  "
        f"{len(response.content) // 1024:4d} Kio  déjà produit : {statistics.median(hits) * 1000:5.1f} ms"
    )


def over_the_limit(round_, size):
    """A table of ``size`` characters, over the limit (the site would refuse or cut it: here its
    HTML is built by hand), laid out within the render limits: what a pathological document costs
    at most."""
    text = filled("|x|y|\n", size, "|a|b|\n|-|-|\n")
    display = dataclasses.replace(report_display(round_), narrative=render_markdown(text))
    html = render_html("championship/reports/report_pdf.html", {"display": display})
    fresh_child()
    start = time.perf_counter()
    try:
        RENDERER.render(html)
        outcome = "produit"
    except PdfRenderError as error:
        outcome = f"arrêté ({error.reason})"
    elapsed = time.perf_counter() - start
    label = f"tableau de {size // 1000} Ko (hors limite)"
    print(f"{label:<44} {size:>6} car.  {elapsed:6.2f} s  {outcome}")


def main():
    call_command("migrate", verbosity=0)
    call_command("demo", stdout=io.StringIO())
    round_ = Round.objects.filter(season__name="2010-2011", stage=Round.REGULAR, report__isnull=False).first()
    round_ = Round.objects.select_related("season").get(pk=round_.pk)
    client = Client(HTTP_HOST="localhost")
    limits = f"{settings.PDF_RENDER_MEMORY_MB} Mio, {settings.PDF_RENDER_TIMEOUT:g} s"
    print(f"limites du rendu : {limits} ; texte : {LIMIT} caractères au plus")
    report_case(client, round_, "compte-rendu de la démonstration", None)
    server = _status(_status(RENDERER._process.pid)["PPid"].strip())
    print(f"serveur de rendu (forkserver) : résident {int(server['VmRSS'].split()[0]) / 1024:.0f} Mio")
    for label, text in CASES:
        report_case(client, round_, label, text)
    for size in (50_000, 200_000, 2_400_000):
        over_the_limit(round_, size)
    fresh_child()


if __name__ == "__main__":
    main()
