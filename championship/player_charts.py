"""A player's cumulative points through a season, and their chart (server-side SVG geometry)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext

from championship.charts import ChartFrame, Plot
from scoring.french import num, signed


@dataclass(frozen=True)
class Chart(ChartFrame):
    """A player's cumulative points, drawn by a template as inline SVG."""

    line: str  # "x,y x,y …" for <polyline points>
    dots: list  # (x, y, title)


def cumulative_points(standings, player):
    """`(round, points of the round, cumulative points)` through the season's counted rounds."""
    late = Counter()
    for malus in standings.late:
        if malus.player.pk == player.pk:
            late[malus.round.pk] += malus.item.points
    series, running = [], 0
    for round_ in standings.rounds:
        points = standings.data.points.get((player.pk, round_.pk), 0) + late[round_.pk]
        running += points
        series.append((round_, points, running))
    return series


def points_chart(series, width=640, height=260):
    """The chart of `cumulative_points` (rounds given by their number): starts at 0, one point
    per counted round."""
    values = [0] + [running for _number, _points, running in series]
    plot = Plot.around(values, len(values), left=62, top=16, right=width - 16, bottom=height - 52)
    dots = [
        (
            plot.x(index),
            plot.y(running),
            gettext("Manche %(number)s : %(points)s → %(running)s")
            % {"number": number, "points": signed(points), "running": num(running)},
        )
        for index, (number, points, running) in enumerate(series, start=1)
    ]
    x_ticks = plot.index_ticks(["0"] + [str(number) for number, _points, _running in series], most=12)
    y_ticks = plot.value_ticks(num)
    return Chart(
        **ChartFrame.fields_of(plot, width, height, x_ticks, y_ticks), line=plot.polyline(values), dots=dots
    )
