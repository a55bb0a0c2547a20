"""Comptes-rendus as a service: author, deadline and lateness, reports due, sanitized Markdown."""

import datetime
from decimal import Decimal

import pytest

from championship.models import Report, Round
from championship.reports.display import render_markdown, report_display, totals_chart
from championship.reports.due import reports_due
from championship.rounds.display import round_display
from championship.services.reports import file_report as save_report
from championship.standings.lateness import DUE, LATE, MISSING, ON_TIME, report_author, report_status
from tests.factories import make_round

ROUND_DATE = datetime.date(2010, 11, 19)  # deadline (7 days): 26 November 2010
DEADLINE = datetime.date(2010, 11, 26)

# Chloé and David share first place with 20; David took a contract, Chloé none.
SHARED_FIRST_DEALS = [
    dict(dealer="Alice", taker="Alice", contract="prise", called="coeur", partner="David", bouts=0,
         points=Decimal("40")),
    dict(dealer="Bruno", taker="Alice", contract="prise", called="coeur", partner="Bruno", bouts=0,
         points=Decimal("56")),
    dict(dealer="Chloé", taker="David", contract="prise", called="coeur", partner="Chloé", bouts=0,
         points=Decimal("56")),
]  # fmt: skip

HOSTILE = (
    "Une belle soirée.\n\n"
    "<script>alert(1)</script>\n\n"
    "[clique](javascript:alert(1)) et [encore](JaVaScRiPt:alert(1))\n\n"
    "<img src=x onerror=alert(1)>\n\n"
    '<iframe src="https://evil.example/">cadre</iframe>\n\n'
    "[image](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) "
    "![pixel](data:image/png;base64,iVBORw0KGgo=)\n\n"
    '<a href="https://fftb.example/" onclick="alert(1)" style="color:red">le site</a>\n\n'
    "<svg onload=alert(1)></svg><object data=x></object><style>body{display:none}</style>"
)


def filed(round_, author, filed_on, text="Récit."):
    return Report.objects.create(round=round_, author=author, text=text, filed_on=filed_on)


# --- author ----------------------------------------------------------------------------------------


def test_it_designates_the_round_winner_as_author(season):
    round_ = make_round(season, status=Round.SUBMITTED)
    assert report_author(round_).name == "Bruno"


def test_it_gives_a_shared_first_place_to_the_one_who_took_most_contracts(season):
    round_ = make_round(season, deals=SHARED_FIRST_DEALS, status=Round.SUBMITTED)
    firsts = sorted(seat.player.name for seat in round_.seats.filter(rank=1))
    assert firsts == ["Chloé", "David"]
    assert report_author(round_).name == "David"


def test_it_keeps_the_author_of_a_written_report(season):
    round_ = make_round(season, status=Round.SUBMITTED)
    alice = round_.seats.get(player__name="Alice").player
    filed(round_, alice, None)
    assert report_author(round_) == alice


# --- deadline and lateness ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filed_on", "state", "weeks"),
    [
        (datetime.date(2010, 11, 20), ON_TIME, 0),
        (DEADLINE, ON_TIME, 0),  # filed exactly on the deadline
        (DEADLINE + datetime.timedelta(days=1), LATE, 1),
        (DEADLINE + datetime.timedelta(days=7), LATE, 1),
        (DEADLINE + datetime.timedelta(days=8), LATE, 2),
        (DEADLINE + datetime.timedelta(days=14), LATE, 2),
        (DEADLINE + datetime.timedelta(days=15), LATE, 3),
    ],
)
def test_it_counts_lateness_in_started_weeks(season, filed_on, state, weeks):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    report = filed(round_, report_author(round_), filed_on)
    status = report_status(round_, report, as_of=datetime.date(2011, 1, 31))
    assert status.deadline == DEADLINE
    assert (status.state, status.weeks_late) == (state, weeks)


@pytest.mark.parametrize(
    ("as_of", "state", "weeks"),
    [
        (ROUND_DATE, DUE, 0),
        (DEADLINE, DUE, 0),
        (DEADLINE + datetime.timedelta(days=1), MISSING, 1),
        (DEADLINE + datetime.timedelta(days=7), MISSING, 1),
        (DEADLINE + datetime.timedelta(days=8), MISSING, 2),
        (DEADLINE + datetime.timedelta(days=30), MISSING, 5),
    ],
)
def test_it_counts_a_missing_report_as_of_a_date(season, as_of, state, weeks):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    status = report_status(round_, None, as_of=as_of)
    assert (status.state, status.weeks_late) == (state, weeks)


def test_it_treats_a_report_filed_after_the_date_as_still_missing(season):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    filed(round_, report_author(round_), datetime.date(2010, 12, 10))
    status = report_status(round_, as_of=datetime.date(2010, 12, 1))
    assert (status.state, status.weeks_late, status.filed_on) == (MISSING, 1, None)


def test_it_takes_the_deadline_from_the_season_rulebook(season):
    season.rulebook_text = season.rulebook_text.replace("deadline_days = 7", "deadline_days = 3")
    assert "deadline_days = 3" in season.rulebook_text
    season.save()
    round_ = make_round(season, status=Round.HOMOLOGATED)
    status = report_status(round_, None, as_of=datetime.date(2010, 11, 23))
    assert status.deadline == datetime.date(2010, 11, 22)
    assert (status.state, status.weeks_late) == (MISSING, 1)


# --- reports due for the home page ---------------------------------------------------------------


