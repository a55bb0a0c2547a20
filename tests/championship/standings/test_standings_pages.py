"""The standings pages through the test client: public pages, CSV, the constant number of
queries, the explanation of every point, the player's page and the board's rulebook form."""

import csv
import datetime
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse

from championship.lib.pdf import render_html
from championship.models import ChampionshipLine, Report, Round
from championship.reports.bulletin import bulletin_context
from championship.services import homologate_round
from federation.models import Player
from tests.championship.standings.test_standings import PRESTIGE_AND_CHELEM, play, table
from tests.factories import make_round

NAMES = ["Alice", "Bruno", "Chloé", "David", "Émile"]


def season_url(season, **query):
    url = reverse("championship:season", args=[season.name])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def rounds(season, count, start=0, reports=True):
    """`count` rounds won by Alice, then Bruno, Chloé…; reports filed on the evening itself."""
    for day in range(start, start + count):
        date = datetime.date(2010, 10, 1) + datetime.timedelta(days=day)
        round_ = play(season, table(NAMES), date=date)
        if reports:
            Report.objects.create(round=round_, author=Player.objects.get(name="Alice"), filed_on=date)


@pytest.fixture
def users(client, president, secretary, member):
    return {
        "anonymous": None,
        "member": member.user,
        "secretary": secretary.user,
        "president": president.user,
    }


def login(client, user):
    if user is not None:
        client.force_login(user)


# --- the standings page ---------------------------------------------------------------------------


def test_it_shows_the_standings_to_everyone(client, season, users):
    rounds(season, 3)
    player = Player.objects.get(name="Alice")
    pages = [
        season_url(season),
        reverse("championship:awards", args=[season.name]),
        reverse("championship:player_season", args=[season.name, player.pk]),
        reverse("championship:player", args=[player.pk]),
        reverse("championship:seasons"),
    ]
    for who, user in users.items():
        client.logout()
        login(client, user)
        for url in pages:
            response = client.get(url)
            assert response.status_code == 200, (who, url)


def test_it_shows_ranks_ties_unranked_players_and_pending_rounds(client, season):
    for day in (1, 2, 3):
        play(
            season,
            {"Alice": 300, "Bruno": 300, "Chloé": -100, "David": -200, "Émile": -300},
            date=datetime.date(2010, 10, day),
        )
    play(season, table(["Fanny"]), date=datetime.date(2010, 10, 4))
    play(season, table(NAMES), date=datetime.date(2010, 10, 5), homologate=False)
    make_round(season, NAMES, totals=table(NAMES), status=Round.SUBMITTED)
    html = client.get(season_url(season, as_of="2010-10-06")).content.decode()
    assert "Classement provisoire" in html  # the season is open
    assert "Classement final" not in html
    assert "ex æquo" in html
    assert html.count('class="tie"') == 2
    assert reverse("championship:player", args=[Player.objects.get(name="Bruno").pk]) in html
    assert "1 manche en attente d'homologation n'est pas comptée." in html  # the submitted one
    assert "brouillon" not in html  # the draft is not the public's to know of
    assert "Non classés" in html
    assert "Il faut avoir joué au moins 3 manches homologuées pour figurer au classement final" in html
    assert "Fanny" in html
    assert "?_export=csv&amp;as_of=2010-10-06" in html
    assert reverse("championship:awards", args=[season.name]) in html
    fanny = Player.objects.get(name="Fanny")
    assert reverse("championship:player_season", args=[season.name, fanny.pk]) in html


