"""The reading pages cost the same number of queries whatever the number of seasons and rounds,
and the season figures they read from the cache are never stale: every kind of write, once
committed, is seen by the next read (issue 12)."""

import datetime
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test.utils import CaptureQueriesContext

from championship import services
from championship.models import Adjustment, Deal, Round
from championship.rounds.data import DEAL_FIELDS
from championship.standings.lateness import default_as_of
from championship.standings.season import compute_standings, load_season, season_standings
from federation.models import Season
from federation.settings import cache_settings
from federation.snapshot import read_snapshot
from tests.factories import EXAMPLE_TOTALS, fifth_deal, make_round, player

RESULTS_2 = {"Alice": 300, "Bruno": -200, "Chloé": 100, "David": -150, "Émile": -50}


def make_season(year):
    return Season.objects.create(
        name=f"{year}-{year + 1}",
        start_date=datetime.date(year, 9, 1),
        end_date=datetime.date(year + 1, 6, 30),
    )


def fill(season, rounds):
    """`rounds` homologated rounds (every other one with its deals, the others totals only, one
    of them with its report), then a draft: reports due, ranked players, a pending round."""
    year = season.start_date.year
    for index in range(rounds):
        date = datetime.date(year, 10, 1) + datetime.timedelta(days=7 * index)
        if index % 2:
            totals = EXAMPLE_TOTALS if index % 4 == 1 else RESULTS_2
            round_ = make_round(season, totals=totals, date=date, status=Round.HOMOLOGATED)
        else:
            round_ = make_round(season, date=date, status=Round.HOMOLOGATED)
        if index == 1:
            services.save_report(round_, "Récit.", author=player("Alice"), today=date)
    make_round(season, date=datetime.date(year, 12, 30))


PAGES = {
    "home": lambda season: "/",
    "seasons": lambda season: "/saisons/",
    "player": lambda season: f"/joueurs/{player('Alice').pk}/",
    "standings": lambda season: f"/saisons/{season.name}/",
    "round_list": lambda season: f"/saisons/{season.name}/manches/",
    "cup_status": lambda season: f"/saisons/{season.name}/coupe/qualifications/",
}


TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "SET TRANSACTION")  # the read snapshot's, logged or not


def page_queries(client, url):
    """Queries of a first read (nothing cached) and of a second one (figures cached), the
    statements of the read snapshot aside (SQLite and PostgreSQL log different ones)."""
    cache.clear()
    counts = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts.append(sum(1 for query in captured if not query["sql"].startswith(TRANSACTION_CONTROL)))
    return counts


def build(seasons, rounds, first_year=2010):
    built = [make_season(first_year + index) for index in range(seasons)]
    for season in built:
        fill(season, rounds)
    return built


@pytest.mark.parametrize("page", PAGES)
def test_it_reads_a_page_in_as_many_queries_with_four_seasons_as_with_two(transactional_db, client, page):
    """Two seasons at least: with one, the home page has no past season to show. Cold (nothing
    cached) as warm: a page costs as many queries whatever the history."""
    two = page_queries(client, PAGES[page](build(2, 3)[-1]))
    four = page_queries(client, PAGES[page](build(2, 3, first_year=2012)[-1]))
    assert four == two
    assert four[1] <= four[0]


@pytest.mark.parametrize("page", PAGES)
def test_it_reads_a_page_in_as_many_queries_with_many_rounds_as_with_few(transactional_db, client, page):
    few_season, many_season = make_season(2010), make_season(2012)
    fill(few_season, 2)
    fill(many_season, 6)
    few = page_queries(client, PAGES[page](few_season))
    many = page_queries(client, PAGES[page](many_season))
    assert many == few


# --- every write is seen ---------------------------------------------------------------------------


def figures(standings):
    return (
        [(row.player.name, row.rank, row.points, row.rounds) for row in standings.ranked],
        [(row.player.name, row.points, row.rounds) for row in standings.unranked],
        [(malus.player.name, malus.round.number, malus.item.points) for malus in standings.late],
        len(standings.rounds),
        standings.awaiting,
        standings.drafts,
    )


def counted(season, number):
    return Round.objects.get(season=season, stage=Round.REGULAR, number=number)


def deal_fields(deal, **changes):
    return {**{name: getattr(deal, name) for name in DEAL_FIELDS}, **changes}


def rename(season):
    alice = player("Alice")
    alice.name = "Alicia"
    alice.save()


def new_rulebook(season):
    text = season.rulebook_text.replace("5 = [10, 7, 5, 3, 1]", "5 = [20, 7, 5, 3, 1]")
    assert text != season.rulebook_text
    services.update_season_rulebook(season, text, reason="plus de points au vainqueur")


def season_end(season):
    season.end_date = datetime.date(2010, 10, 20)  # the late-report malus is counted earlier
    season.save()


