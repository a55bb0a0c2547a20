"""What the security review of issue 21 found held, kept held: open redirects, logout by GET,
session fixation, rounds of another season (IDOR), the signed past-season import token (another
season's board, a demotion between preview and import). Elsewhere: a confirmation used twice
(``test_sheets_season_import_views``), ZIP bombs, entities, DDE and macro workbooks
(``test_sheets_hostile``), drafts kept out of exports and feeds and formulas escaped in every
export (the tests of each, and the season workbook's below).
"""

import datetime
import html
import io
import zipfile

import pytest
from django.contrib.auth import SESSION_KEY
from django.urls import reverse
from openpyxl import load_workbook

from championship.models import Round
from federation.models import Official, Season
from tests.championship.management.test_csv_export import ESCAPED, legacy_season  # noqa: F401
from tests.championship.sheets.test_sheets_season_import import root  # noqa: F401  (the table's players)
from tests.championship.sheets.test_sheets_season_import_views import page, preview, rows_2010, token_of
from tests.conftest import make_player
from tests.factories import make_round

EVIL = ["https://evil.example/", "//evil.example/", "https:evil.example", "/\\evil.example/"]


@pytest.mark.parametrize("target", EVIL)
def test_the_login_never_sends_elsewhere(client, member, target):
    response = client.post(
        reverse("login") + f"?next={target}",
        {"username": "membre", "password": "secret-pass-1", "next": target},
    )
    assert response.status_code == 302
    assert response.url == reverse("federation:home")


@pytest.mark.parametrize("target", EVIL)
def test_the_language_switch_never_sends_elsewhere(client, db, target):
    response = client.post(reverse("set_language"), {"language": "en", "next": target})
    assert response.status_code == 302
    assert response.url == "/"


@pytest.mark.parametrize("target", EVIL)
def test_the_logout_never_sends_elsewhere_and_needs_a_post(client, member, target):
    client.force_login(member.user)
    assert client.get(reverse("logout")).status_code == 405
    assert SESSION_KEY in client.session  # still logged in
    response = client.post(reverse("logout"), {"next": target})
    assert response.status_code == 302 and response.url == reverse("federation:home")
    assert SESSION_KEY not in client.session


def test_a_login_gives_a_new_session(client, member):
    """Session fixation: the session a visitor had before logging in is not the member's."""
    client.get(reverse("login"))
    session = client.session
    session["visite"] = "avant"
    session.save()
    before = session.session_key
    client.post(reverse("login"), {"username": "membre", "password": "secret-pass-1"})
    assert SESSION_KEY in client.session
    assert client.session.session_key != before


@pytest.fixture
def later_season(db):
    return Season.objects.create(
        name="2011-2012", start_date=datetime.date(2011, 9, 1), end_date=datetime.date(2012, 6, 30)
    )


def test_the_secretary_of_another_season_cannot_touch_a_round(client, season, secretary, later_season):
    """IDOR: the rounds of 2010-2011 by their number, for the secretary of 2011-2012."""
    draft = make_round(season)
    other = make_player("Autre")
    Official.objects.create(season=later_season, player=other, role=Official.SECRETARY)
    client.force_login(other.user)
    assert client.get(reverse("championship:round", args=[draft.pk])).status_code == 404
    assert client.get(reverse("championship:round_edit", args=[draft.pk])).status_code in (403, 404)
    response = client.post(reverse("championship:round_submit", args=[draft.pk]), {"version": draft.version})
    assert response.status_code in (403, 404)
    assert client.get(f"/manches/{draft.pk}/feuille.json").status_code in (403, 404)
    draft.refresh_from_db()
    assert draft.status == Round.DRAFT


def test_the_board_of_another_season_cannot_import_into_this_one(client, season, later_season):
    president = make_player("Président 2011")
    Official.objects.create(season=later_season, player=president, role=Official.PRESIDENT)
    client.force_login(president.user)
    response = preview(client, rows_2010(), name="saison.csv", season="2010-2011")
    assert "Seuls le secrétaire et la Direction de la saison 2010-2011 importent ses manches." in page(
        response
    )
    assert not Round.objects.exists()


def test_a_president_demoted_after_the_preview_does_not_homologate(client, root, season, president):  # noqa: F811
    client.force_login(president.user)
    token = token_of(preview(client, rows_2010(), name="saison.csv", season="2010-2011", homologate=True))
    Official.objects.filter(season=season, player=president).update(role=Official.SECRETARY)
    response = client.post("/saisons/importer/", {"action": "confirm", "token": token})
    assert response.status_code == 403  # no longer of any board: the page itself is refused
    assert not Round.objects.exists()
    # still of the board of another season: the token is checked again for this one
    later = Season.objects.create(name="2011-2012", start_date="2011-09-01", end_date="2012-06-30")
    Official.objects.create(season=later, player=president, role=Official.PRESIDENT)
    response = client.post("/saisons/importer/", {"action": "confirm", "token": token})
    assert "Seule la Direction de la saison 2010-2011 peut homologuer ses manches." in page(response)
    assert not Round.objects.exists()


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_the_season_workbook_writes_no_formula(client, legacy_season, fmt):  # noqa: F811
    """Names stored before the entry rules, each beginning a formula: written as texts."""
    response = client.get(reverse("championship:season_workbook", args=[legacy_season.name, fmt]))
    assert response.status_code == 200
    if fmt == "xlsx":
        book = load_workbook(io.BytesIO(response.content))
        cells = [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row]
        assert not [cell.coordinate for cell in cells if cell.data_type == "f"]
        values = {cell.value for cell in cells}
    else:
        with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
            content = archive.read("content.xml").decode()
        assert "table:formula" not in content
        values = html.unescape(content)
    for escaped in ESCAPED[:4]:
        assert escaped in values
