"""Scoring a round from its stored inputs and storing every figure it gives (deal shares, seat
totals and ranks, the round's warnings and pot, the championship lines), for one round or a whole
season: data flows one way, the stored inputs → `scoring` → the stored results, in the write's
transaction."""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Prefetch

from championship.models import Adjustment, ChampionshipLine, Deal, Round, Seat
from championship.rounds.data import (
    RoundData,
    ScoredRound,
    counts_for_championship,
    current_data,
    score_stored_round,
)
from championship.services.errors import RoundError
from championship.services.locking import bump, lock_round
from championship.services.rows import insert_rows, update_rows, write_with_history
from federation.history import REASON_MAX_LENGTH, audited
from scoring.championship import (
    RoundFacts,
    adjustment_item,
    item_sort_key,
    round_facts,
    round_limit_items,
    round_line_items,
    round_ranks,
)
from scoring.errors import ScoringError


@transaction.atomic
def rescore_round(round_, reason=None, *, record=False):
    """Lock a round, score it and store every figure it gives; `reason` goes into the history.

    Every stored figure that changes (deal shares, seat totals and ranks, the round's warnings
    and pot) is saved with its history record, with `reason` (else "recalcul"). With `record`,
    the round gets a history record carrying `reason` even if its own figures did not move.
    """
    lock_round(round_)
    bump(round_)
    return store_scores(round_, reason, record=record)


DEAL_RESULTS = ["unit", "made", "shares", "pot_after"]
SEAT_RESULTS = ["total", "rank", "tied", "championship_points"]
ROUND_RESULTS = ["warnings", "pot_left"]


@dataclass
class ScoreChanges:
    """What scoring a round changes in memory: the deals, seats and round to write."""

    scored: ScoredRound
    deals: list
    seats: list
    round_moved: bool
    lines: list  # unsaved ChampionshipLine, [] unless the round counts


def apply_scores(round_, data, scored=None):
    """Score `round_` from `data` (unless `scored` is given) and set the figures on the in-memory
    deals, seats and round; nothing is written. ScoringError if the round does not score."""
    if scored is None:
        scored = score_stored_round(round_, data.deals, seats=data.seats)
    result = scored.result
    ids = {name: player_id for player_id, name in scored.names.items()}
    deals = []
    if not round_.totals_only:
        for deal, outcome in zip(data.deals, result.deals, strict=True):
            shares = {str(ids[name]): amount for name, amount in outcome.result.shares.items()}
            figures = (outcome.result.unit, outcome.result.made, shares, outcome.pot_after)
            if (deal.unit, deal.made, deal.shares, deal.pot_after) != figures:
                deal.unit, deal.made, deal.shares, deal.pot_after = figures
                deals.append(deal)
    warnings, pot_left = list(result.warnings), sum(result.pot_refund.values())
    round_moved = (round_.warnings, round_.pot_left) != (warnings, pot_left)
    round_.warnings, round_.pot_left = warnings, pot_left
    lines = []
    if counts_for_championship(round_):
        if data.adjustments is None:
            data.adjustments = list(round_.adjustments.select_related("player"))
        lines = championship_lines(round_, scored, data.adjustments)
    points = {}
    for line in lines:
        points[line.player_id] = points.get(line.player_id, 0) + line.points
    ranks = round_ranks(result.totals)
    seats = []
    for seat in data.seats:
        name = scored.names[seat.player_id]
        rank, tied = ranks[name]
        counted = points.get(seat.player_id, 0) if counts_for_championship(round_) else None
        figures = (result.totals[name], rank, tied, counted)
        if (seat.total, seat.rank, seat.tied, seat.championship_points) != figures:
            seat.total, seat.rank, seat.tied, seat.championship_points = figures
            seats.append(seat)
    return ScoreChanges(scored, deals, seats, round_moved, lines)


# Fields whose values, as a model holds them (int, str, bool or None), go to the database driver


def store_scores(round_, reason=None, *, record=False, data=None):
    """`rescore_round` for a round its caller has locked already (every service does); `data`,
    the round's inputs when the caller read them under the lock. Returns the ScoredRound."""
    changes = apply_scores(round_, current_data(round_, data))
    write_scores(round_, changes, reason, record=record)
    return changes.scored


def write_scores(round_, changes, reason=None, *, record=False, version=False):
    """Write what `apply_scores` changed, with history records carrying `reason` (else
    "recalcul"), and replace the round's championship lines if it counts. With `version`, the
    round's version raised in memory (`bump(round_, write=False)`) is written in the same UPDATE
    as its figures (alone if they did not move, with no history record, as `bump` does)."""
    reason = reason or "recalcul"
    write_with_history(Deal, changes.deals, DEAL_RESULTS, reason)
    write_with_history(Seat, changes.seats, SEAT_RESULTS, reason)
    if record or changes.round_moved:
        write_with_history(Round, [round_], ROUND_RESULTS + (["version"] if version else []), reason)
    elif version:
        update_rows(Round, [round_], ["version"])
    if counts_for_championship(round_):  # only a counting round ever has lines
        ChampionshipLine.objects.filter(round=round_).delete()
        ChampionshipLine.objects.bulk_create(changes.lines)


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


