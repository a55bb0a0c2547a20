"""Operations on rounds: scoring them from the database, storing the results, their lifecycle.

Data flows one way: the stored inputs of a round (seats, deals or totals) → `scoring` → the
stored results (deal shares, seat totals and ranks, championship lines), in one transaction.
Every failure is a `RoundError` carrying a code and a French message naming the field.
"""

from contextlib import nullcontext
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from championship.models import Adjustment, ChampionshipLine, Deal, Round, Seat
from federation.history import recorded_as
from scoring.championship import (
    RoundFacts,
    adjustment_item,
    item_sort_key,
    round_facts,
    round_limit_items,
    round_line_items,
    round_ranks,
)
from scoring.deal import DealInput, Poignee
from scoring.errors import ScoringError
from scoring.round import score_round, totals_only_round
from scoring.vocabulary import COLOURS, MAX_PLAYERS, MIN_PLAYERS, TABLE_SIZES


class RoundError(Exception):
    def __init__(self, code, message):
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class ScoredRound:
    """A round scored from its stored inputs: `result` is a `scoring.round.RoundResult`."""

    round: Round
    seats: list
    names: dict  # player id -> name
    inputs: list  # DealInput per deal, in order
    result: object


def deal_input(deal, names):
    """The scoring input of a stored deal; `names` maps player ids to names."""

    def name(player_id):
        return names.get(player_id, f"joueur n°{player_id}") if player_id is not None else None

    return DealInput(
        dealer=name(deal.dealer_id),
        kind=deal.kind,
        taker=name(deal.taker_id),
        contract=deal.contract or None,
        called=deal.called or None,
        called_rank=deal.called_rank or "roi",
        partner=name(deal.partner_id),
        bouts=deal.bouts,
        points=deal.points,
        poignees=tuple(Poignee(name(item["player"]), item["size"]) for item in deal.poignees),
        miseres=tuple(name(player_id) for player_id in deal.miseres),
        petit_au_bout=deal.petit_au_bout or None,
        chelem_announced=deal.chelem_announced,
        chelem_made_by=deal.chelem_made_by or None,
    )


def score_stored_round(round_, deals=None):
    """Score a round from the database (or with `deals`, a candidate list of unsaved deals)."""
    seats = list(round_.seats.select_related("player").order_by("position"))
    names = {seat.player_id: seat.player.name for seat in seats}
    players = [seat.player.name for seat in seats]
    rulebook = round_.season.rulebook
    if round_.totals_only:
        totals = {seat.player.name: seat.total for seat in seats}
        return ScoredRound(round_, seats, names, [], totals_only_round(players, totals))
    if deals is None:
        deals = list(round_.deals.order_by("number"))
    inputs = [deal_input(deal, names) for deal in deals]
    return ScoredRound(round_, seats, names, inputs, score_round(players, inputs, rulebook))


@transaction.atomic
def rescore_round(round_, reason=None, *, record=False):
    """Score a round and store every figure it gives; `reason` goes into the history.

    Every stored figure that changes (deal shares, seat totals and ranks, the round's warnings
    and pot) is saved with its history record, with `reason` (else "recalcul"). With `record`,
    the round gets a history record carrying `reason` even if its own figures did not move.
    """
    scored = score_stored_round(round_)
    result = scored.result
    ids = {name: player_id for player_id, name in scored.names.items()}
    if not round_.totals_only:
        for deal, outcome in zip(round_.deals.order_by("number"), result.deals, strict=True):
            shares = {str(ids[name]): amount for name, amount in outcome.result.shares.items()}
            changed = (deal.unit, deal.made, deal.shares, deal.pot_after) != (
                outcome.result.unit,
                outcome.result.made,
                shares,
                outcome.pot_after,
            )
            if changed:
                deal.unit, deal.made = outcome.result.unit, outcome.result.made
                deal.shares, deal.pot_after = shares, outcome.pot_after
                deal._change_reason = reason or "recalcul"
                deal.save(update_fields=["unit", "made", "shares", "pot_after"])
    ranks = round_ranks(result.totals)
    for seat in scored.seats:
        name = scored.names[seat.player_id]
        rank, tied = ranks[name]
        if (seat.total, seat.rank, seat.tied) != (result.totals[name], rank, tied):
            seat.total, seat.rank, seat.tied = result.totals[name], rank, tied
            seat._change_reason = reason or "recalcul"
            seat.save(update_fields=["total", "rank", "tied"])
    warnings, pot_left = list(result.warnings), sum(result.pot_refund.values())
    stored = Round.objects.filter(pk=round_.pk).values_list("warnings", "pot_left").get()
    round_.warnings, round_.pot_left = warnings, pot_left
    if record or stored != (warnings, pot_left):
        round_._change_reason = reason or "recalcul"
        round_.save(update_fields=["warnings", "pot_left"])
    store_championship_lines(round_, scored)
    return scored


