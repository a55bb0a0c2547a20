"""After a write commits, its season's figures are computed again in the background, so that the
next reader finds them ready (issue 20: the first read after a write cost 5 to 18 times the
next one).

The services say when they write a round or a season (`championship.lib.summaries.season_written`).
Once the transaction commits, the season joins a queue that one thread of the process works through: the
figures and pieces of pages a visitor and an official read first (the standings and their table,
the rounds list, the play-off statuses, the reports due, the players' pages and the home page of
the current season), in the site's language, computed in a read snapshot and stored as the pages would
store them (`championship.lib.summaries`). The write's answer never waits for it; a reader who comes
while it runs waits for that computation rather than making it again (single flight).

`WARM_FIGURES=0` turns it off (the test suite does, but for the tests of warming).
"""

import logging
import threading
from contextlib import contextmanager

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.utils import translation

from federation.models import Season
from federation.snapshot import read_snapshot

logger = logging.getLogger("championship.figures")

_pending = []
_lock = threading.Lock()
_worker = {"thread": None}
_deferred = threading.local()


def season_written(sender, season_pk, **kwargs):
    """`championship.lib.summaries.written`: a write to the season has committed."""
    if not getattr(settings, "WARM_FIGURES", False):
        return
    held = getattr(_deferred, "seasons", None)
    if held is not None:
        held.add(season_pk)
    else:
        _queue(season_pk)


@contextmanager
def warmed_at_the_end():
    """Writes in bulk in this thread (a command building a federation): each season they write
    is warmed once, when they are done, rather than again and again meanwhile."""
    _deferred.seasons = held = set()
    try:
        yield
    finally:
        _deferred.seasons = None
        for pk in sorted(held):
            _queue(pk)


def _queue(pk):
    with _lock:
        if pk not in _pending:
            _pending.append(pk)
        thread = _worker["thread"]
        if thread is None or not thread.is_alive():
            _worker["thread"] = thread = threading.Thread(target=_work, name="figures-warming", daemon=True)
            thread.start()


def _work():
    try:
        while True:
            with _lock:
                if not _pending:
                    _worker["thread"] = None
                    return
                pk = _pending.pop(0)
            try:
                warm(pk)
            except Exception:  # a failure costs a cold read, never the worker
                logger.exception("réchauffage de la saison %s en échec", pk)
    finally:
        connection.close()


def wait_for_warming(timeout=30):
    """Wait until the queue is empty (for the tests and the benchmark)."""
    thread = _worker["thread"]
    if thread is not None:
        thread.join(timeout)


def warm(pk):
    """Compute and store the figures and pieces of season `pk` that its pages read first."""
    from django.test import RequestFactory  # noqa: PLC0415 (the test client's module: warming only)

    from championship.cup.outlook import season_race  # noqa: PLC0415 (views import this module's callers)
    from championship.reports.due import reports_due  # noqa: PLC0415
    from championship.standings.lateness import default_as_of  # noqa: PLC0415
    from championship.standings.players import packed_pieces  # noqa: PLC0415
    from championship.standings.season import season_standings  # noqa: PLC0415
    from championship.stats.warming import warm as warm_stats  # noqa: PLC0415
    from championship.views.cup import cup_status_html  # noqa: PLC0415
    from championship.views.home import champion_of, leaders_of  # noqa: PLC0415
    from championship.views.rounds import round_list_html  # noqa: PLC0415
    from championship.views.standings import season_summaries, standings_table_html  # noqa: PLC0415
    from championship.views.stats import refresh_player_pages, season_bodies  # noqa: PLC0415

    with read_snapshot():
        season = Season.objects.filter(pk=pk).first()
        if season is None:
            return
        current = season == Season.objects.current()
        # the most read first: the standings and their table, the home page, then the others
        standings = season_standings(season)
        with translation.override(settings.LANGUAGE_CODE):  # the site's language: most readers'
            request = RequestFactory().get("/")
            request.user = AnonymousUser()
            standings_table_html(request, season, standings)
            reports_due(season)
            if current:
                leaders_of(season, default_as_of(season))
                champion_of(season)
            packed_pieces([season], current=current)
            season_summaries([season])
            for can_enter in (False, True):
                round_list_html(request, season, can_enter)
            cup_status_html(request, season, season_race(season, standings))
            warm_stats(season)
            season_bodies(season)
            refresh_player_pages(season)
