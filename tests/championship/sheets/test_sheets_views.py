"""Upload and download of round sheets through the site, with every role."""

import html
import json
import re
from pathlib import Path

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from championship.models import Round
from championship.services import homologate_round
from federation.models import Player
from tests.factories import EXAMPLE_PLAYERS, EXAMPLE_TOTALS, make_round

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sheets"
IMPORT_URL = reverse("championship:round_import")


@pytest.fixture
def players(db):
    return {name: Player.objects.create(name=name) for name in EXAMPLE_PLAYERS}


def example(**changes):
    sheet = json.loads((FIXTURES / "example.json").read_text("utf-8"))
    sheet.update(changes)
    return sheet


def upload(client, sheet, name="manche.json", **fields):
    content = sheet if isinstance(sheet, bytes) else json.dumps(sheet, ensure_ascii=False).encode()
    data = {"sheet": SimpleUploadedFile(name, content, content_type="application/json"), **fields}
    return client.post(IMPORT_URL, data)


def text_of(response):
    """The page as a reader sees it: tags removed, entities decoded, non-breaking spaces as spaces."""
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode())).replace("\xa0", " ")


def model_counts():
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def login(client, player):
    client.force_login(player.user)
    return client


# --- the upload form ------------------------------------------------------------------------------


def test_it_sends_anonymous_visitors_to_the_login_page(client, season):
    response = client.get(IMPORT_URL)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert upload(client, example()).status_code == 302
    assert not Round.objects.exists()


def test_it_refuses_the_form_to_a_player(client, member, season, players):
    login(client, member)
    assert client.get(IMPORT_URL).status_code == 403
    assert upload(client, example()).status_code == 403
    assert not Round.objects.exists()


def test_it_shows_the_form_to_the_secretary_without_homologation(client, secretary):
    response = login(client, secretary).get(IMPORT_URL)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'type="file"' in page and 'name="create_players"' in page
    assert 'name="homologate"' not in page
    assert "saison 2010-2011" in page


def test_it_shows_the_homologation_checkbox_to_an_official(client, president):
    response = login(client, president).get(IMPORT_URL)
    assert response.status_code == 200
    assert 'name="homologate"' in response.content.decode()


def test_it_imports_a_draft_round_for_the_secretary(client, secretary, players):
    response = upload(login(client, secretary), example(), homologate="on")
    round_ = Round.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "championship:round", args=[round_.pk]
    )
    assert round_.status == Round.DRAFT  # the checkbox is not the secretary's to tick
    assert {s.player.name: s.total for s in round_.seats.select_related("player")} == EXAMPLE_TOTALS
    assert round_.adjustments.get().entered_by == secretary.user
    followed = client.get(response["Location"])
    assert "2010-2011 — manche 12 importée (brouillon)." in followed.content.decode()


def test_it_imports_and_homologates_for_an_official(client, president, players):
    response = upload(login(client, president), example(), homologate="on")
    assert response.status_code == 302
    round_ = Round.objects.get()
    assert round_.status == Round.HOMOLOGATED and round_.homologated_by == president.user
    assert round_.championship_lines.count() == 10


def test_it_shows_every_error_in_french_and_changes_nothing(client, secretary, players):
    sheet = example()
    sheet["deals"][3]["points"] = 92
    sheet["expected_totals"]["Chloé"] = 40
    sheet["players"][4]["name"] = "Emile"
    login(client, secretary).get(IMPORT_URL)
    before = model_counts()
    response = upload(client, sheet, name="demo.json")
    assert response.status_code == 200
    page = text_of(response)
    assert "Feuille refusée : rien n'a été enregistré" in page
    assert "demo.json, donne 4, champ « points » : 92 n'est pas entre 0 et 91" in page
    assert "demo.json, champ « players[5].name » : « Emile » n'est pas un joueur inscrit" in page
    assert "cochez « Inscrire les joueurs inconnus »" in page and "vouliez-vous dire « Émile » ?" in page
    assert model_counts() == before


