"""The report pages: who reads, who writes, what saving does, and the home page panel."""

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from championship.models import Report, Round
from championship.reports.due import reports_due
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, make_round, player

from .test_reports import HOSTILE


@pytest.fixture(autouse=True)
def pdf_store(settings, tmp_path):
    """Each test its own store of PDFs."""
    settings.PDF_CACHE_DIR = tmp_path / "pdf"


def login(client, player_):
    client.force_login(player_.user)
    return client


def with_user(player_):
    if player_.user is None:
        player_.user = get_user_model().objects.create_user(
            username=player_.name.lower(), password="x-pass-1"
        )
        player_.save()
    return player_


def renamed(old, new):
    """The example round with one player renamed (so that a fixture's player sits in it)."""
    names = [new if name == old else name for name in EXAMPLE_PLAYERS]
    deals = []
    for deal in EXAMPLE_DEALS:
        deal = {key: (new if value == old else value) for key, value in deal.items()}
        deal["poignees"] = [(new if n == old else n, s) for n, s in deal.get("poignees", [])]
        deal["miseres"] = [new if n == old else n for n in deal.get("miseres", [])]
        deals.append(deal)
    return names, deals


@pytest.fixture
def homologated(season):
    return make_round(season, status=Round.HOMOLOGATED)


@pytest.fixture
def bruno(homologated):
    return with_user(player("Bruno"))  # the winner, so the author


def edit_url(round_):
    return reverse("championship:report_edit", args=[round_.pk])


def page_url(round_):
    return reverse("championship:report", args=[round_.pk])


# --- reading ---------------------------------------------------------------------------------------


def test_it_shows_the_report_of_a_homologated_round_to_anyone(client, homologated):
    Report.objects.create(
        round=homologated, author=player("Bruno"), text="Une *grande* soirée.", filed_on=None
    )
    response = client.get(page_url(homologated))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<em>grande</em>" in html
    for name in EXAMPLE_PLAYERS:
        assert name in html
    assert "Garde sans" in html and "Roi de cœur" in html and "Poignée simple de Bruno" in html
    assert "Misère de Chloé" in html and "Petit au bout" in html
    assert "Retard" not in html  # no adjustment in this round
    assert "<svg" in html and "<polyline" in html
    assert reverse("championship:report_pdf", args=[homologated.pk]) in html
    assert edit_url(homologated) not in html