def test_it_counts_submitted_rounds_as_awaiting_and_shows_drafts_as_drafts(as_user, season):
    """One round submitted, two being entered: one awaits homologation; the drafts are shown,
    as drafts, to those who may read them (the secretary and the board)."""
    play(season, table(NAMES), date=datetime.date(2010, 10, 1))
    make_round(season, NAMES, totals=table(NAMES), status=Round.SUBMITTED, date=datetime.date(2010, 10, 2))
    for day in (3, 4):
        make_round(season, NAMES, totals=table(NAMES), date=datetime.date(2010, 10, day))
    url = season_url(season, as_of="2010-10-06")
    public = as_user("anonymous").get(url).content.decode()
    assert "1 manche en attente d'homologation n'est pas comptée." in public
    assert "3 manches en attente" not in public and "brouillon" not in public
    for who in ("secretary", "president"):
        html = as_user(who).get(url).content.decode()
        assert "1 manche en attente d'homologation n'est pas comptée." in html, who
        assert "2 manches en brouillon, pas encore soumises, ne sont pas comptées non plus." in html, who
        assert reverse("championship:round_list", args=[season.name]) in html
    english = as_user("secretary").get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 round awaiting approval is not counted." in english
    assert "2 draft rounds, not submitted yet, are not counted either." in english
    bulletin = render_html("championship/reports/bulletin_pdf.html", bulletin_context(season))
    assert "· 1 en attente d'homologation" in bulletin and "brouillon" not in bulletin


def test_it_says_nobody_is_ranked_yet(client, season):
    play(season, table(NAMES))
    html = client.get(season_url(season)).content.decode()
    assert "Personne n'est encore classé : il faut au moins 3 manches homologuées." in html


def test_it_shows_the_late_report_malus_as_of_the_date_asked(client, season):
    rounds(season, 3, reports=False)
    html = client.get(season_url(season, as_of="2010-10-05")).content.decode()
    assert "Comptes-rendus en retard" not in html
    html = client.get(season_url(season, as_of="2010-10-20")).content.decode()
    assert "Comptes-rendus en retard" in html
    assert 'manche 1\N{NO-BREAK SPACE}: \n      <strong class="neg">\N{MINUS SIGN}2</strong>' in html
    assert "toujours manquant" in html
    html = client.get(season_url(season, as_of="demain")).content.decode()
    assert "Date « as_of » invalide : « demain »" in html


