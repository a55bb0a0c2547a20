"""Championship points of one round (docs/regles.md §5.1–5.5, §5.8).

A round gives each player line items: ``rank`` points, the offensive bonuses (``big_win``,
``prestige``, ``chelem``), the defensive bonuses (``close_loss``, ``wall``), the automatic
``late_report`` malus and the adjustments taken from the season's catalogue; then the season's
limits of a round (``round_cap``, ``round_floor``) bring a player's round back within them. Every
item carries a French label that explains it, so that a page can show how a figure was computed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date

from scoring.errors import ScoringError
from scoring.french import num, of_name, ordinal
from scoring.vocabulary import CONTRACT_LABELS

LIMIT_CODES = ("round_cap", "round_floor")


@dataclass(frozen=True)
class DealFacts:
    """What the championship needs to know about one played deal.

    ``number`` is the deal's 1-based number in the round sheet; when ``None`` the position of
    the deal in ``RoundFacts.deals`` is used (pass it when passed deals and misdeals are left out).
    """

    taker: str
    partner: str | None
    defenders: tuple[str, ...]
    contract: str
    made: bool
    chelem_by_attack: bool
    number: int | None = None


@dataclass(frozen=True)
class RoundFacts:
    """Round totals in seat order; ``deals`` is ``None`` for a totals-only round."""

    totals: dict[str, int]
    deals: tuple[DealFacts, ...] | None = None


@dataclass(frozen=True)
class LineItem:
    player: str
    code: str
    points: int
    label: str
    deal: int | None = None


def round_ranks(totals: Mapping[str, int]) -> dict[str, tuple[int, bool]]:
    """Rank of each player by round total: ``(rank, tied)``; tied players share the better rank.

    >>> round_ranks({"A": 50, "B": 120, "C": 50, "D": -220})
    {'A': (2, True), 'B': (1, False), 'C': (2, True), 'D': (4, False)}
    """
    values = list(totals.values())
    return {
        player: (1 + sum(1 for v in values if v > total), values.count(total) > 1)
        for player, total in totals.items()
    }


def deal_facts(deal, result, number: int | None = None) -> DealFacts | None:
    """The facts of a scored deal (``scoring.deal.DealInput`` and its ``DealResult``).

    ``None`` for a deal that was not played (passed, petit sec, misdeal).
    """
    if result.kind != "played":
        return None
    return DealFacts(
        taker=deal.taker,
        partner=deal.partner if deal.partner != deal.taker else None,
        defenders=tuple(result.defence),
        contract=deal.contract,
        made=bool(result.made),
        chelem_by_attack=deal.chelem_made_by == "attack",
        number=number,
    )


def round_facts(deals, result) -> RoundFacts:
    """The facts of a scored round: its ``DealInput`` list and ``scoring.round.RoundResult``."""
    facts = (deal_facts(deals[o.number - 1], o.result, o.number) for o in result.deals)
    totals = {player: result.totals[player] for player in result.players}
    return RoundFacts(totals, tuple(f for f in facts if f is not None))


def _rank_items(facts: RoundFacts, rulebook) -> list[LineItem]:
    totals = facts.totals
    size = len(totals)
    table = rulebook.championship.rank_points.get(size)
    if table is None:
        raise ScoringError("totals", f"aucun barème de points de classement pour une table de {size} joueurs")
    items = []
    for player, (rank, tied) in round_ranks(totals).items():
        tie = " ex æquo" if tied else ""
        label = f"{ordinal(rank, feminine=True)} place{tie} sur {size} (total {num(totals[player])})"
        items.append(LineItem(player, "rank", table[rank - 1], label))
    return items


def _big_win_items(facts: RoundFacts, rulebook) -> list[LineItem]:
    totals = facts.totals
    rules = rulebook.championship
    ordered = sorted(totals.values(), reverse=True)
    if len(ordered) < 2 or ordered[0] == ordered[1] or not rules.big_win_points:
        return []
    first, second = ordered[0], ordered[1]
    gap = first - second
    if gap < rules.big_win_margin:
        return []
    winner = next(p for p, t in totals.items() if t == first)
    label = (
        f"Large victoire : {num(first)} contre {num(second)} (écart {num(gap)} ≥ {num(rules.big_win_margin)})"
    )
    return [LineItem(winner, "big_win", rules.big_win_points, label)]


def _close_loss_items(facts: RoundFacts, rulebook) -> list[LineItem]:
    totals = facts.totals
    rules = rulebook.championship
    lowest = min(totals.values(), default=0)
    above = [t for t in totals.values() if t > lowest]
    if not above or not rules.close_loss_points:
        return []
    next_up = min(above)
    gap = next_up - lowest
    if gap > rules.close_loss_margin:
        return []
    label = (
        f"Défaite honorable : {num(lowest)} contre {num(next_up)} "
        f"(écart {num(gap)} ≤ {num(rules.close_loss_margin)})"
    )
    return [
        LineItem(player, "close_loss", rules.close_loss_points, label)
        for player, total in totals.items()
        if total == lowest
    ]


def _played_deals(facts: RoundFacts) -> Iterator[tuple[int, DealFacts]]:
    """``(number, deal)`` of every played deal of a round entered deal by deal, all seated."""
    for index, deal in enumerate(facts.deals or (), start=1):
        number = deal.number if deal.number is not None else index
        seated = [deal.taker, *deal.defenders] + ([deal.partner] if deal.partner else [])
        unknown = [p for p in seated if p not in facts.totals]
        if unknown:
            raise ScoringError("players", f"{unknown[0]} n'est pas à cette table", number)
        yield number, deal


def _contract(deal: DealFacts) -> str:
    return CONTRACT_LABELS.get(deal.contract, deal.contract)


def _prestige_items(facts: RoundFacts, rulebook) -> list[LineItem]:
    rules = rulebook.championship
    items = []
    for number, deal in _played_deals(facts):
        if deal.contract in rules.prestige_contracts and deal.made and rules.prestige_points:
            label = f"{_contract(deal)} réussie (donne {number})"
            items.append(LineItem(deal.taker, "prestige", rules.prestige_points, label, number))
    return items


def _chelem_items(facts: RoundFacts, rulebook) -> list[LineItem]:
    points = rulebook.championship.chelem_points
    label = "Chelem réussi comme preneur (donne {})"
    return [
        LineItem(deal.taker, "chelem", points, label.format(number), number)
        for number, deal in _played_deals(facts)
        if deal.chelem_by_attack and points
    ]


def _wall_items(facts: RoundFacts, rulebook) -> list[LineItem]:
    rules = rulebook.championship
    items = []
    for number, deal in _played_deals(facts):
        if deal.contract in rules.prestige_contracts and not deal.made and rules.wall_points:
            label = f"{_contract(deal)} {of_name(deal.taker)} mise en échec en défense (donne {number})"
            for defender in deal.defenders:
                if defender not in (deal.taker, deal.partner):
                    items.append(LineItem(defender, "wall", rules.wall_points, label, number))
    return items


@dataclass(frozen=True)
class AutomaticBonus:
    """One automatic line of a round's championship points (docs/regles.md §5.1–5.4).

    ``code`` is stored on each ``ChampionshipLine`` it gives and reserved in the season's
    catalogue; ``label`` names it; ``items`` computes its line items from the round's facts and
    the season's rulebook (each item explains itself). A bonus ``by_deal`` reads the deals, so a
    round entered as totals only does not give it.
    """

    code: str
    label: str
    items: Callable[[RoundFacts, object], list[LineItem]]
    by_deal: bool = False


# The registry, in the order of a player's line items (docs/regles.md §5.8): the only list of them.
AUTOMATIC_BONUSES: dict[str, AutomaticBonus] = {
    bonus.code: bonus
    for bonus in (
        AutomaticBonus("rank", "Points de classement", _rank_items),
        AutomaticBonus("big_win", "Large victoire", _big_win_items),
        AutomaticBonus("prestige", "Contrat de prestige réussi", _prestige_items, by_deal=True),
        AutomaticBonus("chelem", "Chelem réussi comme preneur", _chelem_items, by_deal=True),
        AutomaticBonus("close_loss", "Défaite honorable", _close_loss_items),
        AutomaticBonus("wall", "Contrat de prestige mis en échec en défense", _wall_items, by_deal=True),
    )
}
# Order of the line items of one player (docs/regles.md §5.8); catalogue codes come next, then the
# line that brings the round within the season's limits, last since it depends on all the others.
ITEM_ORDER = (*AUTOMATIC_BONUSES, "late_report")
# Codes computed by the engine, which a season's catalogue may not use.
AUTOMATIC_CODES = (*ITEM_ORDER, *LIMIT_CODES)


def round_line_items(facts: RoundFacts, rulebook) -> list[LineItem]:
    """Championship line items of one round, grouped by player in seat order.

    Within a player, items follow docs/regles.md §5.8 (rank, big_win, prestige, chelem, close_loss,
    wall), deal-based items by deal number. A totals-only round (``deals is None``) gives only
    rank, big_win and close_loss.

    Worked example (docs/feuille.md): totals Alice −650, Bruno 380, Chloé 50, David 220,
    Émile 0, deal 4 a Garde sans failed by Alice alone → Bruno rank 10 + wall 1, David 7 + 1,
    Chloé 5 + 1, Émile 3 + 1, Alice 1 (no big win: 380 − 220 < 250; no close loss: 650 > 100).
    """
    totals = facts.totals
    items = []
    for bonus in AUTOMATIC_BONUSES.values():
        if facts.deals is not None or not bonus.by_deal:
            items += bonus.items(facts, rulebook)
    seat = {player: index for index, player in enumerate(totals)}
    return sorted(items, key=lambda item: (seat[item.player], *item_sort_key(item)))


def late_report_weeks(deadline: date, filed: date | None, as_of: date) -> int:
    """Started weeks of lateness of a report (docs/regles.md §5.5).

    Filed on or before the deadline: 0; 1–7 days late: 1; 8–14: 2; … A missing report is
    counted as of ``as_of`` (it keeps costing until it is filed).
    """
    end = filed if filed is not None else as_of
    days = (end - deadline).days
    return math.ceil(days / 7) if days > 0 else 0


def late_report_item(player: str, weeks: int, rulebook) -> LineItem | None:
    """The ``late_report`` malus for ``weeks`` started weeks of lateness, or ``None``."""
    per_week = rulebook.reports.late_malus_per_week
    if weeks <= 0 or not per_week:
        return None
    plural = "s" if weeks > 1 else ""
    label = (
        f"Compte-rendu en retard : {weeks} semaine{plural} entamée{plural} "
        f"après l'échéance ({num(per_week)} par semaine)"
    )
    return LineItem(player, "late_report", weeks * per_week, label)


def adjustment_item(player: str, code: str, rulebook, points: int | None = None, note: str = "") -> LineItem:
    """A bonus or malus of the season's catalogue; ``points`` overrides it (officials only)."""
    try:
        entry = rulebook.championship.catalogue_entry(code)
    except KeyError:
        raise ScoringError("code", f"« {code} » n'est pas dans le catalogue de la saison") from None
    label = entry.label
    if points is not None and points != entry.points:
        label += f" (points fixés à {num(points)} au lieu de {num(entry.points)})"
    if note:
        label += f" — {note}"
    return LineItem(player, code, entry.points if points is None else points, label)


