"""Accessits of a season (docs/regles.md §5.7).

Each award is a small function of the registry ``AWARDS``; a season's rulebook lists the codes
it gives, in display order. Ties name every tied player; an award nobody can earn is still
returned, with no players and no value, so that a page can say « non attribué ».
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.french import num, ordinal
from scoring.ranking import Standing, name_key
from scoring.registry_keys import AWARD_KEYS


@dataclass(frozen=True)
class PlayerStats:
    player: str
    rounds: int
    best_total: int | None  # highest round total, None before a first round with a total
    takes: int
    made: int
    defended_failed: int  # contracts made to fail as a defender
    chelems: int


@dataclass(frozen=True)
class Award:
    code: str
    label: str
    players: tuple[str, ...]
    value: int | None
    explanation: str


LABELS = {
    "record": "Trophée du record",
    "wooden_spoon": "Cuillère de bois",
    "best_taker": "Meilleur preneur",
    "wall": "Mur de la défense",
    "most_rounds": "Le plus assidu",
    "most_chelems": "Roi du chelem",
}

NOT_AWARDED = "Non attribué"


def _names(players) -> tuple[str, ...]:
    return tuple(sorted(players, key=name_key))


def _most(code: str, stats: Sequence[PlayerStats], value, explain) -> Award:
    """The players with the highest positive ``value(stats)``; nobody when it is 0."""
    best = max((value(s) for s in stats), default=0)
    if best <= 0:
        return Award(code, LABELS[code], (), None, NOT_AWARDED)
    winners = _names(s.player for s in stats if value(s) == best)
    return Award(code, LABELS[code], winners, best, explain(best))


def record(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Award:
    totals = [s.best_total for s in stats if s.best_total is not None]
    if not totals:
        return Award("record", LABELS["record"], (), None, NOT_AWARDED)
    best = max(totals)
    players = _names(s.player for s in stats if s.best_total == best)
    explanation = f"Plus haut total d'une manche de la saison : {num(best)}"
    return Award("record", LABELS["record"], players, best, explanation)


def wooden_spoon(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Award:
    if not ranked:
        return Award("wooden_spoon", LABELS["wooden_spoon"], (), None, NOT_AWARDED)
    last = ranked[-1]
    players = _names(s.player for s in ranked if s.rank == last.rank)
    points = last.season.points
    place = ordinal(last.rank) + (" ex æquo" if last.tied else "")
    explanation = f"Dernier du classement final ({place}), {num(points)} points"
    return Award("wooden_spoon", LABELS["wooden_spoon"], players, points, explanation)


def best_taker(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Award:
    minimum = rulebook.championship.best_taker_min_takes
    label = LABELS["best_taker"]
    eligible = [s for s in stats if s.takes >= minimum and s.takes > 0]
    most = max((s.made for s in eligible), default=0)
    if most <= 0:
        return Award("best_taker", label, (), None, f"{NOT_AWARDED} (minimum {minimum} prises)")
    leaders = [s for s in eligible if s.made == most]
    rate = max(Fraction(s.made, s.takes) for s in leaders)
    winners = [s for s in leaders if Fraction(s.made, s.takes) == rate]
    takes = winners[0].takes
    explanation = (
        f"{most} contrats réussis sur {takes} prises ({round(100 * rate)} %), minimum {minimum} prises"
    )
    if len(leaders) > len(winners):
        explanation += " ; égalité de contrats réussis départagée au taux de réussite"
    return Award("best_taker", label, _names(s.player for s in winners), most, explanation)


def wall(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Award:
    return _most(
        "wall",
        stats,
        lambda s: s.defended_failed,
        lambda n: f"{n} contrat{'s' if n > 1 else ''} mis en échec en défense",
    )


def most_rounds(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Award:
    return _most(
        "most_rounds",
        stats,
        lambda s: s.rounds,
        lambda n: f"{n} manche{'s' if n > 1 else ''} jouée{'s' if n > 1 else ''}",
    )


def most_chelems(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Award:
    return _most(
        "most_chelems",
        stats,
        lambda s: s.chelems,
        lambda n: f"{n} chelem{'s' if n > 1 else ''} réussi{'s' if n > 1 else ''}",
    )


AwardFunction = Callable[[Sequence[PlayerStats], Sequence[Standing], object], Award]

AWARDS: dict[str, AwardFunction] = {
    "record": record,
    "wooden_spoon": wooden_spoon,
    "best_taker": best_taker,
    "wall": wall,
    "most_rounds": most_rounds,
    "most_chelems": most_chelems,
}
assert set(AWARDS) == set(AWARD_KEYS)


def compute_awards(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> list[Award]:
    """The season's awards, in the order of ``rulebook.championship.awards``."""
    return [AWARDS[code](stats, ranked, rulebook) for code in rulebook.championship.awards]
