"""« Moi » in every table (issue 31): the identified member's own rows are marked on the pages
he reads — class `me` and `aria-current="true"` — and nobody else's, for him only. The pages
keep pieces rendered once per season in the cache (`cached_html`), shared by every reader: the
marking must never travel through them to another member or to a visitor."""

import datetime
from html.parser import HTMLParser

import pytest
from django.core.cache import cache
from django.urls import reverse

from championship.models import Round
from championship.standings.season import season_standings
from federation.my_rows import mark_rows
from tests.championship.standings.test_standings import play
from tests.conftest import make_player
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, player


class Rows(HTMLParser):
    """Every opening tag of a page that says which player it is about (`data-player`)."""

    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-player" in attrs:
            self.tags.append((tag, int(attrs["data-player"]), attrs))


def rows_of(html):
    parser = Rows()
    parser.feed(html)
    return parser.tags


def marked(html):
    """The players whose rows are marked, and whether every mark is whole (class and aria)."""
    found = set()
    for _tag, pk, attrs in rows_of(html):
        is_me = "me" in (attrs.get("class") or "").split()
        assert is_me == (attrs.get("aria-current") == "true"), attrs
        if is_me:
            found.add(pk)
    return found


def seated():
    return dict.fromkeys(EXAMPLE_PLAYERS, 0)


@pytest.fixture
def ranked(season):
    """Five members with accounts, three homologated rounds with their deals: all five ranked."""
    players = {name: make_player(name) for name in EXAMPLE_PLAYERS}
    for day in range(3):
        play(season, seated(), deals=EXAMPLE_DEALS, date=datetime.date(2010, 10, 1 + day))
    return players


def page(client, url, player=None):
    client.logout()
    if player is not None:
        client.force_login(player.user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


PAGES = {
    "home": lambda season: reverse("federation:home"),
    "standings": lambda season: reverse("championship:season", args=[season.name]),
    "round": lambda season: reverse("championship:round", args=[season.rounds.first().pk]),
    "round list": lambda season: reverse("championship:round_list", args=[season.name]),
    "cup status": lambda season: reverse("championship:cup_status", args=[season.name]),
    "cup": lambda season: reverse("championship:cup", args=[season.name]),
    "someone's statistics": lambda season: reverse("championship:player_stats", args=[player("Émile").pk]),
    "rating": lambda season: reverse("championship:season_rating", args=[season.name]),
    "palmares": lambda season: reverse("championship:palmares"),
    "partners": lambda season: reverse("championship:season_partners", args=[season.name]),
}


@pytest.mark.parametrize("name", PAGES)
def test_it_marks_the_readers_rows_and_nobody_elses(client, season, ranked, name):
    url = PAGES[name](season)
    anonymous = page(client, url)
    assert rows_of(anonymous), "the page names no player's row"
    assert marked(anonymous) == set()
    for reader in ("Alice", "Bruno"):
        html = page(client, url, ranked[reader])
        mine = {pk for _tag, pk, _attrs in rows_of(html) if pk == ranked[reader].pk}
        assert marked(html) == mine
        assert mine, f"{reader} has no row on {name}"


@pytest.mark.parametrize("name", ["standings", "cup status", "round list", "home"])
def test_no_mark_travels_through_the_cache_to_another_reader(transactional_db, client, season, ranked, name):
    url = PAGES[name](season)
    alice, bruno = ranked["Alice"], ranked["Bruno"]
    assert marked(page(client, url, alice)) == {alice.pk}
    assert marked(page(client, url, bruno)) == {bruno.pk}
    assert marked(page(client, url)) == set()
    assert marked(page(client, url, alice)) == {alice.pk}


def test_the_standings_table_is_read_from_the_cache_for_the_next_reader(
    transactional_db, client, season, ranked
):
    """The table the second reader gets is the one rendered for the first: the marks are
    made on each answer, not in what is kept."""
    url = PAGES["standings"](season)
    page(client, url, ranked["Alice"])
    kept = [key for key in cache._cache if "html:standings" in key]  # noqa: SLF001 (locmem)
    assert kept, "the standings table is not cached"
    html = page(client, url, ranked["Bruno"])
    assert marked(html) == {ranked["Bruno"].pk}


def test_an_account_without_a_player_sees_no_mark(client, season, ranked, django_user_model):
    user = django_user_model.objects.create_user(username="gerant", password="secret-pass-1")
    client.force_login(user)
    html = client.get(PAGES["standings"](season)).content.decode()
    assert rows_of(html) and marked(html) == set()


def test_a_draft_round_is_marked_for_its_seated_player_too(client, season, ranked):
    draft = play(season, seated(), deals=EXAMPLE_DEALS, homologate=False)
    assert draft.status == Round.DRAFT
    html = page(client, reverse("championship:round_live", args=[draft.pk]), ranked["Chloé"])
    assert marked(html) == {ranked["Chloé"].pk}


def test_mark_rows_adds_to_a_class_and_leaves_the_other_players_alone():
    html = (
        '<tr class="status-qualified" data-player="7"><td>7</td></tr>'
        '<tr data-player="17"></tr><li data-player="70">'
    )
    assert mark_rows(html, 7) == (
        '<tr class="status-qualified me" data-player="7" aria-current="true"><td>7</td></tr>'
        '<tr data-player="17"></tr><li data-player="70">'
    )
    assert mark_rows(html, 17).count("me") == 1
    assert mark_rows(html, 70).endswith('<li data-player="70" class="me" aria-current="true">')
    assert mark_rows(html, 8) == html


def test_the_seasons_podium_and_the_awards_mark_only_their_reader(client, season, ranked):
    first = ranked[season_standings(season).ranked[0].player.name]
    podium = page(client, reverse("championship:seasons"), first)
    assert marked(podium) == {first.pk}
    for reader in ranked.values():
        awards = page(client, reverse("championship:awards", args=[season.name]), reader)
        assert marked(awards) <= {reader.pk}
        assert marked(awards) == {pk for _tag, pk, _attrs in rows_of(awards) if pk == reader.pk}
