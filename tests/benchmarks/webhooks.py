"""Time an official's act with webhooks to announce it (issue 24): does a chat that answers
slowly, or not at all, hold the act? Not part of the suite: run it by hand on a demo database,
report the figures (docs/mesures.md).

    DATABASE_URL=sqlite:////tmp/demo.sqlite3 .venv/bin/python -m tests.benchmarks.webhooks

(after ``manage.py migrate`` and ``manage.py demo`` into that database). The act is moving a
night (`gamenights.services.change_night`, the place changed each time: one announcement per
webhook), timed from its call to the end of its commit, `--runs` times for each chat: none
(no webhook), three webhooks to a local chat that answers at once, three to a local chat that
hangs (answers after `--hang` seconds, beyond `WEBHOOK_TIMEOUT`). Reported: the median and the
slowest act, and for the quick chat the median time from the commit to the last post received.
Then (issue 30) a chat that trickles its answer, a byte every 1.5 s, after two acts (both
posting threads held): how long after the second act the posts are done (each post is cut at
`WEBHOOK_TIMEOUT`, all told), and how long a mail handed to the outbox meanwhile waits to leave
(the mails have threads of their own).
The webhooks and their outbox rows are removed at the end.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.urls import reverse  # noqa: E402

from federation import outbox  # noqa: E402
from gamenights import services  # noqa: E402
from gamenights.models import GameNight  # noqa: E402
from webhooks import delivery  # noqa: E402
from webhooks.models import Delivery, Webhook  # noqa: E402

# The chats measured listen on 127.0.0.1, on a port of the system's choosing: allowed for this
# run only, as in the tests (federation/settings.py says why the setting is safe).
settings.WEBHOOK_ALLOW_LOOPBACK = True
settings.WEBHOOK_ALLOWED_PORTS = None


class Chat(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, delay):
        super().__init__(("127.0.0.1", 0), Handler)
        self.delay, self.received = delay, []


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        time.sleep(self.server.delay)
        self.server.received.append(time.perf_counter())
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


class Trickle(Handler):
    """Answers a byte every 1.5 s, as the issue's chat did: each read well within the timeout."""

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers["Content-Length"]))
        self.wfile.write(b"HTTP/1.1 200 OK\r\n")
        try:
            for _byte in range(40):
                self.wfile.write(b"X")
                self.wfile.flush()
                time.sleep(1.5)
        except OSError:
            pass  # cut by the poster: what is measured


def trickling(night, runs, chat, hooks=3):
    """(seconds until the posts of two acts are done, seconds a mail waited meanwhile), per run."""
    Webhook.objects.all().delete()
    port = chat.server_address[1]
    for index in range(hooks):
        Webhook.objects.create(name=f"mesure {index}", url=f"http://127.0.0.1:{port}/{index}", format="json")
    held, mails = [], []
    for run in range(runs):
        act(night, f"goutte-{run}-a")
        _start, end = act(night, f"goutte-{run}-b")  # two acts: both posting threads held
        time.sleep(0.2)  # the posts under way
        mail = time.perf_counter()
        outbox.send_later(lambda: None)
        outbox.wait(600)
        mails.append(time.perf_counter() - mail)
        delivery.wait(600)
        held.append(time.perf_counter() - end)
    return held, mails


def act(night, run):
    start = time.perf_counter()
    services.change_night(night, place=f"Salle {run}", reason="mesure")
    return start, time.perf_counter()


def measure(night, runs, chat=None, hooks=3):
    Webhook.objects.all().delete()
    if chat is not None:
        port = chat.server_address[1]
        for index in range(hooks):
            Webhook.objects.create(
                name=f"mesure {index}", url=f"http://127.0.0.1:{port}/{index}", format="json"
            )
    acts, deliveries = [], []
    for run in range(runs):
        received = len(chat.received) if chat else 0
        start, end = act(night, f"{id(chat)}-{run}")
        acts.append((end - start) * 1000)
        if chat is not None and chat.delay < 1:
            delivery.wait(10)
            if len(chat.received) >= received + hooks:
                deliveries.append((chat.received[-1] - end) * 1000)
    delivery.wait(600)  # a hung chat holds each post WEBHOOK_TIMEOUT seconds
    return acts, deliveries


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--hang", type=float, default=30)
    parser.add_argument("--trickle-runs", type=int, default=3)
    args = parser.parse_args()
    night = GameNight.objects.filter(cancelled=False).order_by("-date").first()
    reverse("gamenights:calendar")  # the URLconf loaded first, as in a serving process (seconds)
    place = night.place
    quick, hung, slow = Chat(0), Chat(args.hang), Chat(0)
    slow.RequestHandlerClass = Trickle
    for chat in (quick, hung, slow):
        threading.Thread(target=chat.serve_forever, daemon=True).start()
    print(f"{connection.vendor}, WEBHOOK_TIMEOUT={settings.WEBHOOK_TIMEOUT} s, {args.runs} actes par cas")
    try:
        for name, chat in (
            ("sans webhook", None),
            ("3 webhooks, discussion rapide", quick),
            (f"3 webhooks, discussion qui ne répond pas ({args.hang:g} s)", hung),
        ):
            acts, deliveries = measure(night, args.runs, chat)
            line = f"{name} : acte médian {statistics.median(acts):.1f} ms, le plus lent {max(acts):.1f} ms"
            if deliveries:
                after = statistics.median(deliveries)
                line += f" ; dernière annonce reçue {after:.0f} ms après la validation (médiane)"
            print(line)
        held, mails = trickling(night, args.trickle_runs, slow)
        print(
            "3 webhooks, discussion goutte à goutte (1 octet / 1,5 s), deux actes : envois terminés "
            f"{statistics.median(held):.1f} s après la validation (médiane), "
            f"le plus long {max(held):.1f} s ; "
            f"un courriel confié pendant ce temps part en {statistics.median(mails) * 1000:.1f} ms "
            f"(médiane), au plus {max(mails) * 1000:.1f} ms"
        )
    finally:
        Delivery.objects.filter(webhook__name__startswith="mesure").delete()
        Webhook.objects.filter(name__startswith="mesure").delete()
        services.change_night(night, place=place, reason="fin de la mesure")
        for chat in (quick, hung, slow):
            chat.shutdown()


if __name__ == "__main__":
    main()
