"""What the live view costs the server with five phones watching a round (issue 23). Not part
of the suite: run it by hand, report it in docs/mesures.md.

    .venv/bin/python -m tests.benchmarks.live_polling                 # 60 s, 5 phones, every 3 s
    .venv/bin/python -m tests.benchmarks.live_polling --full          # the same, never « unchanged »
    .venv/bin/python -m tests.benchmarks.live_polling --phones 20 --interval 1

It builds the demo federation (`migrate`, `demo`) in a SQLite file of the temporary directory,
sends its last round back to draft, then starts gunicorn (`--workers`, DEBUG off, the file
cache). Each of `--phones` threads logs in as one of the round's players and polls the live
view's fragment every `--interval` seconds with the stamp it has (as htmx does: an empty 204
while nothing changed); with `--full`, without it (every poll renders the fragment, as a plain
`hx-get` would). This process saves a deal every `--every` seconds (the service, as the entry
page's POST calls it). Reported: polls and requests per second, the median and p95 latency of a
poll (unchanged and changed apart), the CPU time of the gunicorn processes (master and
workers, from /proc) per second of the run, and the time from a save's commit to each phone's
first poll showing it.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import signal
import statistics
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from tests.benchmarks.fresh_figures import launch_gunicorn
from tests.benchmarks.scale import fresh_database

SCRATCH = Path(tempfile.gettempdir()) / "tarot-live-polling"
PASSWORD = "tarot-biere"  # the demo players' (championship.demo)
STAMP = re.compile(r'data-stamp="([^"]+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def setup_django(url):
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings")
    os.environ.setdefault("DEBUG", "1")
    import django  # noqa: PLC0415

    django.setup()


def build(url):
    """The demo federation, its last round sent back to draft; that round."""
    from django.core.management import call_command  # noqa: PLC0415

    from championship import services  # noqa: PLC0415
    from championship.models import Round  # noqa: PLC0415

    call_command("migrate", verbosity=0)
    call_command("demo", verbosity=0)
    round_ = Round.objects.exclude(status=Round.HOMOLOGATED).order_by("-pk").first()
    if round_ is None:
        round_ = Round.objects.order_by("-pk").first()
    if round_.status == Round.SUBMITTED:
        services.reopen_round(round_)
    return round_


def save_next_deal(round_):
    """A passed deal, the dealer the rotation expects: saved by the service, committed."""
    from championship import services  # noqa: PLC0415
    from championship.rounds.data import next_dealer, read_round_data  # noqa: PLC0415
    from federation.models import Player  # noqa: PLC0415

    data = read_round_data(round_, adjustments=False)
    dealer = Player.objects.get(pk=next_dealer(data.seats, data.deals))
    services.add_deal(round_, {"kind": "passed", "dealer": dealer}, reason="mesure")


def start_gunicorn(url, workers, log):
    return launch_gunicorn(
        url, log, workers=workers, env={"LOG_LEVEL": "WARNING"}, probe="/connexion/", tries=150
    )


def cpu_seconds(master):
    """User + system CPU time of gunicorn's master and its workers (from /proc)."""
    pids = [master]
    children = Path(f"/proc/{master}/task/{master}/children")
    if children.exists():
        pids += [int(pid) for pid in children.read_text().split()]
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / CLOCK_TICKS


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def logged_in(base, username):
    """An opener with the session of `username` (the login form, its CSRF token)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    form = opener.open(base + "/connexion/", timeout=30).read().decode()
    token = CSRF.search(form)[1]
    data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": username, "password": PASSWORD})
    request = urllib.request.Request(
        base + "/connexion/", data=data.encode(), headers={"Referer": base + "/"}
    )
    try:
        opener.open(request, timeout=30)
    except urllib.error.HTTPError as answer:
        if answer.code != 302:
            raise
    return opener


class Phone(threading.Thread):
    """One phone polling the live view: its answers (time sent, duration, status, stamp)."""

    def __init__(self, base, pk, username, args, stop):
        super().__init__(daemon=True)
        self.opener = logged_in(base, username)
        self.url = f"{base}/manches/{pk}/direct/suivi/"
        self.args, self.stop = args, stop
        self.stamp = None
        self.polls = []  # (sent, seconds, status, stamp)
        self.seen = {}  # stamp -> when this phone first got it

    def poll(self):
        url = self.url if self.args.full or self.stamp is None else f"{self.url}?v={self.stamp}"
        request = urllib.request.Request(url, headers={"HX-Request": "true"})
        sent = time.perf_counter()
        with self.opener.open(request, timeout=30) as answer:
            status, body = answer.status, answer.read()
        took = time.perf_counter() - sent
        if status == 200:
            self.stamp = STAMP.search(body.decode())[1]
            self.seen.setdefault(self.stamp, time.time())
        self.polls.append((sent, took, status, self.stamp))

    def run(self):
        next_poll = time.perf_counter() + self.args.interval * (hash(self.name) % 100) / 100
        while not self.stop.is_set():
            time.sleep(max(0, next_poll - time.perf_counter()))
            next_poll += self.args.interval  # htmx's « every »: a steady beat, not after the answer
            self.poll()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def run(args):
    SCRATCH.mkdir(exist_ok=True)
    url = f"sqlite:///{SCRATCH / 'tarot.sqlite3'}"
    fresh_database(url)
    setup_django(url)
    from championship.models import Seat  # noqa: PLC0415 (once Django is set up)
    from championship.rounds.live import live_stamp  # noqa: PLC0415

    round_ = build(url)
    names = list(
        Seat.objects.filter(round=round_)
        .order_by("position")
        .values_list("player__user__username", flat=True)
    )
    with open(SCRATCH / "gunicorn.log", "w") as log:
        process, base = start_gunicorn(url, args.workers, log)
        try:
            stop = threading.Event()
            phones = [Phone(base, round_.pk, names[i % len(names)], args, stop) for i in range(args.phones)]
            for phone in phones:
                phone.start()
            time.sleep(args.interval + 1)  # every phone has its first fragment
            began, cpu_before = time.perf_counter(), cpu_seconds(process.pid)
            saves = []  # (committed at, stamp after)
            deadline = began + args.seconds
            while time.perf_counter() + args.every < deadline:
                time.sleep(args.every)
                save_next_deal(round_)
                saves.append((time.time(), live_stamp(round_.pk)))
            time.sleep(max(0, deadline - time.perf_counter()))
            cpu = cpu_seconds(process.pid) - cpu_before
            elapsed = time.perf_counter() - began
            stop.set()
            for phone in phones:
                phone.join(30)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(30)
    report(args, phones, saves, began, elapsed, cpu)


def report(args, phones, saves, began, elapsed, cpu):
    polls = [poll for phone in phones for poll in phone.polls if poll[0] >= began]
    unchanged = [took * 1000 for _sent, took, status, _stamp in polls if status == 204]
    changed = [took * 1000 for _sent, took, status, _stamp in polls if status == 200]
    delays = []
    for committed, stamp in saves:
        for phone in phones:
            if stamp in phone.seen:
                delays.append(phone.seen[stamp] - committed)
    mode = "fragment complet à chaque appel (--full)" if args.full else "tampon (204 si inchangé)"
    print(f"Mode : {mode} ; {args.phones} téléphones, un appel toutes les {args.interval} s ;")
    print(f"gunicorn {args.workers} processus ; une donne toutes les {args.every} s ; {elapsed:.0f} s")
    rate = len(polls) / elapsed
    print(f"- appels : {len(polls)} ({rate:.2f}/s) ; 204 : {len(unchanged)} ; 200 : {len(changed)}")
    for label, values in (("inchangé (204)", unchanged), ("changé (200)", changed)):
        if values:
            median, p95 = statistics.median(values), percentile(values, 0.95)
            print(f"- latence {label} : médiane {median:.1f} ms, p95 {p95:.1f} ms")
    print(f"- CPU de gunicorn : {cpu:.2f} s en {elapsed:.0f} s, soit {100 * cpu / elapsed:.1f} % d'un cœur")
    if delays:
        seen = f"{len(delays)}/{len(saves) * len(phones)}"
        print(
            f"- de l'enregistrement à l'affichage ({seen} vus) : médiane {statistics.median(delays):.2f} s, "
            f"p95 {percentile(delays, 0.95):.2f} s, max {max(delays):.2f} s"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=5)
    parser.add_argument(
        "--interval", type=float, default=3.0, help="secondes entre deux appels d'un téléphone"
    )
    parser.add_argument("--every", type=float, default=10.0, help="secondes entre deux donnes enregistrées")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--full", action="store_true", help="sans tampon : le fragment rendu à chaque appel")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