def counts_for_championship(round_):
    return round_.status == Round.HOMOLOGATED and round_.stage == Round.REGULAR


def championship_items(round_, scored, adjustments):
    """The line items of a round: rank, bonuses, its adjustments from the catalogue, and the
    lines that keep each player's round within the season's limits (`round_limit_items`)."""
    rulebook = round_.season.rulebook
    result = scored.result
    if round_.totals_only:
        facts = RoundFacts({name: result.totals[name] for name in result.players}, None)
    else:
        facts = round_facts(scored.inputs, result)
    items = round_line_items(facts, rulebook)
    for adjustment in adjustments:
        catalogue_points = _catalogue_points(rulebook, adjustment.code)
        points = None if adjustment.points == catalogue_points else adjustment.points
        items.append(
            adjustment_item(adjustment.player.name, adjustment.code, rulebook, points, adjustment.note)
        )
    return items + round_limit_items(items, rulebook)


def _catalogue_points(rulebook, code):
    try:
        return rulebook.championship.catalogue_entry(code).points
    except KeyError:
        return None


def store_championship_lines(round_, scored=None):
    """Replace the stored championship lines of a round (none unless it counts)."""
    ChampionshipLine.objects.filter(round=round_).delete()
    if not counts_for_championship(round_):
        return []
    scored = scored or score_stored_round(round_)
    adjustments = list(round_.adjustments.select_related("player"))
    ids = {name: player_id for player_id, name in scored.names.items()}
    ids.update({adjustment.player.name: adjustment.player_id for adjustment in adjustments})
    order = {name: index for index, name in enumerate(scored.result.players)}
    items = sorted(
        championship_items(round_, scored, adjustments),
        key=lambda i: (order.get(i.player, len(order)), i.player, item_sort_key(i)),
    )
    lines = [
        ChampionshipLine(
            season_id=round_.season_id,
            round=round_,
            player_id=ids[item.player],
            code=item.code,
            points=item.points,
            label=item.label,
            deal_number=item.deal,
            order=index,
        )
        for index, item in enumerate(items)
    ]
    return ChampionshipLine.objects.bulk_create(lines)


REASON_MAX_LENGTH = 100  # what django-simple-history keeps of a change reason


def required_reason(reason):
    """The reason of a season-wide change, stripped; RoundError if it is missing or too long."""
    reason = (reason or "").strip()
    if not reason:
        raise RoundError(
            "reason",
            "Motif de la modification : obligatoire, il est inscrit à l'historique de la saison "
            "et de chaque manche recalculée.",
        )
    if len(reason) > REASON_MAX_LENGTH:
        raise RoundError("reason", f"Motif de la modification : {REASON_MAX_LENGTH} caractères au plus.")
    return reason


@transaction.atomic
def rescore_season(season, reason, user=None):
    """Recompute every round of a season (after its rulebook changed), all or nothing.

    `reason` (required) goes into the history of every round recomputed, with `user` as its
    author when given (on the site, the request's user is the author anyway).
    """
    reason = required_reason(reason)
    with recorded_as(user) if user is not None else nullcontext():
        for round_ in season.rounds.order_by("stage", "table", "number"):
            rescore_round(round_, reason=reason, record=True)


def check_complete(round_):
    """Raise RoundError unless the round can be submitted: seats, deals or totals, consistent."""
    count = round_.seats.count()
    if count not in TABLE_SIZES:
        raise RoundError(
            "seats", f"Une manche se joue à {MIN_PLAYERS} ou {MAX_PLAYERS} joueurs (ici {count})."
        )
    if not round_.totals_only and not round_.deals.exists():
        raise RoundError("deals", "Aucune donne n'est saisie.")
    try:
        score_stored_round(round_)
    except ScoringError as error:
        raise RoundError("invalid", f"La manche est incohérente : {error}") from error


@transaction.atomic
def submit_round(round_, user=None):
    if round_.status != Round.DRAFT:
        raise RoundError("status", "Seule une manche en brouillon peut être soumise.")
    check_complete(round_)
    round_.status = Round.SUBMITTED
    round_._change_reason = "soumise pour homologation"
    round_.save()
    return rescore_round(round_)


