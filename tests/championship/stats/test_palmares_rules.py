"""Palmarès that read as they count (issue 35): a streak is two rounds or more in a row among the
player's own rounds, one rule for his palmarès and the federation's, worded as such; the season
under way counts for the best season; the unranked players' points and rounds read apart."""

import datetime
import re

from django.urls import reverse

from championship.models import Round
from championship.standings.season import season_standings
from championship.stats import palmares
from federation.models import Player
from tests.championship.stats.conftest import handed
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, make_round


def named(name):
    return Player.objects.get(name=name)


def test_a_single_round_won_is_no_streak_in_a_players_palmares(three_rounds):
    """Alice won one round (round 3): the federation lists no streak, nor does her palmarès."""
    assert palmares.palmares()["winning_streaks"] == []
    assert palmares.player_palmares(named("Alice"))["winning_streak"] is None


def test_the_season_under_way_counts_for_the_best_season(three_rounds):
    season = three_rounds[0].season
    points = {row.player.name: row.points for row in season_standings(season).ranked}
    best = palmares.player_palmares(named("Alice"))["best_season"]
    assert best == {"season": season.name, "points": points["Alice"], "current": True}
    listed = palmares.palmares()["best_seasons"]
    assert listed[0]["points"] == max(points.values()) and listed[0]["current"] is True


def test_a_streak_says_it_counts_the_players_own_rounds(client, season):
    """Bruno wins rounds 1 and 3 of the season, sitting out round 2: two in a row of his rounds."""
    fanny_for_bruno = {name: name for name in EXAMPLE_PLAYERS} | {"Bruno": "Fanny"}
    for number in (1, 2, 3):
        role = fanny_for_bruno if number == 2 else {name: name for name in EXAMPLE_PLAYERS}
        make_round(
            season,
            [role[name] for name in EXAMPLE_PLAYERS],
            [handed(deal, role) for deal in EXAMPLE_DEALS],
            number=number,
            date=datetime.date(2010, 10, number),
            status=Round.HOMOLOGATED,
        )
    streak = palmares.palmares()["winning_streaks"][0]
    assert (streak["player"], streak["length"]) == ("Bruno", 2)
    html = client.get(reverse("championship:palmares")).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert (
        "Bruno : 2 de suite parmi ses manches jouées, de la manche 1 à la manche 3 (2010-2011)"
        in text.replace("\u00a0", " ")
    )
    assert "de la 2010-2011" not in text


def test_the_unranked_read_their_points_and_rounds_apart(client, three_rounds):
    season = three_rounds[0].season
    make_round(
        season,
        ["Alice", "Bruno", "Chloé", "David", "Gaston"],
        number=4,
        date=datetime.date(2011, 1, 7),
        status=Round.HOMOLOGATED,
    )
    unranked = season_standings(season).unranked_of(named("Gaston"))
    html = client.get(reverse("championship:season", args=[season.name])).content.decode()
    row = re.search(
        rf'<tr[^>]*data-player="{named("Gaston").pk}".*?</tr>', html[html.index("Non classés") :], re.S
    )
    text = " ".join(re.sub(r"<[^>]+>", " ", row.group(0)).split()).replace("\u00a0", " ")
    assert f"{unranked.points} points" in text and "1 manche" in text
