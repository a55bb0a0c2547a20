"""The cup pages through the test client: the bracket and the play-off statuses, public to all."""

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from championship.cup.state import cup_state
from championship.models import Round
from tests.championship.cup.cup_helpers import (
    leaders_and_trailers,
    names,
    play_final,
    play_table,
    ranked_season,
)

TABLE_A = {"S01": 200, "S04": 50, "S05": 50, "S08": -100, "S09": -200}
TABLE_B = {"S02": 300, "S03": 100, "S06": 40, "S07": -140, "S10": -300}
FINAL = {"S03": 200, "S02": 200, "S01": -100, "S04": -100, "S05": -200}


@pytest.fixture
def users(president, secretary, member):
    return {
        "anonymous": None,
        "member": member.user,
        "secretary": secretary.user,
        "president": president.user,
    }


def cup_url(season):
    return reverse("championship:cup", args=[season.name])


def status_url(season):
    return reverse("championship:cup_status", args=[season.name])


@pytest.fixture
def whole_cup(season):
    ranked_season(season, 12)
    play_table(season, "A", TABLE_A)
    play_table(season, "B", TABLE_B)
    return play_final(season, FINAL)


def test_it_shows_the_cup_and_the_statuses_to_everyone(client, season, users, whole_cup):
    for who, user in users.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        for url in (cup_url(season), status_url(season)):
            response = client.get(url)
            assert response.status_code == 200, (who, url)
        assert b"Champion du Monde de Tarot-Bi" in client.get(cup_url(season)).content


def test_it_renders_the_bracket_with_the_champion_highlighted(client, season, whole_cup):
    response = client.get(cup_url(season))
    html = response.content.decode()
    state = response.context["state"]

    assert state.champion.name == "S02"
    assert (
        'class="cup-banner-name"><a href="{}">S02</a>'.format(
            reverse("championship:player", args=[state.champion.pk])
        )
        in html
    )
    assert f'<tr class="champion-row" data-player="{state.champion.pk}">' in html
    # Every table and the final link to their round pages.
    for round_ in Round.objects.exclude(stage=Round.REGULAR):
        assert reverse("championship:round", args=[round_.pk]) in html
    # The best third, and the reason of every exclusion, with the tie broken by seed.
    assert "Meilleure 3e place" in html
    assert "égalité départagée par la tête de série" in html
    assert "11e du classement final : hors des 10 qualifiés pour les play-offs" in html
    assert "derrière S05, 3e de la table A (total 50)" in html
    assert "−100" in html  # French minus sign in the totals


def test_it_hides_the_link_to_a_round_not_homologated_from_the_public(client, season, secretary):
    ranked_season(season, 10)
    draft = play_table(season, "A", TABLE_A, status=Round.DRAFT)
    link = reverse("championship:round", args=[draft.pk]).encode()

    public = client.get(cup_url(season))
    client.force_login(secretary.user)
    entry = client.get(cup_url(season))

    assert link not in public.content
    assert b"en attente des r" in public.content
    assert link in entry.content


def test_it_says_there_is_no_cup_with_fewer_than_four_ranked_players(client, season):
    ranked_season(season, 3)

    html = client.get(cup_url(season)).content.decode()

    assert "Pas de Coupe du Monde" in html
    assert "3 joueurs classés au classement final : il en faut au moins 4" in html


def test_it_shows_a_direct_final_with_its_finalists(client, season):
    ranked_season(season, 9)

    response = client.get(cup_url(season))
    html = response.content.decode()

    assert "Finale directe" in html
    assert "Play-offs" not in html
    assert [line.player.name for line in response.context["state"].final_lines] == names(1, 2, 3, 4, 5)
    assert "hors des 5 qualifiés pour la finale directe" in html


def test_it_explains_each_status_and_the_assumption(client, season, member):
    leaders_and_trailers(season, 10, 1)
    season.remaining_rounds = 1
    season.save()

    html = client.get(status_url(season)).content.decode()

    assert html.count('class="cup-badge qualified"') == 11  # ten players and the legend
    details = dict(re.findall(r"<summary>(\S+) — [^<]*</summary>\s*<dl[^>]*>(.*?)</dl>", html, re.S))
    assert "à la 11e place" in details["S11"]  # the one round left cannot lift him higher
    assert "jamais classé" in details["Membre"]  # 0 rounds played, 3 needed, 1 left
    assert "ne peut plus jouer assez de manches pour être classé" in details["Membre"]
    assert "Il reste 1 manche régulière susceptible de changer le classement" in html
    assert "une manche donne à un joueur au plus +30 et au moins −30 points" in html