def test_the_report_page_speaks_english_to_an_english_visitor_and_its_pdf_stays_french(client, homologated):
    """Issue 35: the page in the visitor's language, its facts, tables and highlights included; the
    narrative as its author wrote it; the PDF in French (README)."""
    Report.objects.create(
        round=homologated, author=player("Bruno"), text="Une *grande* soirée.", filed_on=None
    )
    html = client.get(page_url(homologated), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Open the PDF" in html
    assert "Round ranking" in html and "Highlights" in html and "Bonuses and penalties" in html
    for french in (
        "Classement de la manche",
        "Faits marquants",
        "Lieu",
        "Poignée simple de Bruno",
        "novembre",
    ):
        assert french not in html, french
    assert "<em>grande</em> soirée" in html  # what the author wrote stays as written
    pdf = client.get(reverse("championship:report_pdf", args=[homologated.pk]), HTTP_ACCEPT_LANGUAGE="en")
    pages = PdfReader(io.BytesIO(pdf.content)).pages
    text = " ".join(" ".join(page.extract_text().split()) for page in pages)  # lines joined
    assert "Poignée simple de Bruno" in text and " by " not in text


def test_it_says_when_the_narrative_is_not_written_yet(client, homologated):
    html = client.get(page_url(homologated)).content.decode()
    assert "pas encore été rendu" in html
    assert "Bruno" in html


def test_it_hides_the_report_of_an_unhomologated_round_from_anonymous_and_other_players(
    client, season, member
):
    round_ = make_round(season, status=Round.SUBMITTED)
    assert client.get(page_url(round_)).status_code == 404
    assert client.get(reverse("championship:report_pdf", args=[round_.pk])).status_code == 404
    assert login(client, member).get(page_url(round_)).status_code == 404


def test_it_shows_an_unhomologated_report_to_the_secretary_the_board_and_the_author(
    client, season, secretary, president
):
    round_ = make_round(season, status=Round.SUBMITTED)
    author = with_user(player("Bruno"))
    for who in (secretary, president, author):
        assert login(client, who).get(page_url(round_)).status_code == 200


def test_it_answers_404_for_an_unknown_round(client, db):
    assert client.get(reverse("championship:report", args=[999])).status_code == 404


# --- writing: permissions --------------------------------------------------------------------------


def test_it_sends_anonymous_visitors_to_the_login_page(client, homologated):
    response = client.get(edit_url(homologated))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    response = client.post(edit_url(homologated), {"text": "Pirate."})
    assert response.status_code == 302
    assert not Report.objects.exists()


def test_it_lets_the_author_write_his_report(client, homologated, bruno):
    login(client, bruno)
    assert client.get(edit_url(homologated)).status_code == 200
    assert edit_url(homologated) in client.get(page_url(homologated)).content.decode()
    response = client.post(edit_url(homologated), {"text": "Bruno a **tout** raflé."})
    assert response.status_code == 302 and response["Location"] == page_url(homologated)
    report = Report.objects.get(round=homologated)
    assert (report.author, report.text, report.filed_on) == (
        bruno,
        "Bruno a **tout** raflé.",
        timezone.localdate(),
    )
    assert report.history.first().history_user == bruno.user


def test_it_refuses_another_player(client, homologated, member):
    login(client, member)
    assert client.get(edit_url(homologated)).status_code == 403
    assert client.post(edit_url(homologated), {"text": "Usurpation."}).status_code == 403
    assert not Report.objects.exists()


def test_it_refuses_another_seated_player(client, homologated):
    alice = with_user(player("Alice"))
    assert login(client, alice).post(edit_url(homologated), {"text": "Usurpation."}).status_code == 403


def test_it_refuses_the_secretary_unless_author(client, season, secretary):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    login(client, secretary)
    assert client.get(edit_url(round_)).status_code == 403
    assert client.post(edit_url(round_), {"text": "Non."}).status_code == 403

    names, deals = renamed("Bruno", "Secrétaire")
    won = make_round(season, names, deals, status=Round.HOMOLOGATED)
    assert client.get(edit_url(won)).status_code == 200
    assert client.post(edit_url(won), {"text": "Ma soirée."}).status_code == 302
    assert Report.objects.get(round=won).author == secretary


def test_it_lets_the_board_write_any_report_and_set_author_and_date(client, homologated, president):
    login(client, president)
    page = client.get(edit_url(homologated)).content.decode()
    assert 'name="filed_on"' in page and 'name="author"' in page
    alice = player("Alice")
    response = client.post(
        edit_url(homologated), {"text": "Par la Direction.", "author": alice.pk, "filed_on": "2010-11-30"}
    )
    assert response.status_code == 302
    report = Report.objects.get(round=homologated)
    assert (report.author, report.filed_on, report.text) == (
        alice,
        datetime.date(2010, 11, 30),
        "Par la Direction.",
    )


def test_it_dates_the_first_filing_today_when_the_board_leaves_the_date_empty(client, homologated, president):
    login(client, president)
    client.post(edit_url(homologated), {"text": "Texte.", "author": player("Bruno").pk, "filed_on": ""})
    assert Report.objects.get(round=homologated).filed_on == timezone.localdate()


def test_it_lets_the_author_edit_after_the_deadline_without_redating(client, homologated, bruno):
    Report.objects.create(round=homologated, author=bruno, text="Vieux.", filed_on=datetime.date(2010, 12, 1))
    login(client, bruno)
    assert client.post(edit_url(homologated), {"text": "Neuf."}).status_code == 302
    report = Report.objects.get(round=homologated)
    assert (report.text, report.filed_on) == ("Neuf.", datetime.date(2010, 12, 1))


def test_it_keeps_a_player_from_changing_the_author_or_the_date(client, homologated, bruno):
    login(client, bruno)
    client.post(edit_url(homologated), {"text": "T.", "author": player("Alice").pk, "filed_on": "2010-11-20"})
    report = Report.objects.get(round=homologated)
    assert (report.author, report.filed_on) == (bruno, timezone.localdate())


def test_it_refuses_the_author_before_the_round_is_submitted(client, season):
    round_ = make_round(season, status=Round.DRAFT)
    author = with_user(player("Bruno"))
    assert login(client, author).get(edit_url(round_)).status_code == 403


# --- writing: the form -----------------------------------------------------------------------------


def test_it_names_the_field_of_each_error_in_french(client, homologated, president):
    login(client, president)
    response = client.post(edit_url(homologated), {"text": "  ", "author": "", "filed_on": "2010-11-01"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Récit : écrivez le compte-rendu" in html
    assert "Auteur : choisissez" in html
    assert "Rendu le : la date ne peut pas précéder la manche" in html
    assert not Report.objects.exists()


def test_it_refuses_a_filing_date_in_the_future(client, homologated, president):
    login(client, president)
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    response = client.post(
        edit_url(homologated), {"text": "T.", "author": player("Bruno").pk, "filed_on": tomorrow}
    )
    assert "Rendu le : la date ne peut pas être dans le futur" in response.content.decode()


def test_it_refuses_an_author_who_did_not_play(client, homologated, president, member):
    login(client, president)
    response = client.post(edit_url(homologated), {"text": "T.", "author": member.pk})
    assert "Auteur : choisissez un joueur de la table" in response.content.decode()


def test_it_previews_without_saving(client, homologated, bruno):
    login(client, bruno)
    response = client.post(edit_url(homologated), {"text": "Un **aperçu**.", "preview": "1"})
    assert response.status_code == 200
    assert "<strong>aperçu</strong>" in response.content.decode()
    assert not Report.objects.exists()


def narrative_of(html):
    """The sanitized narrative of a page (no <div> survives the sanitizer, so the first closing
    tag ends it)."""
    start = html.index('narrative">') + len('narrative">')
    return html[start : html.index("</div>", start)]


def test_it_neutralises_hostile_markdown_on_the_page_and_in_the_preview(client, homologated, bruno):
    login(client, bruno)
    preview = client.post(edit_url(homologated), {"text": HOSTILE, "preview": "1"}).content.decode()
    client.post(edit_url(homologated), {"text": HOSTILE})
    page = client.get(page_url(homologated)).content.decode()
    assert "alert(1)" not in page and "javascript:" not in page.lower() and "onerror" not in page
    for narrative in (narrative_of(preview), narrative_of(page)):
        assert "Une belle soirée" in narrative and 'href="https://fftb.example/"' in narrative
        for forbidden in (
            "alert",
            "javascript:",
            "onerror",
            "onclick",
            "onload",
            "<iframe",
            "data:",
            "<img",
            "<svg",
        ):
            assert forbidden not in narrative.lower(), forbidden


# --- the home page panel ---------------------------------------------------------------------------


def test_it_renders_the_panel_of_reports_due(season):
    late = make_round(season, status=Round.HOMOLOGATED, date=datetime.date(2010, 11, 5))
    make_round(season, status=Round.SUBMITTED, date=datetime.date(2010, 11, 19))
    html = render_to_string(
        "championship/reports/_due_panel.html",
        {"reports_due": reports_due(season, as_of=datetime.date(2010, 11, 22))},
    )
    assert "Comptes-rendus attendus" in html
    assert reverse("championship:report", args=[late.pk]) in html
    assert "en retard de 2 semaines entamées" in html
    assert "à rendre au plus tard le 26 novembre" in html
    assert html.count("Bruno") == 2


def test_it_renders_no_panel_when_nothing_is_due(db):
    assert render_to_string("championship/reports/_due_panel.html", {"reports_due": []}).strip() == ""


# --- every view, every role ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "edit_status"),
    [("anonymous", 302), ("member", 403), ("secretary", 403), ("president", 200)],
)
def test_it_applies_each_role_to_every_view(client, homologated, request, role, edit_status):
    if role != "anonymous":
        login(client, request.getfixturevalue(role))
    assert client.get(page_url(homologated)).status_code == 200
    pdf = client.get(reverse("championship:report_pdf", args=[homologated.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    bulletin = client.get(reverse("championship:bulletin_pdf", args=["2010-2011"]))
    assert bulletin.status_code == 200 and bulletin.content.startswith(b"%PDF")
    assert client.get(edit_url(homologated)).status_code == edit_status
    assert client.post(reverse("championship:report_pdf", args=[homologated.pk])).status_code == 405