def test_it_refuses_a_mismatch_of_expected_totals(client, secretary, players):
    response = upload(login(client, secretary), example(expected_totals={**EXAMPLE_TOTALS, "Chloé": 40}))
    assert "Chloé : attendu 40, calculé 50" in text_of(response)
    assert not Round.objects.exists()


def test_it_shows_the_line_of_malformed_json(client, secretary):
    response = upload(login(client, secretary), b'{"season": "2010-2011",\n "number": 12\n "date": 1}')
    assert "manche.json : JSON illisible à la ligne 3, colonne 2 (virgule attendue)" in text_of(response)


def test_it_creates_players_when_asked(client, secretary, season):
    response = upload(login(client, secretary), example(), create_players="on")
    assert response.status_code == 302
    assert set(Player.objects.values_list("name", flat=True)) >= set(EXAMPLE_PLAYERS)


def test_it_refuses_board_only_points_from_the_secretary(client, secretary, players):
    sheet = example()
    sheet["adjustments"][0]["points"] = -3
    response = upload(login(client, secretary), sheet)
    assert "champ « adjustments[1].points » : seule la Direction fixe des points" in text_of(response)
    assert not Round.objects.exists()


def test_it_requires_a_file(client, secretary):
    response = login(client, secretary).post(IMPORT_URL, {})
    assert response.status_code == 200
    assert "Ce champ est obligatoire." in text_of(response)


def test_it_lets_a_superuser_create_a_season_by_import(client, django_user_model, players):
    admin = django_user_model.objects.create_superuser("admin", password="secret-pass-1")
    client.force_login(admin)
    assert client.get(IMPORT_URL).status_code == 200
    response = upload(client, example(), homologate="on")
    assert response.status_code == 302
    assert Round.objects.get().season.name == "2010-2011"


# --- the download ----------------------------------------------------------------------------------


@pytest.fixture
def draft(season):
    return make_round(season, number=12, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")])


def export_url(round_):
    return reverse("championship:round_export", args=[round_.pk])


def test_it_lets_anyone_download_a_homologated_round(client, draft, president):
    homologate_round(draft, president.user)
    response = client.get(export_url(draft))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="manche-2010-2011-12.json"'
    sheet = json.loads(response.content.decode("utf-8"))
    assert sheet["results"]["totals"] == EXAMPLE_TOTALS
    assert sheet["results"]["championship"]["Bruno"] == [
        {"code": "rank", "points": 10},
        {"code": "wall", "points": 1},
        # Bruno won and never filed his report: counted up to the season's end.
        {"code": "late_report", "points": -31},
    ]


@pytest.mark.parametrize(
    "who,status", [("anonymous", 404), ("member", 404), ("secretary", 200), ("president", 200)]
)
def test_it_keeps_a_draft_round_for_those_who_enter_rounds(client, draft, request, who, status):
    if who != "anonymous":
        login(client, request.getfixturevalue(who))
    response = client.get(export_url(draft))
    assert response.status_code == status
    if status == 200:
        assert json.loads(response.content)["results"]["championship"] == {
            name: [] for name in EXAMPLE_PLAYERS
        }


def test_it_names_playoff_and_final_files(client, season, president):
    playoff = make_round(season, number=1, stage=Round.PLAYOFF, table="B", status=Round.HOMOLOGATED)
    final = make_round(season, number=1, stage=Round.FINAL, status=Round.HOMOLOGATED)
    assert (
        'filename="manche-2010-2011-playoff-B-1.json"'
        in client.get(export_url(playoff))["Content-Disposition"]
    )
    assert 'filename="manche-2010-2011-finale-1.json"' in client.get(export_url(final))["Content-Disposition"]


def test_it_answers_404_for_an_unknown_round(client, db):
    assert client.get(reverse("championship:round_export", args=[999])).status_code == 404


def test_it_round_trips_a_download_through_the_upload(client, draft, president):
    homologate_round(draft, president.user)
    exported = client.get(export_url(draft)).content
    draft.delete()
    login(client, president)
    response = upload(client, exported, name="manche-2010-2011-12.json", homologate="on")
    assert response.status_code == 302
    assert client.get(export_url(Round.objects.get())).content == exported