@transaction.atomic
def homologate_round(round_, user=None):
    if round_.status == Round.HOMOLOGATED:
        raise RoundError("status", "Cette manche est déjà homologuée.")
    check_complete(round_)
    round_.status = Round.HOMOLOGATED
    round_.homologated_at = timezone.now()
    round_.homologated_by = user
    round_._change_reason = "homologation"
    if user is not None:
        round_._history_user = user  # outside a request too (commands, demo)
    round_.save()
    return rescore_round(round_)


@transaction.atomic
def reopen_round(round_, user=None, reason=""):
    """Send a submitted round back to draft (a homologated one stays: it is corrected in place)."""
    if round_.status != Round.SUBMITTED:
        raise RoundError("status", "Seule une manche soumise peut revenir en brouillon.")
    round_.status = Round.DRAFT
    round_._change_reason = reason or "renvoyée en brouillon"
    round_.save()
    return round_


@transaction.atomic
def delete_draft_round(round_, user=None, reason=""):
    """Delete a round entered by mistake: only while it is a draft, with a reason that the
    round's history keeps with its author (a submitted round goes back to draft first)."""
    reason = (reason or "").strip()
    if not reason:
        raise RoundError("reason", "Motif : obligatoire pour supprimer une manche.")
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.status != Round.DRAFT:
        raise RoundError("status", "Seule une manche en brouillon peut être supprimée.")
    with recorded_as(user) if user is not None else nullcontext():
        locked._change_reason = reason
        locked.delete()


@transaction.atomic
def create_round(
    season,
    players,
    deals=(),
    *,
    totals=None,
    number,
    stage=Round.REGULAR,
    table="",
    date,
    place="",
    status=Round.DRAFT,
):
    """Store a round (seats in this order, with chip colours) and score it, all or nothing.

    `players`: Players in seating order; `deals`: dicts of player names, e.g.
    `{"dealer": "Alice", "taker": "Bruno", "contract": "garde", "partner": "David", "bouts": 2,
    "points": 49, "poignees": [("Bruno", "simple")], "miseres": ["Chloé"]}`; or `totals`
    (name → total) for a round whose deals were not kept.
    """
    round_ = Round.objects.create(
        season=season,
        stage=stage,
        table=table,
        number=number,
        date=date,
        place=place,
        status=status,
        totals_only=totals is not None,
    )
    by_name = {player.name: player for player in players}
    Seat.objects.bulk_create(
        Seat(
            round=round_,
            player=player,
            position=position,
            colour=COLOURS[position],
            total=totals[player.name] if totals is not None else None,
        )
        for position, player in enumerate(players)
    )
    Deal.objects.bulk_create(
        _deal_from_spec(round_, number_, spec, by_name) for number_, spec in enumerate(deals, 1)
    )
    rescore_round(round_)
    return round_


def _deal_from_spec(round_, number, spec, by_name):
    spec = dict(spec)
    fields = {"round": round_, "number": number, "dealer": by_name[spec.pop("dealer")]}
    fields["kind"] = spec.pop("kind", Deal.PLAYED)
    for role in ("taker", "partner"):
        name = spec.pop(role, None)
        fields[role] = by_name[name] if name else None
    fields["poignees"] = [
        {"player": by_name[name].pk, "size": size} for name, size in spec.pop("poignees", [])
    ]
    fields["miseres"] = [by_name[name].pk for name in spec.pop("miseres", [])]
    return Deal(**fields, **spec)


def next_round_number(season, stage=Round.REGULAR, table=""):
    last = Round.objects.filter(season=season, stage=stage, table=table).order_by("-number").first()
    return (last.number + 1) if last else 1


def seats_in_order(round_):
    return list(Seat.objects.filter(round=round_).select_related("player").order_by("position"))


def next_deal_number(round_):
    last = Deal.objects.filter(round=round_).order_by("-number").first()
    return (last.number + 1) if last else 1


__all__ = [
    "Adjustment",
    "RoundError",
    "ScoredRound",
    "check_complete",
    "deal_input",
    "delete_draft_round",
    "homologate_round",
    "next_deal_number",
    "next_round_number",
    "reopen_round",
    "rescore_round",
    "rescore_season",
    "required_reason",
    "score_stored_round",
    "seats_in_order",
    "store_championship_lines",
    "submit_round",
]
