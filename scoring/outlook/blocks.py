"""The remaining rounds as the solver sees them (docs/regles.md §6.4): identical nights merged
into blocks, and for one player and one question the *situations* a night can be in.

A night is one or more tables played on one date (a player sits at most one of them); a round
without a night is a night of one table. Nights with the same tables (size, who may sit, late
malus) form a block of ``count`` nights. For the player ``i`` whose answer is computed, each
night of a block is in one situation: ``i`` absent, or ``i`` at a table with what he takes and
what each other seat of the night gives its occupant (``Slot``: a table, a value and how many
seats give it). The solver only chooses how many nights of each block are in each situation and
which other players take which slots, in counts (`scoring.outlook.solver`).

Why counts are exact: within a situation, the slots are filled by distinct players in each night.
Given counts where every slot value is filled ``count`` times per night and no player takes more
seats than there are nights, the bipartite multigraph players–slots has maximum degree ``count``
(the number of nights): by König's edge-colouring theorem it splits into ``count`` matchings,
each covering every slot, one per night. So every solution in counts is a real seating.

Why these values: for each question, one ranking of each table (and one place of the bonuses and
maluses) is best for the side that asks (docs/regles.md §6.4 writes the argument down):

- ``WORST`` (the others as high as possible, ``i`` as low): every other player at a table ties
  for first and takes the most; ``i`` is last alone, or first tied with everyone and the
  report's author with its late malus, whichever leaves him lower;
- ``BEST`` (``i`` as high, the others as low): a strict ranking, the others taking the least of
  their places and the winner the late malus; at a table where he sits, ``i`` wins and takes
  the most (winning is better for him, and leaves no one else higher than any other place of
  his would), and the player just behind him is either 2nd or tied first as the author with
  the malus, whichever leaves him lower;
- ``NEED`` (rank points only: ``i`` as high as he can while ``k`` others tie above him, the rest
  tied with him): ``i`` takes the points of place ``k + 1``, ``k`` others those of the 1st, the
  others those of place ``k + 1``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

WORST, BEST, NEED = "worst", "best", "need"


@dataclass(frozen=True)
class Table:
    """One table of a night: its seats, who may sit (``None``: every active player) and the
    late-report malus its report may reach, on its winner (≤ 0)."""

    size: int
    candidates: frozenset | None
    late: int


@dataclass(frozen=True)
class Block:
    tables: tuple  # Table, the tables of one night
    count: int  # nights alike


@dataclass(frozen=True)
class Slot:
    table: int  # index of the table in the night
    value: int  # what each of these seats gives its occupant
    seats: int  # how many seats of the table give it


@dataclass(frozen=True)
class Situation:
    table: int | None  # where ``i`` sits, None when he does not
    value: int  # what he takes there (0 when absent)
    slots: tuple  # Slot, the other seats of the night


@dataclass(frozen=True)
class Scale:
    """What a seat can give, by place: the rank points of each table size, the round's floor
    and cap, the bonus range beyond the rank points (``None``: unbounded) and whether the
    late-report malus counts."""

    rank_points: dict  # size -> tuple of points by place
    floor: int
    cap: int
    low_bonus: int | None
    high_bonus: int | None
    late: bool

    def clamp(self, points: int) -> int:
        return min(self.cap, max(self.floor, points))

    def high(self, rank: int) -> int:
        """The most a seat of rank points ``rank`` can give."""
        return self.cap if self.high_bonus is None else self.clamp(rank + self.high_bonus)

    def low(self, rank: int) -> int:
        """The least a seat of rank points ``rank`` can give."""
        return self.floor if self.low_bonus is None else self.clamp(rank + self.low_bonus)

    def malus(self, table: Table) -> int:
        return table.late if self.late else 0


def blocks_of(nights) -> list[Block]:
    """Identical nights merged: ``nights`` is a list of tuples of `Table`."""
    counts = Counter(tuple(sorted(night, key=_table_key)) for night in nights)
    return [Block(tables, count) for tables, count in sorted(counts.items(), key=_night_key)]


def _table_key(table: Table):
    return (table.size, table.candidates is not None, sorted(table.candidates or ()), table.late)


def _night_key(item):
    return [_table_key(table) for table in item[0]]


def situations(block: Block, question: str, scale: Scale, sits: tuple) -> list[Situation]:
    """Every situation of a night of ``block`` for ``question``; ``sits[t]`` says whether ``i``
    may sit at table ``t``."""
    if question == NEED and (scale.low_bonus, scale.high_bonus, scale.late) != (0, 0, False):
        raise ValueError("NEED is asked with rank points only")
    absent = [
        [(t, value, seats) for value, seats in _absent(table, question, scale)]
        for t, table in enumerate(block.tables)
    ]
    found = [Situation(None, 0, _merged(absent))]
    for t, table in enumerate(block.tables):
        if sits[t]:
            for value, seats in _present(table, question, scale):
                mine = [(t, other, count) for other, count in seats]
                found.append(Situation(t, value, _merged([*absent[:t], mine, *absent[t + 1 :]])))
    return list(dict.fromkeys(found))


def _merged(tables) -> tuple:
    """The ``(table, value, seats)`` of each table of a night as `Slot`s, alike seats merged."""
    merged = Counter()
    for slots in tables:
        for table, value, seats in slots:
            merged[(table, value)] += seats
    return tuple(Slot(table, value, seats) for (table, value), seats in sorted(merged.items()) if seats)


def _absent(table: Table, question: str, scale: Scale) -> list:
    """``(value, seats)`` of a table where ``i`` does not sit."""
    points = scale.rank_points[table.size]
    if question == BEST:
        return [(scale.low(points[0]) + scale.malus(table), 1), *((scale.low(p), 1) for p in points[1:])]
    return [(scale.high(points[0]), table.size)]


def _present(table: Table, question: str, scale: Scale) -> list:
    """``[(i's value, [(value, seats)] of the others)]`` of a table where ``i`` sits."""
    points, malus, n = scale.rank_points[table.size], scale.malus(table), table.size
    if question == WORST:
        mine = min(scale.low(points[-1]), scale.low(points[0]) + malus)
        return [(mine, [(scale.high(points[0]), n - 1)])]
    if question == BEST:  # first: better for him, and no one else is higher than at another place
        second = [(min(scale.low(points[1]), scale.low(points[0]) + malus), 1)] if n > 1 else []
        return [(scale.high(points[0]), second + [(scale.low(p), 1) for p in points[2:]])]
    # NEED, rank points only: k others tied first, ``i`` tied with the rest at place k + 1.
    return [(points[k], [(points[0], k), (points[k], n - 1 - k)]) for k in range(n)]
