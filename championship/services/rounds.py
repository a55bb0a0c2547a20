"""Rounds: creating one, scoring it from the database and storing the results, its lifecycle
(submit, homologate, reopen, delete a draft), its seat totals and chip colours.

Data flows one way: the stored inputs of a round (seats, deals or totals) → `scoring` → the
stored results (deal shares, seat totals and ranks, championship lines), in one transaction.
Every write locks the round first (`locking.lock_round`) and re-checks its status there; every
failure is a `RoundError` carrying a code and a French message naming the field.
"""

from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial

from django.db import connection, transaction
from django.db.models import F, Prefetch
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from championship.lib.summaries import season_written
from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, Seat
from championship.services.checks import check_text, checked_adjustment
from championship.services.errors import RoundError
from championship.services.locking import bump, check_homologated_change, claim_key, lock_round
from federation import validators
from federation.history import recorded_as
from federation.models import Season
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
from scoring.french import of_name
from scoring.round import score_round, totals_only_round
from scoring.vocabulary import COLOURS, MAX_PLAYERS, MIN_PLAYERS, TABLE_SIZES


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


@dataclass
class RoundData:
    """A round's stored inputs, read once and passed along (service → rescore → page): its seats
    (players joined) in order, its deals in order, its adjustments (players joined; None until
    read). `version` is the round's version when they were read: a service that finds the round
    at that version under its lock uses them as they are (every write raises the version).
    `lines`: the round's championship lines when a write has just computed them (None until
    then; a round that does not count for the championship has none)."""

    seats: list
    deals: list
    adjustments: list | None
    version: int
    lines: list | None = None


def read_round_data(round_, *, adjustments=True):
    """The stored inputs of `round_` (3 queries; 2 without `adjustments`), with what the pages
    show of them (players, and who entered each adjustment)."""
    seats = list(round_.seats.select_related("player").order_by("position"))
    deals = [] if round_.totals_only else list(round_.deals.order_by("number"))
    adjusted = (
        list(round_.adjustments.select_related("player", "entered_by__player")) if adjustments else None
    )
    return RoundData(seats, deals, adjusted, round_.version)


def current_data(round_, data):
    """`data` if it was read at the version `round_` (locked) has now, else the round read afresh."""
    if data is not None and data.version == round_.version:
        return data
    return read_round_data(round_, adjustments=False)


def score_stored_round(round_, deals=None, *, seats=None):
    """Score a round from the database (or with `deals`, a candidate list of unsaved deals;
    `seats`, its seats with their players, when read already)."""
    if seats is None:
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
# as they are: Django's preparation would only give them back unchanged.
PLAIN_FIELDS = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "IntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
    "TextField",
}


def _as_is(value):
    return value


def _call(convert, value):
    return convert(value)


def preparer(field):
    """The function that prepares a value of `field` for the database as `save()` would (the
    identity for a plain field, or a relation to one)."""
    target = field.target_field if field.is_relation else field
    if target.get_internal_type() in PLAIN_FIELDS:
        return _as_is
    return partial(field.get_db_prep_save, connection=connection)


def update_rows(model, objs, fields):
    """Write `fields` of `objs` (rows that exist): one UPDATE statement run for every row
    (`executemany`), each value prepared by its model field as `save()` would.

    Django's `bulk_update` does the same in one CASE expression per field and batch, which
    costs seconds of Python to build for a season's thousands of rows.
    """
    if not objs:
        return
    meta = model._meta
    columns = [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in columns)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    prepare = [(field.attname, preparer(field)) for field in columns]
    rows = [[convert(getattr(obj, name)) for name, convert in prepare] + [obj.pk] for obj in objs]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def insert_history_rows(model, objs, reason):
    """Add a change record ("~") to the history of each of `objs`, as django-simple-history's
    `bulk_history_create` would: every tracked field copied, `reason`, the block's author (the
    request's user or `recorded_as`), one date for the block. One INSERT statement run for
    every record (`executemany`).

    `bulk_history_create` builds a model instance per record and an INSERT per few dozen rows
    (SQLite's variable limit), which cost most of a season's recomputation.
    """
    if not objs:
        return
    history = model.history.model
    fields = {field.attname: field for field in history._meta.concrete_fields}
    tracked = [fields[field.attname] for field in history.tracked_fields]
    author = history.get_default_history_user(objs[0])
    constants = {
        fields["history_date"]: timezone.now(),
        fields["history_change_reason"]: reason,
        fields["history_type"]: "~",
        fields["history_user_id"]: getattr(author, "pk", None),
    }
    if len(tracked) + len(constants) != len(fields) - 1 or any(hasattr(obj, "_history_user") for obj in objs):
        # a field this copy cannot fill, or an author of the instance's own: the library's way
        model.history.bulk_history_create(objs, update=True, default_change_reason=reason)
        return
    rows = ([getattr(obj, field.attname) for field in tracked] for obj in objs)
    insert_rows(history, tracked, rows, constants)


