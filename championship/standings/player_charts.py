"""A player's cumulative points through a season, and their chart (server-side SVG geometry)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from django.utils.translation import gettext

from championship.lib.charts import ChartFrame, Plot
from scoring.french import num, signed


@dataclass(frozen=True)
class Chart(ChartFrame):
    """A player's cumulative points, drawn by a template as inline SVG."""

    line: str  # "x,y x,y …" for <polyline points>
    dots: list  # (x, y, title)
    gaps: tuple = ()  # (x, title): between two counted rounds whose numbers are not consecutive


def cumulative_points(standings, player_id, late):
    """`(round, points of the round, cumulative points)` of a player through the season's counted
    rounds; `late`, his late-report maluses `{round id: points}`."""
    series, running = [], 0
    for round_ in standings.rounds:
        points = standings.data.points.get((player_id, round_.pk), 0) + late.get(round_.pk, 0)
        running += points
        series.append((round_, points, running))
    return series


def points_chart(series, width=640, height=260, most=12):
    """The chart of `cumulative_points` (rounds given by their number): starts at 0, one point
    per counted round, at most about `most` numbered rounds on the axis. A round number missing
    between two counted rounds (a round not homologated yet) gets a gap mark.

    The phone's chart is `points_chart(series, *PHONE_CHART)`: drawn 360 units wide, its 14-unit
    text stays at least 12 CSS pixels tall on a 390-pixel screen."""
    values = [0] + [running for _number, _points, running in series]
    plot = Plot.around(values, len(values), left=62, top=16, right=width - 16, bottom=height - 52)
    dots = [
        (
            plot.x(index),
            plot.y(running),
            gettext("Manche %(number)s : %(points)s → %(running)s")
            % {"number": number, "points": signed(points), "running": num(running)},
        )
        for index, (number, points, running) in enumerate(series, start=1)
    ]
    x_ticks = plot.index_ticks(["0"] + [str(number) for number, _points, _running in series], most=most)
    y_ticks = plot.value_ticks(num)
    gaps = tuple(
        (round((plot.x(index) + plot.x(index + 1)) / 2, 1), missing_rounds(before + 1, after - 1))
        for index, ((before, _p, _r), (after, _q, _s)) in enumerate(pairwise(series), start=1)
        if after - before > 1
    )
    return Chart(
        **ChartFrame.fields_of(plot, width, height, x_ticks, y_ticks),
        line=plot.polyline(values),
        dots=dots,
        gaps=gaps,
    )


PHONE_CHART = (360, 280, 6)  # width, height, most numbered rounds


def missing_rounds(first, last):
    if first == last:
        return gettext("Manche %(number)s : pas encore homologuée, pas comptée") % {"number": first}
    return gettext("Manches %(first)s à %(last)s : pas encore homologuées, pas comptées") % {
        "first": first,
        "last": last,
    }
