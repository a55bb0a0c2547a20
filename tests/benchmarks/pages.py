"""Time the main pages, PDFs and commands on the demo federation, and count their queries.

Not part of the suite (timings vary with the machine): run it by hand and report the figures.

    DATABASE_URL=sqlite:////tmp/bench.sqlite3 .venv/bin/python -m tests.benchmarks.pages
"""

import io
import os
import resource
import statistics
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("WARM_FIGURES", "0")  # nothing computed behind the measures

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from championship.models import Round  # noqa: E402
from federation.models import Season  # noqa: E402

RUNS = 5


def measure(label, action):
    timings, queries = [], 0
    for _ in range(RUNS):
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            action()
            timings.append(time.perf_counter() - start)
        queries = len(captured)
    print(f"{label:<46} {statistics.median(timings) * 1000:8.1f} ms {queries:5d} requêtes")


def main():
    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    call_command("demo", stdout=io.StringIO())
    print(f"{'demo (première fois)':<46} {(time.perf_counter() - start) * 1000:8.1f} ms")
    past = Season.objects.get(name="2010-2011")
    round_ = Round.objects.filter(season=past, stage=Round.REGULAR).order_by("number").first()
    client = Client(HTTP_HOST="localhost")

    def get(url):
        def action():
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return action

    for label, url in [
        ("accueil", "/"),
        ("classement 2010-2011", f"/saisons/{past.name}/"),
        ("classement CSV", f"/saisons/{past.name}/?_export=csv"),
        ("accessits", f"/saisons/{past.name}/accessits/"),
        ("coupe", f"/saisons/{past.name}/coupe/"),
        ("page d'une manche", f"/manches/{round_.pk}/"),
        ("compte-rendu (page)", f"/manches/{round_.pk}/compte-rendu/"),
        ("compte-rendu (PDF)", f"/manches/{round_.pk}/compte-rendu.pdf"),
        ("bulletin de saison (PDF)", f"/saisons/{past.name}/bulletin.pdf"),
    ]:
        measure(label, get(url))

    def command(*args, **options):
        return lambda: call_command(*args, stdout=io.StringIO(), **options)

    measure("standings --format json", command("standings", past.name, format="json"))
    measure("export_round", command("export_round", past.name, "1"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'mémoire maximale du processus':<46} {peak:8.1f} Mio")


if __name__ == "__main__":
    main()