def insert_rows(model, columns, rows, constants=None):
    """Insert `rows` (one value per field of `columns`, in order) into `model`'s table, each
    with the same `constants` ({field: value}): one INSERT statement run for every row
    (`executemany`), each value prepared by its field as `save()` would (a constant once).
    For rows nothing reads back (no primary key returned, no signal)."""
    constants = constants or {}
    quote = connection.ops.quote_name
    names = [quote(field.column) for field in [*columns, *constants]]
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(names)}) "
        f"VALUES ({', '.join(['%s'] * len(names))})"
    )
    fixed = [preparer(field)(value) for field, value in constants.items()]
    converters = [preparer(field) for field in columns]
    prepared = [[*map(_call, converters, row), *fixed] for row in rows]
    if prepared:
        with connection.cursor() as cursor:
            cursor.executemany(sql, prepared)


def write_with_history(model, objs, fields, reason, *, record=()):
    """Write `fields` of `objs` and add their history records ("~"), each with `reason` and the
    block's author (the request's user, or `recorded_as`); `record`: more instances that get a
    history record without being written (their row did not move)."""
    update_rows(model, objs, fields)
    insert_history_rows(model, [*objs, *record], reason)


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
    author when given (on the site, the request's user is the author anyway). The season's
    rounds are locked together and read in a fixed number of queries; every round is scored,
    then only the deals and seats whose figures move are written, in bulk with their history
    records; every round gets a record of the recomputation; the championship lines of the
    rounds whose lines move are replaced in bulk.
    """
    reason = required_reason(reason)
    with recorded_as(user) if user is not None else nullcontext():
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
        raise RoundError("invalid", f"La manche est incohérente : {error}") from error


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


def _author(user):
    """The block's history records name `user` (a logged-in account), else the request's user."""
    return recorded_as(user) if getattr(user, "is_authenticated", False) else nullcontext()


# --- lifecycle -------------------------------------------------------------------------------------


@transaction.atomic
def submit_round(round_, user=None, *, version=None, reason="soumise pour homologation"):
    lock_round(round_, version=version)
    if round_.status != Round.DRAFT:
        raise RoundError("status", "Seule une manche en brouillon peut être soumise.")
    check_complete(round_)
    bump(round_)
    with _author(user):
        round_.status = Round.SUBMITTED
        round_._change_reason = reason
        round_.save()
        return store_scores(round_)


@transaction.atomic
def homologate_round(round_, user=None, *, version=None, reason="homologation"):
    lock_round(round_, version=version)
    if round_.status == Round.HOMOLOGATED:
        raise RoundError("status", "Cette manche est déjà homologuée.")
    check_complete(round_)
    bump(round_)
    round_.status = Round.HOMOLOGATED
    round_.homologated_at = timezone.now()
    round_.homologated_by = user
    round_._change_reason = reason
    with _author(user):  # outside a request too (commands, demo)
        round_.save()
        return store_scores(round_)


@transaction.atomic
def reopen_round(round_, user=None, reason="", *, version=None):
    """Send a submitted round back to draft (a homologated one stays: it is corrected in place)."""
    lock_round(round_, version=version)
    if round_.status != Round.SUBMITTED:
        raise RoundError("status", "Seule une manche soumise peut revenir en brouillon.")
    bump(round_)
    round_.status = Round.DRAFT
    round_._change_reason = reason or "renvoyée en brouillon"
    with _author(user):
        round_.save()
    return round_


@transaction.atomic
def delete_draft_round(round_, user=None, reason="", *, version=None):
    """Delete a round entered by mistake: only while it is a draft, with a reason that the
    round's history keeps with its author (a submitted round goes back to draft first)."""
    reason = (reason or "").strip()
    if not reason:
        raise RoundError("reason", "Motif : obligatoire pour supprimer une manche.")
    if len(reason) > REASON_MAX_LENGTH:
        raise RoundError("reason", f"Motif : {REASON_MAX_LENGTH} caractères au plus.")
    lock_round(round_, version=version)
    if round_.status != Round.DRAFT:
        raise RoundError("status", "Seule une manche en brouillon peut être supprimée.")
    with _author(user):
        round_._change_reason = reason
        round_.delete()


# --- creating a round --------------------------------------------------------------------------------

CREATION_REASON = "création de la manche"


@transaction.atomic
def create_round(
    season,
    players,
    deals=(),
    *,
    totals=None,
    colours=None,
    number=None,
    stage=Round.REGULAR,
    table="",
    date,
    place="",
    status=Round.DRAFT,
    adjustments=(),
    report=None,
    user=None,
    reason=CREATION_REASON,
    status_reason=None,
    key=None,
    expected_totals=None,
    paper_totals=None,
    scored=None,
):
    """Store a round with everything a sheet holds, score it, all or nothing; return the Round.

    - `players`: Players in seating order; `colours`: their chip colours in the same order
      (`""` for none; default: the colours in the order of `scoring.vocabulary.COLOURS`);
    - `deals`: dicts of player names, e.g. `{"dealer": "Alice", "taker": "Bruno", "contract":
      "garde", "partner": "David", "bouts": 2, "points": 49, "poignees": [("Bruno", "simple")],
      "miseres": ["Chloé"]}` (any other `Deal` field by its name, `kind` "played" by default);
      or `totals` (name → total) for a round whose deals were not kept;
    - `number`: None for the next free number of the stage (and table);
    - `adjustments`: `(player, code, points or None for the catalogue's, note)`, the player a
      Player or a name of `players`;
    - `report`: `{"author": Player or name, "text": str, "filed_on": date or None}`;
    - `status`: the round is then submitted (or homologated by `user`), `status_reason` (else the
      usual one) going into its history;
    - `user`: the author of every history record (and of the adjustments); `reason` the reason of
      the creation records; `key` a form's one-time key (a double submit creates one round);
    - `expected_totals`: the totals (name → total) the stored inputs must give (a checked sheet's);
    - `paper_totals`: the paper sheet's totals (name → total), kept as the round's paper check;
    - `scored`: `(players, inputs, rulebook, result)`, the round its caller has scored already (a
      checked sheet: the player names in seating order, the `DealInput`s, the rulebook, the
      `scoring.round.RoundResult`); used only if the round's stored inputs are exactly those
      (same names, same `DealInput`s, the season's rulebook, compared), else scored here.

    The round is scored once, from its rows in memory; every row is then inserted with its
    figures and its history record (in bulk). Raises RoundError (a French message naming the
    field) and then stores nothing.
    """
    with _author(user):
        Season.objects.select_for_update().filter(pk=season.pk).first()  # one creation at a time
        season_written(season)
        by_name = {player.name: player for player in players}
        _check_creation(season, players, colours, totals, deals, date, place, stage, table)
        if number is None:
            number = next_round_number(season, stage, table)
        problem = validators.bounds_problem(number, validators.ROUND_NUMBER)
        if problem:
            raise RoundError("number", validators.field_message("Numéro", problem))
        if Round.objects.filter(season=season, stage=stage, table=table, number=number).exists():
            raise RoundError("number", f"Numéro : la manche {number} existe déjà dans cette phase.")
        round_ = Round(
            season=season,
            stage=stage,
            table=table,
            number=number,
            date=date,
            place=place,
            totals_only=totals is not None,
            paper_totals={str(by_name[name].pk): total for name, total in (paper_totals or {}).items()},
        )
        round_._change_reason = reason
        round_.save()
        claim_key(round_, key)
        colours = list(colours) if colours is not None else COLOURS[: len(players)]
        seats = [
            Seat(
                round=round_,
                player=player,
                position=position,
                colour=colours[position] or "",
                total=totals[player.name] if totals is not None else None,
            )
            for position, player in enumerate(players)
        ]
        stored_deals = [
            _deal_from_spec(round_, number_, spec, by_name) for number_, spec in enumerate(deals, 1)
        ]
        stored_adjustments = [
            _checked_adjustment(round_, who, code, points, note, by_name, user)
            for who, code, points, note in adjustments
        ]
        if status not in (Round.DRAFT, Round.SUBMITTED, Round.HOMOLOGATED):
            raise RoundError("status", f"Statut : « {status} » inconnu.")
        if status != Round.DRAFT:
            if not round_.totals_only and not stored_deals:
                raise RoundError("deals", "Aucune donne n'est saisie.")
            bump(round_, write=False)  # written below with the status
            round_.status = status
            if status == Round.HOMOLOGATED:
                round_.homologated_at, round_.homologated_by = timezone.now(), user
        # Scored once, in memory: every row is then inserted with its figures and history.
        data = RoundData(seats, stored_deals, stored_adjustments, round_.version)
        try:
            changes = apply_scores(round_, data, _same_inputs(round_, seats, stored_deals, totals, scored))
        except ScoringError as error:
            raise RoundError("invalid", f"La manche est incohérente : {error}") from error
        if expected_totals is not None and changes.scored.result.totals != expected_totals:
            raise RoundError(
                "expected_totals", "Totaux attendus : les totaux enregistrés diffèrent du calcul."
            )
        for rows in (seats, stored_deals, stored_adjustments):
            for row in rows:
                row._change_reason = reason
        bulk_create_with_history(seats, Seat, default_change_reason=reason)
        bulk_create_with_history(stored_deals, Deal, default_change_reason=reason)
        bulk_create_with_history(stored_adjustments, Adjustment, default_change_reason=reason)
        if report is not None:
            _store_report(round_, report, by_name, reason)
        fields = list(ROUND_RESULTS)
        if status != Round.DRAFT:
            fields += ["status", "homologated_at", "homologated_by", "version"]
            reason = status_reason or (
                "homologation" if status == Round.HOMOLOGATED else "soumise pour homologation"
            )
        if status != Round.DRAFT or changes.round_moved:
            write_with_history(Round, [round_], fields, reason)
        ChampionshipLine.objects.bulk_create(changes.lines)
    return round_


def _same_inputs(round_, seats, deals, totals, scored):
    """The ScoredRound of `scored` (see `create_round`) if it was scored from exactly the inputs
    of these rows, else None (the round is then scored afresh)."""
    if scored is None or totals is not None:
        return None
    players, inputs, rulebook, result = scored
    names = {seat.player.pk: seat.player.name for seat in seats}
    stored = [deal_input(deal, names) for deal in deals]
    if list(players) != [seat.player.name for seat in seats] or list(inputs) != stored:
        return None
    if rulebook != round_.season.rulebook:
        return None
    return ScoredRound(round_, seats, names, stored, result)


def _check_creation(season, players, colours, totals, deals, date, place, stage, table):
    count = len(players)
    if count not in TABLE_SIZES:
        raise RoundError(
            "players", f"Joueurs : une manche se joue à {MIN_PLAYERS} ou {MAX_PLAYERS} joueurs (ici {count})."
        )
    names = [player.name for player in players]
    if len(set(names)) != count:
        raise RoundError("players", "Joueurs : un joueur ne s'assoit qu'une fois à la table.")
    if colours is not None:
        chosen = [colour for colour in colours if colour]
        if len(colours) != count or any(colour not in COLOURS for colour in chosen):
            raise RoundError("colours", "Couleurs : une couleur de jetons connue (ou aucune) par joueur.")
        if len(set(chosen)) != len(chosen):
            raise RoundError("colours", "Couleurs : deux joueurs ont les mêmes jetons.")
    if stage not in (Round.REGULAR, Round.PLAYOFF, Round.FINAL) or (stage == Round.PLAYOFF) != bool(table):
        raise RoundError("stage", "Phase : une table de play-off pour un play-off, et seulement pour lui.")
    problem = validators.round_date_problem(date, season.name, season.start_date, season.end_date)
    if problem:
        raise RoundError("date", validators.field_message("Date", problem))
    problem = validators.name_problem(place) if place else None
    if problem:
        raise RoundError("place", validators.field_message("Lieu", problem))
    if totals is not None:
        if deals:
            raise RoundError("totals", "Totaux : une manche a ses donnes ou ses totaux, pas les deux.")
        if set(totals) != set(names):
            raise RoundError("totals", "Totaux : un total par joueur assis, et pour eux seuls.")
        for name, total in totals.items():
            problem = validators.bounds_problem(total, validators.ROUND_TOTAL)
            if problem:
                raise RoundError("totals", validators.field_message(f"Total {of_name(name)}", problem))
        if sum(totals.values()) != 0:
            raise RoundError(
                "totals",
                f"Totaux : ils doivent s'annuler, or leur somme fait {sum(totals.values())} (et non 0).",
            )
    problem = validators.deal_number_problem(len(deals))
    if problem:
        raise RoundError("deals", validators.field_message("Donnes", problem))


def _deal_from_spec(round_, number, spec, by_name):
    spec = dict(spec)

    def player(name):
        try:
            return by_name[name]
        except KeyError:
            raise RoundError("deals", f"Donne {number} : {name} n'est pas à cette table.") from None

    fields = {"round": round_, "number": number, "dealer": player(spec.pop("dealer"))}
    fields["kind"] = spec.pop("kind", Deal.PLAYED)
    for role in ("taker", "partner"):
        name = spec.pop(role, None)
        fields[role] = player(name) if name else None
    fields["poignees"] = [
        {"player": player(name).pk, "size": size} for name, size in spec.pop("poignees", [])
    ]
    fields["miseres"] = [player(name).pk for name in spec.pop("miseres", [])]
    for name in ("contract", "called", "petit_au_bout", "chelem_made_by"):
        if name in spec and spec[name] is None:
            spec[name] = ""
    if spec.get("called_rank") is None:
        spec.pop("called_rank", None)
    return Deal(**fields, **spec)


def _checked_adjustment(round_, who, code, points, note, by_name, user):
    player = by_name.get(who) if isinstance(who, str) else who
    if player is None:
        raise RoundError("player", f"Bonus ou malus : {who} n'est pas un joueur inscrit.")
    return checked_adjustment(round_, player, code, points, note or "", user)


def _store_report(round_, report, by_name, reason):
    author = report["author"]
    author = by_name.get(author) if isinstance(author, str) else author
    if author is None:
        raise RoundError("author", f"Compte-rendu, auteur : {report['author']} n'est pas à la table.")
    text, filed_on = report.get("text") or "", report.get("filed_on")
    stored = Report(round=round_, author=author, text=text, filed_on=filed_on)
    check_text(stored.text)
    stored._change_reason = reason
    stored.save()


# --- seats --------------------------------------------------------------------------------------------


@transaction.atomic
def set_seat_totals(round_, totals, *, version=None, reason=None, user=None):
    """Correct the totals of a round whose deals were not kept (`totals`: player id → total; they
    must cancel out) and rescore it (ranks, championship lines)."""
    lock_round(round_, version=version)
    if not round_.totals_only:
        raise RoundError("totals", "Cette manche a ses donnes : ses totaux en découlent.")
    check_homologated_change(round_, reason)
    seats = list(round_.seats.select_related("player").order_by("position"))
    if set(totals) != {seat.player_id for seat in seats}:
        raise RoundError("totals", "Totaux : un total par joueur assis, et pour eux seuls.")
    for seat in seats:
        problem = validators.bounds_problem(totals[seat.player_id], validators.ROUND_TOTAL)
        if problem:
            label = f"Total {of_name(seat.player.name)}"
            raise RoundError("totals", validators.field_message(label, problem))
    if sum(totals.values()) != 0:
        raise RoundError(
            "totals", f"Totaux : ils doivent s'annuler, or leur somme fait {sum(totals.values())} (et non 0)."
        )
    reason = reason or "totaux corrigés"
    bump(round_)
    with _author(user):
        for seat in seats:
            if seat.total != totals[seat.player_id]:
                seat.total = totals[seat.player_id]
                seat._change_reason = reason
                seat.save(update_fields=["total"])
        return scored_or_refused(round_, reason)


@transaction.atomic
def set_seat_colours(round_, colours, *, version=None, reason=None, user=None):
    """Give each seated player a chip colour (`colours`: player id → colour or "" for none); two
    players may swap theirs. Returns the seats that changed."""
    lock_round(round_, version=version)
    check_homologated_change(round_, reason)
    seats = list(round_.seats.select_related("player").order_by("position"))
    chosen = [colours.get(seat.player_id, "") or "" for seat in seats]
    if any(colour not in COLOURS for colour in chosen if colour):
        raise RoundError("colours", "Couleurs : couleur de jetons inconnue.")
    picked = [colour for colour in chosen if colour]
    if len(set(picked)) != len(picked):
        raise RoundError("colours", "Couleurs : deux joueurs ont les mêmes jetons.")
    changed = [seat for seat, colour in zip(seats, chosen, strict=True) if seat.colour != colour]
    if not changed:
        return []
    bump(round_)
    with _author(user):
        # Free the colours first so that two players can swap theirs (one colour per seat).
        Seat.objects.filter(pk__in=[seat.pk for seat in changed]).update(colour="")
        for seat in changed:
            seat.colour = colours.get(seat.player_id, "") or ""
            seat._change_reason = reason or "couleurs des jetons"
            seat.save(update_fields=["colour"])
    return changed


def next_round_number(season, stage=Round.REGULAR, table=""):
    last = Round.objects.filter(season=season, stage=stage, table=table).order_by("-number").first()
    return (last.number + 1) if last else 1


def seats_in_order(round_):
    return list(Seat.objects.filter(round=round_).select_related("player").order_by("position"))


def next_deal_number(round_):
    last = Deal.objects.filter(round=round_).order_by("-number").first()
    return (last.number + 1) if last else 1
