"""The exact answers of the outlook, one integer program per player and question (HiGHS,
`scoring.outlook.linear`).

The program chooses, for each block of alike nights (`scoring.outlook.blocks`), how many nights
are in each situation of the player ``i`` and how many seats of each slot each other player
takes; a player's final points are his points today plus what his seats give. Once the threat
switches are fixed, what is left is a transportation problem (its matrix is totally unimodular),
which the linear relaxation solves in integers: the search only branches on who is a threat.

- `worst_count`: the most other players who can end ranked with at least ``i``'s points while
  he is ranked (his worst place is one more);
- `best_count`: the fewest other players who must end ranked with more points than ``i`` while
  he is ranked (his best place is one more);
- `unsafe_gain`: the most rank points ``i``'s remaining rounds can bring him while he still
  ends out of the places (unranked, or ``places`` others ranked with at least his points);
- `seat_range`: the least and the most rank points his rounds can bring, and whether he can
  be left unranked.

Each returns None when no seating answers it (``i`` cannot be ranked, no outcome is unsafe).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring.outlook.blocks import BEST, NEED, WORST, Block, Scale, situations
from scoring.outlook.linear import Linear, SolverError

__all__ = ["Field", "SolverError", "best_count", "seat_range", "unsafe_gain", "worst_count"]


@dataclass(frozen=True)
class Field:
    """One season's state for the solver, players by index."""

    points: tuple  # season points today
    rounds: tuple  # rounds counted
    active: tuple  # may sit at a table open to every active player
    late: tuple  # what missing reports of counted rounds may still add (≤ 0)
    names: tuple
    blocks: tuple  # Block
    places: int
    minimum: int

    def may_sit(self, player: int, table) -> bool:
        if table.candidates is None:
            return self.active[player]
        return self.names[player] in table.candidates


class _Program:
    """The seating of the others and the situations of ``i`` for one question, in counts."""

    def __init__(self, field: Field, i: int, question: str, scale: Scale):
        self.lp = Linear()
        self.field, self.i = field, i
        self.others = [j for j in range(len(field.names)) if j != i]
        self.seats = defaultdict(list)  # player -> [(seat count variable, 1)]
        self.gains = defaultdict(list)  # player -> [(variable, value)]
        self.my_seats, self.my_gain = [], []
        for block in field.blocks:
            self._block(block, question, scale)

    def _block(self, block: Block, question: str, scale: Scale) -> None:
        lp, field = self.lp, self.field
        sits = tuple(field.may_sit(self.i, table) for table in block.tables)
        found = situations(block, question, scale, sits)
        counts = [lp.var(0, block.count) for _situation in found]
        lp.row([(count, 1) for count in counts], block.count, block.count)
        for count, situation in zip(counts, found, strict=True):
            if situation.table is not None:
                self.my_seats.append((count, 1))
                self.my_gain.append((count, situation.value))
            taken = defaultdict(list)
            for slot in situation.slots:
                table = block.tables[slot.table]
                filled = []
                for j in self.others:
                    if field.may_sit(j, table):
                        seat = lp.var(0, block.count)
                        filled.append((seat, 1))
                        taken[j].append((seat, 1))
                        self.seats[j].append((seat, 1))
                        self.gains[j].append((seat, slot.value))
                lp.row([*filled, (count, -slot.seats)], 0, 0)
            for seats in taken.values():  # one seat a night at most
                lp.row([*seats, (count, -1)], upper=0)

    def switch(self) -> int:
        return self.lp.var(0, 1)

    def dominance(self, switches: dict, points) -> None:
        """Symmetry breaking: ``switches[j]`` says that ``j`` ends ranked with at least what a
        question asks (a threat). Two others who may sit at exactly the same tables can swap
        their seats; if ``j`` has at least the points of ``k`` (``points[j]``, as the question
        counts them) and at least his rounds (or both are ranked already), any outcome where
        ``k`` is a threat and ``j`` is not becomes, by the swap, one with as many threats where
        ``j`` is: so ``switches[k] ≤ switches[j]`` loses no outcome's count, and spares the
        search the orders of alike players."""
        field = self.field
        groups = defaultdict(list)
        for j in switches:
            key = tuple(field.may_sit(j, t) for block in field.blocks for t in block.tables)
            groups[key].append(j)
        for members in groups.values():
            ranked = [min(field.rounds[j], field.minimum) for j in members]
            order = sorted(range(len(members)), key=lambda n: (-points[members[n]], -ranked[n]))
            for a, b in zip(order, order[1:], strict=False):
                if ranked[a] >= ranked[b]:
                    self.lp.row([(switches[members[a]], 1), (switches[members[b]], -1)], lower=0)

    def ranked_if(self, switch: int, j: int) -> None:
        """``switch`` = 1 only if ``j`` ends ranked."""
        short = self.field.minimum - self.field.rounds[j]
        if short > 0:
            self.lp.at_least_if(switch, self.seats[j], short)

    def solve(self, objective, maximize: bool):
        return self.lp.solve(objective, maximize)


