"""Partners and rivals: who took how many points from whom, who called whom, and the rounds two
players sat at together.

**Point flow.** A deal's shares add up to zero (docs/regles.md §1.3): in each deal, what the
losers pay goes to the winners pro rata to what each wins. With a contract made, each defender's
−U goes two thirds to the taker (+2U) and one third to his partner (+U); a contract failed, each
defender's +U comes two thirds from the taker and one third from the partner; a misère is paid by
every other player to its announcer, and enters the same sharing. So loser *l* gives winner *w*
``−share(l) × share(w) / P``, *P* the sum of the positive shares; everything a player gives and
receives over a deal adds up to his share, exactly (fractions kept; rounded only when written).

Example: Garde made, U = 70: taker +140, partner +70, three defenders −70 each. Each defender
gives 70 × 140 / 210 = 46⅔ to the taker and 23⅓ to the partner.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction


def deal_flows(shares: Mapping) -> list[tuple[object, object, Fraction]]:
    """``[(loser, winner, points)]`` of one deal's shares (``{player: share}``)."""
    positive = sum(share for share in shares.values() if share > 0)
    if not positive:
        return []
    return [
        (loser, winner, Fraction(-lost * won, positive))
        for loser, lost in shares.items()
        if lost < 0
        for winner, won in shares.items()
        if won > 0
    ]


class FlowTable:
    """What each player took from each other over many deals, summed exactly and fast: per pair,
    the integer numerators summed by denominator, made into fractions when read."""

    def __init__(self):
        self._sums = defaultdict(Counter)  # (loser, winner) -> {denominator: numerator}

    def add(self, shares: Mapping) -> None:
        positive = sum(share for share in shares.values() if share > 0)
        if not positive:
            return
        losers = [(player, -share) for player, share in shares.items() if share < 0]
        winners = [(player, share) for player, share in shares.items() if share > 0]
        for loser, lost in losers:
            for winner, won in winners:
                self._sums[loser, winner][positive] += lost * won

    def taken(self) -> dict[tuple, Fraction]:
        """``{(loser, winner): points the winner took from the loser}``: each pair's numerators
        brought to their least common denominator and added as integers, one fraction made."""
        taken = {}
        for pair, parts in self._sums.items():
            common = math.lcm(*parts)
            taken[pair] = Fraction(sum(n * (common // d) for d, n in parts.items()), common)
        return taken


@dataclass
class Partnership:
    """A taker and the partner he called, over their deals together."""

    deals: int = 0
    made: int = 0
    points: int = 0  # their shares added up (taker's and partner's)


def partnerships(deals: Iterable[Mapping]) -> dict[tuple, Partnership]:
    """``{(taker, partner): Partnership}`` of the played deals with a partner (keys of deal dicts:
    ``kind``, ``taker_id``, ``partner_id``, ``made``, ``shares`` by ``str(id)``)."""
    pairs = defaultdict(Partnership)
    for deal in deals:
        if deal["kind"] != "played" or deal["partner_id"] is None:
            continue
        pair = pairs[deal["taker_id"], deal["partner_id"]]
        pair.deals += 1
        pair.made += deal["made"] is True
        shares = deal["shares"]
        pair.points += shares.get(str(deal["taker_id"]), 0) + shares.get(str(deal["partner_id"]), 0)
    return dict(pairs)


@dataclass(frozen=True)
class Together:
    """One round two players sat at: its id, each one's total and rank."""

    round_id: int
    totals: tuple  # (mine, his)
    ranks: tuple  # (mine, his)

    @property
    def ahead(self) -> int:
        """1 if the first finished ahead (higher total), −1 behind, 0 level."""
        mine, his = (total or 0 for total in self.totals)
        return (mine > his) - (mine < his)


@dataclass
class Rivalry:
    """Two players over many deals and rounds: ``a`` and ``b`` in the order given."""

    taken_by_a: Fraction = Fraction(0)  # what a took from b
    taken_by_b: Fraction = Fraction(0)
    rounds: list = field(default_factory=list)  # Together, from a's side

    @property
    def exchanged(self) -> Fraction:
        """What a won from b, net (< 0: b won from a)."""
        return self.taken_by_a - self.taken_by_b

    @property
    def a_ahead(self) -> int:
        return sum(1 for together in self.rounds if together.ahead > 0)

    @property
    def b_ahead(self) -> int:
        return sum(1 for together in self.rounds if together.ahead < 0)


def net_with(taken: Mapping[tuple, Fraction], me) -> dict[object, Fraction]:
    """``{other: what me won from other, net}`` from `FlowTable.taken` (only those met)."""
    net = defaultdict(Fraction)
    for (loser, winner), points in taken.items():
        if winner == me:
            net[loser] += points
        elif loser == me:
            net[winner] -= points
    return dict(net)


def bete_noire(net: Mapping[object, Fraction], order=None):
    """The player who won the most points from him, net (``net`` as `net_with`); None if nobody
    won any. Ties: `order` (a key on players, e.g. their names)."""
    losses = [(points, other) for other, points in net.items() if points < 0]
    if not losses:
        return None
    return min(losses, key=lambda item: (item[0], order(item[1]) if order else 0))[1]


def best_partner(pairs: Mapping[tuple, Partnership], me, order=None):
    """The partner with whom he won the most points as the attack (either calling him or called by
    him): his own shares are not split, so the pair's points; ties: more deals, then `order`.
    None if he never was in attack with a partner, or never won a point with one."""
    together = defaultdict(Partnership)
    for (taker, partner), pair in pairs.items():
        if me in (taker, partner):
            other = partner if taker == me else taker
            summed = together[other]
            summed.deals += pair.deals
            summed.made += pair.made
            summed.points += pair.points
    if not together:
        return None
    other, pair = min(
        together.items(),
        key=lambda item: (-item[1].points, -item[1].deals, order(item[0]) if order else 0),
    )
    return (other, pair) if pair.points > 0 else None
