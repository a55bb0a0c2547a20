"""The statistics pages: each renders in French and English, answers ?format=json with the same
figures, links each figure to its deals, refuses what does not exist, and is fresh after a write
while costing few queries when warm."""

import html as markup
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from championship.models import Round
from federation.models import Player
from scoring.rulebook import default_rulebook_text
from tests.championship.stats.conftest import DATES, ROLES, handed
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, make_round


def pk(name):
    return Player.objects.get(name=name).pk


def urls(season):
    alice, bruno = pk("Alice"), pk("Bruno")
    return {
        "player": f"/joueurs/{alice}/statistiques/",
        "player_season": f"/joueurs/{alice}/statistiques/?saison={season.name}",
        "deals": f"/joueurs/{alice}/statistiques/take/",
        "called_by": f"/joueurs/{bruno}/statistiques/called_by-{alice}/?saison={season.name}",
        "head_to_head": f"/joueurs/{alice}/face-a-face/{bruno}/",
        "partners": f"/saisons/{season.name}/partenaires/",
        "rating": f"/saisons/{season.name}/cote/",
        "palmares": "/palmares/",
    }


# (page, French words, English words) on the 3-round season
WORDS = {
    "player": (
        ["Le jeu d'Alice", "Preneur", "Bête noire", "Palmarès"],
        ["Alice's game", "Taker", "Nemesis", "Honours"],
    ),
    "player_season": (["Le jeu d'Alice", "Saison 2010-2011"], ["Alice's game", "Season 2010-2011"]),
    "deals": (["Ses prises", "Garde sans", "chuté"], ["Their takes", "failed"]),
    "called_by": (["Appelé par Alice", "réussi"], ["Called by Alice", "made"]),
    "head_to_head": (["Alice face à Bruno", "Points échangés"], ["Alice against Bruno", "Points exchanged"]),
    "partners": (["Partenaires et rivaux", "Qui appelle qui"], ["Partners and rivals", "Who calls whom"]),
    "rating": (["La cote", "Niveau estimé"], ["The rating", "Estimated skill"]),
    "palmares": (
        ["Records d'une manche", "Le plus de manches gagnées"],
        ["Round records", "Most rounds won"],
    ),
}


@pytest.mark.parametrize("page", sorted(WORDS))
def test_each_page_in_french_and_in_english(client, three_rounds, page):
    url = urls(three_rounds[0].season)[page]
    french, english = WORDS[page]
    html = markup.unescape(client.get(url, headers={"accept-language": "fr"}).content.decode())
    assert '<html lang="fr">' in html
    for word in french:
        assert word in html, word
    response = client.get(url, headers={"accept-language": "en"})
    assert response.status_code == 200
    html = markup.unescape(response.content.decode())
    assert '<html lang="en">' in html
    for word in english:
        assert word in html, word


def test_the_head_to_head_counts_read_right_whatever_the_number(client, three_rounds):
    """No « 1 times » in English nor « (1 réussies) » in French: the counts follow a label."""
    url = urls(three_rounds[0].season)["head_to_head"]
    french = markup.unescape(client.get(url, headers={"accept-language": "fr"}).content.decode())
    english = markup.unescape(client.get(url, headers={"accept-language": "en"}).content.decode())
    assert "contrats réussis\u00a0: " in french and "réussies)" not in french
    assert "finished ahead in " in english and "contracts made: " in english
    assert not re.search(r"\d times", english)


