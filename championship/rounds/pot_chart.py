"""The pot through a round: its size after each deal as a bar chart, drawn by a template as
inline SVG (server-side geometry, as `championship.standings.player_charts`); the page gives its figures
in a table as well, for screen readers."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from championship.lib.charts import ChartFrame, Plot
from scoring.french import num


@dataclass(frozen=True)
class PotChart(ChartFrame):
    """The pot after each deal, drawn by a template as inline SVG."""

    bars: tuple  # (x, y, width, height, title): one per deal with something in the pot


def pot_chart(track, width=640, height=200, most=16):
    """The bars of `track`, ``[(deal number, pot after the deal)]`` in deal order: one band per
    deal, the pot's axis from 0 in round steps, at most about `most` numbered deals on the axis
    (always the last one).

    The phone's chart is `pot_chart(track, *PHONE_POT_CHART)`: drawn 360 units wide, its 14-unit
    text stays at least 12 CSS pixels tall on a 390-pixel screen, and it is under 200 pixels tall
    whatever the number of deals."""
    count = len(track)
    pots = [pot for _number, pot in track]
    plot = Plot.around([0, *pots], count, left=48, top=12, right=width - 10, bottom=height - 44, ticks=4)
    band = (plot.right - plot.left) / max(count, 1)
    bar = max(round(band * 0.7, 1), 1)
    every = max(1, -(-count // most))
    numbered = set(range(0, count, every))
    if count and count - 1 not in numbered:  # the last deal takes the place of the one before it
        numbered = (numbered - {max(numbered)}) | {count - 1}
    bars, x_ticks = [], []
    for index, (number, pot) in enumerate(track):
        middle = round(plot.left + band * (index + 0.5), 1)
        if index in numbered:
            x_ticks.append((middle, str(number)))
        if pot > 0:
            top = plot.y(pot)
            title = gettext("Donne %(number)s : %(pot)s dans le pot") % {"number": number, "pot": num(pot)}
            bars.append((round(middle - bar / 2, 1), top, bar, round(plot.bottom - top, 1), title))
    return PotChart(
        **ChartFrame.fields_of(plot, width, height, x_ticks, plot.value_ticks(num)),
        bars=tuple(bars),
    )


PHONE_POT_CHART = (360, 200, 8)  # width, height, most numbered deals
