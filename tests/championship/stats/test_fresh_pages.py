"""The statistics pages read from the cache (their figures and their rendered bodies, under the
tokens of the seasons they read) are never stale: warm, a page is the page computed from
scratch; after a write, the next read shows the new figures. Outside a test's transaction
(`transactional_db`), so that figures are stored as in production."""

import pytest
from django.core.cache import cache

from championship.models import Round
from tests.championship.stats.conftest import DATES, ROLES, handed
from tests.championship.stats.test_views import pk, urls
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, make_round
from tests.pages import without_random_tokens

PAGES = ["player", "player_season", "deals", "called_by", "head_to_head", "partners", "rating", "palmares"]


def read(client, url, language="fr"):
    response = client.get(url, headers={"accept-language": language})
    assert response.status_code == 200, url
    return without_random_tokens(response.content.decode())


def fourth_round(season):
    """Round 3 played again: Alice takes once more and wins a second round."""
    make_round(
        season,
        [ROLES[2][name] for name in EXAMPLE_PLAYERS],
        [handed(deal, ROLES[2]) for deal in EXAMPLE_DEALS],
        number=4,
        date=DATES[2],
        status=Round.HOMOLOGATED,
    )


@pytest.mark.parametrize("page", PAGES)
def test_a_warm_page_is_the_page_computed_afresh_and_a_write_is_seen_at_once(
    transactional_db, client, three_rounds, page
):
    season = three_rounds[0].season
    url = urls(season)[page]
    for language in ("fr", "en"):
        cold = read(client, url, language)
        assert read(client, url, language) == cold  # warm: from the cache
    before = read(client, url)
    fourth_round(season)
    after = read(client, url)
    assert after != before
    cache.clear()
    assert read(client, url) == after  # what the page computed from scratch shows


def test_a_career_of_one_season_is_not_taken_for_that_season(transactional_db, client, three_rounds):
    """With a single season, a player's career and his season read the same token: each keeps
    its own figures (the career has a palmarès, the season none)."""
    season = three_rounds[0].season
    alice = pk("Alice")
    assert (
        client.get(f"/joueurs/{alice}/statistiques/?saison={season.name}&format=json").json()["palmares"]
        is None
    )
    assert 'id="palmares"' not in read(client, f"/joueurs/{alice}/statistiques/?saison={season.name}")
    assert client.get(f"/joueurs/{alice}/statistiques/?format=json").json()["palmares"]["rounds"] == 3
    assert 'id="palmares"' in read(client, f"/joueurs/{alice}/statistiques/")
