"""The outlook by brute force, for small seasons: every seating, every ranking of every table
(ties sharing the better rank, docs/regles.md §5.1), every bonus of the range, every place of
the late-report malus on a winner, every value of the malus still to come on a known author.

Nothing of `scoring.outlook` is used: the outcomes of each night are enumerated, the outcomes of
the season are the sums of one outcome per night, and each answer is read from them by its
definition. One reduction keeps it fast, and changes no answer: an outcome that is no better than
another for the side a question takes (the others' points higher and the player's lower for his
worst place, the reverse for his best…) is dropped, at each night and after each sum (a count
of players above or below a line is monotone in each player's points and in his seats towards
the rounds he needs to be ranked). `test_the_reduction_changes_nothing` compares with and
without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product

import numpy as np


@dataclass(frozen=True)
class Case:
    names: tuple
    points: tuple
    rounds: tuple
    active: tuple
    late: tuple  # what each player's missing reports may still add (≤ 0)
    nights: tuple  # of tuples of (size, candidates or None, late malus)
    rank_points: dict
    floor: int
    cap: int
    bonus: tuple  # (least, most) a seat may add to its rank points: finite here
    places: int
    minimum: int


def weak_orderings(players):
    """Every ranking of ``players`` with ties: a list of groups, the first group first."""
    players = list(players)
    if not players:
        yield []
        return
    for size in range(1, len(players) + 1):
        for first in combinations(players, size):
            rest = [p for p in players if p not in first]
            for tail in weak_orderings(rest):
                yield [first, *tail]


def _candidates(case: Case, candidates):
    if candidates is None:
        return [j for j in range(len(case.names)) if case.active[j]]
    return [case.names.index(name) for name in sorted(candidates)]


def _seatings(case: Case, night):
    """Every way to seat the tables of a night, a player at one table at most."""

    def place(tables, used):
        if not tables:
            yield []
            return
        size, candidates, _late = tables[0]
        free = [j for j in _candidates(case, candidates) if j not in used]
        for seated in combinations(free, size):
            for rest in place(tables[1:], used | set(seated)):
                yield [seated, *rest]

    yield from place(list(night), set())


def _table_outcomes(case: Case, seated, late: int, with_bonus: bool, with_late: bool):
    """``{((player, value), …)}`` of one table: every ranking, bonus and malus."""
    points = case.rank_points[len(seated)]
    low, high = case.bonus if with_bonus else (0, 0)
    found = set()
    for ranking in weak_orderings(seated):
        rank_of, place = {}, 0
        for group in ranking:
            for player in group:
                rank_of[player] = points[place]
            place += len(group)
        choices = [
            sorted({min(case.cap, max(case.floor, rank_of[p] + extra)) for extra in range(low, high + 1)})
            for p in seated
        ]
        authors = ranking[0] if with_late and late else (None,)
        for values in product(*choices):
            for author in authors:
                for malus in range(late if author is not None else 0, 1):
                    found.add(
                        tuple(
                            (p, value + (malus if p == author else 0))
                            for p, value in zip(seated, values, strict=True)
                        )
                    )
    return found


def night_outcomes(case: Case, night, with_bonus: bool, with_late: bool):
    """Every outcome of a night: ``(values, seats)`` tuples over every player."""
    count = len(case.names)
    found = set()
    for seating in _seatings(case, night):
        tables = [
            _table_outcomes(case, seated, late, with_bonus, with_late)
            for seated, (_size, _cand, late) in zip(seating, night, strict=True)
        ]
        seats = tuple(int(any(j in seated for seated in seating)) for j in range(count))
        for parts in product(*tables):
            values = [0] * count
            for part in parts:
                for player, value in part:
                    values[player] += value
            found.add((tuple(values), seats))
    return found


def late_outcomes(case: Case):
    """What the missing reports of counted rounds may still cost: any value, each player."""
    ranges = [range(late, 1) for late in case.late]
    zero = tuple(0 for _name in case.names)
    return {(values, zero) for values in product(*ranges)}


# --- one question ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """How a question orders outcomes, over the values then the seats of every player: +1
    higher is better for it, −1 lower, 0 kept exact, None not read."""

    signs: tuple


def reduced(side: Side | None, rows: np.ndarray) -> np.ndarray:
    """``rows`` (one outcome a row: values then seats) without duplicates and, for ``side``,
    without those another row is at least as good as in every column (the exact columns equal)."""
    if side is None:
        return _unique(rows)
    signs = np.array([0 if sign is None else sign for sign in side.signs])
    rows = rows.copy()
    rows[:, [sign is None for sign in side.signs]] = 0
    rows = _unique(rows)
    exact, graded = signs == 0, signs != 0
    _keys, groups = _unique(rows[:, exact], inverse=True)
    kept = []
    for group in range(int(groups.max()) + 1 if len(rows) else 0):
        members = rows[groups == group]
        scores = members[:, graded] * signs[graded]
        order = np.argsort(-scores.sum(axis=1), kind="stable")
        members, scores = members[order], scores[order]
        alive = np.ones(len(members), dtype=bool)
        while alive.any():
            first = int(np.argmax(alive))  # the best sum still alive: nothing alive dominates it
            kept.append(members[first])
            alive &= ~np.all(scores[first] >= scores, axis=1)
    return np.array(kept, dtype=np.int64).reshape(-1, rows.shape[1])


def _unique(rows: np.ndarray, inverse: bool = False):
    """The distinct rows (sorted), and with ``inverse`` the index of each row among them. The
    rows are small integers: each becomes one number in mixed radix."""
    if rows.shape[1] == 0:
        distinct = rows[:1]
        return (distinct, np.zeros(len(rows), dtype=np.int64)) if inverse else distinct
    low = rows.min(axis=0)
    spans = rows.max(axis=0) - low + 1
    codes = np.zeros(len(rows), dtype=np.int64)
    for column, span in enumerate(spans.tolist()):
        codes = codes * span + (rows[:, column] - low[column])
    if np.prod(spans.astype(float)) >= 2.0**62:  # too wide for one number: numpy's own way
        return np.unique(rows, axis=0, return_inverse=inverse)
    _codes, first, back = np.unique(codes, return_index=True, return_inverse=True)
    return (rows[first], back.ravel()) if inverse else rows[first]


LARGE = 200_000  # outcomes in a sum beyond which both sides are reduced first

# The outcomes of each night, by case, night and rules read: several tests of a module enumerate
# the same nights (each case is checked for the table's answer, the certain one, the restricted
# program); enumerated once per process, read-only.
_NIGHT_ROWS = {}


def _rows(outcomes):
    rows = np.array([values + seats for values, seats in outcomes])
    rows.flags.writeable = False
    return rows


def _night_rows(case: Case, night, with_bonus: bool, with_late: bool) -> np.ndarray:
    key = (repr(case), night, with_bonus, with_late)
    if key not in _NIGHT_ROWS:
        _NIGHT_ROWS[key] = _rows(night_outcomes(case, night, with_bonus, with_late))
    return _NIGHT_ROWS[key]


class Brute:
    """Every outcome of a small season, enumerated once, then each question's answer."""

    def __init__(self, case: Case, *, with_bonus: bool, with_late: bool, large: int = LARGE):
        self.case, self.large = case, large
        count = len(case.names)
        self.parts = [_night_rows(case, night, with_bonus, with_late) for night in case.nights]
        if with_late:
            self.parts.append(_rows(late_outcomes(case)))
        self.need = np.array([max(case.minimum - r, 0) for r in case.rounds])
        self.count = count

    def outcomes(self, side: Side | None) -> np.ndarray:
        """Every outcome of the season (reduced for ``side`` where a sum would be large),
        seats clipped to what ranks."""
        count = self.count
        states = np.zeros((1, 2 * count), dtype=np.int64)
        for part in self.parts:
            part = self._clipped(part)
            if len(states) * len(part) > self.large:
                part, states = reduced(side, part), reduced(side, states)
            states = (states[:, None, :] + part[None, :, :]).reshape(-1, 2 * count)
            states = _unique(self._clipped(states, copy=False))  # a new array: clipped in place
        return states

    def _clipped(self, rows, copy=True):
        rows = rows.copy() if copy else rows
        np.minimum(rows[:, self.count :], self.need, out=rows[:, self.count :])
        return rows

    def answers(self, i: int, *, reduce: bool = True, need: bool = True):
        """``(best, worst, needed, least, most)`` of player ``i``: his best and worst final
        place (None: never ranked, may end unranked), the fewest points his rounds must bring
        him to be certain of a place (None: certain whatever) and the least and most they can."""
        case, count = self.case, self.count
        me = [j == i for j in range(count)]
        worst_side = Side(tuple(-1 if m else 1 for m in me) + (1,) * count)
        best_side = Side(tuple(1 if m else -1 for m in me) * 2)
        need_side = Side(tuple(0 if m else 1 for m in me) * 2)
        if not need:  # only whether he may end unranked: his seats
            need_side = Side((None,) * count + tuple(0 if m else None for m in me))
        points = np.array(case.points)
        ranked_at = np.array(case.minimum) - np.array(case.rounds)
        others = np.array([not m for m in me])

        def read(side):
            rows = self.outcomes(side if reduce else None)
            final, ranked = rows[:, :count] + points, rows[:, count:] >= ranked_at
            return rows[:, i], final, ranked, final[:, [i]], ranked[:, i]

        _gain, final, ranked, mine, me_ranked = read(worst_side)
        reach = ((final >= mine) & ranked & others).sum(axis=1)[me_ranked]
        worst = int(reach.max()) + 1 if len(reach) else None
        _gain, final, ranked, mine, me_ranked = read(best_side)
        above = ((final > mine) & ranked & others).sum(axis=1)[me_ranked]
        best = int(above.min()) + 1 if len(above) else None
        gain, final, ranked, mine, me_ranked = read(need_side)
        unsafe = ~me_ranked | (((final >= mine) & ranked & others).sum(axis=1) >= case.places)
        needed = int(gain[unsafe].max()) + 1 if unsafe.any() else None
        if not me_ranked.all():
            worst = None
        if not need:
            return best, worst
        return best, worst, needed, int(gain.min()), int(gain.max())


def unsafe_gains(brute: Brute, i: int, rows: np.ndarray) -> tuple[set, set]:
    """Every gain of ``i``'s rounds (rank points only) in an outcome where he ends out of the
    places (unranked, or ``places`` others ranked with at least his points), and every gain
    they can bring him at all; ``rows`` every outcome (``brute.outcomes(None)``)."""
    case, count = brute.case, brute.count
    final = rows[:, :count] + np.array(case.points)
    ranked = rows[:, count:] >= np.array(case.minimum) - np.array(case.rounds)
    others = np.array([j != i for j in range(count)])
    reach = ((final >= final[:, [i]]) & ranked & others).sum(axis=1)
    unsafe = ~ranked[:, i] | (reach >= case.places)
    return set(np.unique(rows[unsafe, i]).tolist()), set(np.unique(rows[:, i]).tolist())