def test_it_exports_the_standings_as_csv(client, season):
    rounds(season, 4)
    response = client.get(season_url(season, _export="csv", as_of="2010-10-02"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'attachment; filename="classement-2010-2011.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"))))
    assert rows[0][:4] == ["Rang", "Ex æquo", "Joueur", "Points"]
    # the trend « = » alone would start a formula in a spreadsheet: escaped
    assert rows[1] == ["1", "", "Alice", "40", "4", "4", "0", "800", "'="]
    assert len(rows) == 6


def test_it_reads_the_standings_in_a_constant_number_of_queries(
    client, season, django_assert_max_num_queries
):
    rounds(season, 3)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(season_url(season)).status_code == 200
    few = len(queries)
    rounds(season, 10, start=3)
    with django_assert_max_num_queries(few):
        response = client.get(season_url(season))
    assert len(response.context["standings"].rounds) == 13


# --- a player's season, point by point ------------------------------------------------------------


def test_it_explains_every_point_of_a_players_season(client, season):
    first = make_round(season, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")])
    homologate_round(first)
    play(season, table(["Émile", "Alice"]), date=datetime.date(2010, 11, 26))
    emile = Player.objects.get(name="Émile")
    url = reverse("championship:player_season", args=[season.name, emile.pk])
    html = client.get(url + "?as_of=2010-12-04").content.decode()
    assert "4e place sur 5 (total 0)" in html
    assert "Garde sans d&#x27;Alice mise en échec en défense (donne 4)" in html
    assert "Retard — arrivé à 21h30" in html
    assert '<td class="num neg">\N{MINUS SIGN}1</td>' in html
    assert "Fiche d&#x27;Émile" in html
    assert "Compte-rendu en retard : 1 semaine entamée" in html
    assert "Sous-total de la manche" in html
    assert html.count('class="subtotal"') == 2
    assert '<td class="num">12</td>' in html
    standings = client.get(season_url(season, as_of="2010-12-04")).context["standings"]
    assert next(r for r in standings.unranked if r.player.name == "Émile").points == 12
    try:
        round_url = reverse("championship:round", args=[first.pk])
    except NoReverseMatch:
        return
    assert f'href="{round_url}#donne-4"' in html


def test_it_answers_404_for_an_unknown_season_or_player(client, season):
    assert client.get(season_url(season).replace("2010-2011", "1999-2000")).status_code == 404
    assert client.get(reverse("championship:player", args=[999])).status_code == 404


# --- awards, seasons, the player's page -------------------------------------------------------------


def test_it_shows_the_awards_and_those_not_awarded(client, season):
    make_round(season, status=Round.DRAFT)
    homologate_round(Round.objects.get())
    html = client.get(reverse("championship:awards", args=[season.name])).content.decode()
    assert "Trophée du record" in html
    assert "Plus haut total d&#x27;une manche de la saison : 380" in html
    assert "Mur de la défense" in html
    assert "1 contrat mis en échec en défense" in html
    assert html.count("non attribué") == 3  # wooden spoon, best taker, most chelems
    bruno = Player.objects.get(name="Bruno")
    assert reverse("championship:player", args=[bruno.pk]) in html


def test_it_lists_the_seasons_with_podium_and_champion(client, season):
    rounds(season, 3)
    html = client.get(reverse("championship:seasons")).content.decode()
    assert "Saison 2010-2011" in html
    assert "pas encore désigné" in html
    podium = html[html.index('<ol class="podium">') : html.index("</ol>")]
    assert [name for name in NAMES if name in podium] == ["Alice", "Bruno", "Chloé"]
    play(season, {"Chloé": 300, "Bruno": 100, "Alice": 0, "David": -100, "Émile": -300}, stage=Round.FINAL)
    html = client.get(reverse("championship:seasons")).content.decode()
    champion = html[html.index('class="champion"') : html.index("</p>", html.index('class="champion"'))]
    assert "Chloé" in champion


def test_it_shows_a_players_history_chart_and_statistics(client, season):
    for day in (1, 2, 3):
        play(season, dict.fromkeys(NAMES), deals=PRESTIGE_AND_CHELEM, date=datetime.date(2010, 10, day))
    chloe = Player.objects.get(name="Chloé")
    response = client.get(reverse("championship:player", args=[chloe.pk]))
    html = response.content.decode()
    assert "<svg" in html and "<polyline" in html
    assert "Points cumulés" in html and "Manches de la saison" in html
    drawings = re.findall(r"<svg.*?</svg>", html, re.S)  # the wide chart and the phone's
    assert len(drawings) == 2 and [drawing.count('class="dot"') for drawing in drawings] == [3, 3]
    assert reverse("championship:season", args=[season.name]) in html
    stats = response.context["stats"]
    garde = next(c for c in stats["contracts"] if c["code"] == "garde")
    assert (garde["takes"], garde["made"], garde["rate"]) == (3, 3, 100)
    assert (stats["defended"], stats["defended_failed"]) == (6, 3)
    assert stats["chelems"] == 3
    assert stats["called"] == 0
    alice = Player.objects.get(name="Alice")
    stats = client.get(reverse("championship:player", args=[alice.pk])).context["stats"]
    contre = next(c for c in stats["contracts"] if c["code"] == "garde_contre")
    assert (contre["takes"], contre["made"], contre["rate"]) == (3, 0, 0)


def test_it_counts_petits_poignees_and_miseres_on_the_players_page(client, season):
    make_round(season)
    homologate_round(Round.objects.get())
    players = {p.name: p for p in Player.objects.all()}
    bruno = client.get(reverse("championship:player", args=[players["Bruno"].pk])).context["stats"]
    assert (bruno["petit_attack"], bruno["poignees_total"], bruno["miseres"]) == (1, 1, 0)
    assert (bruno["defended"], bruno["defended_failed"]) == (1, 1)
    chloe = client.get(reverse("championship:player", args=[players["Chloé"].pk])).context["stats"]
    assert (chloe["miseres"], chloe["petit_defence"], chloe["defended_failed"]) == (1, 0, 1)
    html = client.get(reverse("championship:player", args=[players["Chloé"].pk])).content.decode()
    assert "Misères annoncées" in html


# --- the rulebook form ------------------------------------------------------------------------------


def rulebook_url(season):
    return reverse("championship:season_rulebook", args=[season.name])


def test_it_lets_only_the_board_open_the_rulebook_form(client, season, users):
    for who, user in users.items():
        client.logout()
        login(client, user)
        response = client.get(rulebook_url(season))
        expected = {"anonymous": 302, "member": 403, "secretary": 403, "president": 200}[who]
        assert response.status_code == expected, who
        if who == "anonymous":
            assert response.url.startswith(reverse("login"))
    assert "Enregistrer et recalculer la saison" in response.content.decode()
    client.logout()
    before = season.rulebook_text
    client.force_login(users["secretary"])
    text = before.replace("5 = [10, 7, 5, 3, 1]", "5 = [12, 8, 5, 2, 0]")
    assert client.post(rulebook_url(season), {"rulebook_text": text}).status_code == 403
    season.refresh_from_db()
    assert season.rulebook_text == before


def test_it_recomputes_the_season_when_the_board_changes_the_rulebook(client, season, president):
    rounds(season, 3)
    client.force_login(president.user)
    assert "Modifier le règlement" in client.get(season_url(season)).content.decode()
    text = season.rulebook_text.replace("5 = [10, 7, 5, 3, 1]", "5 = [12, 8, 5, 2, 0]")
    response = client.post(rulebook_url(season), {"rulebook_text": text, "reason": "barème 2011"})
    assert response.status_code == 302
    assert response.url == season_url(season)
    response = client.get(response.url + "?as_of=2010-10-02")
    assert "classement recalculé" in response.content.decode()
    points = {row.player.name: row.points for row in response.context["standings"].ranked}
    assert points == {"Alice": 36, "Bruno": 24, "Chloé": 15, "David": 6, "Émile": 3}
    season.refresh_from_db()
    assert season.history.first().history_user == president.user


def test_it_refuses_a_bad_rulebook_naming_the_field_and_saves_nothing(client, season, president):
    rounds(season, 3)
    client.force_login(president.user)
    before = season.rulebook_text
    lines = list(ChampionshipLine.objects.values_list("pk", "points"))
    bad = before.replace("5 = [10, 7, 5, 3, 1]", "5 = [10, 7, 5, 3]")
    response = client.post(rulebook_url(season), {"rulebook_text": bad, "reason": "essai"})
    assert response.status_code == 200
    html = response.content.decode()
    assert (
        "Règlement refusé, rien n&#x27;est enregistré — championship.rank_points.5 : doit donner 5 valeurs"
        in html
    )
    assert "5 = [10, 7, 5, 3]" in html  # the text typed is kept for correction
    season.refresh_from_db()
    assert season.rulebook_text == before
    assert list(ChampionshipLine.objects.values_list("pk", "points")) == lines
    response = client.post(
        rulebook_url(season), {"rulebook_text": before.replace("chip_unit = 10", "chip_unit = dix")}
    )
    assert "fichier TOML illisible à la ligne" in response.content.decode()


def test_it_names_the_seasons_tie_breaks_under_the_table_in_both_languages(client, season):
    rounds(season, 3)
    french = client.get(season_url(season)).content.decode()
    assert (
        "Égalités de points départagées dans l'ordre par : victoires de manche, deuxièmes places, "
        "somme des totaux de manche, moins de manches jouées." in french
    )
    english = client.get(season_url(season), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ties on points are broken, in order, by: round wins, second places" in english


def test_the_ranking_is_provisional_until_the_season_ends(client, season):
    play(season, {"Alice": 300, "Bruno": 100, "Chloé": -100, "David": -100, "Émile": -200})
    assert "<h2>Classement provisoire</h2>" in client.get(season_url(season)).content.decode()
    season.is_open = False
    season.save()
    html = client.get(season_url(season)).content.decode()
    assert "<h2>Classement final</h2>" in html
    assert "Classement provisoire" not in html
