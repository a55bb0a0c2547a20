"""Final ranking of a season (docs/regles.md §5.6).

Tie-breaks are a registry of small named functions; a season's rulebook stores the ordered list
of their keys (``rulebook.championship.tiebreaks``). Ranks are explicit ``(rank, tied)`` pairs
and the display order of fully tied players is declared (by name), never the input order.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from scoring.registry_keys import TIEBREAK_KEYS


@dataclass(frozen=True)
class PlayerSeason:
    player: str
    points: int
    rounds: int
    wins: int
    seconds: int
    sum_totals: int


@dataclass(frozen=True)
class Standing:
    """One ranked player.

    ``decided_by`` names what put him below the player just above: ``"points"``, a tie-break
    key, or ``None`` for the first player and for a player fully tied with the one above.
    """

    rank: int
    tied: bool
    season: PlayerSeason
    decided_by: str | None

    @property
    def player(self) -> str:
        return self.season.player


# Each tie-break returns a value where bigger is better.
TIEBREAKS: dict[str, Callable[[PlayerSeason], int]] = {
    "wins": lambda s: s.wins,
    "seconds": lambda s: s.seconds,
    "sum_totals": lambda s: s.sum_totals,
    "fewer_rounds": lambda s: -s.rounds,
}
assert set(TIEBREAKS) == set(TIEBREAK_KEYS)

TIEBREAK_LABELS = {
    "points": "points",
    "wins": "victoires de manche",
    "seconds": "deuxièmes places",
    "sum_totals": "somme des totaux de manche",
    "fewer_rounds": "moins de manches jouées",
}


def name_key(name: str) -> tuple[str, str]:
    """Alphabetical order as a French reader expects it (Émile between David and Fanny)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return (plain.casefold(), name)


def final_ranking(players: Iterable[PlayerSeason], rulebook) -> tuple[list[Standing], list[PlayerSeason]]:
    """Rank a season: ``(ranked, unranked)``.

    Players with fewer than ``minimum_rounds`` rounds are unranked, listed apart by points
    (descending) then name. The others are ordered by points, then by the rulebook's tie-break
    keys in order; players equal on all of them share the better rank (``tied=True``) and are
    displayed by name, the declared final tie-break.

    Worked example (default rulebook: wins, seconds, sum_totals, fewer_rounds; 3 rounds minimum):

    ========  ======  ======  ====  =======  ==========  =====================
    player    points  rounds  wins  seconds  sum_totals  result
    ========  ======  ======  ====  =======  ==========  =====================
    Chloé     40      5       2     1        300         1, decided_by None
    Bruno     31      4       1     2        100         2, by "points"
    Alice     31      4       1     1        900         3, by "seconds"
    David     20      4       0     1        -50         4, tied, by "points"
    Émile     20      4       0     1        -50         4, tied, None
    Fanny     50      2       2     0        500         unranked (2 rounds)
    ========  ======  ======  ====  =======  ==========  =====================
    """
    players = list(players)
    names = [p.player for p in players]
    if len(set(names)) != len(names):
        duplicate = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"Joueur présent deux fois dans le classement : {duplicate}")
    rules = rulebook.championship
    keys = list(rules.tiebreaks)

    def criteria(season: PlayerSeason) -> tuple[int, ...]:
        return (season.points, *(TIEBREAKS[key](season) for key in keys))

    eligible = [p for p in players if p.rounds >= rules.minimum_rounds]
    unranked = [p for p in players if p.rounds < rules.minimum_rounds]
    unranked.sort(key=lambda p: (-p.points, name_key(p.player)))
    eligible.sort(key=lambda p: name_key(p.player))
    eligible.sort(key=criteria, reverse=True)

    ranked: list[Standing] = []
    values = [criteria(p) for p in eligible]
    for index, season in enumerate(eligible):
        value = values[index]
        rank = values.index(value) + 1
        tied = values.count(value) > 1
        decided_by = None
        if index and values[index - 1] != value:
            labels = ["points", *keys]
            decided_by = next(
                label
                for label, mine, above in zip(labels, value, values[index - 1], strict=True)
                if mine != above
            )
        ranked.append(Standing(rank, tied, season, decided_by))
    return ranked, unranked