def championship_lines(round_, scored, adjustments):
    """The unsaved championship lines of a counting round, from its scoring and adjustments."""
    ids = {name: player_id for player_id, name in scored.names.items()}
    ids.update({adjustment.player.name: adjustment.player_id for adjustment in adjustments})
    order = {name: index for index, name in enumerate(scored.result.players)}
    items = sorted(
        championship_items(round_, scored, adjustments),
        key=lambda i: (order.get(i.player, len(order)), i.player, item_sort_key(i)),
    )
    return [
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


def store_championship_lines(round_, scored=None):
    """Replace the stored championship lines of a round (none unless it counts)."""
    ChampionshipLine.objects.filter(round=round_).delete()
    if not counts_for_championship(round_):
        return []
    scored = scored or score_stored_round(round_)
    adjustments = list(round_.adjustments.select_related("player"))
    return ChampionshipLine.objects.bulk_create(championship_lines(round_, scored, adjustments))


def required_reason(reason):
    """The reason of a season-wide change, stripped; RoundError if it is missing or too long."""
    reason = (reason or "").strip()
    if not reason:
        raise RoundError(
            "reason",
            "Motif de la modification : obligatoire, il est inscrit à l'historique de la saison "
            "et de chaque manche recalculée.",
        )
    if len(reason) > REASON_MAX_LENGTH:
        raise RoundError("reason", f"Motif de la modification : {REASON_MAX_LENGTH} caractères au plus.")
    return reason


@transaction.atomic
def rescore_season(season, reason, user=None):
    """Recompute every round of a season (after its rulebook changed), all or nothing.

    `reason` (required) goes into the history of every round recomputed, with `user` as its
    author when given (on the site, the request's user is the author anyway). The season's
    rounds are locked together and read in a fixed number of queries; every round is scored,
    then only the deals and seats whose figures move are written, in bulk with their history
    records; every round gets a record of the recomputation; the championship lines of the
    rounds whose lines move are replaced in bulk.
    """
    reason = required_reason(reason)
    with audited(user, reason):
        rounds = list(
            season.rounds.select_for_update()
            .order_by("stage", "table", "number")
            .prefetch_related(
                Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
                Prefetch("deals", queryset=Deal.objects.order_by("number")),
                Prefetch("adjustments", queryset=Adjustment.objects.select_related("player")),
            )
        )
        if not rounds:
            return
        Round.objects.filter(pk__in=[round_.pk for round_ in rounds]).update(version=F("version") + 1)
        deals, seats, moved, lines = [], [], [], []
        for round_ in rounds:
            round_.season = season  # one rulebook, parsed once
            round_.version += 1
            cached = round_._prefetched_objects_cache
            data = RoundData(
                list(cached["seats"]),
                [] if round_.totals_only else list(cached["deals"]),
                list(cached["adjustments"]),
                round_.version,
            )
            changes = apply_scores(round_, data)
            deals += changes.deals
            seats += changes.seats
            lines += changes.lines
            if changes.round_moved:
                moved.append(round_)
        write_with_history(Deal, deals, DEAL_RESULTS, reason)
        write_with_history(Seat, seats, SEAT_RESULTS, reason)
        moved_pks = {round_.pk for round_ in moved}
        still = [round_ for round_ in rounds if round_.pk not in moved_pks]
        write_with_history(Round, moved, ROUND_RESULTS, reason, record=still)
        replace_changed_lines(season, lines)


LINE_FIGURES = ("player_id", "code", "points", "label", "deal_number", "order")


def replace_changed_lines(season, lines):
    """Make `lines` the season's championship lines, rewriting only the rounds whose lines moved
    (most do not when a rule changes): one read, one DELETE, one bulk INSERT."""
    stored = {}
    for round_id, *figures in (
        ChampionshipLine.objects.filter(season=season)
        .order_by("round_id", "order")
        .values_list("round_id", *LINE_FIGURES)
    ):
        stored.setdefault(round_id, []).append(tuple(figures))
    fresh = {}
    for line in lines:
        fresh.setdefault(line.round_id, []).append(tuple(getattr(line, name) for name in LINE_FIGURES))
    moved = {key for key in stored.keys() | fresh.keys() if stored.get(key) != fresh.get(key)}
    if not moved:
        return
    ChampionshipLine.objects.filter(season=season, round_id__in=moved).delete()
    columns = [field for field in ChampionshipLine._meta.concrete_fields if not field.primary_key]
    insert_rows(
        ChampionshipLine,
        columns,
        ([getattr(line, field.attname) for field in columns] for line in lines if line.round_id in moved),
    )


def scored_or_refused(round_, reason=None, *, data=None):
    """`store_scores`, a ScoringError turned into RoundError `invalid` (the transaction is undone)."""
    try:
        return store_scores(round_, reason, data=data)
    except ScoringError as error:
        raise RoundError("invalid", f"La manche est incohérente : {error}") from error
