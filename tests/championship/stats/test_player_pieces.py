"""A player's page (his career or one season, figures and body) is kept under his own pieces as
well as under the seasons' tokens (`championship.stats.pieces.player_cached`): a write at a
table he did not sit at changes the season's token but not his pieces, so his page is read
again, not computed; a write at his table shows at once; and the warming after a write computes
again the pages that were read and changed. The bodies of the deals of a figure and of a
head-to-head are kept under what they show (`rendered_once`): rendered again only when it
changed. Outside a test's transaction (`transactional_db`), so that figures are stored as in
production."""

import logging
import re

from django.core.cache import cache

from championship.models import Round
from championship.views.warming import warm
from tests.championship.stats.conftest import DATES, ROLES, handed
from tests.championship.stats.test_fresh_pages import read
from tests.championship.stats.test_views import pk
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, make_round


def another_round(season, replaced):
    """Round 1 of the example played again, with `replaced`'s part played by Fanny."""
    role = {name: ("Fanny" if name == replaced else name) for name in EXAMPLE_PLAYERS}
    deals = [handed(deal, {**ROLES[0], **role}) for deal in EXAMPLE_DEALS]
    make_round(
        season,
        [role[name] for name in EXAMPLE_PLAYERS],
        deals,
        number=4,
        date=DATES[2],
        status=Round.HOMOLOGATED,
    )


def player_urls(name, season):
    base = f"/joueurs/{pk(name)}/statistiques/"
    return [
        base,
        f"{base}?format=json",
        f"{base}?saison={season.name}",
        f"{base}?saison={season.name}&format=json",
        f"{base}take/",  # the deals of a figure
        f"{base}take/?saison={season.name}",
        f"/joueurs/{pk(name)}/face-a-face/{pk('Bruno')}/",  # with Bruno, who sits at the written table
    ]


def test_a_write_at_a_table_he_did_not_sit_at_leaves_his_pages_as_computed(
    transactional_db, client, three_rounds, computed
):
    season = three_rounds[0].season
    before = {url: read(client, url) for url in player_urls("Alice", season)}
    assert computed["figures"] and computed["bodies"]
    assert {"_figure_deals_body.html", "_head_to_head_body.html"} <= set(computed["rendered"])
    for seen in computed.values():
        seen.clear()
    another_round(season, "Alice")  # a new token for the season; Alice's pieces and deals the same
    assert {url: read(client, url) for url in player_urls("Alice", season)} == before
    assert computed == {"figures": [], "bodies": [], "rendered": []}
    cache.clear()
    assert {url: read(client, url) for url in player_urls("Alice", season)} == before  # from scratch


def test_a_write_at_his_table_shows_on_his_pages_at_once(transactional_db, client, three_rounds, computed):
    season = three_rounds[0].season
    chloe = player_urls("Chloé", season)
    urls = [*chloe[:4], chloe[-1], *player_urls("Bruno", season)[:-1]]  # Chloé takes in no round
    before = {url: read(client, url) for url in urls}
    another_round(season, "Alice")  # Bruno sits at it
    after = {url: read(client, url) for url in before}
    assert all(after[url] != before[url] for url in before)
    assert client.get(f"/joueurs/{pk('Bruno')}/statistiques/?format=json").json()["palmares"]["rounds"] == 4
    cache.clear()
    assert {url: read(client, url) for url in before} == after


def test_the_warming_after_a_write_computes_the_pages_read_that_changed_and_no_other(
    transactional_db, client, three_rounds, computed
):
    season = three_rounds[0].season
    bruno, alice, chloe, david = pk("Bruno"), pk("Alice"), pk("Chloé"), pk("David")
    read(client, f"/joueurs/{bruno}/statistiques/")
    read(client, f"/joueurs/{bruno}/statistiques/?saison={season.name}")
    read(client, f"/joueurs/{alice}/statistiques/")  # read, but the write leaves her out
    read(client, f"/joueurs/{david}/statistiques/?format=json")  # his figures only
    for seen in computed.values():
        seen.clear()
    another_round(season, "Alice")
    warm(season.pk)
    # Bruno's career and season were read and changed, David's career figures too; Alice's did
    # not change; Chloé's were never read
    assert sorted(computed["bodies"], key=str) == sorted([(bruno, None), (bruno, season.name)], key=str)
    assert (david, None) in computed["figures"] and (david, season.name) not in computed["figures"]
    assert (alice, None) not in computed["figures"] and all(p != chloe for p, _s in computed["figures"])
    for seen in computed.values():
        seen.clear()
    warmed = read(client, f"/joueurs/{bruno}/statistiques/")
    figures = client.get(f"/joueurs/{david}/statistiques/?format=json").json()
    assert computed == {"figures": [], "bodies": [], "rendered": []}  # the first readers find them ready
    cache.clear()
    assert read(client, f"/joueurs/{bruno}/statistiques/") == warmed
    assert client.get(f"/joueurs/{david}/statistiques/?format=json").json() == figures


def test_the_deals_of_his_other_figures_are_read_once_with_the_first(
    transactional_db, client, three_rounds, caplog
):
    """The first page of a figure's deals reads all his deals of the season once, sorted under
    every figure they count in; the pages of his other figures read them from the cache."""
    season = three_rounds[0].season
    base = f"/joueurs/{pk('Alice')}/statistiques/"
    caplog.set_level(logging.INFO, logger="championship.figures")
    pages = {
        figure: read(client, f"{base}{figure}/?saison={season.name}")
        for figure in ("take", "defended", "called")
    }
    deals_read = re.compile(rf"calcul stats:deals{pk('Alice')}\b")  # of one figure, or of all
    reads = [r.getMessage() for r in caplog.records if deals_read.match(r.getMessage())]
    assert len(reads) == 1, reads
    cache.clear()
    assert {figure: read(client, f"{base}{figure}/?saison={season.name}") for figure in pages} == pages
