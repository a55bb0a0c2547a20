"""Figures read while writes commit, readers and writers each in their own thread and database
connection, with the cache `CACHE_URL` names (run by `tests/championship/test_concurrency.py`: a
file SQLite database and PostgreSQL, with the file cache, and with Redis when there is one).

What issue 20 saw, each proved gone: a write committing between a page's two cached reads left
the figures from before it under the new generation, served to every later reader; 30 readers
right after a write computed the same figures many times; a lock left by a worker killed while
computing must not hold the others back for long.
"""

import re
import threading

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from championship import services
from championship.lib import summaries
from championship.models import Deal, Round
from championship.standings import season as standings_module
from championship.standings.lateness import default_as_of
from championship.standings.season import compute_standings, load_season, season_standings
from championship.standings.tables import StandingsTable
from championship.views import standings as standings_views
from championship.views import stats as stats_views
from federation.models import Season
from federation.snapshot import read_snapshot
from tests.championship.lib.test_read_cost import (
    counted,
    deal_fields,
    figures,
    make_season,
    rounds_every_write_can_touch,
)
from tests.factories import player
from tests.pages import without_random_tokens

from .conftest import RACES

pytestmark = [
    pytest.mark.skipif(not RACES, reason="lancé par tests/championship/test_concurrency.py"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def shared_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def season():
    season = make_season(2010)
    rounds_every_write_can_touch(season)
    return season


def truth(season):
    season = Season.objects.get(pk=season.pk)
    return figures(compute_standings(season, default_as_of(season), load_season(season)))


def absence(season):
    """A committed write that moves Émile's points."""
    round_ = Round.objects.filter(season=season, status=Round.HOMOLOGATED).order_by("number").first()
    services.add_adjustment(round_, player("Émile"), "absence", reason="absent sans excuse")


def in_thread(target, name):
    """Run `target()` in a thread of its own (its own connection); its result or its error."""
    outcome = {}

    def run():
        try:
            outcome["value"] = target()
        except Exception as error:  # noqa: BLE001 — the test reports it
            outcome["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread, outcome


def pause_in(monkeypatch, owner, name, thread_name):
    """Make `owner.name` stop in the thread `thread_name` the first time it is called, until
    released: (paused, release) events."""
    real = getattr(owner, name)
    paused, release = threading.Event(), threading.Event()

    def stopping(*args, **kwargs):
        if threading.current_thread().name == thread_name and not paused.is_set():
            paused.set()
            assert release.wait(60), "jamais relâché"
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, stopping)
    return paused, release


def test_a_write_committing_while_figures_are_computed_is_seen_by_every_later_read(season, monkeypatch):
    before = truth(season)
    paused, release = pause_in(monkeypatch, standings_module, "load_season", "reader")

    def read():
        with read_snapshot():
            return figures(season_standings(Season.objects.get(pk=season.pk)))

    reader, read_outcome = in_thread(read, "reader")
    assert paused.wait(60)  # the reader has read its token and is reading the rounds
    writer, write_outcome = in_thread(lambda: absence(season), "writer")
    writer.join(60)
    assert "error" not in write_outcome, write_outcome
    release.set()
    reader.join(60)
    assert read_outcome == {"value": before}  # its snapshot began before the write

    after = truth(season)
    assert after != before
    with read_snapshot():
        assert figures(season_standings(Season.objects.get(pk=season.pk))) == after


TABLE = re.compile(r"<table.*?</table>", re.S)


def page_tables(season):
    response = Client().get(f"/saisons/{season.name}/")
    assert response.status_code == 200
    return TABLE.findall(response.content.decode())


def test_a_write_committing_between_the_two_cached_pieces_of_a_page_leaves_no_stale_page(season, monkeypatch):
    """The standings page reads the figures, then the table's HTML, from the cache: the write
    commits between the two; the next page shows the new figures in both."""
    old_page = page_tables(season)
    cache.clear()
    # after the figures, before the table's piece: where the write committed in the audit
    paused, release = pause_in(monkeypatch, standings_views, "cached_html", "reader")
    reader, outcome = in_thread(lambda: page_tables(season), "reader")
    assert paused.wait(60)
    absence(season)
    release.set()
    reader.join(60)
    assert outcome == {"value": old_page}  # the state it began reading, whole

    served = page_tables(season)
    cache.clear()
    assert served == page_tables(season) != old_page


def test_thirty_readers_right_after_a_write_compute_the_figures_once(season, monkeypatch):
    absence(season)
    calls = {"standings": 0, "table": 0}
    lock = threading.Lock()
    real_compute, real_table = standings_module.compute_standings, StandingsTable.as_html

    def counting(kind, real):
        def wrapper(*args, **kwargs):
            with lock:
                calls[kind] += 1
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(standings_module, "compute_standings", counting("standings", real_compute))
    monkeypatch.setattr(StandingsTable, "as_html", counting("table", real_table))
    barrier = threading.Barrier(30, timeout=60)

    def read():
        barrier.wait()
        return page_tables(season)

    readers = [in_thread(read, f"reader-{index}") for index in range(30)]
    for thread, _outcome in readers:
        thread.join(120)
    pages = [outcome.get("value", outcome) for _thread, outcome in readers]
    assert all(page == pages[0] for page in pages), pages
    assert calls == {"standings": 1, "table": 1}
    print(f"30 lectures à froid : {calls}")


def test_a_lock_left_by_a_killed_worker_delays_the_others_a_moment_at_most(season, monkeypatch):
    """A worker killed while computing leaves its lock until `LOCK_TIMEOUT`: the others wait
    `WAIT` seconds at most, then compute themselves, and store what they computed."""
    monkeypatch.setattr(summaries, "WAIT", 0.3)
    with read_snapshot():
        (token, _changed) = summaries.read_tokens([season.pk])[season.pk]
        key = summaries.figure_key("standings", season.pk, token, default_as_of(season))
        assert cache.add(f"{key}:lock", "a killed worker", summaries.LOCK_TIMEOUT)
        assert figures(season_standings(Season.objects.get(pk=season.pk))) == truth(season)
    assert cache.get(key) is not None


def page_body(url):
    response = Client().get(url)
    assert response.status_code == 200
    return without_random_tokens(response.content.decode())


def correct_a_deal(season):
    """A committed correction of a deal of round 1, made instead of failed or failed instead of
    made: the figures of its five players move."""
    deal = counted(season, 1).deals.filter(kind=Deal.PLAYED).order_by("number").first()
    target = season.rulebook.deal.targets[deal.bouts]
    points = target - 5 if deal.points >= target else target + 5
    services.change_deal(deal, deal_fields(deal, points=points), reason="erreur de saisie")


def test_a_write_at_his_table_committing_while_his_page_is_computed_leaves_no_stale_page(season, monkeypatch):
    """A player's page is kept under the digest of his own pieces (`player_cached`): the reader
    has read them and is rendering the page when a correction at his table commits; it stores
    the page under the digest of the state it read, and the next page is the new one."""
    url = f"/joueurs/{player('Alice').pk}/statistiques/"
    old_page = page_body(url)
    cache.clear()
    paused, release = pause_in(monkeypatch, stats_views, "_player_context", "reader")
    reader, outcome = in_thread(lambda: page_body(url), "reader")
    assert paused.wait(60)  # his pieces read and digested, the page being computed
    correct_a_deal(season)
    release.set()
    reader.join(60)
    assert outcome == {"value": old_page}  # the state it began reading, whole

    served = page_body(url)
    cache.clear()
    assert served == page_body(url) != old_page
