"""The play-off outlook of a season still running (docs/regles.md §6.4): where each player can
still finish, certainly and at the table's play, and what he needs.

Input, plain data: the players (`Contender`: points today, rounds counted, whether he may still
sit at an open table, what his missing reports may still cost him), the regular rounds still to
count (`ComingRound`: table size, who may sit when the calendar knows it, the late-report malus
its report may reach, the night it belongs to) and the rules (`Rules`, `Rules.of(rulebook)`).
Output, per player (`Prospect`): two `Places` — *certain*, every outcome the rules allow (the
round's floor and cap, any bonus and malus within them, the late-report malus on each round's
winner and on the known authors of rounds played), and *table*, rank points only (bonuses and
maluses to come counted as zero) — and, at the table's play, what he `Need`s.

Every figure is exact under the model (`tests/scoring/outlook/` checks it against every seating
and every ranking of small seasons); the solver is `scoring.outlook.solver`.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

from scoring.outlook import greedy, solver
from scoring.outlook.blocks import Scale, Table, blocks_of
from scoring.outlook.solver import Field

QUALIFIED = "qualified"
ELIMINATED = "eliminated"
IN_CONTENTION = "in_contention"


@dataclass(frozen=True)
class Contender:
    name: str
    points: int  # season points today, every line counted (the late-report malus as of today)
    rounds: int = 0  # rounds counted
    active: bool = True  # may sit at a round whose seats are not known
    late: int = 0  # what his missing reports of counted rounds may still add (≤ 0)
    tiebreaks: tuple = ()  # the rulebook's tie-breaks, bigger better: decide once no round is left


@dataclass(frozen=True)
class ComingRound:
    size: int = 5  # seats at the table
    seats: frozenset | None = None  # who may sit (exactly ``size``: a known seating); None: anyone active
    late: int = 0  # the late-report malus its report may reach by the season's end, on its winner (≤ 0)
    night: object = None  # rounds of one night: a player sits at most one of them


@dataclass(frozen=True)
class Rules:
    rank_points: Mapping  # table size -> points by place, decreasing
    floor: int  # the least a round gives a player (≤ 0), the late-report malus aside
    cap: int  # the most a round gives a player
    places: int  # play-off places: the first ``places`` of the final ranking
    minimum_rounds: int  # rounds to be ranked
    bonus: tuple = (
        None,
        None,
    )  # what a seat may add to its rank points, at least and at most (None: no bound)

    @classmethod
    def of(cls, rulebook) -> Rules:
        """The season's rules. The Direction may give any bonus or malus (docs/regles.md §5.5):
        beyond the rank points, only the round's floor and cap bound a seat."""
        rules = rulebook.championship
        return cls(
            rank_points={size: tuple(points) for size, points in rules.rank_points.items()},
            floor=min(rules.round_points_floor, 0),
            cap=max(rules.round_points_cap, 0),
            places=rulebook.cup.playoff_players,
            minimum_rounds=rules.minimum_rounds,
        )


@dataclass(frozen=True)
class Places:
    """A player's final places under one answer's outcomes; ties on points count both ways."""

    best: int | None  # None: he can never be ranked
    worst: int | None  # None: he may end unranked
    places: int

    @property
    def status(self) -> str:
        if self.best is None or self.best > self.places:
            return ELIMINATED
        if self.worst is not None and self.worst <= self.places:
            return QUALIFIED
        return IN_CONTENTION


@dataclass(frozen=True)
class Need:
    """At the table's play: the fewest rank points his remaining rounds must bring him to be
    certain of a place, whatever the others' places."""

    needed: int | None  # None: certain whatever his places
    least: int  # what his rounds bring at worst (the seats he must take, each last)
    most: int  # what they bring at best (every round he can play, won)
    example: tuple | None  # ((place, table size), …) bringing ``needed`` in the fewest rounds
    exact: bool = True  # False: ``needed`` is enough, the fewest was not proved in the time given

    @property
    def reachable(self) -> bool:
        return self.needed is None or self.needed <= self.most


@dataclass(frozen=True)
class Prospect:
    player: str
    certain: Places
    table: Places
    need: Need


def scales(rules: Rules) -> tuple[Scale, Scale]:
    """The certain answer's scale and the table's (rank points only)."""
    points = {size: tuple(values) for size, values in rules.rank_points.items()}
    low, high = rules.bonus
    certain = Scale(points, rules.floor, rules.cap, low, high, late=True)
    return certain, Scale(points, rules.floor, rules.cap, 0, 0, late=False)


