"""Accessits of a season (docs/regles.md §5.7).

Each award is one ``AwardRule`` of the registry ``AWARDS`` (code, label, computation, how its
figure reads); a season's rulebook lists the codes it gives, in display order. Ties name every
tied player; an award nobody can earn is still returned, with no players and no value, so that a
page can say « non attribué ».
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.french import agree, num, ordinal, plural, rounded_percent
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
class Reason:
    """Why an award goes where it goes, as a code and its figures: ``french(reason)`` writes it
    in French; a page writes it in its own language from the same figures."""

    code: str  # nobody, record, wooden_spoon, best_taker, best_taker_nobody, wall, most_rounds, most_chelems
    params: dict = field(default_factory=dict)


def french(reason: Reason) -> str:
    """The French sentence of an award's ``Reason``."""
    p = reason.params
    if reason.code == "record":
        return f"Plus haut total d'une manche de la saison : {num(p['best'])}"
    if reason.code == "wooden_spoon":
        place = ordinal(p["rank"], feminine=True) + (" ex æquo" if p["tied"] else "")
        return f"Dernière place du classement final ({place}), {num(p['points'])} points"
    if reason.code == "best_taker_nobody":
        return f"{NOT_AWARDED} (minimum {p['minimum']} prises)"
    if reason.code == "best_taker":
        text = (
            f"{p['made']} contrats réussis sur {p['takes']} prises ({p['rate']}\u00a0%), "
            f"minimum {p['minimum']} prises"
        )
        if p["by_rate"]:
            text += " ; égalité de contrats réussis départagée au taux de réussite"
        return text
    if reason.code == "wall":
        return f"{plural(p['count'], 'contrat')} mis en échec en défense"
    if reason.code == "most_rounds":
        return f"{plural(p['count'], 'manche')} {agree(p['count'], 'jouée')}"
    if reason.code == "most_chelems":
        return f"{plural(p['count'], 'chelem')} {agree(p['count'], 'réussi')}"
    return NOT_AWARDED


@dataclass(frozen=True)
class Award:
    code: str
    label: str
    players: tuple[str, ...]
    value: int | None
    reason: Reason

    @property
    def explanation(self) -> str:
        """Why, in French (``french(self.reason)``)."""
        return french(self.reason)


NOT_AWARDED = "Non attribué"

# What an award's computation returns: its players, its figure and why.
Outcome = tuple[tuple[str, ...], int | None, Reason]
NOBODY: Outcome = ((), None, Reason("nobody"))


def _names(players) -> tuple[str, ...]:
    return tuple(sorted(players, key=name_key))


def _most(stats: Sequence[PlayerStats], value, code) -> Outcome:
    """The players with the highest positive ``value(stats)``; nobody when it is 0."""
    best = max((value(s) for s in stats), default=0)
    if best <= 0:
        return NOBODY
    return _names(s.player for s in stats if value(s) == best), best, Reason(code, {"count": best})


def record(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    totals = [s.best_total for s in stats if s.best_total is not None]
    if not totals:
        return NOBODY
    best = max(totals)
    players = _names(s.player for s in stats if s.best_total == best)
    return players, best, Reason("record", {"best": best})


def wooden_spoon(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    if not ranked:
        return NOBODY
    last = ranked[-1]
    players = _names(s.player for s in ranked if s.rank == last.rank)
    points = last.season.points
    return players, points, Reason("wooden_spoon", {"rank": last.rank, "tied": last.tied, "points": points})


def best_taker(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    minimum = rulebook.championship.best_taker_min_takes
    eligible = [s for s in stats if s.takes >= minimum and s.takes > 0]
    most = max((s.made for s in eligible), default=0)
    if most <= 0:
        return (), None, Reason("best_taker_nobody", {"minimum": minimum})
    leaders = [s for s in eligible if s.made == most]
    rate = max(Fraction(s.made, s.takes) for s in leaders)
    winners = [s for s in leaders if Fraction(s.made, s.takes) == rate]
    takes = winners[0].takes
    figures = {"made": most, "takes": takes, "rate": rounded_percent(most, takes), "minimum": minimum}
    reason = Reason("best_taker", {**figures, "by_rate": len(leaders) > len(winners)})
    return _names(s.player for s in winners), most, reason


def wall(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    return _most(stats, lambda s: s.defended_failed, "wall")


def most_rounds(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    return _most(stats, lambda s: s.rounds, "most_rounds")


def most_chelems(stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Outcome:
    return _most(stats, lambda s: s.chelems, "most_chelems")


@dataclass(frozen=True)
class AwardRule:
    """One award of the registry: everything about it is here.

    ``code`` is what a season's rulebook lists (``championship.awards``); ``label`` is its title;
    ``compute`` finds its players, figure and ``Reason`` from the season's ``PlayerStats``, the
    final ranking and the rulebook; ``figure`` writes that figure on a page.
    """

    code: str
    label: str
    compute: Callable[[Sequence[PlayerStats], Sequence[Standing], object], Outcome]
    figure: Callable[[int], str] = num
    # A template reads its label: it must not call it as Django templates call callables.
    do_not_call_in_templates = True

    def __call__(self, stats: Sequence[PlayerStats], ranked: Sequence[Standing], rulebook) -> Award:
        players, value, reason = self.compute(stats, ranked, rulebook)
        return Award(self.code, self.label, players, value, reason)

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
