"""The statistics' bar charts (`championship.stats.charts`): every figure inside the drawing and
clear of the labels, tick labels apart, at both sizes."""

from hypothesis import given, settings
from hypothesis import strategies as st

from championship.stats.charts import DIGIT, PHONE_BARS, bar_chart

values = st.lists(st.integers(-5000, 5000), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(values)
def test_figures_stay_in_the_drawing_and_clear_of_the_labels(items):
    for size in ((640, 170, 26), PHONE_BARS):
        chart = bar_chart([(f"J{n}", value) for n, value in enumerate(items)], *size)
        for _y, x, width, _label, text, _positive, _title, text_x, anchor, _inside in chart.bars:
            extent = DIGIT * len(text)
            low, high = (text_x, text_x + extent) if anchor == "start" else (text_x - extent, text_x)
            assert chart.left - 4 <= low and high <= chart.width, (size, text, low, high)
            assert chart.left <= x and x + width <= chart.right + 1  # a bar of 0 is 1 unit wide
            assert text_x >= x + width if anchor == "start" else text_x <= x
        ticks = sorted(chart.ticks)
        assert any(label == "0" for _x, label in ticks)
        for (x1, t1), (x2, t2) in zip(ticks, ticks[1:], strict=False):
            assert x2 - x1 >= DIGIT * (len(t1) + len(t2)) / 2, (t1, t2)


def test_a_bar_chart_by_hand():
    chart = bar_chart([("Alice", 100), ("Bruno", -50)], 640, 170, 26)
    (y1, x1, w1, *_rest1), (y2, x2, w2, *_rest2) = chart.bars
    assert (y1, y2) == (8, 34) and chart.height == 8 + 2 * 26 + 26
    assert x1 == chart.zero and x2 + w2 == chart.zero  # positive to the right of 0, negative to the left
    assert abs(w1 - 2 * w2) < 0.5
