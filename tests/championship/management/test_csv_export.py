"""Every CSV the site or a command writes is safe to open in a spreadsheet (OWASP, CSV injection):
a text cell beginning with =, +, -, @, tab or CR gets a leading single quote; numbers stay numbers.
Names stored before the entry rules (legacy data) are the case to cover.
"""

import csv
import datetime
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from federation.models import Player
from tests.championship.standings.test_standings import play

LEGACY = ["=cmd|' /C calc'!A0", "+33 6 12", "-800", "@SUM(A1:A9)", "\tTab\rRetour"]
ESCAPED = ["'=cmd|' /C calc'!A0", "'+33 6 12", "'-800", "'@SUM(A1:A9)", "'\tTab\rRetour"]


@pytest.fixture
def legacy_season(season):
    """Four rounds of five players whose names were stored before the rules (no validation)."""
    for name in LEGACY:
        Player.objects.create(name=name)
    for day in range(4):
        totals = dict(zip(LEGACY, (200, 100, 0, -100, -200), strict=True))
        play(season, totals, date=datetime.date(2010, 10, 1) + datetime.timedelta(days=day))
    return season


def expected_rows():
    return [
        ["1", "", ESCAPED[0], "40", "4", "4", "0", "800", "'="],
        ["2", "", ESCAPED[1], "28", "4", "0", "4", "400", "'="],
        ["3", "", ESCAPED[2], "20", "4", "0", "0", "0", "'="],
        ["4", "", ESCAPED[3], "12", "4", "0", "0", "-400", "'="],
        ["5", "", ESCAPED[4], "8", "4", "0", "0", "-800", "'="],
    ]


def test_the_standings_csv_of_the_site_escapes_formula_names(client, legacy_season):
    url = reverse("championship:season", args=[legacy_season.name]) + "?_export=csv&as_of=2010-10-05"
    response = client.get(url)
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8"), newline="")))
    assert rows[1:] == expected_rows()


def test_the_standings_command_escapes_formula_names(legacy_season):
    out = io.StringIO()
    call_command("standings", "2010-2011", "--format", "csv", "--as-of", "2010-10-05", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    assert rows[1:] == expected_rows()


def test_the_standings_json_keeps_the_names_as_stored(legacy_season):
    out = io.StringIO()
    call_command("standings", "2010-2011", "--format", "json", "--as-of", "2010-10-05", stdout=out)
    assert out.getvalue().count('"player": "=cmd|\' /C calc\'!A0"') == 1
