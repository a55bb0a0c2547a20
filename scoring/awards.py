"""Accessits of a season (docs/regles.md §5.7).

Each award is one ``AwardRule`` of the registry ``AWARDS`` (code, label, computation, how its
figure reads); a season's rulebook lists the codes it gives, in display order. Ties name every
tied player; an award nobody can earn is still returned, with no players and no value, so that a
page can say « non attribué ».
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.french import num, ordinal
from scoring.ranking import Standing, name_key


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


NOT_AWARDED = "Non attribué"

# What an award's computation returns: its players, its figure and the sentence that explains it.
Outcome = tuple[tuple[str, ...], int | None, str]
NOBODY: Outcome = ((), None, NOT_AWARDED)


def _names(players) -> tuple[str, ...]:
    return tuple(sorted(players, key=name_key))


def _most(stats: Sequence[PlayerStats], value, explain) -> Outcome:
    """The players with the highest positive ``value(stats)``; nobody when it is 0."""
    best = max((value(s) for s in stats), default=0)
    if best <= 0:
        return NOBODY
    return _names(s.player for s in stats if value(s) == best), best, explain(best)


def record(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    totals = [s.best_total for s in stats if s.best_total is not None]
    if not totals:
        return NOBODY
    best = max(totals)
    players = _names(s.player for s in stats if s.best_total == best)
    return players, best, f"Plus haut total d'une manche de la saison : {num(best)}"


def wooden_spoon(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    if not ranked:
        return NOBODY
    last = ranked[-1]
    players = _names(s.player for s in ranked if s.rank == last.rank)
    points = last.season.points
    place = ordinal(last.rank) + (" ex æquo" if last.tied else "")
    return players, points, f"Dernier du classement final ({place}), {num(points)} points"


def best_taker(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    minimum = rulebook.championship.best_taker_min_takes
    eligible = [s for s in stats if s.takes >= minimum and s.takes > 0]
    most = max((s.made for s in eligible), default=0)
    if most <= 0:
        return (), None, f"{NOT_AWARDED} (minimum {minimum} prises)"
    leaders = [s for s in eligible if s.made == most]
    rate = max(Fraction(s.made, s.takes) for s in leaders)
    winners = [s for s in leaders if Fraction(s.made, s.takes) == rate]
    takes = winners[0].takes
    explanation = (
        f"{most} contrats réussis sur {takes} prises ({round(100 * rate)} %), minimum {minimum} prises"
    )
    if len(leaders) > len(winners):
        explanation += " ; égalité de contrats réussis départagée au taux de réussite"
    return _names(s.player for s in winners), most, explanation


def wall(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    return _most(
        stats,
        lambda s: s.defended_failed,
        lambda n: f"{n} contrat{'s' if n > 1 else ''} mis en échec en défense",
    )


def most_rounds(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    return _most(
        stats,
        lambda s: s.rounds,
        lambda n: f"{n} manche{'s' if n > 1 else ''} jouée{'s' if n > 1 else ''}",
    )


def most_chelems(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    return _most(
        stats,
        lambda s: s.chelems,
        lambda n: f"{n} chelem{'s' if n > 1 else ''} réussi{'s' if n > 1 else ''}",
    )


@dataclass(frozen=True)
class AwardRule:
    """One award of the registry: everything about it is here.

    ``code`` is what a season's rulebook lists (``championship.awards``); ``label`` is its title;
    ``compute`` finds its players, figure and explanation from the season's ``PlayerStats``, the
    final ranking and the rulebook; ``figure`` writes that figure on a page.
    """

    code: str
    label: str
    compute: Callable[[Sequence[PlayerStats], Sequence[Standing], object], Outcome]
    figure: Callable[[int], str] = num
    # A template reads its label: it must not call it as Django templates call callables.
    do_not_call_in_templates = True

    def __call__(self, stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Award:
        players, value, explanation = self.compute(stats, ranked, rulebook)
        return Award(self.code, self.label, players, value, explanation)

    def shown(self, award: Award) -> str:
        """The award's figure as a page writes it (empty when nobody earned it)."""
        return self.figure(award.value) if award.value is not None else ""


# The registry, in the default order of the rulebook; the only list of award codes.
AWARDS: dict[str, AwardRule] = {
    rule.code: rule
    for rule in (
        AwardRule("record", "Trophée du record", record),
        AwardRule("wooden_spoon", "Cuillère de bois", wooden_spoon),
        AwardRule("best_taker", "Meilleur preneur", best_taker),
        AwardRule("wall", "Mur de la défense", wall),
        AwardRule("most_rounds", "Le plus assidu", most_rounds),
        AwardRule("most_chelems", "Roi du chelem", most_chelems),
    )
}


def compute_awards(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> list[Award]:
    """The season's awards, in the order of ``rulebook.championship.awards``."""
    return [AWARDS[code](stats, ranked, rulebook) for code in rulebook.championship.awards]