def prospects(
    players: Sequence[Contender],
    rounds: Sequence[ComingRound],
    rules: Rules,
    need_seconds: float | None = None,
) -> dict[str, Prospect]:
    """``{name: Prospect}`` of every player of ``players`` (see the module's docstring).

    ``need_seconds``: the time the search for what a player needs may take, for each player,
    when no shortcut applies (None: as long as it takes). Past it, his `Need` is a total proved
    enough but not proved the fewest (``exact`` false): a page never waits on a runaway search,
    and never says a place is certain when it is not.

    The answers depend on the inputs alone: the last `REMEMBERED` inputs whose answers are all
    exact are remembered by the process, and asked again, answered without a search (a write to
    a season, a deal entered or a signature, changes its figures' token but seldom what the race
    is computed from). Answers cut short by ``need_seconds`` are never remembered."""
    key = _inputs_key(players, rounds, rules, need_seconds)
    with _REMEMBERING:
        found = _remembered.get(key) if key is not None else None
        if found is not None:
            _remembered.move_to_end(key)
            return dict(found)
    found = _prospects(players, rounds, rules, need_seconds)
    if key is not None and all(prospect.need.exact for prospect in found.values()):
        with _REMEMBERING:
            _remembered[key] = dict(found)
            while len(_remembered) > REMEMBERED:
                _remembered.popitem(last=False)
    return found


REMEMBERED = 32  # inputs whose answers a process keeps (a season's race: a few kilobytes each)
_remembered: OrderedDict = OrderedDict()  # inputs' key -> {name: Prospect}, oldest first
_REMEMBERING = threading.Lock()  # a page's thread and the figures' warming may ask at once


def forget() -> None:
    """The remembered answers dropped (a benchmark times the search itself)."""
    with _REMEMBERING:
        _remembered.clear()


