"""A statistics page costs as many queries with three seasons as with one: warm, and after a
write elsewhere in the current season, warmed or not; cold (nothing cached) with four seasons
as with two. The history a career reads grows; its queries must not (docs/statistiques.md §9).
Outside a test's transaction (`transactional_db`), so that figures are stored as in production."""

import datetime
import uuid

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from championship.lib.figure_tokens import read_tokens
from championship.models import FigureToken, Round
from championship.views.warming import warm
from federation.models import Player, Season
from tests.championship.stats.conftest import ROLES, handed
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, make_round

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "SET TRANSACTION")  # the read snapshot's, logged or not


def next_season():
    """A new current season of 3 homologated rounds (the conftest's rounds), the one before it
    closed, as a federation's history grows."""
    Season.objects.filter(is_open=True).update(is_open=False)
    year = 2010 + Season.objects.count()
    season = Season.objects.create(
        name=f"{year}-{year + 1}",
        start_date=datetime.date(year, 9, 1),
        end_date=datetime.date(year + 1, 6, 30),
    )
    for number, role in enumerate(ROLES, start=1):
        make_round(
            season,
            [role[name] for name in EXAMPLE_PLAYERS],
            [handed(deal, role) for deal in EXAMPLE_DEALS],
            number=number,
            date=datetime.date(year, 10, 7 * number),
            status=Round.HOMOLOGATED,
        )
    return season


def pages(current):
    alice, bruno = (Player.objects.get(name=name).pk for name in ("Alice", "Bruno"))
    return {
        "player_page": f"/joueurs/{alice}/",
        "player": f"/joueurs/{alice}/statistiques/",
        "player_json": f"/joueurs/{alice}/statistiques/?format=json",
        "player_season": f"/joueurs/{alice}/statistiques/?saison={current.name}",
        "deals": f"/joueurs/{alice}/statistiques/take/",
        "head_to_head": f"/joueurs/{alice}/face-a-face/{bruno}/",
        "partners": f"/saisons/{current.name}/partenaires/",
        "rating": f"/saisons/{current.name}/cote/",
        "palmares": "/palmares/",
    }


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return sum(1 for query in captured if not query["sql"].startswith(TRANSACTION_CONTROL))


def written(season):
    """A new token for `season`, as any write to it gives (at a table of other players, say)."""
    FigureToken.objects.filter(season=season).update(token=uuid.uuid4().hex)
    read_tokens([season.pk])


def costs(client, url, current):
    """`{state: queries}` of one page once warm, after a write to the current season, and after
    a write followed by its warming (`championship.views.warming.warm`)."""
    cache.clear()
    queries(client, url)
    found = {"warm": queries(client, url)}
    written(current)
    found["after a write"] = queries(client, url)
    written(current)
    warm(current.pk)
    found["after a write, warmed"] = queries(client, url)
    return found


def cold(client, url):
    cache.clear()
    return queries(client, url)


PAGES = [
    "player_page",
    "player",
    "player_json",
    "player_season",
    "deals",
    "head_to_head",
    "palmares",
    "partners",
    "rating",
]


@pytest.mark.parametrize("page", PAGES)
def test_a_page_costs_as_many_queries_whatever_the_number_of_seasons(transactional_db, client, page):
    """One season, then three: as many queries. Cold, a closed season's standings and cup are
    read, once for all the closed seasons: two seasons (one closed), then four, as many queries."""
    current = next_season()
    with_one = costs(client, pages(current)[page], current)
    current = next_season()
    cold_with_two = cold(client, pages(current)[page])
    current = next_season()
    with_three = costs(client, pages(current)[page], current)
    current = next_season()
    assert cold(client, pages(current)[page]) == cold_with_two
    assert with_three == with_one
