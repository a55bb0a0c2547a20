"""Final ranking of a season (docs/regles.md §5.6).

Tie-breaks are a registry of ``Tiebreak`` objects (key, label, column header, figure, direction);
a season's rulebook stores the ordered list of their keys (``rulebook.championship.tiebreaks``).
Ranks are explicit ``(rank, tied)`` pairs and the display order of fully tied players is declared
(by name), never the input order.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class PlayerSeason:
    player: str
    points: int
    rounds: int
    wins: int
    seconds: int
    sum_totals: int

    @classmethod
    def of_rounds(cls, player: str, points: int, results: Iterable[tuple[int | None, int | None]]):
        """A player's season from his points and the ``(rank, total)`` of each round he played.

        >>> PlayerSeason.of_rounds("Alice", 12, [(1, 380), (2, -40), (1, 0)])
        PlayerSeason(player='Alice', points=12, rounds=3, wins=2, seconds=1, sum_totals=340)
        """
        results = list(results)
        return cls(
            player,
            points,
            rounds=len(results),
            wins=sum(rank == 1 for rank, _total in results),
            seconds=sum(rank == 2 for rank, _total in results),
            sum_totals=sum(total or 0 for _rank, total in results),
        )


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


def gettext_noop(text: str) -> str:
    """Marks a French string for the translation catalogue (translated where it is shown)."""
    return text


@dataclass(frozen=True)
class Tiebreak:
    """One tie-break of the registry: everything about it is here.

    ``key`` is what a season's rulebook lists (``championship.tiebreaks``); ``label`` names it in
    a sentence (« départagé par : victoires de manche »); ``header`` is the short header of its
    column in the standings table, the CSV export and the bulletin (``None`` when its figure is a
    column of every table already, as the rounds played); ``figure`` reads it from a player's
    season, and ``higher_is_better`` gives its direction.
    """

    key: str
    label: str
    header: str | None
    figure: Callable[[PlayerSeason], int]
    higher_is_better: bool = True
    # A template reads its label: it must not call it as Django templates call callables.
    do_not_call_in_templates = True

    def __call__(self, season: PlayerSeason) -> int:
        """The value the ranking compares: bigger is better."""
        figure = self.figure(season)
        return figure if self.higher_is_better else -figure

    def __reduce__(self):
        """Pickled by its key (its figure is a lambda): the registry's own object comes back."""
        return (_registered, (self.key,))


def _registered(key: str) -> Tiebreak:
    return TIEBREAKS[key]


# The registry, in the default order of the rulebook; the only list of tie-break keys.
TIEBREAKS: dict[str, Tiebreak] = {
    tiebreak.key: tiebreak
    for tiebreak in (
        Tiebreak("wins", gettext_noop("victoires de manche"), gettext_noop("Victoires"), lambda s: s.wins),
        Tiebreak(
            "seconds", gettext_noop("deuxièmes places"), gettext_noop("2es places"), lambda s: s.seconds
        ),
        Tiebreak(
            "sum_totals",
            gettext_noop("somme des totaux de manche"),
            gettext_noop("Somme des totaux"),
            lambda s: s.sum_totals,
        ),
        Tiebreak(
            "fewer_rounds",
            gettext_noop("moins de manches jouées"),
            None,  # the « Manches » column shows it
            lambda s: s.rounds,
            higher_is_better=False,
        ),
    )
}


def shown_tiebreaks(rulebook) -> list[Tiebreak]:
    """The season's tie-breaks that have a column of their own, in the rulebook's order."""
    tiebreaks = (TIEBREAKS[key] for key in rulebook.championship.tiebreaks)
    return [tiebreak for tiebreak in tiebreaks if tiebreak.header is not None]


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
        raise ValueError(f"Joueur présent deux fois dans le classement : {duplicate}")
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