WRITES = {
    "add_deal": lambda s: services.add_deal(counted(s, 1), fifth_deal(points=Decimal(60)), reason="oubliée"),
    "change_deal": lambda s: services.change_deal(
        (deal := Deal.objects.get(round=counted(s, 1), number=1)),
        deal_fields(deal, contract="garde_contre", points=Decimal(20)),
        reason="r",
    ),
    "delete_deal": lambda s: services.delete_deal(Deal.objects.get(round=counted(s, 1), number=1), "erreur"),
    "add_adjustment": lambda s: services.add_adjustment(
        counted(s, 1), player("Émile"), "absence", reason="r"
    ),
    "delete_adjustment": lambda s: services.delete_adjustment(
        Adjustment.objects.get(round=counted(s, 2)), "annulé"
    ),
    "seat_totals": lambda s: services.set_seat_totals(
        (round_ := counted(s, 2)),
        {seat.player_id: -seat.total for seat in round_.seats.all()},
        reason="totaux inversés",
    ),
    "report": lambda s: services.save_report(
        counted(s, 1), "Récit.", author=player("Alice"), today=datetime.date(2010, 10, 2)
    ),
    "homologate": lambda s: services.homologate_round(counted(s, 4)),
    "create_round": lambda s: make_round(s, date=datetime.date(2011, 1, 5)),
    "delete_draft": lambda s: services.delete_draft_round(counted(s, 4), reason="saisie en double"),
    "rulebook": new_rulebook,
    "player_renamed": rename,
    "season_changed": season_end,
}


def rounds_every_write_can_touch(season):
    """Three homologated rounds (one totals-only, with a malus) and a draft."""
    make_round(season, date=datetime.date(2010, 10, 1), status=Round.HOMOLOGATED)
    make_round(
        season,
        totals=EXAMPLE_TOTALS,
        date=datetime.date(2010, 10, 8),
        status=Round.HOMOLOGATED,
        adjustments=[("Émile", "retard", None, "")],
    )
    make_round(season, date=datetime.date(2010, 10, 15), status=Round.HOMOLOGATED)
    make_round(season, date=datetime.date(2010, 10, 22))


@pytest.mark.parametrize("write", WRITES)
def test_it_serves_the_new_figures_once_a_write_is_committed(
    transactional_db, client, django_assert_num_queries, write
):
    season = make_season(2010)
    rounds_every_write_can_touch(season)
    url = f"/saisons/{season.name}/"
    with read_snapshot():
        before = figures(season_standings(season))
    page_before = client.get(url).content
    with read_snapshot(), django_assert_num_queries(1):  # the token: the rest is cached
        assert figures(season_standings(season)) == before

    WRITES[write](Season.objects.get(pk=season.pk))

    season = Season.objects.get(pk=season.pk)
    fresh = figures(compute_standings(season, default_as_of(season), load_season(season)))
    assert fresh != before, "the write changes no figure: the test proves nothing"
    with read_snapshot():
        assert figures(season_standings(season)) == fresh
    page = client.get(url).content
    assert page != page_before


def test_it_computes_afresh_inside_the_transaction_of_a_write(season, django_capture_on_commit_callbacks):
    """Until the write commits (or if it rolls back), its figures are not cached."""
    with django_capture_on_commit_callbacks(execute=True):
        make_round(season, date=datetime.date(2010, 10, 1), status=Round.HOMOLOGATED)
    before = figures(season_standings(season))
    services.add_adjustment(counted(season, 1), player("Émile"), "absence", reason="r")  # not committed
    during = figures(season_standings(season))
    assert during != before
    assert during == figures(compute_standings(season, default_as_of(season), load_season(season)))


@pytest.mark.parametrize(
    "url, backend, location",
    [
        (None, "django.core.cache.backends.locmem.LocMemCache", "tarot"),
        (
            "redis://127.0.0.1:6379/1",
            "django.core.cache.backends.redis.RedisCache",
            "redis://127.0.0.1:6379/1",
        ),
        ("file:///srv/cache", "federation.cache.FileCache", "/srv/cache"),
    ],
)
def test_it_reads_the_cache_from_cache_url(url, backend, location):
    cache = cache_settings(url, debug=True)["default"]
    assert cache["BACKEND"] == backend and cache["LOCATION"] == location


def test_it_shares_the_cache_between_server_processes_by_default(settings):
    """Without CACHE_URL, production (DEBUG off: several gunicorn workers) gets a cache every
    process of the machine sees, so no worker serves figures another one has changed."""
    cache = cache_settings(None, debug=False)["default"]
    assert cache["BACKEND"] == "federation.cache.FileCache"
    assert cache["LOCATION"] == str(settings.BASE_DIR / "media" / "cache")


@pytest.mark.parametrize("url", ["db://tarot_cache", "memcached://127.0.0.1:11211"])
def test_it_refuses_a_cache_it_does_not_support_and_says_what_to_use(url):
    with pytest.raises(ImproperlyConfigured, match="n'est plus pris en charge.*redis://"):
        cache_settings(url, debug=False)


def test_it_refuses_an_unknown_cache_url():
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL invalide"):
        cache_settings("mongodb://somewhere", debug=False)
