"""Faults of the published record: a value echoed into an error page, and a report too long to
render (the limit of its text, in the form, the model, the service and the sheet import)."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from championship.models import Report, Round
from championship.reports.display import REPORT_TEXT_MAX_LENGTH, render_markdown, validate_report_text
from championship.services import RoundError
from championship.services.reports import file_report as save_report
from championship.sheets import SheetImportError, import_sheets
from tests.championship.sheets.test_sheets import example
from tests.factories import EXAMPLE_PLAYERS, make_round, player

from .test_reports_pdf import pdf_text
from .test_reports_views import edit_url, login, page_url, with_user

PAYLOAD = "<script>fetch('/manches/').then(r => r.text())</script>"
TOO_LONG = "a" * (REPORT_TEXT_MAX_LENGTH + 1)


@pytest.fixture
def homologated(season):
    return make_round(season, status=Round.HOMOLOGATED)


@pytest.fixture
def bruno(homologated):
    return with_user(player("Bruno"))  # the winner, so the author


# --- reflected XSS on the bulletin ----------------------------------------------------------------


def test_it_escapes_a_hostile_date_on_the_bulletin_error_page(client, season):
    response = client.get(reverse("championship:bulletin_pdf", args=["2010-2011"]), {"as_of": PAYLOAD})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "<script>" not in html and "fetch(" not in html.replace("fetch(&#x27;", "")
    assert "&lt;script&gt;" in html
    assert "Date « as_of » invalide" in html and "AAAA-MM-JJ" in html
    assert 'class="site-header"' in html  # in the site's layout
    assert response.templates[0].name == "championship/reports/error.html"


def test_it_shortens_a_long_date_it_echoes(client, season):
    response = client.get(reverse("championship:bulletin_pdf", args=["2010-2011"]), {"as_of": "x" * 5000})
    assert response.status_code == 400
    html = response.content.decode()
    start = html.index('class="message error">')
    message = html[start : html.index("</p>", start)]
    assert "« " + "x" * 39 + "… »" in message


def test_it_quotes_the_filename_of_a_pdf_safely(client, season, settings, tmp_path):
    settings.PDF_CACHE_DIR = tmp_path
    season.name = 'spé"cial'  # a season's name holds 9 characters at most (PostgreSQL enforces it)
    season.save()
    response = client.get(reverse("championship:bulletin_pdf", args=[season.name]))
    assert response.status_code == 200
    encoded = "bulletin-sp%C3%A9%22cial.pdf"
    assert response["Content-Disposition"] == f"inline; filename*=utf-8''{encoded}"
    season.name = '"2010"'
    season.save()
    response = client.get(reverse("championship:bulletin_pdf", args=[season.name]))
    assert response["Content-Disposition"] == 'inline; filename="bulletin-\\"2010\\".pdf"'


# --- the length of a report -----------------------------------------------------------------------


def test_it_refuses_a_report_over_the_limit_in_the_form_naming_the_field(client, homologated, bruno):
    login(client, bruno)
    response = client.post(edit_url(homologated), {"text": TOO_LONG})
    assert response.status_code == 200
    html = response.content.decode()
    limit = f"{REPORT_TEXT_MAX_LENGTH:,}".replace(",", "\N{NO-BREAK SPACE}")
    assert f"Récit : {limit} caractères au plus" in html
    assert not Report.objects.exists()


def test_it_accepts_a_report_at_the_limit_counting_a_line_break_once(client, homologated, bruno):
    login(client, bruno)
    text = "Une ligne.\r\n" * (REPORT_TEXT_MAX_LENGTH // len("Une ligne.\n"))
    response = client.post(edit_url(homologated), {"text": text})
    assert response.status_code == 302
    stored = Report.objects.get().text
    assert "\r" not in stored and len(stored) <= REPORT_TEXT_MAX_LENGTH < len(text)


def test_it_refuses_a_report_over_the_limit_in_the_model_and_the_service(homologated):
    with pytest.raises(ValidationError, match="caractères au plus"):
        validate_report_text(TOO_LONG)
    report = Report(round=homologated, author=player("Bruno"), text=TOO_LONG)
    with pytest.raises(ValidationError) as info:
        report.full_clean()
    assert "text" in info.value.message_dict
    with pytest.raises(ValidationError):
        report.save()
    with pytest.raises(RoundError) as error:
        save_report(homologated, TOO_LONG)
    assert error.value.code == "text" and error.value.message.startswith("Récit : 10")
    assert not Report.objects.exists()
    save_report(homologated, "a" * REPORT_TEXT_MAX_LENGTH)
    assert len(Report.objects.get().text) == REPORT_TEXT_MAX_LENGTH


def test_it_refuses_a_report_over_the_limit_in_a_sheet(db):
    for name in EXAMPLE_PLAYERS:
        player(name)
    sheet = example()
    sheet["report"]["text"] = TOO_LONG
    with pytest.raises(SheetImportError) as info:
        import_sheets([("long.json", json.dumps(sheet))])
    [message] = info.value.messages
    assert "report.text" in message and f"{REPORT_TEXT_MAX_LENGTH}" in message
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    "unit",
    [">", "1. ", "- ", "> - ", "[", "*[", "|x|y|\n"],
    ids=["quotes", "ordered", "bullets", "quoted-lists", "brackets", "emphasis-brackets", "table"],
)
def test_it_renders_any_markdown_of_the_limit_without_error(client, homologated, unit):
    text = (unit * REPORT_TEXT_MAX_LENGTH)[:REPORT_TEXT_MAX_LENGTH]
    render_markdown(text)  # Python-Markdown raised RecursionError on the first two
    save_report(homologated, text)
    assert client.get(page_url(homologated)).status_code == 200


def test_it_keeps_the_markdown_it_renders(season):
    html = render_markdown(
        "Bruno a **tout** raflé.\nAlice ~~a gagné~~ a sombré.\n\n| Donne | U |\n|---|---|\n| 1 | 56 |\n\n"
        "1. une\n2. deux\n\n- un\n- deux"
    )
    assert "raflé.<br>" in html or "raflé.<br />" in html
    assert "<s>a gagné</s>" in html
    assert "<table>" in html and "<td>56</td>" in html
    assert "<ol>" in html and "<ul>" in html


def test_it_shows_only_the_allowed_length_of_a_report_stored_before_the_limit(
    client, homologated, settings, tmp_path
):
    settings.PDF_CACHE_DIR = tmp_path
    save_report(homologated, "Début du récit.")
    Report.objects.filter(round=homologated).update(
        text="Début du récit. " + "long " * REPORT_TEXT_MAX_LENGTH + "FIN"
    )
    html = client.get(page_url(homologated)).content.decode()
    assert "Début du récit." in html and "FIN" not in html
    assert "Récit tronqué" in html
    response = client.get(reverse("championship:report_pdf", args=[homologated.pk]))
    assert response.status_code == 200 and "Récit tronqué" in pdf_text(response.content)[0]


@pytest.mark.parametrize("control", ["\x00", "\x07", "\x1b", "\x85"])
def test_it_refuses_control_characters_in_a_report_keeping_lines(client, homologated, bruno, control):
    with pytest.raises(ValidationError) as refused:
        validate_report_text(f"Une soirée{control} mémorable")
    assert refused.value.messages[0].startswith("Récit : caractère de contrôle")
    login(client, bruno)
    response = client.post(edit_url(homologated), {"text": f"Une soirée{control} mémorable"})
    assert response.status_code == 200
    assert "Récit : caractère de contrôle" in response.content.decode()
    assert not Report.objects.exists()
    save_report(homologated, "Première ligne\n\tseconde ligne")
    assert Report.objects.get().text == "Première ligne\n\tseconde ligne"
