"""The home page shows a visitor only what is published: homologated rounds and their figures.

A round entered but not homologated yet (a draft, or submitted to the board) stays out of the
visitor's page — its winner, its totals, its report due — while the secretary, the board and
the round's designated writer still see the report they are waiting for.
"""

import datetime
import html
import io
import re
import zipfile
from collections import deque

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from championship.models import Round
from federation.models import Official, Season
from tests.conftest import make_player
from tests.factories import make_round
from tests.pages import without_random_tokens

# A round whose five players sit at no other table: any of their names on a page comes from it.
UNPUBLISHED = ["Ursule", "Valentin", "Wanda", "Xavier", "Yvonne"]
UNPUBLISHED_TOTALS = {"Ursule": 4321, "Valentin": 1234, "Wanda": -1555, "Xavier": -2000, "Yvonne": -2000}
# Ursule's and Valentin's totals, however a page writes them (4321, +4 321, 1 234…).
UNPUBLISHED_FIGURE = re.compile(r"4\D{0,7}321|1\D{0,7}234")
PUBLISHED_TOTALS = {"Alice": 80, "Bruno": 30, "Chloé": 0, "David": -50, "Émile": -60}


@pytest.fixture
def rounds(season, president, secretary):
    """A homologated round (Alice won) and a submitted one (Ursule won), reports not filed."""
    published = make_round(
        season,
        names=list(PUBLISHED_TOTALS),
        totals=PUBLISHED_TOTALS,
        status=Round.HOMOLOGATED,
        date=datetime.date(2010, 11, 12),
        place="Le Bar du Coin",
    )
    unpublished = make_round(
        season,
        names=UNPUBLISHED,
        totals=UNPUBLISHED_TOTALS,
        status=Round.SUBMITTED,
        date=datetime.date(2010, 11, 19),
        place="Chez Ursule",
    )
    return published, unpublished


def home(client):
    response = client.get(reverse("federation:home"))
    assert response.status_code == 200
    return without_random_tokens(response.content.decode())


def report_url(round_):
    return reverse("championship:report", args=[round_.pk])


def test_it_shows_a_visitor_no_trace_of_a_round_not_homologated(client, rounds):
    published, unpublished = rounds
    html = home(client)
    assert "Comptes-rendus attendus" in html
    assert report_url(published) in html
    assert report_url(unpublished) not in html
    assert reverse("championship:round", args=[unpublished.pk]) not in html
    for name in UNPUBLISHED:
        assert name not in html
    assert "Chez Ursule" not in html
    assert not UNPUBLISHED_FIGURE.search(html)


def test_it_hides_the_reports_panel_from_a_visitor_when_only_unpublished_rounds_wait(client, season):
    make_round(season, names=UNPUBLISHED, totals=UNPUBLISHED_TOTALS, status=Round.SUBMITTED)
    html = home(client)
    assert "Comptes-rendus attendus" not in html
    assert "Ursule" not in html


@pytest.mark.parametrize("who", ["secretary", "president"])
def test_it_shows_officials_the_report_of_a_submitted_round_they_wait_for(client, rounds, request, who):
    published, unpublished = rounds
    client.force_login(request.getfixturevalue(who).user)
    html = home(client)
    assert report_url(published) in html
    assert report_url(unpublished) in html
    assert "<strong>Ursule</strong>" in html


def test_it_shows_the_designated_writer_his_own_report_of_a_submitted_round(client, rounds):
    published, unpublished = rounds
    ursule = unpublished.seats.get(player__name="Ursule").player
    ursule.user = get_user_model().objects.create_user(username="ursule", password="secret-pass-1")
    ursule.save()
    client.force_login(ursule.user)
    html = home(client)
    assert report_url(unpublished) in html
    assert client.get(report_url(unpublished)).status_code == 200


def test_it_shows_another_player_only_published_rounds(client, rounds):
    published, unpublished = rounds
    client.force_login(make_player("Zoé").user)
    html = home(client)
    assert report_url(published) in html
    assert report_url(unpublished) not in html


def test_it_shows_the_secretary_of_another_season_only_published_rounds(client, rounds):
    published, unpublished = rounds
    other = make_player("Secrétaire d'une autre saison")
    earlier = Season.objects.create(
        name="2009-2010", start_date=datetime.date(2009, 9, 1), end_date=datetime.date(2010, 6, 30)
    )
    Official.objects.create(season=earlier, player=other, role=Official.SECRETARY)
    client.force_login(other.user)
    html = home(client)
    assert report_url(unpublished) not in html


