import pytest

from championship.lib.charts import Plot, nice_step


@pytest.mark.parametrize(
    ("span", "minimum", "step"),
    [
        (1, 1, 1),
        (4, 1, 1),
        (9, 1, 2),
        (23, 1, 5),
        (40, 1, 10),
        (49, 1, 10),
        (51, 1, 20),
        (8, 10, 10),
        (2600, 10, 1000),
    ],
)
def test_it_picks_a_round_step(span, minimum, step):
    assert nice_step(span, ticks=5, minimum=minimum) == step


def test_it_maps_values_between_round_bounds():
    plot = Plot.around([-650, 380], 5, left=0, top=0, right=400, bottom=200, minimum_step=10)
    assert (plot.low, plot.high, plot.step) == (-1000, 500, 500)
    assert plot.x(0) == 0 and plot.x(4) == 400
    assert plot.y(-1000) == 200 and plot.y(500) == 0
    assert plot.polyline([0, 500]) == "0.0,66.7 100.0,0.0"
    assert [label for _y, label in plot.value_ticks(str)] == ["-1000", "-500", "0", "500"]


def test_it_labels_at_most_about_the_asked_number_of_indexes_and_always_the_last():
    plot = Plot.around([0, 10], 30, left=0, top=0, right=290, bottom=100)
    labels = [label for _x, label in plot.index_ticks([str(i) for i in range(30)], most=10)]
    assert labels == ["0", "3", "6", "9", "12", "15", "18", "21", "24", "27", "29"]


def test_it_never_has_an_empty_value_axis():
    plot = Plot.around([0, 0], 1, left=0, top=0, right=10, bottom=10)
    assert plot.high > plot.low
    assert plot.x(0) == 0
