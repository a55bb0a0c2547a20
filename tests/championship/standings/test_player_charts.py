"""The player's points chart: a gap mark where a round number is missing between two counted
rounds (a round not homologated yet), and the phone's drawing with fewer numbered rounds."""

from championship.standings.player_charts import PHONE_CHART, points_chart


def test_it_marks_the_round_missing_between_two_counted_rounds():
    series = [(8, 5, 20), (9, 0, 20), (11, 3, 23), (14, 1, 24)]
    chart = points_chart(series)
    assert [title for _x, title in chart.gaps] == [
        "Manche 10 : pas encore homologuée, pas comptée",
        "Manches 12 à 13 : pas encore homologuées, pas comptées",
    ]
    dots = [x for x, _y, _title in chart.dots]
    (first, _), (second, _) = chart.gaps
    assert dots[1] < first < dots[2] and dots[2] < second < dots[3]


def test_it_leaves_no_gap_when_the_rounds_follow_each_other():
    assert points_chart([(1, 5, 5), (2, 0, 5), (3, 3, 8)]).gaps == ()


def test_the_phone_chart_numbers_fewer_rounds():
    series = [(number, 1, number) for number in range(1, 25)]
    wide, phone = points_chart(series), points_chart(series, *PHONE_CHART)
    assert phone.width == 360 and len(phone.x_ticks) <= 7 < len(wide.x_ticks)
