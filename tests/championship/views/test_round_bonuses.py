"""One source for a round's bonuses and maluses (issue 35): its page and its compte-rendu list the
same lines, the automatic ones (a garde sans beaten in defence…) as well as those entered."""

import re
from html import unescape

import pytest
from django.urls import reverse

from championship.models import ChampionshipLine, Round
from tests.factories import make_round


def section(html, marker):
    """The text of the <section> whose opening tag holds `marker`, tags removed."""
    start = html.index(marker)
    end = html.index("</section>", start)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html[start:end])).split())


@pytest.fixture
def homologated(season):
    return make_round(
        season, status=Round.HOMOLOGATED, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")]
    )


def test_the_round_page_and_its_report_list_the_same_bonuses(client, homologated):
    lines = ChampionshipLine.objects.filter(round=homologated).exclude(code="rank")
    assert {line.code for line in lines} == {"wall", "retard"}  # automatic and entered
    page = section(
        client.get(reverse("championship:round", args=[homologated.pk])).content.decode(), 'id="bonus"'
    )
    report = section(
        client.get(reverse("championship:report", args=[homologated.pk])).content.decode(),
        'class="report-bonuses"',
    )
    assert "Aucun bonus" not in page
    for line in lines:
        for text in (line.player.name, line.label.split(" (donne")[0], f"{line.points:+d}".replace("-", "−")):
            assert text in page, text
            assert text in report, text
    assert page.count("mise en échec en défense") == report.count("mise en échec en défense") == 4


def test_a_round_before_homologation_says_its_automatic_bonuses_are_to_come(client, season, president):
    round_ = make_round(season, status=Round.SUBMITTED)
    client.force_login(president.user)
    page = section(client.get(reverse("championship:round", args=[round_.pk])).content.decode(), 'id="bonus"')
    report = section(
        client.get(reverse("championship:report", args=[round_.pk])).content.decode(),
        'class="report-bonuses"',
    )
    assert "à l'homologation" in page and "à l'homologation" in report


def test_the_championship_points_of_the_ranking_read_as_points_to_tap(client, homologated):
    html = client.get(reverse("championship:round", args=[homologated.pk])).content.decode()
    summaries = re.findall(r'<summary class="tap-points">(.*?)</summary>', html, re.S)
    assert len(summaries) == 5
    seat = homologated.seats.get(player__name="Bruno")
    expected = f"{seat.championship_points} points"
    assert any(
        " ".join(re.sub(r"<[^>]+>", " ", text).split()).startswith(expected + " détail") for text in summaries
    )
