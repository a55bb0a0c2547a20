"""Exact shortcuts of the outlook for the usual calendar (docs/regles.md §6.4): rounds open to
every active player, and rounds whose seating is known. The general program
(`scoring.outlook.solver`) answers any calendar; these answer the usual one in a few
milliseconds, and give it bounds when they cannot answer alone, and a guess of the others it
should try first as threats (`likely_threats`, a guess only: it never decides an answer).

Why they are exact. When the others' seats are worth the same ``top`` each (the most a first
place gives, every table tied first), a known seating gives each of its players a known value,
and the only choice left is how many seats of the open rounds each player takes. In a block of
``nights`` open nights of ``size`` seats, any numbers of seats of at most ``nights`` each that
fill its seats are a seating (`scoring.outlook.blocks`, König). Several open blocks: a set of
players can each take their ``demand`` of seats iff, for every ``t``, the ``t`` largest demands
add up to at most the seats ``t`` players can take, ``Σ min(free seats, t × nights)`` over the
blocks; the smallest demands are then the most players that can be served (a cut condition on
the sizes of the sets only: smaller demands never break it).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

from scoring.outlook.blocks import Scale, Table

# Nights with more answers than seats are tried seating by seating, up to this many calendars.
MOST_SEATINGS = 64


def _layouts(field, scale: Scale):
    """The calendar as ``[(open, fixed)]`` when it is the usual one, else None: ``open`` the
    blocks open to every active player (one table a night), ``fixed`` the known tables, each
    repeated for its nights; one calendar for each seating of the nights with more answers than
    seats; and the one value of a first place at every table."""
    tops = {scale.high(scale.rank_points[t.size][0]) for b in field.blocks for t in b.tables}
    if len(tops) != 1:
        return None
    opened, fixed, chosen = [], [], [[]]
    for block in field.blocks:
        if len(block.tables) != 1:
            return None
        table = block.tables[0]
        if table.candidates is None:
            opened.append(block)
        elif len(table.candidates) == table.size:
            fixed += [table] * block.count
        else:
            seatings = [
                Table(table.size, frozenset(seated), table.late)
                for seated in combinations(sorted(table.candidates), table.size)
            ]
            for _night in range(block.count):
                chosen = [[*before, seating] for before in chosen for seating in seatings]
                if len(chosen) > MOST_SEATINGS:
                    return None
    return [(opened, fixed + extra) for extra in chosen], tops.pop()


@lru_cache(maxsize=4096)
def _room(free: tuple, most: int) -> list:
    """``room[t]``: the seats ``t`` players can take together in the open blocks, ``free`` the
    ``(seats, nights)`` of each left to the others (``t`` up to ``most``)."""
    return [sum(min(seats, t * nights) for seats, nights in free) for t in range(most + 1)]


def _fit(demands, room, count: int) -> bool:
    """Whether the ``count`` smallest of the sorted ``demands`` can all be served: their ``t``
    largest never exceed ``room[t]``."""
    total = 0
    for t in range(1, count + 1):
        total += demands[count - t]
        if total > room[t]:
            return False
    return True


@lru_cache(maxsize=8192)
def _served(demands: tuple, free: tuple) -> int:
    """The most players of the sorted ``demands`` (seats each must take in the open blocks) who
    can take them together, ``free`` the ``(seats, nights)`` of each open block left to the
    others: the ``k`` smallest demands, for the largest ``k`` whose ``t`` largest never exceed
    the seats ``t`` players can take."""
    room = _room(free, len(demands))
    low, high = 0, len(demands)  # the first ``low`` fit; find the most that do
    while low < high:
        middle = (low + high + 1) // 2
        if _fit(demands, room, middle):
            low = middle
        else:
            high = middle - 1
    return low


@lru_cache(maxsize=8192)
def _demands(bases: tuple, top: int, line: int) -> tuple:
    """`Layout.demands`, sorted: ``bases`` the ``(points, seats short of ranked, most open
    seats)`` of each other player."""
    demands = []
    for points, short, most in bases:
        missing = line - points
        seats = 0 if missing <= 0 else (-(-missing // top) if top > 0 else most + 1)
        if short > seats:
            seats = short
        if seats <= most:
            demands.append(seats if seats > 0 else 0)
    return tuple(sorted(demands))


class Layout:
    """The usual calendar seen from player ``i`` for one scale."""

    def __init__(self, field, i: int, scale: Scale, opened, fixed, top: int):
        self.field, self.i, self.scale, self.top = field, i, scale, top
        self.opened = opened
        names = field.names
        self.others = [j for j in range(len(names)) if j != i]
        self.gain = dict.fromkeys(range(len(names)), 0)  # what known seatings bring the others
        self.seats = dict.fromkeys(range(len(names)), 0)
        self.my_tables = []  # known tables where ``i`` sits
        for table in fixed:
            for j in range(len(names)):
                if names[j] in table.candidates:
                    self.seats[j] += 1
                    if j == i:
                        self.my_tables.append(table)
                    else:
                        self.gain[j] += top
        self.active_others = sum(field.active[j] for j in self.others)
        nights = sum(b.count for b in opened)
        # (points with the known seatings, seats still needed to be ranked, open seats he may take)
        self.bases = tuple(
            (
                field.points[j] + self.gain[j],
                field.minimum - field.rounds[j] - self.seats[j],
                nights if field.active[j] else 0,
            )
            for j in self.others
        )

    def sittings(self):
        """Every ``σ``: how many nights of each open block ``i`` sits, the others filling the
        rest; with ``free``, the ``(seats, nights)`` left to the others."""
        ranges = []
        for block in self.opened:
            size, nights = block.tables[0].size, block.count
            least = max(0, size * nights - self.active_others * nights)
            most = nights if self.field.active[self.i] else 0
            if least > most:
                return
            ranges.append(range(least, most + 1))
        for sigma in product(*ranges):
            free = [
                (b.tables[0].size * b.count - s, b.count) for b, s in zip(self.opened, sigma, strict=True)
            ]
            yield sigma, free

    def my_seats(self, sigma) -> int:
        return self.field.rounds[self.i] + self.seats[self.i] + sum(sigma)

    def threats(self, line: int, free) -> int:
        """The most others who can end ranked with at least ``line`` points, every seat of
        theirs worth ``top``; ``free`` the ``(seats, nights)`` of each open block left to them."""
        return _served(self.demands(line), tuple(free))

    def reaches(self, line: int, free, count: int) -> bool:
        """Whether ``count`` others can end ranked with at least ``line`` points."""
        demands = self.demands(line)
        return len(demands) >= count and _fit(demands, _room(tuple(free), count), count)

    def demands(self, line: int) -> tuple:
        """The seats of the open blocks each other would need to end ranked with ``line``
        (those who cannot are left out), sorted; the same for every view and player whose
        others stand alike (`_demands` remembers them)."""
        return _demands(self.bases, self.top, line)


def layouts(field, i: int, scale: Scale) -> list | None:
    """The usual calendar seen from ``i``, one `Layout` for each seating of the nights with more
    answers than seats; None when the calendar is not the usual one."""
    found = _layouts(field, scale)
    if found is None:
        return None
    calendars, top = found
    return [Layout(field, i, scale, opened, fixed, top) for opened, fixed in calendars]


def _sittings(views):
    for view in views:
        for sigma, free in view.sittings():
            yield view, sigma, free


def worst_count(field, i: int, scale: Scale):
    """`scoring.outlook.solver.worst_count` on the usual calendar; ``...`` when it is not."""
    views = layouts(field, i, scale)
    if views is None:
        return ...
    late = field.late[i] if scale.late else 0
    best = None
    for view, sigma, free in _sittings(views):
        if view.my_seats(sigma) < field.minimum:
            continue
        mine = field.points[i] + late + sum(_lowest(scale, t) for t in view.my_tables)
        for block, count in zip(view.opened, sigma, strict=True):
            mine += count * _lowest(scale, block.tables[0])
        found = view.threats(mine, free)
        best = found if best is None else max(best, found)
    return best


def _lowest(scale: Scale, table) -> int:
    """The least ``i`` takes at a table: last alone, or first tied with all and the malus."""
    points = scale.rank_points[table.size]
    return min(scale.low(points[-1]), scale.low(points[0]) + scale.malus(table))


@lru_cache(maxsize=4096)
def _sums(values_per_seat: tuple) -> frozenset:
    """Every total of one value per seat. The totals are the bits of one integer, shifted by
    each seat's values from its lowest: a season of 200 seats to come is 200 shifts of a number
    of a few thousand bits, where a set of every total, seat after seat, took seconds."""
    lowest, totals = 0, 1  # bit t set: lowest + t is a total
    for values in values_per_seat:
        if not values:
            return frozenset()
        least = min(values)
        lowest += least
        shifted = 0
        for value in set(values):
            shifted |= totals << (value - least)
        totals = shifted
    bits = bin(totals)[:1:-1]  # bit 0 first
    return frozenset(lowest + offset for offset, bit in enumerate(bits) if bit == "1")


def unsafe_gain_bounds(field, i: int, scale: Scale):
    """``(low, high)`` around `scoring.outlook.solver.unsafe_gain` on the usual calendar (rank
    points only): ``low`` is reached (``i`` first tied with everyone or last alone, the others
    all first), ``high`` is not exceeded (the others' seats counted as first places, ``i`` any
    place). None for a bound with no unsafe outcome; ``...`` when the calendar is not the usual
    one."""
    views = layouts(field, i, scale)
    if views is None:
        return ...
    low = high = None
    for view, sigma, free in _sittings(views):
        places = [scale.rank_points[t.size] for t in view.my_tables]
        for block, count in zip(view.opened, sigma, strict=True):
            places += [scale.rank_points[block.tables[0].size]] * count
        every = sorted(_sums(tuple(places)))
        if view.my_seats(sigma) < field.minimum:  # he ends unranked: every outcome is unsafe
            line = every[-1]
        else:  # the threats only fall as his points rise: the highest gain still unsafe
            line = _last(
                every, lambda g, view=view, free=free: view.reaches(field.points[i] + g, free, field.places)
            )
        if line is None:
            continue
        extremes = _sums(tuple((points[0], points[-1]) for points in places))
        reached = [g for g in extremes if g <= line]
        if reached:
            low = max(reached) if low is None else max(low, max(reached))
        high = line if high is None else max(high, line)
    return low, high


def _last(values, holds):
    """The last of the sorted ``values`` for which ``holds`` (true up to a point, then false)."""
    low, high = 0, len(values)
    while low < high:
        middle = (low + high) // 2
        if holds(values[middle]):
            low = middle + 1
        else:
            high = middle
    return values[low - 1] if low else None


def likely_threats(field, i: int, scale: Scale, gain: int, count: int) -> frozenset:
    """The ``count`` others likeliest to end ranked with at least ``i``'s points when his rounds
    bring him ``gain``: the fewest seats of the open rounds each would need, his seats worth
    ``top`` and the seating of each night with more answers as kind to him as can be; more
    points first among equals. A guess for the program to try first, never an answer."""
    line, need = field.points[i] + gain, {}
    for view in layouts(field, i, scale) or ():
        for j, (points, short, most) in zip(view.others, view.bases, strict=True):
            missing = line - points
            seats = max(short, 0 if missing <= 0 else (-(-missing // view.top) if view.top > 0 else most + 1))
            if seats <= most:
                need[j] = min(need.get(j, seats), seats)
    return frozenset(sorted(need, key=lambda j: (need[j], -field.points[j], j))[:count])


def seat_range(field, i: int, scale: Scale):
    """`scoring.outlook.solver.seat_range` on the usual calendar; ``...`` when it is not."""
    views = layouts(field, i, scale)
    if views is None:
        return ...
    found = None
    for view, sigma, _free in _sittings(views):
        places = [scale.rank_points[t.size] for t in view.my_tables]
        for block, count in zip(view.opened, sigma, strict=True):
            places += [scale.rank_points[block.tables[0].size]] * count
        least, most = sum(p[-1] for p in places), sum(p[0] for p in places)
        miss = view.my_seats(sigma) < field.minimum
        if found is None:
            found = (least, most, miss)
        else:
            found = (min(found[0], least), max(found[1], most), found[2] or miss)
    return found
