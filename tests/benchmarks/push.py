"""Time what a homologation costs the official's request when the seated players have 50 phones
subscribed to their news (issue 32), and how long the pushes take to reach a push service. Not
part of the suite: run it by hand on a demo database, report the figures (docs/mesures.md).

    DATABASE_URL=sqlite:////tmp/demo.sqlite3 .venv/bin/python -m tests.benchmarks.push

(after ``manage.py migrate`` and ``manage.py demo`` into that database). A homologated round of
the demo gives its table: a new round of those players (totals only) is submitted, then
homologated (`homologate_round`, timed from its call to the end of its commit, queries counted),
`--runs` times with no phone, with 5 (one each), then with `--phones` phones spread over its seated players,
pushing to a local push service (127.0.0.1) that decrypts nothing and answers 201 at once.
Reported: the median and slowest act, its queries, and the median time from the commit to the
last push received (the news' threads). The rounds, phones and news made are removed at the end.
"""

from __future__ import annotations

import argparse
import base64
import os
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from championship.models import Round  # noqa: E402
from championship.services import create_round, homologate_round  # noqa: E402
from notifications import news  # noqa: E402
from notifications.management.commands.vapid_keys import new_pair  # noqa: E402
from notifications.models import News, PushSubscription  # noqa: E402

# The push service measured listens on 127.0.0.1: allowed for this run only, as in the tests.
MEASURE = "mesure des nouvelles"
settings.PUSH_ALLOW_LOOPBACK = True
settings.PUSH_ALLOWED_HOSTS = ["127.0.0.1"]
settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = new_pair()


class PushService(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.received = []


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.append(time.perf_counter())
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def subscribe(round_, phones, port):
    players = [seat.player for seat in round_.seats.select_related("player__user") if seat.player.user]
    for index in range(phones):
        key = ec.generate_private_key(ec.SECP256R1()).public_key()
        point = key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        PushSubscription.objects.create(
            user=players[index % len(players)].user,
            endpoint=f"http://127.0.0.1:{port}/mesure/{index}",
            p256dh=b64url(point),
            auth=b64url(os.urandom(16)),
            label="mesure",
        )


def new_round(model):
    """A submitted round of `model`'s players, the day after it (totals only)."""
    players = [seat.player for seat in model.seats.select_related("player").order_by("position")]
    totals = [40 * (len(players) // 2 - index) for index in range(len(players))]
    totals[-1] -= sum(totals)
    return create_round(
        model.season,
        players,
        totals={player.name: total for player, total in zip(players, totals, strict=True)},
        date=model.date,
        place=MEASURE,
        status=Round.SUBMITTED,
    )


def measure(model, runs, service, expected):
    acts, queries, pushes = [], [], []
    for _run in range(runs):
        round_ = new_round(model)
        received = len(service.received)
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            homologate_round(round_, reason="mesure")
            end = time.perf_counter()
        acts.append((end - start) * 1000)
        queries.append(len(captured))
        news.wait(60)
        if expected and len(service.received) >= received + expected:
            pushes.append((service.received[-1] - end) * 1000)
    return acts, queries, pushes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--phones", type=int, default=50)
    args = parser.parse_args()
    reverse("federation:home")  # the URLconf loaded first, as in a serving process
    round_ = Round.objects.filter(status=Round.HOMOLOGATED, stage=Round.REGULAR).order_by("-date").first()
    service = PushService()
    threading.Thread(target=service.serve_forever, daemon=True).start()
    print(f"{connection.vendor}, manche {round_}, {args.runs} homologations par cas")
    try:
        for phones in (0, 5, args.phones):
            PushSubscription.objects.filter(label="mesure").delete()
            subscribe(round_, phones, service.server_address[1])
            acts, queries, pushes = measure(round_, args.runs, service, phones)
            line = (
                f"{phones} téléphones : acte médian {statistics.median(acts):.1f} ms, le plus lent "
                f"{max(acts):.1f} ms, {statistics.median(queries):.0f} requêtes "
                f"(de {min(queries)} à {max(queries)})"
            )
            if pushes:
                line += (
                    f" ; dernier envoi reçu {statistics.median(pushes):.0f} ms après la validation (médiane)"
                )
            print(line)
    finally:
        news.wait(60)
        PushSubscription.objects.filter(label="mesure").delete()
        made = Round.objects.filter(place=MEASURE)
        News.objects.filter(subject_id__in=made.values("pk")).delete()
        made.delete()
        service.shutdown()


if __name__ == "__main__":
    main()