def round_limit_items(items: list[LineItem], rulebook) -> list[LineItem]:
    """The lines that bring each player's round within the season's limits (docs/regles.md §5.8).

    ``items`` are every championship line of one round: ``round_line_items`` and the catalogue
    adjustments (a player off the table included), not the late-report malus, which is counted
    as of a date. When a player's items add up to more than ``championship.round_points_cap``, a
    ``round_cap`` line takes the excess back; below ``championship.round_points_floor``, a
    ``round_floor`` line gives the difference back. So a round changes a player's season points
    by at most the cap and at least the floor, whatever its deals and adjustments; the
    play-off outlook (``scoring.outlook``, with ``scoring.playoff_race.round_bounds``) rests on that.

    >>> from scoring.rulebook import load_default_rulebook
    >>> rulebook = load_default_rulebook()
    >>> items = [LineItem("Alice", "rank", 10, ""), LineItem("Alice", "hote", 25, "")]
    >>> [(i.code, i.points) for i in round_limit_items(items, rulebook)]
    [('round_cap', -5)]
    """
    rules = rulebook.championship
    cap, floor = rules.round_points_cap, rules.round_points_floor
    sums: dict[str, int] = {}
    for item in items:
        sums[item.player] = sums.get(item.player, 0) + item.points
    limits = []
    for player, total in sums.items():
        if total > cap:
            label = (
                f"Plafond de la manche : {num(total)} points ramenés à {num(cap)} "
                f"(au plus +{cap} points par manche selon le règlement de la saison)"
            )
            limits.append(LineItem(player, "round_cap", cap - total, label))
        elif total < floor:
            label = (
                f"Plancher de la manche : {num(total)} points ramenés à {num(floor)} "
                f"(au moins {num(floor)} points par manche selon le règlement de la saison)"
            )
            limits.append(LineItem(player, "round_floor", floor - total, label))
    return limits


def item_sort_key(item: LineItem) -> tuple:
    """Ordering of a player's items: §5.8 codes first, then catalogue codes, then the limits."""
    if item.code in LIMIT_CODES:
        order = len(ITEM_ORDER) + 1
    else:
        order = ITEM_ORDER.index(item.code) if item.code in ITEM_ORDER else len(ITEM_ORDER)
    return (order, item.deal or 0)
