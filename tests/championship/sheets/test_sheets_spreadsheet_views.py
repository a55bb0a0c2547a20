"""Spreadsheets on the site: the template, the preview of an upload, round and season workbooks."""

import html
import io
import json
import re

from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from championship.models import Round
from championship.services import delete_draft_round, homologate_round
from championship.sheets.workbooks import render, round_tables
from tests.conftest import make_player
from tests.factories import EXAMPLE_TOTALS

IMPORT_URL = reverse("championship:round_import")


def model_counts():
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def text_of(response):
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode())).replace("\xa0", " ")


def example_xlsx(example):
    """The example round's workbook, the round deleted so that it can be imported again."""
    data = render(round_tables(example), "xlsx")
    delete_draft_round(example, reason="réimporter sa feuille")
    return data


def post(client, data, name="manche.xlsx", **fields):
    return client.post(IMPORT_URL, {"sheet": SimpleUploadedFile(name, data), **fields})


def test_it_previews_a_spreadsheet_then_imports_it_on_confirmation(client, example, secretary):
    data = example_xlsx(example)
    client.force_login(secretary.user)
    counts = model_counts()
    response = post(client, data, action="preview")
    assert response.status_code == 200
    assert model_counts() == counts  # a preview writes nothing
    page = text_of(response)
    assert "Saison 2010-2011, manche 1 du 19 novembre 2010 : la feuille est correcte." in page
    assert "Garde — Bruno" in page and "−650" in page and "+380" in page
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', response.content.decode()))
    fields = {key: html.unescape(value) for key, value in fields.items()}
    assert fields["file_name"] == "manche.xlsx" and fields["action"] == "confirm"
    response = client.post(IMPORT_URL, fields)
    round_ = Round.objects.get()
    assert response.status_code == 302 and response["Location"] == round_.get_absolute_url()
    assert {seat.player.name: seat.total for seat in round_.seats.all()} == EXAMPLE_TOTALS
    assert round_.status == Round.DRAFT


def test_it_shows_the_cell_of_an_error_on_the_upload_page(client, example, secretary):
    book = load_workbook(io.BytesIO(example_xlsx(example)))
    book["Donnes"]["I2"] = 92
    out = io.BytesIO()
    book.save(out)
    client.force_login(secretary.user)
    counts = model_counts()
    response = post(client, out.getvalue(), action="preview")
    assert model_counts() == counts
    assert "manche.xlsx, feuille Donnes, ligne 2, colonne Points : 92 n'est pas entre 0 et 91" in text_of(
        response
    )


def test_it_refuses_a_tampered_confirmation_with_the_same_checks(client, example, secretary):
    client.force_login(secretary.user)
    sheet = {"season": "2010-2011", "number": 1, "date": "2010-11-19", "players": [], "totals": {}}
    response = client.post(
        IMPORT_URL, {"action": "confirm", "file_name": "manche.xlsx", "sheet_json": json.dumps(sheet)}
    )
    assert response.status_code == 200
    assert "la manche 1 de la saison 2010-2011 existe déjà" in text_of(response)
    assert Round.objects.count() == 1


def test_it_offers_the_template_to_everyone(client, db):
    response = client.get(reverse("championship:sheet_template", args=["xlsx"]))
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert response["Content-Disposition"] == 'attachment; filename="feuille-de-manche.xlsx"'
    book = load_workbook(io.BytesIO(response.content))
    assert "Donnes" in book.sheetnames
    response = client.get(reverse("championship:sheet_template", args=["ods"]))
    assert response["Content-Type"] == "application/vnd.oasis.opendocument.spreadsheet"
    assert client.get(IMPORT_URL).status_code == 302  # the upload page itself needs an official


def test_it_renders_the_template_once_per_process(client, db, monkeypatch):
    """The blank sheet depends on the code alone: rendered once, then the same bytes to all."""
    from championship.views import sheets  # noqa: PLC0415

    rendered = []

    def counted(tables, fmt):
        rendered.append(fmt)
        return render(tables, fmt)

    monkeypatch.setattr(sheets, "render_workbook", counted)
    sheets.blank_sheet.cache_clear()
    url = reverse("championship:sheet_template", args=["xlsx"])
    first = client.get(url).content
    client.force_login(make_player("Joueur").user)  # another visitor, in another language
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="en").content == first
    assert rendered == ["xlsx"]
    assert load_workbook(io.BytesIO(first)).sheetnames
    sheets.blank_sheet.cache_clear()


def test_it_links_the_workbooks_from_the_round_and_standings_pages(client, example, president):
    homologate_round(example, user=president.user)
    url = reverse("championship:round_workbook", args=[example.pk, "xlsx"])
    assert url in client.get(example.get_absolute_url()).content.decode()
    response = client.get(url)
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == [
        "Manche",
        "Joueurs",
        "Donnes",
        "Bonus et malus",
        "Parts",
        "Totaux",
        "Championnat",
    ]
    assert response["Content-Disposition"] == 'attachment; filename="manche-2010-2011-1.xlsx"'
    season_url = reverse("championship:season_workbook", args=["2010-2011", "ods"])
    assert season_url in client.get(reverse("championship:season", args=["2010-2011"])).content.decode()
    assert client.get(season_url).status_code == 200


def test_it_leaves_the_drafts_out_of_a_season_workbook_for_the_public(client, example, secretary):
    url = reverse("championship:season_workbook", args=["2010-2011", "xlsx"])
    public = load_workbook(io.BytesIO(client.get(url).content))
    assert public["Manches"].max_row == 1  # the headers alone
    client.force_login(secretary.user)
    book = load_workbook(io.BytesIO(client.get(url).content))
    manches = book["Manches"]
    headers = [cell.value for cell in manches[1]]
    assert headers[:6] == ["Phase", "Table", "Manche", "Date", "Lieu", "Statut"]
    row = [cell.value for cell in manches[2]]
    assert row[2] == 1 and row[5] == "brouillon"
    assert dict(zip(headers[6:], row[6:], strict=True)) == EXAMPLE_TOTALS
    assert book["Donnes"].max_row == 5  # headers and the example's four deals
