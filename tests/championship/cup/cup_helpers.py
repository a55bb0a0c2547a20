"""Seasons with a known final ranking, and cup rounds, built through the real models and services."""

import datetime
import re

from championship.models import Report, Round
from championship.services import update_season_rulebook
from federation.models import Player
from tests.factories import make_round

START = datetime.date(2010, 10, 1)
TOTALS = {5: [200, 100, 0, -100, -200], 4: [150, 50, -50, -150]}


def seed_names(count):
    return [f"S{n:02d}" for n in range(1, count + 1)]


def names(*numbers):
    return [f"S{n:02d}" for n in numbers]


def _day(season):
    return START + datetime.timedelta(days=season.rounds.count())


def play_totals(season, seated, totals=None, **kwargs):
    """A totals-only round, homologated by default; `totals` in seat order or a dict. Its winner
    files the compte-rendu the same evening, so that no late-report malus blurs the ranking."""
    kwargs.setdefault("status", Round.HOMOLOGATED)
    kwargs.setdefault("date", _day(season))
    if totals is None:
        totals = TOTALS[len(seated)]
    if not isinstance(totals, dict):
        totals = dict(zip(seated, totals, strict=True))
    round_ = make_round(season, seated, totals=totals, **kwargs)
    winner = Player.objects.get(name=max(totals, key=totals.get))
    Report.objects.create(round=round_, author=winner, filed_on=round_.date)
    return round_


def round_limits(season, cap, floor=-30):
    """Give the season these round limits (`round_points_cap`, `round_points_floor` of its
    rulebook), recomputing its rounds."""
    text = re.sub(r"(?m)^round_points_cap = .*$", f"round_points_cap = {cap}", season.rulebook_text)
    text = re.sub(r"(?m)^round_points_floor = .*$", f"round_points_floor = {floor}", text)
    update_season_rulebook(season, text, reason="réglage du test")


def ranked_season(season, count, *, spacing=100):
    """`count` players S01… ranked in that order, each with at least 3 homologated rounds.

    Rounds seat five consecutive players in a circle (four or five together when fewer, with
    one-round fillers when fewer than four); bonuses of `2000 - spacing × n` points in all ("hote"
    with points set by an official, 100 at most each) in each player's first round decide the
    ranking, the season's
    cap of a round raised to let it through.
    """
    round_limits(season, cap=2010)
    players = seed_names(count)
    if count >= 5:
        tables = [[players[(5 * i + j) % count] for j in range(5)] for i in range(-(-3 * count // 5))]
    else:
        tables = [list(players) for _ in range(3)]
    bonus_given = set()
    for index, seated in enumerate(tables):
        seated = seated + [f"X{index}{k}" for k in range(4 - len(seated))]
        adjustments = []
        for name in seated:
            if name.startswith("S") and name not in bonus_given:
                bonus_given.add(name)
                for points in _within_bounds(2000 - spacing * int(name[1:])):
                    adjustments.append((name, "hote", points, "classement du test"))
        play_totals(season, seated, adjustments=adjustments)
    return players


def _within_bounds(points, bound=100):
    """`points` as bonuses an official may give (at most `bound` each way), summing to it."""
    parts = []
    while abs(points) > bound:
        step = bound if points > 0 else -bound
        parts.append(step)
        points -= step
    return parts + [points]


def leaders_and_trailers(season, leaders, trailers):
    """`leaders` players S01… then `trailers` more (5 or more in all), each with 3 or 4
    homologated rounds, far apart within the default round limits (+30 / −30): the rounds seat
    five consecutive players in a circle, all drawn (10 points each), and give each leader +20
    ("hote", points set by an official) and each trailer −30 ("ethique"): 30 points a round
    against −20."""
    count = leaders + trailers
    players = seed_names(count)
    for index in range(-(-3 * count // 5)):
        seated = [players[(5 * index + j) % count] for j in range(5)]
        adjustments = [
            (name, "hote", 20, "") if number <= leaders else (name, "ethique", -30, "")
            for number, name in ((int(name[1:]), name) for name in seated)
        ]
        play_totals(season, seated, [0] * 5, adjustments=adjustments)
    return players


def play_table(season, table, totals, **kwargs):
    """A play-off round at `table` with these totals (dict in seat order)."""
    return play_totals(season, list(totals), totals, stage=Round.PLAYOFF, table=table, **kwargs)


def play_final(season, totals, **kwargs):
    return play_totals(season, list(totals), totals, stage=Round.FINAL, **kwargs)