def test_it_lists_the_rounds_waiting_for_the_board_to_those_who_enter_rounds(client, rounds, secretary):
    _published, unpublished = rounds
    draft = make_round(season=unpublished.season, status=Round.DRAFT, date=datetime.date(2010, 11, 20))
    assert "En attente d'homologation" not in home(client)
    assert "Manches en brouillon" not in home(client)
    client.force_login(secretary.user)
    html = home(client)
    waiting = section(html, "En attente d'homologation")
    assert reverse("championship:round_edit", args=[unpublished.pk]) in waiting
    assert reverse("championship:round_edit", args=[draft.pk]) not in waiting  # a draft awaits nothing yet
    drafts = section(html, "Manches en brouillon")
    assert reverse("championship:round_edit", args=[draft.pk]) in drafts
    assert reverse("championship:round_edit", args=[unpublished.pk]) not in drafts


def section(html, heading):
    """The <section> of the page under `heading`."""
    start = html.rindex("<section", 0, html.index(heading))
    return html[start : html.index("</section>", start)]


def page_text(response):
    if response["Content-Type"] == "application/pdf":
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    if response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
        book = load_workbook(io.BytesIO(response.content))
        rows = (row for sheet in book.worksheets for row in sheet.iter_rows(values_only=True))
        return "\n".join(" ".join("" if value is None else str(value) for value in row) for row in rows)
    if response["Content-Type"] == "application/vnd.oasis.opendocument.spreadsheet":
        with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
            content = archive.read("content.xml").decode()
        return html.unescape(content)  # the XML itself: a number is only in its cell's office:value
    return without_random_tokens(response.content.decode())


def crawl(client, start):
    """Every page of the site reachable by links from `start`: {url: text}."""
    texts, queue = {}, deque([start])
    while queue:
        url = queue.popleft()
        if url in texts:
            continue
        response = client.get(url)
        assert response.status_code == 200, url
        texts[url] = page_text(response)
        if "html" in response["Content-Type"]:
            queue.extend(link.replace("&amp;", "&") for link in SITE_LINK.findall(texts[url]))
    return texts


# Links a visitor may follow, leaving out static files, the admin, logging in and languages.
SITE_LINK = re.compile(r'href="(/(?!static/|admin/|i18n/|connexion/|deconnexion/)[^"#]*)')


def test_the_search_for_a_total_skips_the_random_tokens_of_a_page():
    """A CSRF token once held « 1uEKh234 » (« 1…234 ») and failed the crawl below at random."""
    html = (
        '<input type="hidden" name="csrfmiddlewaretoken" value="x1uEKh234y">'
        '<script nonce="4abc321"></script><td>{}</td>'
    )
    assert not UNPUBLISHED_FIGURE.search(without_random_tokens(html.format("80")))
    assert UNPUBLISHED_FIGURE.search(without_random_tokens(html.format("1 234")))


def test_it_leads_a_visitor_to_no_page_showing_an_unpublished_round(client, rounds):
    """From the home page, every public page (standings, awards, players, rounds, cup, reports,
    sheets, bulletin PDF): no link to the submitted round, no place of it, no total of it."""
    published, unpublished = rounds
    texts = crawl(client, reverse("federation:home"))
    assert reverse("championship:bulletin_pdf", args=["2010-2011"]) in texts
    assert reverse("championship:round_export", args=[published.pk]) in texts
    assert reverse("championship:season_workbook", args=["2010-2011", "xlsx"]) in texts
    assert reverse("championship:round_workbook", args=[published.pk, "ods"]) in texts
    for url, text in texts.items():
        assert f"/manches/{unpublished.pk}/" not in text, url
        assert "Chez Ursule" not in text, url
        assert not UNPUBLISHED_FIGURE.search(text), url


def test_it_shows_the_leaders_and_follows_each_new_round(client, db):
    """The leaders on the home page are the standings' first five, and a new round is seen at
    once (their cached summary follows the season's writes)."""
    from championship.standings.season import season_standings
    from scoring.french import num
    from tests.championship.standings.test_standings import play, table

    season = Season.objects.create(
        name="2010-2011", start_date=datetime.date(2010, 9, 1), end_date=datetime.date(2011, 6, 30)
    )

    def leaders_on_home():
        home = client.get(reverse("federation:home")).content.decode()
        section = home[home.index('class="leaders"') : home.index("</ol>")]
        return re.findall(r">([^<]+)</a>\s*— <strong>([^<]+)</strong>", section)

    def leaders_in_standings():
        # Points written as French writes them: a loss with the minus sign U+2212.
        return [(row.player.name, num(row.points)) for row in season_standings(season).ranked[:5]]

    for day in (1, 2, 3):
        play(season, table(["Alice", "Bruno"]), date=datetime.date(2010, 10, day))
    before = leaders_on_home()
    assert before == leaders_in_standings() and len(before) == 5
    assert any(points.startswith("\N{MINUS SIGN}") for _name, points in before)  # late reports cost
    play(season, table(["Bruno", "Alice"], totals=(900, 100, 0, -400, -600)), date=datetime.date(2010, 10, 4))
    after = leaders_on_home()
    assert after == leaders_in_standings() and after != before
