"""Tables for a night with more players than one table seats: tables of 4 or 5 that mix the
season's pairings, the fewest pairs of players who already sat together (pure Python).

`propose_tables(players, met)`: `players` in the order they answered (the latest sit out when
no split into tables of 4 and 5 seats them all: 6, 7 and 11 players), `met[frozenset({a, b})]`
the rounds `a` and `b` already played together. The cost of a split is the sum, over every pair
seated at the same table, of the times they met. Up to 10 seated players every split is tried
(at most 126), and the cheapest comes first in a stable order; beyond, a greedy seating improved
by swaps until no swap lowers the cost (and so is the seating in answer order; the cheaper
of the two is kept).
"""

from itertools import combinations

from scoring.vocabulary import TABLE_SIZES

SMALL, LARGE = min(TABLE_SIZES), max(TABLE_SIZES)
EXHAUSTIVE = 10  # players seated: every split is tried up to this many


def table_sizes(count):
    """The sizes of the tables that seat the most of `count` players, the fewest tables first:
    `(sizes, seated)`; `([], 0)` under 4 players."""
    for seated in range(count, SMALL - 1, -1):
        for tables in range(-(-seated // LARGE), seated // SMALL + 1):
            if SMALL * tables <= seated <= LARGE * tables:
                large = seated - SMALL * tables
                return [LARGE] * large + [SMALL] * (tables - large), seated
    return [], 0


def pair_cost(table, met):
    return sum(met.get(frozenset(pair), 0) for pair in combinations(table, 2))


def split_cost(tables, met):
    return sum(pair_cost(table, met) for table in tables)


def _splits(players, sizes):
    """Every split of `players` into tables of `sizes` (tables of a size in a canonical order)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes), reverse=True):  # the first player's table, of each size
        remaining = list(sizes)
        remaining.remove(size)
        for others in combinations(rest, size - 1):
            table = [first, *others]
            left = [p for p in rest if p not in others]
            for tail in _splits(left, remaining):
                yield [table, *tail]


def _improved(tables, met):
    """Swap two players of different tables while a swap lowers the cost."""
    tables = [list(table) for table in tables]
    better = True
    while better:
        better = False
        for i, j in combinations(range(len(tables)), 2):
            for a in range(len(tables[i])):
                for b in range(len(tables[j])):
                    before = pair_cost(tables[i], met) + pair_cost(tables[j], met)
                    tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                    if pair_cost(tables[i], met) + pair_cost(tables[j], met) < before:
                        better = True
                    else:
                        tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
    return tables


def _greedy(players, sizes, met):
    tables = [[] for _size in sizes]
    for player in players:
        open_tables = [t for t, table in enumerate(tables) if len(table) < sizes[t]]
        best = min(open_tables, key=lambda t: (sum(met.get(frozenset((player, o)), 0) for o in tables[t]), t))
        tables[best].append(player)
    return tables


def _in_order(players, sizes):
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start : start + size]))
        start += size
    return tables


def propose_tables(players, met):
    """`(tables, sitting_out)`: lists of players (see the module's docstring)."""
    players = list(players)
    sizes, seated = table_sizes(len(players))
    if not sizes:
        return [], players
    playing, out = players[:seated], players[seated:]
    if len(sizes) == 1:
        return [playing], out
    if seated <= EXHAUSTIVE:
        tables = min(_splits(playing, sizes), key=lambda split: split_cost(split, met))
    else:  # two starts, each improved by swaps: never worse than the tables in answer order
        starts = [_greedy(playing, sizes, met), _in_order(playing, sizes)]
        tables = min((_improved(start, met) for start in starts), key=lambda split: split_cost(split, met))
    return [list(table) for table in tables], out
