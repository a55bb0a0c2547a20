"""Dates written in words: « 1er novembre » on the first of the month, wherever a date is written
(pages, PDFs, feeds); the other days, and the English pages, as Django writes them."""

import datetime
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone, translation

from championship.labels import written_date
from championship.lib.pdf import render_html
from championship.models import Report, Round
from championship.reports.bulletin import bulletin_context
from championship.reports.display import report_display
from tests.factories import make_round, player

TEMPLATES = Path(settings.BASE_DIR) / "templates"
FIRST = datetime.date(2010, 11, 1)  # a Monday


@pytest.mark.parametrize(
    ("value", "fmt", "written"),
    [
        (FIRST, "j F Y", "1er novembre 2010"),
        (FIRST, "l j F Y", "lundi 1er novembre 2010"),
        (FIRST, "j F", "1er novembre"),
        (datetime.date(2010, 11, 2), "j F Y", "2 novembre 2010"),
        (datetime.date(2010, 11, 21), "j F Y", "21 novembre 2010"),
        (datetime.date(2010, 11, 11), "j F Y", "11 novembre 2010"),
        (datetime.datetime(2010, 11, 1, 20, 30), "j F Y, H:i", "1er novembre 2010, 20:30"),
        (FIRST, "d/m/Y", "01/11/2010"),
        (FIRST, r"\j j F", "j 1er novembre"),
    ],
)
def test_the_first_of_the_month_is_written_1er_in_french(value, fmt, written):
    assert written_date(value, fmt) == written


def test_english_keeps_the_plain_day():
    with translation.override("en"):
        assert written_date(FIRST, "j F Y") == "1 November 2010"
        assert written_date(FIRST, "l j F Y") == "Monday 1 November 2010"


def test_the_template_filter_writes_the_local_day_of_a_moment():
    moment = timezone.make_aware(datetime.datetime(2010, 10, 31, 23, 30), datetime.UTC)  # Paris: 1 Nov
    html = Template('{% load french %}{{ when|written_date:"j F Y, H:i" }}|{{ none|written_date }}').render(
        Context({"when": moment, "none": None})
    )
    assert html == "1er novembre 2010, 00:30|"


def test_no_template_writes_a_day_in_words_without_the_filter():
    """Django's own `date` filter would write « 1 novembre »: a day in words (format letter j)
    goes through `written_date`; numeric dates (d/m/Y) and machine dates (c) may use `date`."""
    offenders = []
    for path in TEMPLATES.rglob("*.html"):
        for match in re.finditer(r"\|date:[\"']([^\"']*)[\"']", path.read_text()):
            if re.search(r"(?<!\\)j", match.group(1)):
                offenders.append(f"{path.relative_to(TEMPLATES)}: {match.group(0)}")
    assert offenders == []


@pytest.fixture
def first_of_november(season, president):
    round_ = make_round(season, status=Round.HOMOLOGATED, date=FIRST)
    Report.objects.create(round=round_, author=player("Bruno"), text="Une soirée.", filed_on=FIRST)
    return round_


def test_the_pages_write_1er(client, first_of_november):
    round_ = first_of_november
    for url in (
        reverse("championship:round", args=[round_.pk]),
        reverse("championship:report", args=[round_.pk]),
        reverse("championship:season", args=[round_.season.name]),
    ):
        html = client.get(url).content.decode()
        assert "1er novembre 2010" in html, url
        assert not re.search(r"\b1 novembre", html), url
    client.force_login(Round.objects.get(pk=round_.pk).season.officials.first().player.user)
    home = client.get("/").content.decode()
    assert "1er novembre" in home and not re.search(r"\b1 novembre", home)


def test_the_pdfs_write_1er(first_of_november):
    display = report_display(first_of_november)
    report = render_html("championship/reports/report_pdf.html", {"display": display})
    bulletin = render_html(
        "championship/reports/bulletin_pdf.html",
        bulletin_context(first_of_november.season, datetime.date(2011, 2, 1)),
    )
    for html in (report, bulletin):
        assert "1er novembre 2010" in html
        assert "1er février 2011" in bulletin
        assert not re.search(r"\b1 (novembre|février)", html)


def test_the_rounds_feed_writes_the_date_in_words(client, first_of_november):
    response = client.get(reverse("championship:feed_rounds"))
    root = ET.fromstring(response.content)
    summary = root.find("{http://www.w3.org/2005/Atom}entry/{http://www.w3.org/2005/Atom}summary").text
    assert summary.startswith("lundi 1er novembre 2010 — Chez Steph.")
