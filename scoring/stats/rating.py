"""A rating apart from the championship (docs/statistiques.md §7): openskill's Plackett-Luce
model (Weng and Lin's Bayesian approximation), team-aware, one deal at a time.

Each played deal is a game of two teams: the attack (the taker, and his partner when he called
another player) against the defence (the others); the team that wins the deal (the contract made
or failed) is ranked first. A rating is a skill ``mu`` with its uncertainty ``sigma`` (25 and
25/3 at the start); the rating shown is the conservative one, ``mu − 3·sigma`` (openskill's
ordinal): a player who has played little is shown low until his deals make it certain. Misères,
passed and misdealt deals, totals-only rounds do not count.

Every player takes every role in turn, so the attack's fewer players (a team is rated by the sum
of its players' skills) weigh alike on everyone. The rating never enters the championship: it
is a figure to argue about, per season, starting afresh each season.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300


@dataclass(frozen=True)
class Rating:
    player: object
    mu: float
    sigma: float
    deals: int  # played deals rated
    won: int  # of them won (his team's side of the result)

    @property
    def shown(self) -> float:
        """The conservative rating: mu − 3·sigma."""
        return self.mu - 3 * self.sigma


def deal_teams(deal: Mapping, seated: Iterable) -> tuple[list, list] | None:
    """``(attack, defence)`` of a played deal with a known result, the players of `seated`
    (the round's players); None for a deal that rates nobody."""
    if deal["kind"] != "played" or deal["made"] is None or deal["taker_id"] is None:
        return None
    attack = [deal["taker_id"]] + (
        [deal["partner_id"]] if deal["partner_id"] not in (None, deal["taker_id"]) else []
    )
    defence = [player for player in seated if player not in attack]
    if not defence:
        return None
    return attack, defence


def ratings(games: Iterable[tuple[Mapping, Iterable]]) -> dict[object, Rating]:
    """``{player: Rating}`` after `games`, ``(deal, players seated)`` in the order played."""
    skill, deals, won = {}, {}, {}
    for deal, seated in games:
        teams = deal_teams(deal, list(seated))
        if teams is None:
            continue
        attack, defence = teams
        for player in (*attack, *defence):
            if player not in skill:
                skill[player] = MODEL.rating()
        ranks = [0, 1] if deal["made"] else [1, 0]
        new_attack, new_defence = MODEL.rate(
            [[skill[p] for p in attack], [skill[p] for p in defence]], ranks=ranks
        )
        for team, rated, winner in (
            (attack, new_attack, deal["made"]),
            (defence, new_defence, not deal["made"]),
        ):
            for player, rating in zip(team, rated, strict=True):
                skill[player] = rating
                deals[player] = deals.get(player, 0) + 1
                won[player] = won.get(player, 0) + bool(winner)
    return {
        player: Rating(player, rating.mu, rating.sigma, deals[player], won[player])
        for player, rating in skill.items()
    }
