"""What a player did in a deal, as the keys of the figures his pages count (docs/statistiques.md §3).

A deal is a mapping with the stored fields of `DEAL_FIELDS` (players by id); `deal_figures(deal,
me)` lists the figures the deal adds one to for the player `me`. The same list decides a count
(`Counter.update`) and which deals a figure's link shows (`has_figure`; a player's page of deals
sorts his deals under all their figures at once): a figure always explains itself by its deals.

Keys: ``"take"``, ``"take_made"``, ``"take_failed"``, ``("takes", contract)``, ``("made",
contract)``, ``"take_petit"`` / ``"take_petit_lost"`` (petit au bout of the attack / of the
defence when he took), ``"take_poignee"`` (a poignée shown as taker), ``"chelems"`` (made as
taker); ``"called"``, ``"called_made"``, ``("called_by", taker)``, ``("called_by_made", taker)``;
``"defended"``, ``"defended_failed"`` (contracts made to fail); ``"petit_attack"`` /
``"petit_defence"`` (petits au bout won in attack / in defence); ``("poignee", size)``;
``"miseres"``. The taker's margin (card points, rounded as the scoring rounds them, minus the
target) is a sum, not a count: `take_margin`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal

from scoring.deal import round_card_points
from scoring.vocabulary import ATTACK, DEFENCE

PLAYED = "played"

DEAL_FIELDS = (
    "kind",
    "taker_id",
    "partner_id",
    "contract",
    "made",
    "petit_au_bout",
    "poignees",
    "miseres",
    "chelem_made_by",
)


def deal_figures(deal: Mapping, me) -> list:
    """The figures `deal` adds one to for the player `me` (see the module's keys)."""
    keys = ["miseres"] * list(deal["miseres"]).count(me)
    keys += [("poignee", p.get("size")) for p in deal["poignees"] if p.get("player") == me]
    if deal["kind"] != PLAYED:
        return keys
    taker, partner, made = deal["taker_id"], deal["partner_id"], deal["made"]
    attack = me in (taker, partner)
    petit = deal["petit_au_bout"]
    if taker == me:
        contract = deal["contract"]
        keys += ["take", ("takes", contract)]
        if made is True:
            keys += ["take_made", ("made", contract)]
        elif made is False:
            keys.append("take_failed")
        if deal["chelem_made_by"] == ATTACK:
            keys.append("chelems")
        if petit:
            keys.append("take_petit" if petit == ATTACK else "take_petit_lost")
        if any(p.get("player") == me for p in deal["poignees"]):
            keys.append("take_poignee")
    elif partner == me:
        keys += ["called", ("called_by", taker)]
        if made is True:
            keys += ["called_made", ("called_by_made", taker)]
    else:
        keys.append("defended")
        if made is False:
            keys.append("defended_failed")
    if petit and (petit == ATTACK) == attack:
        keys.append("petit_attack" if attack else "petit_defence")
    return keys


def has_figure(deal: Mapping, me, key) -> bool:
    """Whether `deal` counts in the figure `key` of the player `me`."""
    return key in deal_figures(deal, me)


def take_margin(deal: Mapping, targets: Mapping[int, int]) -> int | None:
    """The taker's margin in a played deal: card points rounded as the scoring rounds them (half a
    point to the winning side) minus the target of his bouts; None without card points."""
    if deal["kind"] != PLAYED or deal.get("points") is None or deal.get("bouts") is None:
        return None
    target = targets[deal["bouts"]]
    return round_card_points(Decimal(deal["points"]), target) - target


def figure_slug(key) -> str:
    """A figure's key in an address: ``"take"``, ``"takes-garde"``, ``"called_by-12"``."""
    return "-".join(str(part) for part in key) if isinstance(key, tuple) else key


def figure_key(slug: str):
    """The key of `figure_slug` (a player's id back to an int); ValueError if unknown."""
    head, _, rest = slug.partition("-")
    if not rest:
        if head in SINGLE_KEYS:
            return head
        raise ValueError(slug)
    if head in ("called_by", "called_by_made"):
        return (head, int(rest))
    if head in ("takes", "made", "poignee"):
        return (head, rest)
    raise ValueError(slug)


SINGLE_KEYS = frozenset(
    {
        "take",
        "take_made",
        "take_failed",
        "take_petit",
        "take_petit_lost",
        "take_poignee",
        "chelems",
        "called",
        "called_made",
        "defended",
        "defended_failed",
        "petit_attack",
        "petit_defence",
        "miseres",
    }
)


def add_deals(counts, deals: Iterable[Mapping], me, targets: Mapping[int, int] | None = None) -> None:
    """Add to the Counter `counts` the figures of `deals` for `me`, and, with the season's
    `targets`, the sum of his margins as taker (``"margin"``, over ``"margin_takes"`` takes)."""
    for deal in deals:
        keys = deal_figures(deal, me)
        counts.update(keys)
        if targets is not None and "take" in keys:
            margin = take_margin(deal, targets)
            if margin is not None:
                counts["margin"] += margin
                counts["margin_takes"] += 1


SIDES = (ATTACK, DEFENCE)
