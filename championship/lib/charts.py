"""Geometry of the small line charts drawn as inline SVG by templates (pages and PDFs)."""

from dataclasses import dataclass


def nice_step(span, ticks=5, minimum=1):
    """The smallest step of 1, 2 or 5 × 10ⁿ (at least `minimum`) cutting `span` in ≤ `ticks` parts."""
    magnitude = 1
    while True:
        for base in (1, 2, 5):
            step = base * magnitude
            if step >= minimum and span / step <= ticks:
                return step
        magnitude *= 10


@dataclass(frozen=True)
class Plot:
    """Maps point indexes (0 … count − 1) and values onto a rectangle of an SVG canvas; the value
    axis runs between multiples of `step` around the values."""

    left: int
    top: int
    right: int
    bottom: int
    count: int
    low: int
    high: int
    step: int

    @classmethod
    def around(cls, values, count, *, left, top, right, bottom, ticks=5, minimum_step=1):
        low, high = min(values), max(values)
        step = nice_step(max(high - low, 1), ticks, minimum_step)
        low = (low // step) * step
        high = -(-high // step) * step
        if high == low:
            high = low + step
        return cls(left, top, right, bottom, count, low, high, step)

    def x(self, index):
        return round(self.left + (self.right - self.left) * index / max(self.count - 1, 1), 1)

    def y(self, value):
        return round(self.bottom - (self.bottom - self.top) * (value - self.low) / (self.high - self.low), 1)

    def polyline(self, values):
        """The `points` attribute of an SVG polyline through `values`, one per index."""
        return " ".join(f"{self.x(index)},{self.y(value)}" for index, value in enumerate(values))

    def value_ticks(self, label):
        return tuple((self.y(value), label(value)) for value in range(self.low, self.high + 1, self.step))

    def index_ticks(self, labels, most):
        """At most about `most` labelled indexes, always the last one."""
        every = max(1, -(-self.count // most))
        last = self.count - 1
        return tuple((self.x(i), label) for i, label in enumerate(labels) if i % every == 0 or i == last)


@dataclass(frozen=True)
class ChartFrame:
    """What every chart template draws: the canvas, the plotting area, the 0 line and the ticks."""

    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    zero: float  # y of the 0 line
    x_ticks: tuple  # (x, label)
    y_ticks: tuple  # (y, label)

    @staticmethod
    def fields_of(plot, width, height, x_ticks, y_ticks):
        return {
            "width": width,
            "height": height,
            "left": plot.left,
            "top": plot.top,
            "right": plot.right,
            "bottom": plot.bottom,
            "zero": plot.y(0),
            "x_ticks": tuple(x_ticks),
            "y_ticks": tuple(y_ticks),
        }
