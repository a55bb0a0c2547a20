"""Printable PDFs: the report, the season bulletin, the command, and the offline URL fetcher."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from pypdf import PdfReader

from championship.lib import pdf
from championship.lib.pdf import BASE_URL, StaticFilesFetcher, render_html, render_pdf, static_file
from championship.models import Report, Round
from tests.factories import EXAMPLE_PLAYERS, make_round, player

from .test_reports import HOSTILE


@pytest.fixture(autouse=True)
def pdf_store(settings, tmp_path):
    """Each test its own store of PDFs."""
    settings.PDF_CACHE_DIR = tmp_path / "pdf"


def pdf_text(content):
    """The text of a PDF, whitespace (line breaks included) collapsed to single spaces."""
    reader = PdfReader(io.BytesIO(content))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split()), reader


@pytest.fixture
def homologated(season):
    round_ = make_round(
        season, status=Round.HOMOLOGATED, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")]
    )
    Report.objects.create(
        round=round_,
        author=player("Bruno"),
        text="Bruno a **tout** raflé, Alice a sombré sur une garde sans.",
        filed_on=datetime.date(2010, 11, 24),
    )
    return round_


def test_it_downloads_the_report_as_a_real_pdf(client, homologated):
    response = client.get(reverse("championship:report_pdf", args=[homologated.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert 'filename="compte-rendu-2010-2011-manche-1.pdf"' in response["Content-Disposition"]
    content = response.content
    assert content.startswith(b"%PDF")
    text, reader = pdf_text(content)
    assert len(reader.pages) >= 2
    assert "Fédération Française de Tarot-Bière" in text and "Championnat du Monde" in text
    for name in EXAMPLE_PLAYERS:
        assert name in text
    for total in ("380", "220", "650"):
        assert total in text
    assert "Bruno a tout raflé" in text
    assert "arrivé à 21h30" in text  # a malus with its reason
    assert "Garde sans" in text and "Plus grosse donne" in text
    assert f"page 1 / {len(reader.pages)}" in text
    landscape = [page for page in reader.pages if page.mediabox.width > page.mediabox.height]
    assert not landscape, "every page is portrait, the deals' grid too (read on a phone)"


def test_it_neutralises_hostile_markdown_in_the_pdf(homologated):
    homologated.report.text = HOSTILE
    homologated.report.save()
    from championship.reports.display import report_display

    content = render_pdf("championship/reports/report_pdf.html", {"display": report_display(homologated)})
    text, reader = pdf_text(content)
    assert "Une belle soirée" in text and "le site" in text
    assert "alert" not in text and "cadre" not in text
    assert b"/JavaScript" not in content and b"/JS " not in content and b"/JS(" not in content
    uris = [
        annotation.get_object().get("/A", {}).get("/URI")
        for page in reader.pages
        for annotation in page.get("/Annots") or []
    ]
    assert [uri for uri in uris if uri] == ["https://fftb.example/"]


def test_it_refuses_the_pdf_of_an_unpublished_round_to_anonymous(client, season):
    round_ = make_round(season, status=Round.SUBMITTED)
    assert client.get(reverse("championship:report_pdf", args=[round_.pk])).status_code == 404


def test_it_gives_the_secretary_the_pdf_of_a_submitted_round(client, season, secretary):
    round_ = make_round(season, status=Round.SUBMITTED)
    client.force_login(secretary.user)
    response = client.get(reverse("championship:report_pdf", args=[round_.pk]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert "pas encore été rendu" in pdf_text(response.content)[0]


def test_it_writes_the_report_pdf_from_the_command(homologated, tmp_path):
    out = io.StringIO()
    target = tmp_path / "cr.pdf"
    call_command("report_pdf", "2010-2011", "1", "-o", str(target), stdout=out)
    assert target.read_bytes().startswith(b"%PDF")
    assert "Bruno a tout raflé" in pdf_text(target.read_bytes())[0]
    assert str(target) in out.getvalue()


def test_it_finds_play_off_rounds_from_the_command(season, tmp_path):
    make_round(season, stage=Round.PLAYOFF, table="B", number=1, status=Round.HOMOLOGATED)
    target = tmp_path / "b.pdf"
    call_command("report_pdf", "2010-2011", "1", "--stage", "playoff", "--table", "B", "-o", str(target))
    assert "Play-off, table B" in pdf_text(target.read_bytes())[0]


def test_it_explains_a_missing_round_in_french(season, tmp_path):
    with pytest.raises(
        CommandError, match="Aucune manche 7 \\(saison régulière\\) dans la saison « 2010-2011 »"
    ):
        call_command("report_pdf", "2010-2011", "7", "-o", str(tmp_path / "x.pdf"))
    with pytest.raises(CommandError, match="--table"):
        call_command("report_pdf", "2010-2011", "1", "--stage", "playoff", "-o", str(tmp_path / "x.pdf"))


def test_it_prints_the_season_bulletin_with_the_ranking_and_awards(client, season):
    for number in (1, 2, 3):
        round_ = make_round(
            season, number=number, status=Round.HOMOLOGATED, date=datetime.date(2010, 11, number)
        )
        Report.objects.create(round=round_, author=player("Bruno"), filed_on=round_.date)
    response = client.get(reverse("championship:bulletin_pdf", args=["2010-2011"]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert 'filename="bulletin-2010-2011.pdf"' in response["Content-Disposition"]
    text, _reader = pdf_text(response.content)
    # the season is still open: its ranking is provisional
    assert "Bulletin de la saison 2010-2011" in text and "Classement provisoire" in text
    assert "Classement final" not in text
    ranking = text[text.index("Classement provisoire") : text.index("Accessits")]
    positions = [ranking.index(name) for name in ("Bruno", "David", "Chloé", "Émile", "Alice")]
    assert positions == sorted(positions)
    assert "Trophée du record" in text and "Cuillère de bois" in text
    assert (
        "Coupe du Monde" in text
        and "finale directe entre Bruno (1), David (2), Chloé (3), Émile (4), Alice (5)" in text
    )
    assert "1er novembre 2010" in text and "rendu à temps" in text  # the first of the month: « 1er »


def test_it_prints_the_cup_champion_in_the_bulletin(client, season):
    for number in (1, 2, 3):
        round_ = make_round(
            season, number=number, status=Round.HOMOLOGATED, date=datetime.date(2010, 11, number)
        )
        Report.objects.create(round=round_, author=player("Bruno"), filed_on=round_.date)
    final = make_round(
        season, stage=Round.FINAL, number=1, status=Round.HOMOLOGATED, date=datetime.date(2011, 6, 1)
    )
    Report.objects.create(round=final, author=player("Bruno"), filed_on=final.date)
    response = client.get(reverse("championship:bulletin_pdf", args=["2010-2011"]), {"as_of": "2011-06-02"})
    text = pdf_text(response.content)[0]
    assert "Champion du Monde de Tarot-Bière 2010-2011 : Bruno" in text
    assert "La finale" in text


def test_it_answers_404_for_the_bulletin_of_an_unknown_season(client, db):
    assert client.get(reverse("championship:bulletin_pdf", args=["1999-2000"])).status_code == 404


# --- no network: the URL fetcher -------------------------------------------------------------------


def test_it_serves_our_static_files_from_disk():
    response = StaticFilesFetcher().fetch(BASE_URL + "static/css/pdf.css")
    assert b"@page" in response.read()
    assert response.content_type == "text/css"


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/static/css/pdf.css",
        "http://pdf.tarot-biere.invalid/static/css/pdf.css",
        BASE_URL + "media/secret.txt",
        BASE_URL + "static/../../federation/settings.py",
        BASE_URL + "static/%2e%2e/%2e%2e/federation/settings.py",
        "file:///etc/passwd",
        "data:text/css,body{}",
    ],
)
def test_it_refuses_every_other_url(url):
    assert static_file(url) is None
    with pytest.raises(ValueError):
        StaticFilesFetcher().fetch(url)


def test_it_renders_a_pdf_without_fetching_remote_resources(tmp_path, settings):
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "DIRS": [*engine["DIRS"], tmp_path]}]
    (tmp_path / "remote.html").write_text(
        '{% extends "print.html" %}{% block content %}<p>Hors ligne.</p>'
        '<img src="http://127.0.0.1:9/pixel.png"><link rel="stylesheet" href="https://evil.example/x.css">'
        "{% endblock %}"
    )
    content = render_pdf("remote.html", {})
    assert "Hors ligne." in pdf_text(content)[0]


def test_it_prints_the_bulletin_as_of_a_date(client, season):
    make_round(season, status=Round.HOMOLOGATED, date=datetime.date(2010, 11, 1))
    url = reverse("championship:bulletin_pdf", args=["2010-2011"])
    text = pdf_text(client.get(url, {"as_of": "2010-11-20"}).content)[0]
    assert "Classement au 20 novembre 2010" in text
    assert "manquant, en retard de 2 semaines entamées" in text
    response = client.get(url, {"as_of": "20/11/2010"})
    assert response.status_code == 400 and "as_of" in response.content.decode()


def test_it_reports_a_totals_only_round_on_the_page_and_in_the_pdf(client, season):
    totals = {"Alice": 100, "Bruno": -50, "Chloé": -50, "David": 30, "Émile": -30}
    round_ = make_round(season, totals=totals, status=Round.HOMOLOGATED)
    html = client.get(reverse("championship:report", args=[round_.pk])).content.decode()
    assert "totaux seuls" in html and "<svg" not in html
    text = pdf_text(client.get(reverse("championship:report_pdf", args=[round_.pk])).content)[0]
    assert "Alice" in text and "totaux seuls" in text and "Les donnes" not in text


# --- the stylesheet, parsed once per process --------------------------------------------------------


def test_it_parses_the_pdf_stylesheet_once_for_many_renders():
    first = pdf.stylesheet()
    parses = pdf.parses
    for _ in range(3):
        assert pdf.html_to_pdf("<p>Bonjour</p>").startswith(b"%PDF")
    assert pdf.parses == parses
    assert pdf.stylesheet() is first
    assert "css/pdf.css" not in render_html("championship/reports/report_pdf.html", {"display": None})


def test_it_parses_the_stylesheet_again_when_the_file_changes(tmp_path):
    css = tmp_path / "pdf.css"
    css.write_text("p { color: red; }")
    first = pdf.stylesheet(css)
    assert pdf.stylesheet(css) is first
    css.write_text("p { color: blue; margin: 0; }")
    second = pdf.stylesheet(css)
    assert second is not first and second.digest != first.digest
    assert pdf.stylesheet(css) is second


def test_it_lays_out_the_pdf_with_the_stylesheet(tmp_path):
    """The style reaches the PDF although the HTML links no stylesheet: A4 pages, page numbers."""
    reader = PdfReader(io.BytesIO(pdf.html_to_pdf("<p>Bonjour</p>")))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    assert "page 1 / 1" in reader.pages[0].extract_text()