@pytest.mark.parametrize("page", sorted(WORDS))
def test_each_page_has_its_json(client, three_rounds, page):
    url = urls(three_rounds[0].season)[page]
    response = client.get(url + ("&" if "?" in url else "?") + "format=json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    assert isinstance(data, dict)
    # the same in English: figures, never words of the page
    english = client.get(
        url + ("&" if "?" in url else "?") + "format=json", headers={"accept-language": "en"}
    )
    assert json.loads(english.content) == data


def test_the_json_of_a_player(client, three_rounds):
    data = client.get(f"/joueurs/{pk('Alice')}/statistiques/?format=json").json()
    assert data["player"] == "Alice" and data["season"] is None
    assert data["taker"]["takes"] == {"value": 2, "url": f"/joueurs/{pk('Alice')}/statistiques/take/"}
    assert data["taker"]["made"]["rate"] == 50
    assert data["bete_noire"]["player"] == "Chloé"
    assert data["palmares"]["wins"] == 1
    deals = client.get(f"/joueurs/{pk('Alice')}/statistiques/take/?format=json").json()
    assert [(d["round"], d["deal"], d["share"]) for d in deals["deals"]] == [(1, 4, -520), (3, 1, 210)]


def test_the_figures_link_to_their_deals_and_the_deals_to_their_rounds(client, three_rounds):
    first, _second, third = three_rounds
    alice = pk("Alice")
    html = client.get(f"/joueurs/{alice}/statistiques/").content.decode()
    assert f'href="/joueurs/{alice}/statistiques/take/">2</a>' in html
    assert f'href="/joueurs/{alice}/statistiques/defended_failed/">2</a>' in html
    assert f'href="/joueurs/{alice}/face-a-face/{pk("Chloé")}/"' in html
    listed = client.get(f"/joueurs/{alice}/statistiques/take/").content.decode()
    assert (
        f'href="/manches/{first.pk}/#donne-4"' in listed and f'href="/manches/{third.pk}/#donne-1"' in listed
    )
    assert 'id="donne-4"' in client.get(f"/manches/{first.pk}/").content.decode()
    # the player's page leads to his statistics, the navigation to the palmarès
    page = client.get(reverse("championship:player", args=[alice])).content.decode()
    assert f'href="/joueurs/{alice}/statistiques/"' in page and 'href="/palmares/"' in page


@pytest.mark.parametrize(
    "url",
    [
        "/joueurs/999/statistiques/",
        "/joueurs/{alice}/statistiques/?saison=1999-2000",
        "/joueurs/{alice}/statistiques/zzz/",
        "/joueurs/{alice}/statistiques/called_by-999/",
        "/joueurs/{alice}/face-a-face/{alice}/",
        "/joueurs/{alice}/face-a-face/999/",
        "/saisons/1999-2000/partenaires/",
        "/saisons/1999-2000/cote/",
    ],
)
def test_what_does_not_exist_is_404(client, three_rounds, url):
    assert client.get(url.format(alice=pk("Alice"))).status_code == 404


def test_pages_of_an_empty_federation(client, season):
    for url in ("/palmares/", f"/saisons/{season.name}/partenaires/", f"/saisons/{season.name}/cote/"):
        assert client.get(url).status_code == 200
    alice = Player.objects.create(name="Alice")
    assert "Aucune donne." in client.get(f"/joueurs/{alice.pk}/statistiques/take/").content.decode()
    assert client.get(f"/joueurs/{alice.pk}/statistiques/").status_code == 200


def test_a_write_is_seen_at_once_and_a_warm_page_costs_few_queries(client, three_rounds):
    season = three_rounds[0].season
    alice = pk("Alice")
    pages = list(urls(season).values())
    for url in pages:
        client.get(url)
    for url in pages:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        assert len(queries) <= 12, (url, [q["sql"] for q in queries])
    assert client.get(f"/joueurs/{alice}/statistiques/?format=json").json()["taker"]["takes"]["value"] == 2
    # a 4th round (round 3 played again): Alice takes once more
    make_round(
        season,
        [ROLES[2][name] for name in EXAMPLE_PLAYERS],
        [handed(deal, ROLES[2]) for deal in EXAMPLE_DEALS],
        number=4,
        date=DATES[2],
        status=Round.HOMOLOGATED,
    )
    data = client.get(f"/joueurs/{alice}/statistiques/?format=json").json()
    assert data["taker"]["takes"]["value"] == 3
    assert data["palmares"]["wins"] == 2
    assert client.get(f"/saisons/{season.name}/partenaires/?format=json").json()["rounds"] == 4
    assert client.get("/palmares/?format=json").json()["most_wins"][0] == {
        "player": "Alice",
        "player_pk": alice,
        "player_url": f"/joueurs/{alice}/statistiques/",
        "wins": 2,
        "rounds": 4,
    }


def test_the_qualification_page_says_what_each_player_needs(client, three_rounds):
    season = three_rounds[0].season
    season.remaining_rounds = 2
    season.rulebook_text = default_rulebook_text().replace("playoff_players = 10", "playoff_players = 2")
    season.save()
    url = reverse("championship:cup_status", args=[season.name])
    html = markup.unescape(client.get(url).content.decode())
    assert "Le détail de chacun" in html and "Pour être sûr d'une place" in html
    assert "Il reste 2 manches régulières." in html
    english = markup.unescape(client.get(url, headers={"accept-language": "en"}).content.decode())
    assert "Each player in detail" in english and "To be sure of a place" in english
    data = client.get(url + "?format=json").json()
    assert data["season"] == season.name and data["remaining"] == 2 and data["places"] == 2
    assert sorted(player["player"] for player in data["players"]) == sorted(EXAMPLE_PLAYERS)
    first = data["players"][0]
    assert {"status", "certain", "table", "need"} <= set(first)
    assert set(first["certain"]) == set(first["table"]) == {"status", "best", "worst"}
    assert {"needed", "least", "most", "reachable", "example"} <= set(first["need"])


def test_in_a_finished_season_the_json_says_eliminated_as_the_page_does(client, three_rounds):
    """No regular round left, 2 places: the page calls the 3 players below the cut « éliminé »;
    the JSON says so, with their final places, both answers alike."""
    season = three_rounds[0].season
    season.remaining_rounds = 0
    season.rulebook_text = default_rulebook_text().replace("playoff_players = 10", "playoff_players = 2")
    season.save()
    url = reverse("championship:cup_status", args=[season.name])
    page = markup.unescape(client.get(url).content.decode())
    shown = {
        re.search(r"<a [^>]*>([^<]+)</a>", row).group(1): status
        for status, row in re.findall(r'<tr class="status-(\w+)[^"]*"[^>]*>(.*?)</tr>', page, re.S)
    }
    assert sorted(shown.values()) == ["eliminated"] * 3 + ["qualified"] * 2
    assert "éliminé" in page
    data = client.get(url + "?format=json").json()
    assert data["remaining"] == 0
    assert {player["player"]: player["status"] for player in data["players"]} == shown
    for player in data["players"]:
        assert player["certain"] == player["table"]  # no round left: nothing but the final places
        assert player["certain"]["best"] == player["certain"]["worst"]


def test_a_long_list_of_deals_is_paged(client, three_rounds, monkeypatch):
    monkeypatch.setattr("championship.views.stats.DEALS_PER_PAGE", 2)
    alice = pk("Alice")
    url = f"/joueurs/{alice}/statistiques/defended/"  # 4 deals
    first = markup.unescape(client.get(url).content.decode())
    assert "4 donnes" in first and "page 1 sur 2" in first and 'href="?page=2"' in first
    second = markup.unescape(client.get(url + "?page=2").content.decode())
    assert "page 2 sur 2" in second and 'href="?page=1"' in second
    assert len(client.get(url + "?format=json").json()["deals"]) == 4
