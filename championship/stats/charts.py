"""Horizontal bar charts of signed figures (a player's points won from or lost to each other
player), drawn by a template as inline SVG, as the site's other charts (`championship.charts`):
server-side geometry, a title, and the figures in a table beside for screen readers.

The phone's chart is `bar_chart(items, *PHONE_BARS)`: drawn 360 units wide, its 14-unit text
stays at least 12 CSS pixels tall on a 390-pixel screen; a bar is 26 units tall, so that 12 bars
stay well under a phone's height.
"""

from __future__ import annotations

from dataclasses import dataclass

from championship.labels import colon
from championship.lib.charts import nice_step
from scoring.french import num, signed


@dataclass(frozen=True)
class BarChart:
    width: int
    height: int
    left: int  # where the bars' labels end (their text is anchored there, 8 units before)
    right: int
    zero: float  # x of the 0 line
    bars: tuple  # (y, x, width, label, value text, positive, title, text x, text anchor, inside)
    ticks: tuple  # (x, label)
    band: int


def bar_chart(items, width=640, label_width=170, band=26):
    """`items`: ``[(label, value)]`` in the order drawn, top to bottom. Each bar's figure is
    written beyond its end, in room kept for it on the side of the bars that need it."""
    values = [value for _label, value in items] or [0]
    low, high = min(0, *values), max(0, *values)
    step = nice_step(max(high - low, 1), 4)
    low, high = (low // step) * step, -(-high // step) * step
    if high == low:
        high = low + step
    room = DIGIT * max(len(signed(value)) for value in values) + 6  # a figure's width, and a gap
    # figures of 0 go right, unless only negative bars leave room on the left alone
    right_room = max(values) > 0 or min(values) >= 0
    left = label_width + (room if min(values) < 0 else 0)
    right = width - 12 - (room if right_room else 0)
    scale = (right - left) / (high - low)

    def x(value):
        return round(left + (value - low) * scale, 1)

    zero = x(0)
    bars = []
    for index, (label, value) in enumerate(items):
        y = 8 + index * band
        start, end = sorted((zero, x(value)))
        positive = value >= 0
        text_x, anchor = (
            (end + 4, "start") if value > 0 or (value == 0 and right_room) else (start - 4, "end")
        )
        title = f"{label}{colon()}{signed(value)}"
        size = round(max(end - start, 1), 1)
        bars.append((y, start, size, label, signed(value), positive, title, round(text_x, 1), anchor, False))
    height = 8 + len(items) * band + 26
    ticks = _spaced([(x(value), num(value)) for value in range(low, high + 1, step)], zero)
    return BarChart(width, height, label_width, right, zero, tuple(bars), ticks, band)


def _spaced(ticks, zero):
    """The ticks whose labels do not overlap: 0 first, then the others nearest to it first."""
    kept = []
    for tick in sorted(ticks, key=lambda tick: abs(tick[0] - zero)):
        half = DIGIT * len(tick[1]) / 2 + 4
        if all(abs(tick[0] - other) >= half + DIGIT * len(text) / 2 + 4 for other, text in kept):
            kept.append(tick)
    return tuple(sorted(kept))


DIGIT = 8.5  # the width of a character of a 14-unit figure, at most
PHONE_BARS = (360, 110, 26)  # width, label width, band