def test_each_player_gets_both_answers_in_his_detail(client, season, member):
    """Everyone in contention whatever happens (two rounds left, ±30 a round); at the table's
    play, rank points only, each player's place is already one of his own: the detail of each
    says both, and what he would need."""
    ranked_season(season, 12)
    season.remaining_rounds = 2
    season.save()

    html = client.get(status_url(season)).content.decode()
    details = dict(re.findall(r"<summary>(\S+) — [^<]*</summary>\s*<dl[^>]*>(.*?)</dl>", html, re.S))

    assert len(details) == 13  # twelve ranked players and the member without a round
    at_table = [
        re.search(r"Au jeu de la table</dt><dd>([^<]*)<", details[f"S{n:02}"]).group(1) for n in range(1, 13)
    ]
    assert at_table == [f"à la {n}{'re' if n == 1 else 'e'} place" for n in range(1, 13)]
    assert all("entre la 1re et la" in details[f"S{n:02}"] for n in range(1, 13))
    assert "il en faudrait 21" in details["S11"]


def test_it_answers_404_for_an_unknown_season(client, db):
    assert client.get(reverse("championship:cup", args=["1999-2000"])).status_code == 404
    assert client.get(reverse("championship:cup_status", args=["1999-2000"])).status_code == 404


def test_it_renders_the_champion_snippet(season, whole_cup):
    champion = cup_state(season).champion
    html = render_to_string("championship/cup/_champion.html", {"champion": champion, "season": season})
    waiting = render_to_string("championship/cup/_champion.html", {"champion": None, "season": season})

    assert "S02" in html and reverse("championship:cup", args=[season.name]) in html
    assert "pas encore désigné" in waiting


def test_it_reads_the_cup_in_a_handful_of_queries(client, season, whole_cup, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        assert client.get(cup_url(season)).status_code == 200
    # computed (a test's transaction stores nothing): three token reads (the statuses and needs,
    # the standings, the table), then the standings, the calendar, the players
    with django_assert_max_num_queries(13):
        assert client.get(status_url(season)).status_code == 200


def test_it_shows_a_visitor_nothing_of_an_unpublished_play_off_or_final(client, season, secretary):
    ranked_season(season, 10)
    play_table(season, "A", TABLE_A, status=Round.SUBMITTED, place="Chez Steph")
    play_table(season, "B", TABLE_B)
    final = play_final(season, FINAL, status=Round.SUBMITTED, place="La Cave à Hélène")
    date = f"{final.date.day} "

    public = client.get(cup_url(season)).content.decode()
    client.force_login(secretary.user)
    entry = client.get(cup_url(season)).content.decode()

    for unpublished in ("La Cave à Hélène", "soumise", "Chez Steph"):
        assert unpublished not in public, unpublished
    assert "La Cave à Hélène" in entry and "soumise" in entry
    assert public.count("à jouer") >= 1 and date in entry


def test_a_runaway_computation_is_said_never_a_server_error(client, season, monkeypatch):
    """The solver gives up on a search it cannot prove in time (`SolverError`): the page says
    so with a 503 and a time to come back, rather than a 500 or a figure it could not prove."""
    from scoring.outlook import season as outlook  # noqa: PLC0415
    from scoring.outlook.linear import SolverError  # noqa: PLC0415

    def gives_up(*args, **kwargs):
        raise SolverError("HiGHS : Time limit reached")

    monkeypatch.setattr(outlook, "prospects", gives_up)
    monkeypatch.setattr("championship.cup.outlook.prospects", gives_up)
    ranked_season(season, 12)
    season.remaining_rounds = 2
    season.save()

    response = client.get(status_url(season))

    assert response.status_code == 503 and response["Retry-After"] == "600"
    assert "a pris trop de temps" in response.content.decode()
