"""The season bulletin stays a handful of pages whatever the size of the season: the ranking
(in full, then compact), the awards, the cup, the rounds summed up with the latest in full, the
late reports by author."""

import datetime
import io
import random

import pytest
from django.urls import reverse
from pypdf import PdfReader

from championship.models import Round
from championship.reports.bulletin import BULLETIN_DETAILED_ROWS, BULLETIN_LATEST_ROUNDS, bulletin_context
from championship.services import create_round
from federation.models import Player

ROUNDS = 120
PLAYERS = 100
MAX_PAGES = 5


@pytest.fixture(autouse=True)
def pdf_store(settings, tmp_path):
    settings.PDF_CACHE_DIR = tmp_path / "pdf"


@pytest.fixture
def big_season(season):
    rng = random.Random(12)
    people = [Player.objects.create(name=f"Joueur {index:03d}") for index in range(PLAYERS)]
    for number in range(1, ROUNDS + 1):
        date = season.start_date + datetime.timedelta(days=number * 2)
        table = rng.sample(people, 5)
        values = [rng.randrange(-60, 61, 10) for _ in range(4)]
        report = None
        if number % 4:  # one report in four missing, one in four filed two weeks late
            late = 14 if number % 4 == 1 else 0
            filed_on = date + datetime.timedelta(days=late)
            report = {"author": table[0], "text": "Belle soirée.", "filed_on": filed_on}
        create_round(
            season,
            table,
            totals=dict(zip([p.name for p in table], [*values, -sum(values)], strict=True)),
            number=number,
            date=date,
            place=f"Bar {number % 7}",
            status=Round.HOMOLOGATED,
            report=report,
        )
    return season


def bulletin(client, season):
    response = client.get(reverse("championship:bulletin_pdf", args=[season.name]), {"as_of": "2011-06-30"})
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.content))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split()), reader


def test_it_keeps_the_bulletin_of_a_big_season_to_a_few_pages(client, big_season):
    context = bulletin_context(big_season, datetime.date(2011, 6, 30))
    standings = context["standings"]
    assert len(standings.ranked) > BULLETIN_DETAILED_ROWS and len(standings.late) > 10
    text, reader = bulletin(client, big_season)
    assert len(reader.pages) <= MAX_PAGES
    # the whole ranking, in order: the detailed rows, then the compact ones
    assert "Classement provisoire" in text and "Accessits" in text and "Coupe du Monde" in text
    for row in (standings.ranked[0], standings.ranked[BULLETIN_DETAILED_ROWS], standings.ranked[-1]):
        assert row.player.name in text
    # the rounds summed up, the latest in full
    summary = context["summary"]
    assert summary.count == ROUNDS and summary.missing == ROUNDS // 4
    assert f"{ROUNDS} manches homologuées, du 3 septembre 2010 au 29 avril 2011, en 7 lieux" in text
    assert "Comptes-rendus : 60 à temps, 30 en retard, 30 pas encore rendus" in text
    assert f"Les {BULLETIN_LATEST_ROUNDS} dernières manches" in text and "Manches gagnées" in text
    assert [item.round.number for item in context["latest_rounds"]] == list(range(111, ROUNDS + 1))
    # the late reports by author, worst first
    assert "Comptes-rendus en retard" in text and "de retard, par auteur" in text
    worst = context["late_by_author"][0]
    assert worst.points == min(line.points for line in context["late_by_author"])
    assert worst.player.name in text[text.index("par auteur") :]