def _inputs_key(players, rounds, rules, need_seconds):
    """What decides the answers, hashable (a rule's mapping as its sorted items); None when an
    input is not (the answers are then computed each time)."""

    def frozen(value):
        if isinstance(value, Mapping):
            return tuple(sorted((k, frozen(v)) for k, v in value.items()))
        return value

    key = (
        tuple(players),
        tuple(rounds),
        tuple((field.name, frozen(getattr(rules, field.name))) for field in fields(rules)),
        need_seconds,
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _prospects(players, rounds, rules, need_seconds):
    field = _field(players, rounds, rules)
    certain, table = scales(rules)
    if not field.blocks:
        return {p.name: _final(players, p, rules) for p in players}
    return {p.name: _prospect(field, index, certain, table, need_seconds) for index, p in enumerate(players)}


def _prospect(field: Field, i: int, certain: Scale, table: Scale, need_seconds=None) -> Prospect:
    seats = _either(greedy.seat_range, solver.seat_range, field, i, table)
    if seats is None:
        raise ValueError("Aucune répartition des joueurs ne remplit les manches restantes")
    least, most, may_miss = seats
    answers = []
    for scale in (certain, table):
        best = solver.best_count(field, i, scale)
        worst = _either(greedy.worst_count, solver.worst_count, field, i, scale)
        answers.append(
            Places(
                None if best is None else best + 1,
                None if worst is None or may_miss else worst + 1,
                field.places,
            )
        )
    needed, exact = _unsafe_gain(field, i, table, least, most, need_seconds)
    needed = None if needed is None else needed + 1
    example = None if needed is None or needed > most else decomposition(field, i, table, needed)
    return Prospect(field.names[i], *answers, Need(needed, least, most, example, exact))


def _either(fast, general, field, i, scale):
    """The shortcut's answer on the usual calendar, else the general program's."""
    found = fast(field, i, scale)
    return general(field, i, scale) if found is ... else found


def _unsafe_gain(field: Field, i: int, scale: Scale, least: int, most: int, seconds=None):
    """`scoring.outlook.solver.unsafe_gain`, found with programs that only ask whether an outcome
    exists (solved far faster than one that looks for the most gain).

    On the usual calendar the shortcut bounds it (`greedy.unsafe_gain_bounds`): each gain above
    the one it reaches is tried with the gain fixed, from the most down, first with the threats
    among the others it finds likeliest (`greedy.likely_threats`: a solution found so is a real
    outcome), then with every other. Otherwise, between what his rounds can bring (``least`` to
    ``most``): an unsafe outcome with a gain of at least ``g`` is looked for, by halves — one
    found raises the answer to its gain, none lowers the most still possible below ``g``. When
    ``seconds`` run out there, the most still possible is the answer: a gain proved enough, not
    proved the fewest. ``(gain, exact)``."""
    bounds = greedy.unsafe_gain_bounds(field, i, scale)
    if bounds is ...:
        return _unsafe_gain_by_halves(field, i, scale, least, most, seconds)
    low, high = bounds
    if high is None:
        return None, True
    for gain in range(high, (low if low is not None else -1), -1):
        likely = greedy.likely_threats(field, i, scale, gain, field.places + 1)
        if likely and solver.unsafe_gain(field, i, scale, (gain, gain), likely) is not None:
            return gain, True
        if solver.unsafe_gain(field, i, scale, (gain, gain)) is not None:
            return gain, True
    return low, True


def _unsafe_gain_by_halves(field: Field, i: int, scale: Scale, least: int, most: int, seconds=None):
    found, top = None, most  # an unsafe gain reached, the most still possible
    deadline = None if seconds is None else time.monotonic() + seconds
    while top >= (least if found is None else found + 1):
        floor = least if found is None else found + 1
        gain = (floor + top + 1) // 2
        left = None if deadline is None else deadline - time.monotonic()
        try:
            if left is not None and left <= 0:
                raise solver.OutOfTime("le temps donné est passé")
            reached = solver.unsafe_gain(field, i, scale, (gain, None), any_gain=True, seconds=left)
        except solver.OutOfTime:
            return top, False  # no outcome leaves him out with more than ``top``: enough
        if reached is None:
            top = gain - 1
        else:
            found = reached
    return found, True


def _field(players, rounds, rules: Rules) -> Field:
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise ValueError("Joueur présent deux fois dans l'état de la saison")
    if any(p.late > 0 for p in players) or any(r.late > 0 for r in rounds):
        raise ValueError("Un malus de compte-rendu en retard est négatif ou nul")
    if rules.floor > 0 or rules.cap < 0:
        raise ValueError("Une manche peut toujours ne rien donner : plancher ≤ 0 ≤ plafond")
    active = sum(p.active for p in players)
    nights = {}
    for index, coming in enumerate(rounds):
        if coming.size not in rules.rank_points:
            raise ValueError(f"Pas de points de place pour une table de {coming.size}")
        seats = None if coming.seats is None else frozenset(coming.seats)
        if seats is not None and (not seats <= set(names) or len(seats) < coming.size):
            raise ValueError("Une manche restante nomme moins de joueurs que de places, ou un inconnu")
        if seats is None and active < coming.size:
            raise ValueError("Moins de joueurs actifs que de places à une table")
        key = ("night", coming.night) if coming.night is not None else ("round", index)
        nights.setdefault(key, []).append(Table(coming.size, seats, coming.late))
    return Field(
        points=tuple(p.points for p in players),
        rounds=tuple(p.rounds for p in players),
        active=tuple(p.active for p in players),
        late=tuple(p.late for p in players),
        names=tuple(names),
        blocks=tuple(blocks_of(list(nights.values()))),
        places=rules.places,
        minimum=rules.minimum_rounds,
    )


def _final(players, me: Contender, rules: Rules) -> Prospect:
    """No round left: the places of the final ranking, with the tie-breaks; only the late
    malus of missing reports may still move the certain answer."""
    ranked = [p for p in players if p.rounds >= rules.minimum_rounds]
    answers = []
    for late in (True, False):
        if me.rounds < rules.minimum_rounds:
            answers.append(Places(None, None, rules.places))
            continue
        low = (me.points + (me.late if late else 0), me.tiebreaks)
        high = (me.points, me.tiebreaks)
        others = [p for p in ranked if p.name != me.name]
        above = sum((p.points + (p.late if late else 0), p.tiebreaks) > high for p in others)
        reach = sum((p.points, p.tiebreaks) >= low for p in others)
        answers.append(Places(above + 1, reach + 1, rules.places))
    needed = None if answers[1].worst is not None and answers[1].worst <= rules.places else 1
    return Prospect(me.name, *answers, Need(needed, 0, 0, None))


def decomposition(field: Field, i: int, scale: Scale, needed: int) -> tuple | None:
    """``((place, table size), …)``: how ``i`` can bring ``needed`` rank points in the fewest
    rounds he may play — wins, and in the last round the lowest place that is enough (« 17
    points : par exemple une victoire et une 2e place »); None when even winning every round he
    may play is not enough."""
    nights = []  # per night he may attend: the table where a win brings the most
    for block in field.blocks:
        tables = [t for t in block.tables if field.may_sit(i, t)]
        if tables:
            best = max(tables, key=lambda t: (scale.rank_points[t.size][0], t.size))
            nights += [scale.rank_points[best.size]] * block.count
    nights.sort(reverse=True)
    total = 0
    for count, points in enumerate(nights, start=1):
        if total + points[0] >= needed:
            place = max(p for p in range(len(points)) if total + points[p] >= needed)
            wins = tuple((1, len(won)) for won in nights[: count - 1])
            return tuple(sorted((*wins, (place + 1, len(points)))))
        total += points[0]
    return None