def test_it_lists_reports_due_and_late_but_not_filed_ones_nor_drafts(season):
    done = make_round(season, status=Round.HOMOLOGATED, date=datetime.date(2010, 11, 5))
    filed(done, report_author(done), datetime.date(2010, 11, 6))
    late = make_round(season, status=Round.HOMOLOGATED, date=datetime.date(2010, 11, 12))
    due = make_round(season, status=Round.SUBMITTED, date=datetime.date(2010, 11, 19))
    make_round(season, status=Round.DRAFT, date=datetime.date(2010, 11, 20))

    items = reports_due(season, as_of=datetime.date(2010, 11, 22))

    assert [item.round for item in items] == [late, due]
    assert items[0].status.state == MISSING and items[0].status.weeks_late == 1
    assert items[0].deadline == datetime.date(2010, 11, 19)
    assert items[1].status.state == DUE and items[1].deadline == DEADLINE
    assert items[0].author.name == "Bruno"


def test_it_lists_a_written_but_unfiled_report_with_its_author(season):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    alice = round_.seats.get(player__name="Alice").player
    filed(round_, alice, None)
    (item,) = reports_due(season, as_of=DEADLINE)
    assert item.author == alice


def test_it_has_no_reports_due_without_a_season(db):
    assert reports_due(None) == []


# --- saving --------------------------------------------------------------------------------------


def test_it_dates_a_report_on_its_first_filing_only(season):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    report = save_report(round_, "Premier jet.", today=datetime.date(2010, 11, 24))
    assert (report.author.name, report.filed_on) == ("Bruno", datetime.date(2010, 11, 24))
    report = save_report(round_, "Corrigé.", today=datetime.date(2010, 12, 24))
    assert (report.text, report.filed_on) == ("Corrigé.", datetime.date(2010, 11, 24))
    assert report.history.count() == 2


def test_it_lets_an_explicit_filing_date_win(season):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    save_report(round_, "Texte.", today=datetime.date(2010, 12, 24))
    report = save_report(
        round_, "Texte.", filed_on=datetime.date(2010, 11, 25), today=datetime.date(2010, 12, 24)
    )
    assert report.filed_on == datetime.date(2010, 11, 25)


# --- markdown ------------------------------------------------------------------------------------


def test_it_renders_markdown():
    html = render_markdown(
        "# Titre\n\nBruno a **tout** raflé.\n\n- un\n- deux\n\n> une bière\n\n[site](https://fftb.example/)"
    )
    assert "<h1>Titre</h1>" in html
    assert "<strong>tout</strong>" in html
    assert "<li>un</li>" in html and "<blockquote>" in html
    assert 'href="https://fftb.example/"' in html


def test_it_neutralises_hostile_markdown():
    html = render_markdown(HOSTILE).lower()
    assert "une belle soirée" in html and "le site" in html
    for forbidden in ("<script", "alert(", "javascript:", "onerror", "onclick", "onload", "<iframe", "data:",
                      "<img", "<svg", "<object", "<style", "style="):  # fmt: skip
        assert forbidden not in html, forbidden
    assert 'href="https://fftb.example/"' in html


def test_it_renders_nothing_for_an_empty_narrative():
    assert render_markdown("") == "" and render_markdown(None) == ""


# --- what a report shows -------------------------------------------------------------------------


def test_it_gathers_highlights_bonuses_and_the_late_malus(season):
    round_ = make_round(
        season, status=Round.SUBMITTED, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")]
    )
    round_.status = Round.HOMOLOGATED
    round_.save()
    from championship.services import rescore_round

    rescore_round(round_)
    display = report_display(round_, as_of=datetime.date(2010, 12, 4))

    titles = [(item.title, item.deal_number) for item in display.highlights]
    assert ("Plus grosse donne", 4) in titles  # Garde sans, U = −130
    assert ("Petit au bout", 1) in titles
    reasons = {(line.player, line.points) for line in display.bonuses}
    assert ("Émile", -1) in reasons and ("David", 1) in reasons
    assert all("classement" not in line.label.lower() or line.points != 10 for line in display.bonuses)
    assert display.late_malus.points == -2 and display.late_malus.player == "Bruno"
    assert display.status.state == MISSING


def test_it_lists_adjustments_before_homologation(season):
    round_ = make_round(
        season, status=Round.SUBMITTED, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")]
    )
    display = report_display(round_, as_of=DEADLINE)
    assert [(line.player, line.points) for line in display.bonuses] == [("Émile", -1)]
    assert "arrivé à 21h30" in display.bonuses[0].label
    assert display.late_malus is None


def test_it_charts_running_totals_ending_at_the_round_totals(season):
    round_ = make_round(season, status=Round.SUBMITTED)
    chart = totals_chart(round_display(round_))
    assert [line.name for line in chart.lines] == ["Alice", "Bruno", "Chloé", "David", "Émile"]
    assert [line.total for line in chart.lines] == [-650, 380, 50, 220, 0]
    assert chart.has_end  # the pot (80) was paid back at the end
    assert [label for _x, label in chart.x_ticks] == ["0", "1", "2", "3", "4", "fin"]
    assert all(len(line.points.split()) == 6 for line in chart.lines)
    assert {line.stroke for line in chart.lines} == {"#8d8d8d", "#e0b400", "#d33333", "#2a62c9", "#2f9a4b"}
    ys = sorted(label.y for label in chart.labels)
    assert all(b - a >= 12 for a, b in zip(ys, ys[1:], strict=False))


def test_it_has_no_chart_for_a_totals_only_round(season):
    round_ = make_round(season, totals={"Alice": 100, "Bruno": -50, "Chloé": -50, "David": 0, "Émile": 0})
    display = report_display(round_)
    assert display.chart is None and display.highlights == ()
