"""The palmarès across seasons: record round totals, most round wins, the longest winning and
losing streaks, the best seasons (docs/statistiques.md §5).

A player's rounds are the counted rounds he sat at (homologated, regular), in the order they were
played (date, then number), across seasons: a ``Result`` each. A round is *won* at rank 1 (ties
included, as the standings count wins) and *lost* when he finished last: nobody below him (a
shared last place included).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One counted round of a player."""

    round_id: int
    date: object  # datetime.date, for the order
    number: int
    season: str
    rank: int | None
    last: bool  # nobody finished below him
    total: int | None

    @property
    def won(self) -> bool:
        return self.rank == 1


# A streak is two rounds or more in a row among the player's own rounds (those he sat at, in the
# order played, across seasons): one won round is a win, not a streak. One rule for a player's
# palmarès and the federation's (docs/statistiques.md §5).
MIN_STREAK = 2


@dataclass(frozen=True)
class Streak:
    """``length`` rounds in a row, from ``first`` to ``last`` (Results); length 0: none."""

    length: int
    first: Result | None = None
    last: Result | None = None


def longest_streak(results: Sequence[Result], holds) -> Streak:
    """The longest run of consecutive `results` for which ``holds(result)``; the earliest of
    equal runs (any length: see ``career`` for the rule of a streak)."""
    best = Streak(0)
    start = None
    for index, result in enumerate(results):
        if holds(result):
            start = index if start is None else start
            length = index - start + 1
            if length > best.length:
                best = Streak(length, results[start], result)
        else:
            start = None
    return best


def round_results(seats: Iterable[tuple]) -> list[tuple]:
    """``[(player, Result)]`` of one round's seats ``(player, round_id, date, number, season,
    rank, total)``: last means no one ranked below."""
    seats = list(seats)
    lowest = max((rank for _p, _r, _d, _n, _s, rank, _t in seats if rank is not None), default=None)
    return [
        (player, Result(round_id, date, number, season, rank, rank is not None and rank == lowest, total))
        for player, round_id, date, number, season, rank, total in seats
    ]


@dataclass(frozen=True)
class Career:
    """A player's palmarès."""

    rounds: int
    wins: int
    lasts: int
    best_round: Result | None  # his highest round total
    winning: Streak  # length 0 when shorter than MIN_STREAK
    losing: Streak


def career(results: Sequence[Result]) -> Career:
    """The palmarès of one player's `results`, in the order they were played."""
    results = sorted(results, key=lambda r: (r.date, r.number, r.round_id))
    totals = [r for r in results if r.total is not None]
    return Career(
        rounds=len(results),
        wins=sum(r.won for r in results),
        lasts=sum(r.last for r in results),
        best_round=max(totals, key=lambda r: (r.total, -r.date.toordinal(), -r.number), default=None),
        winning=_streak(longest_streak(results, lambda r: r.won)),
        losing=_streak(longest_streak(results, lambda r: r.last)),
    )


def _streak(run: Streak) -> Streak:
    """`run` when it is a streak (``MIN_STREAK`` rounds or more), else none."""
    return run if run.length >= MIN_STREAK else Streak(0)


def leaders(items: Iterable, key, count: int, order=None) -> list:
    """The `count` first of `items` by ``key`` (highest first), ties by `order`, and every item
    tied with the last one kept (a record shared is shown shared)."""
    ranked = sorted(items, key=lambda item: (-key(item), order(item) if order else 0))
    if len(ranked) <= count:
        return ranked
    edge = key(ranked[count - 1])
    return [item for index, item in enumerate(ranked) if index < count or key(item) == edge]
