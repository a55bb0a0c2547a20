"""The report's PDF read on a phone (issue 35): opened in the browser, A4 portrait on every page,
the deals' grid in a readable size split by rows, and each table kept with its totals."""

import io
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from pypdf import PdfReader

from championship.models import Report, Round
from championship.reports.display import report_display
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, make_round, player

READABLE = 8.5  # points: the smallest text of the deals' grid


@pytest.fixture(autouse=True)
def pdf_store(settings, tmp_path):
    settings.PDF_CACHE_DIR = tmp_path / "pdf"


def long_evening(count):
    """`count` deals, each player dealing in turn, mostly played."""
    deals = []
    for number in range(count):
        dealer = EXAMPLE_PLAYERS[number % 5]
        template = EXAMPLE_DEALS[0] if number % 3 else EXAMPLE_DEALS[3]
        deal = dict(template, dealer=dealer)
        if number % 4 == 0:
            deal["points"] = Decimal("38")
        deals.append(deal)
    return deals


def homologated_round(season, deals):
    round_ = make_round(season, deals=deals, status=Round.HOMOLOGATED)
    Report.objects.create(round=round_, author=player("Bruno"), text="Une soirée.\n\n" * 6)
    return round_


def pages_text(content):
    reader = PdfReader(io.BytesIO(content))
    return reader, [" ".join(page.extract_text().split()) for page in reader.pages]


def test_the_pdf_opens_in_the_browser(client, season):
    round_ = homologated_round(season, EXAMPLE_DEALS)
    response = client.get(reverse("championship:report_pdf", args=[round_.pk]))
    assert response["Content-Disposition"].startswith("inline;")
    assert 'filename="compte-rendu-2010-2011-manche-1.pdf"' in response["Content-Disposition"]


@pytest.mark.parametrize("count", [16, 25, 36])  # 25 and 36: the totals would start a page
def test_every_page_is_portrait_and_the_totals_stay_with_their_table(client, season, count):
    round_ = homologated_round(season, long_evening(count))
    reader, texts = pages_text(client.get(reverse("championship:report_pdf", args=[round_.pk])).content)
    assert all(page.mediabox.height > page.mediabox.width for page in reader.pages)
    shown = report_display(round_).round
    (totals_page,) = [text for text in texts if "Total de la soirée" in text]
    assert ("Pot rendu en fin de soirée" in totals_page) == bool(shown.pot_left)
    assert shown.deals[-1].summary in totals_page, "the totals are on the page of the table's last deal"
    # Split by rows, never by columns: each page of the grid has its heads, every player in them.
    grid_pages = [text for text in texts if "N° Donne" in text]
    assert len(grid_pages) >= (2 if count >= 24 else 1)
    for text in grid_pages:
        assert all(name in text for name in EXAMPLE_PLAYERS)


def test_the_deals_grid_is_set_in_a_readable_size(client, season):
    """Every gain of the grid (« +120 », « −60 ») and every line saying what a deal was."""
    round_ = homologated_round(season, long_evening(16))
    reader, texts = pages_text(client.get(reverse("championship:report_pdf", args=[round_.pk])).content)
    summaries = [deal.summary for deal in report_display(round_).round.deals]
    sizes = []

    def visitor(text, cm, tm, font, size):
        text = text.strip()
        scale = (abs(tm[0] * cm[0] + tm[1] * cm[2]) ** 2 + abs(tm[0] * cm[1] + tm[1] * cm[3]) ** 2) ** 0.5
        if re.fullmatch(r"[+−]\d+", text) or (len(text) > 8 and any(text in line for line in summaries)):
            sizes.append((round(size * scale, 1), text))

    for page, text in zip(reader.pages, texts, strict=True):
        if "N° Donne" in text:
            page.extract_text(visitor_text=visitor)
    assert len(sizes) > 16 and min(size for size, _text in sizes) >= READABLE, sorted(sizes)[:5]