def worst_count(field: Field, i: int, scale: Scale) -> int | None:
    """The most others ranked with at least ``i``'s points, ``i`` ranked and at his lowest."""
    program = _Program(field, i, WORST, scale)
    lp = program.lp
    mine = field.points[i] + (field.late[i] if scale.late else 0)
    lp.row(program.my_seats, lower=field.minimum - field.rounds[i])
    threats = {}
    for j in program.others:
        threat = program.switch()
        # theirs − my gain ≥ mine − their points
        lp.at_least_if(threat, [*program.gains[j], *_minus(program.my_gain)], mine - field.points[j])
        program.ranked_if(threat, j)
        threats[j] = threat
    program.dominance(threats, field.points)
    found = program.solve([(t, 1) for t in threats.values()], maximize=True)
    return None if found is None else found[0]


def best_count(field: Field, i: int, scale: Scale) -> int | None:
    """The fewest others ranked with more points than ``i``, ``i`` ranked and at his highest."""
    program = _Program(field, i, BEST, scale)
    lp = program.lp
    lp.row(program.my_seats, lower=field.minimum - field.rounds[i])
    ahead = []
    for j in program.others:
        above = program.switch()
        theirs = field.points[j] + (field.late[j] if scale.late else 0)
        below = [*program.gains[j], *_minus(program.my_gain)]  # ≤ my points − theirs unless above
        if field.rounds[j] >= field.minimum:
            lp.at_most_if(_not(lp, above), below, field.points[i] - theirs)
        else:  # below me, or never ranked
            stays_out = program.switch()
            lp.at_most_if(stays_out, program.seats[j], field.minimum - field.rounds[j] - 1)
            within = program.switch()
            lp.at_most_if(within, below, field.points[i] - theirs)
            lp.row([(above, 1), (stays_out, 1), (within, 1)], lower=1)
        ahead.append((above, 1))
    found = program.solve(ahead, maximize=False)
    return None if found is None else found[0]


def _not(lp: Linear, switch: int) -> int:
    """A 0-1 variable equal to 1 − ``switch``."""
    negation = lp.var(0, 1)
    lp.row([(switch, 1), (negation, 1)], 1, 1)
    return negation


def _minus(terms):
    return [(v, -c) for v, c in terms]


def unsafe_gain(
    field: Field, i: int, scale: Scale, within: tuple = (None, None), among=None, any_gain=False
) -> int | None:
    """The most rank points ``i``'s rounds can bring him in an outcome where he ends out of the
    places (None: no such outcome, his place is certain at the table's play); ``within`` the
    least and the most gain to look at (None: no bound). ``among``, when given, the only others
    who may count as threats: the program is then a restriction of the full one (a solution of
    it is one of the full program, its None proves nothing), far faster to solve. ``any_gain``:
    the gain of any such outcome within ``within`` (whose least is then given), not the most."""
    program = _Program(field, i, NEED, scale)
    lp = program.lp
    threats, switches = [], {}
    top = max(points[0] for points in scale.rank_points.values())
    for j in program.others:
        threat = program.switch()
        if among is not None and j not in among:
            lp.upper[threat] = 0
        lp.at_least_if(
            threat, [*program.gains[j], *_minus(program.my_gain)], field.points[i] - field.points[j]
        )
        program.ranked_if(threat, j)
        if within[0] is not None and top > 0:
            # his gain at least this: a threat needs this many seats at least, none worth more than ``top``
            short = field.points[i] + within[0] - field.points[j]
            lp.at_least_if(threat, program.seats[j], -(-short // top))
        threats.append((threat, 1))
        switches[j] = threat
    if among is None:
        program.dominance(switches, field.points)
    short = field.minimum - field.rounds[i]
    if short <= 0:
        lp.row(threats, lower=field.places)
    else:  # out of the ranking, or `places` threats
        ranked = program.switch()
        lp.at_most_if(_not(lp, ranked), program.my_seats, short - 1)
        lp.at_least_if(ranked, threats, field.places)
    lp.row(program.my_gain, *within)
    if within[0] is not None and (within[0] == within[1] or any_gain):
        # the question is only whether a solution exists: looking for the most threats leads
        # HiGHS to one far sooner than the gain does
        found = program.solve(threats, maximize=True)
        return None if found is None else sum(c * found[1][v] for v, c in program.my_gain)
    found = program.solve(program.my_gain, maximize=True)
    return None if found is None else found[0]


def seat_range(field: Field, i: int, scale: Scale) -> tuple[int, int, bool] | None:
    """``(least, most, may_miss)``: the fewest and the most rank points ``i``'s remaining
    rounds can bring him (every seat last, every seat first), and whether he can end unranked;
    None when no seating exists at all."""
    answers = []
    for maximize in (False, True):
        program = _Program(field, i, NEED, scale)
        found = program.solve(program.my_gain, maximize)
        if found is None:
            return None
        answers.append(found[0])
    may_miss = False
    short = field.minimum - field.rounds[i]
    if short > 0:
        program = _Program(field, i, NEED, scale)
        program.lp.row(program.my_seats, upper=short - 1)
        may_miss = program.solve([], maximize=True) is not None
    return answers[0], answers[1], may_miss
