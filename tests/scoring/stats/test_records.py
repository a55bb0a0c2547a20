"""The palmarès (`scoring.stats.records`): streaks, careers, leaders with their ties."""

import datetime

from hypothesis import given
from hypothesis import strategies as st

from scoring.stats.records import MIN_STREAK, Result, career, leaders, longest_streak, round_results


def result(n, rank, last=False, total=0, season="2010-2011"):
    return Result(n, datetime.date(2010, 9, 1) + datetime.timedelta(days=7 * n), n, season, rank, last, total)


def test_the_longest_streak_and_the_earliest_of_equal_ones():
    results = [result(1, 1), result(2, 1), result(3, 2), result(4, 1), result(5, 1), result(6, 3)]
    streak = longest_streak(results, lambda r: r.won)
    assert (streak.length, streak.first.round_id, streak.last.round_id) == (2, 1, 2)
    assert longest_streak(results, lambda r: r.rank == 5).length == 0


def test_a_round_is_lost_by_whoever_nobody_finished_below():
    seats = [
        ("Alice", 7, datetime.date(2010, 9, 1), 1, "2010-2011", 1, 300),
        ("Bruno", 7, datetime.date(2010, 9, 1), 1, "2010-2011", 2, 100),
        ("Chloé", 7, datetime.date(2010, 9, 1), 1, "2010-2011", 3, -200),
        ("David", 7, datetime.date(2010, 9, 1), 1, "2010-2011", 3, -200),
    ]
    lasts = {player: r.last for player, r in round_results(seats)}
    assert lasts == {"Alice": False, "Bruno": False, "Chloé": True, "David": True}


def test_a_career_by_hand():
    """Won, won, lost last, won, across two seasons: 3 wins, streak of 2 from the first round;
    the best round the highest total (the earliest of equal ones)."""
    results = [
        result(4, 1, total=500, season="2011-2012"),
        result(1, 1, total=500),
        result(2, 1, total=200),
        result(3, 5, last=True, total=-400),
    ]
    mine = career(results)
    assert (mine.rounds, mine.wins, mine.lasts) == (4, 3, 1)
    assert (mine.winning.length, mine.winning.first.round_id) == (2, 1)
    assert mine.losing.length == 0  # one last place is no streak (MIN_STREAK, issue 35)
    assert mine.best_round.round_id == 1


def test_leaders_keep_everyone_tied_with_the_last():
    items = {"A": 5, "B": 3, "C": 3, "D": 1}
    assert leaders(items, items.get, 2) == ["A", "B", "C"]
    assert leaders(items, items.get, 1) == ["A"]
    assert leaders(items, items.get, 10) == ["A", "B", "C", "D"]


@given(st.lists(st.booleans(), max_size=30))
def test_the_streak_is_the_longest_run(flags):
    results = [result(n, 1 if won else 2) for n, won in enumerate(flags)]
    text = "".join("W" if won else "." for won in flags)
    longest = max((len(run) for run in text.split(".")), default=0)
    assert longest_streak(results, lambda r: r.won).length == longest
    assert career(results).wins == sum(flags)
    assert career(results).winning.length == (longest if longest >= MIN_STREAK else 0)
