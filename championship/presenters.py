"""What a round looks like on a page: plain data built from the stored round and its scoring.

`round_display(round_)` returns a `RoundDisplay` made of dataclasses, strings, integers and
Decimals only (no model instances), read by the round page, the entry page and the report PDF.
Shares, pots and totals are the stored figures; the computation terms of each deal are
recomputed from `scoring` so that every figure can be explained.
"""

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from championship.models import COLOURS, Adjustment, ChampionshipLine, Deal, Round, Seat
from championship.services import score_stored_round
from federation.models import Player
from scoring.errors import ScoringError
from scoring.french import num, of_name, signed
from scoring.vocabulary import (
    CONTRACT_LABELS,
    KIND_LABELS,
    MAX_PLAYERS,
    PLAYOFF,
    QUEEN,
    SIDE_LABELS,
    SIDE_LABELS_WITH_ARTICLE,
    STAGE_LABELS,
    SUIT_LABELS,
    TABLE_SIZES,
    capfirst,
    poignee_name,
)

COLOUR_LABELS = dict(COLOURS)
STATUS_LABELS = dict(Round.STATUSES)
# Fields written by the scoring (and the version every write raises), left out of the history.
COMPUTED_FIELDS = {
    Round: ["warnings", "pot_left", "homologated_at", "homologated_by", "created_at", "version"],
    Seat: ["rank", "tied"],
    Deal: ["unit", "made", "shares", "pot_after"],
    Adjustment: ["created_at", "entered_by"],
}


@dataclass(frozen=True)
class Term:
    label: str
    value: object  # an int, or a string


@dataclass(frozen=True)
class SeatRow:
    player_id: int
    name: str
    position: int  # 1-based
    colour: str
    colour_label: str
    total: int | None
    rank: int | None
    tied: bool
    championship_points: int | None = None
    championship_lines: tuple = ()  # (label, points) pairs


@dataclass(frozen=True)
class DealRow:
    number: int
    kind: str
    kind_label: str
    dealer: str
    taker: str
    contract: str
    contract_label: str
    called_label: str
    partner_label: str  # "seul" when the taker played alone
    bouts: int | None
    points: Decimal | None
    points_label: str
    made: bool | None
    diff: int | None
    result_label: str
    unit: int
    summary: str
    announces: tuple  # French strings: poignées, misères, petit au bout, chelem
    shares: tuple  # one int per seat, in seat order
    running: tuple  # running totals per seat after this deal (pot moves included, refund excluded)
    pot_after: int
    terms: tuple  # Term lines of the computation, pot moves included

    @property
    def cells(self):
        """(share, running total) per seat, in seat order."""
        return tuple(zip(self.shares, self.running, strict=True))


@dataclass(frozen=True)
class AdjustmentRow:
    pk: int
    player: str
    code: str
    label: str
    points: int
    note: str
    entered_by: str


@dataclass(frozen=True)
class HistoryEntry:
    when: datetime
    who: str
    why: str
    changes: tuple  # French lines


@dataclass(frozen=True)
class RoundDisplay:
    pk: int
    season: str
    stage: str
    stage_label: str
    table: str
    number: int
    title: str
    date: date
    place: str
    status: str
    status_label: str
    totals_only: bool
    seats: tuple
    deals: tuple
    ranking: tuple  # SeatRow sorted by rank
    pot_left: int
    pot_refund: tuple  # per seat, in seat order
    totals: tuple  # per seat, in seat order
    adjustments: tuple
    warnings: tuple
    has_championship_points: bool
    error: str = ""  # set when the stored round no longer scores (e.g. the rulebook changed)
    history: tuple = field(default=())

    @property
    def seat_count(self):
        return len(self.seats)

    @property
    def seats_with_refund(self):
        """(SeatRow, pot refund) per seat, in seat order."""
        return tuple(zip(self.seats, self.pot_refund, strict=True))

    @property
    def pot_track(self):
        """(deal number, pot after, height in % of the largest pot) for a small bar chart."""
        largest = max((deal.pot_after for deal in self.deals), default=0) or 1
        return tuple(
            (deal.number, deal.pot_after, round(100 * deal.pot_after / largest)) for deal in self.deals
        )


def stage_label(round_):
    label = capfirst(STAGE_LABELS.get(round_.stage, round_.stage))
    return f"{label}, table {round_.table}" if round_.stage == PLAYOFF else label


def round_title(round_):
    if round_.stage == Round.REGULAR:
        return f"Manche {round_.number}"
    return f"{stage_label(round_)} — manche {round_.number}"


def result_label(made, diff):
    if made is None:
        return ""
    if diff == 0:
        return "juste faite"
    if made:
        return f"faite de {diff}"
    return f"chutée de {abs(diff)}"


def _deal_summary(deal, names, made, diff):
    dealer = names.get(deal.dealer_id, "?")
    if deal.kind != Deal.PLAYED:
        return f"{capfirst(KIND_LABELS[deal.kind])} (donneur {dealer})"
    taker = names.get(deal.taker_id, "?")
    text = f"{CONTRACT_LABELS.get(deal.contract, deal.contract)} {of_name(taker)}"
    if deal.partner_id:
        text += f" avec {names.get(deal.partner_id, '?')}"
    elif deal.called:
        text += " seul"
    outcome = result_label(made, diff)
    return f"{text}, {outcome}" if outcome else text


def _announces(deal, names):
    lines = []
    for item in deal.poignees:
        lines.append(f"{poignee_name(item['size'])} {of_name(names.get(item['player'], '?'))}")
    for player_id in deal.miseres:
        lines.append(f"Misère {of_name(names.get(player_id, '?'))}")
    if deal.petit_au_bout:
        lines.append(f"Petit au bout ({SIDE_LABELS[deal.petit_au_bout]})")
    if deal.chelem_announced:
        lines.append("Chelem annoncé")
    if deal.chelem_made_by:
        lines.append(f"Chelem réalisé par {SIDE_LABELS_WITH_ARTICLE[deal.chelem_made_by]}")
    return tuple(lines)


def _pot_terms(outcome, players):
    terms = []
    antes = {name: amount for name, amount in outcome.antes.items() if amount}
    if antes and len(antes) == len(players):
        terms.append(Term(f"Pot vide : chacun mise {next(iter(antes.values()))}", sum(antes.values())))
    else:
        for name, amount in antes.items():
            terms.append(Term(f"Mise du donneur {name}", amount))
    for name, amount in outcome.penalty.items():
        if amount:
            terms.append(Term(f"Pénalité de fausse donne ({name})", amount))
    for name, amount in outcome.pot_won.items():
        if amount:
            terms.append(Term(f"Pot gagné par {name}", amount))
    terms.append(Term("Pot après la donne", outcome.pot_after))
    return terms


def _deal_rows(deals, seats, names, scored):
    outcomes = scored.result.deals if scored is not None else [None] * len(deals)
    running = dict.fromkeys((seat.player_id for seat in seats), 0)
    rows = []
    for deal, outcome in zip(deals, outcomes, strict=True):
        terms = []
        if outcome is not None:
            terms = [Term(term.label, term.value) for term in outcome.result.terms]
            terms += _pot_terms(outcome, [names[seat.player_id] for seat in seats])
        for seat in seats:
            running[seat.player_id] += deal.share_of(seat.player_id)
            if outcome is not None:
                name = names[seat.player_id]
                running[seat.player_id] += outcome.pot_won[name] - outcome.antes[name] - outcome.penalty[name]
        diff = outcome.result.diff if outcome is not None else None
        rows.append(
            DealRow(
                number=deal.number,
                kind=deal.kind,
                kind_label=capfirst(KIND_LABELS.get(deal.kind, deal.kind)),
                dealer=names.get(deal.dealer_id, "?"),
                taker=names.get(deal.taker_id, ""),
                contract=deal.contract,
                contract_label=CONTRACT_LABELS.get(deal.contract, ""),
                called_label=_called_label(deal),
                partner_label=names.get(deal.partner_id, "")
                if deal.partner_id
                else ("seul" if deal.kind == Deal.PLAYED and len(seats) == MAX_PLAYERS else ""),
                bouts=deal.bouts,
                points=deal.points,
                points_label=num(deal.points),
                made=deal.made,
                diff=diff,
                result_label=result_label(deal.made, diff),
                unit=deal.unit,
                summary=_deal_summary(deal, names, deal.made, diff),
                announces=_announces(deal, names),
                shares=tuple(deal.share_of(seat.player_id) for seat in seats),
                running=tuple(running[seat.player_id] for seat in seats),
                pot_after=deal.pot_after,
                terms=tuple(terms),
            )
        )
    return rows


def _called_label(deal):
    if not deal.called:
        return ""
    suit = SUIT_LABELS.get(deal.called, deal.called)
    if deal.called_rank == QUEEN:
        return f"Dame de {suit}"
    return f"Roi de {suit}"


def _championship_points(round_):
    lines = {}
    for line in ChampionshipLine.objects.filter(round=round_).order_by("order"):
        lines.setdefault(line.player_id, []).append((line.label, line.points))
    return lines


def round_display(round_, *, history=False):
    """The display data of a round (see the module docstring); `history=True` adds its history."""
    seats = list(round_.seats.select_related("player").order_by("position"))
    names = {seat.player_id: seat.player.name for seat in seats}
    deals = [] if round_.totals_only else list(round_.deals.order_by("number"))
    error = ""
    scored = None
    try:
        scored = score_stored_round(round_, deals=deals) if len(seats) in TABLE_SIZES else None
    except ScoringError as exc:
        error = f"La manche ne se calcule plus : {exc}"
    lines = _championship_points(round_)
    seat_rows = [
        SeatRow(
            player_id=seat.player_id,
            name=seat.player.name,
            position=seat.position + 1,
            colour=seat.colour,
            colour_label=str(COLOUR_LABELS.get(seat.colour, "")),
            total=seat.total,
            rank=seat.rank,
            tied=seat.tied,
            championship_points=sum(points for _label, points in lines[seat.player_id])
            if seat.player_id in lines
            else None,
            championship_lines=tuple(lines.get(seat.player_id, ())),
        )
        for seat in seats
    ]
    deal_rows = _deal_rows(deals, seats, names, scored if deals else None)
    refund = scored.result.pot_refund if scored is not None and deals else {}
    catalogue = {entry.code: entry.label for entry in round_.season.rulebook.championship.catalogue}
    adjustments = [
        AdjustmentRow(
            pk=adjustment.pk,
            player=adjustment.player.name,
            code=adjustment.code,
            label=catalogue.get(adjustment.code, adjustment.code),
            points=adjustment.points,
            note=adjustment.note,
            entered_by=_who(adjustment.entered_by),
        )
        for adjustment in round_.adjustments.select_related("player", "entered_by__player")
    ]
    ranking = sorted(seat_rows, key=lambda row: (row.rank or 99, row.position))
    return RoundDisplay(
        pk=round_.pk,
        season=round_.season.name,
        stage=round_.stage,
        stage_label=stage_label(round_),
        table=round_.table,
        number=round_.number,
        title=round_title(round_),
        date=round_.date,
        place=round_.place,
        status=round_.status,
        status_label=str(STATUS_LABELS[round_.status]),
        totals_only=round_.totals_only,
        seats=tuple(seat_rows),
        deals=tuple(deal_rows),
        ranking=tuple(ranking),
        pot_left=round_.pot_left,
        pot_refund=tuple(refund.get(names[seat.player_id], 0) for seat in seats),
        totals=tuple(seat.total for seat in seats),
        adjustments=tuple(adjustments),
        warnings=tuple(round_.warnings or ()),
        has_championship_points=bool(lines),
        error=error,
        history=tuple(round_history(round_)) if history else (),
    )


# --- history -------------------------------------------------------------------------------------


def _who(user):
    if user is None:
        return "—"
    player = getattr(user, "player", None)
    return player.name if player is not None else user.get_username()


class _Describer:
    """French lines describing historical records of one round."""

    def __init__(self, round_):
        self.catalogue = {entry.code: entry for entry in round_.season.rulebook.championship.catalogue}
        self.players = {}

    def load_players(self, ids):
        missing = {pk for pk in ids if pk is not None and pk not in self.players}
        if missing:
            self.players.update(Player.objects.in_bulk(missing))

    def player(self, pk):
        player = self.players.get(pk)
        return player.name if player is not None else "—"

    def value(self, model, name, value):
        if value in (None, "", [], {}):
            return "—"
        if name in ("dealer", "taker", "partner", "player"):
            return self.player(value)
        if name == "poignees":
            return ", ".join(
                f"{poignee_name(i['size'])} {of_name(self.player(i['player']))}" for i in value
            )
        if name == "miseres":
            return ", ".join(self.player(pk) for pk in value)
        if name == "position":
            return str(value + 1)
        if isinstance(value, bool):
            return "oui" if value else "non"
        model_field = model._meta.get_field(name)
        if model_field.choices:
            return str(dict(model_field.flatchoices).get(value, value))
        if isinstance(value, int | Decimal):
            return num(value)
        return str(value)

    def subject(self, model, record):
        if model is Deal:
            return f"Donne {record.number}"
        if model is Seat:
            return self.player(record.player_id)
        if model is Adjustment:
            entry = self.catalogue.get(record.code)
            label = entry.label if entry else record.code
            return f"{label} ({signed(record.points)}) pour {self.player(record.player_id)}"
        return "Manche"

    def created(self, model, record):
        subject = self.subject(model, record)
        if model is Round:
            return "Manche créée" + (" (totaux seuls)" if record.totals_only else "")
        if model is Deal:
            return f"{subject} ajoutée ({KIND_LABELS.get(record.kind, record.kind)})"
        if model is Seat:
            colour = f", jetons {COLOUR_LABELS[record.colour]}" if record.colour else ""
            total = f", total {num(record.total)}" if record.total is not None else ""
            return f"{subject} assis à la place {record.position + 1}{colour}{total}"
        note = f" — {record.note}" if record.note else ""
        return f"Bonus/malus ajouté : {subject}{note}"

    def deleted(self, model, record):
        if model is Deal:
            return f"{self.subject(model, record)} supprimée"
        if model is Adjustment:
            return f"Bonus/malus supprimé : {self.subject(model, record)}"
        if model is Seat:
            return f"{self.subject(model, record)} retiré de la table"
        return "Manche supprimée"

    def changed(self, model, record, previous):
        """(text or None, total change or None) for an update of a record."""
        delta = record.diff_against(previous, excluded_fields=COMPUTED_FIELDS[model])
        parts, total = [], None
        for change in delta.changes:
            if model is Seat and change.field == "total":
                total = (self.player(record.player_id), change.old, change.new)
                continue
            label = str(model._meta.get_field(change.field).verbose_name)
            old = self.value(model, change.field, change.old)
            new = self.value(model, change.field, change.new)
            parts.append(f"{label} {old} → {new}")
        text = f"{self.subject(model, record)} : " + " ; ".join(parts) if parts else None
        return text, total


def _records(round_):
    models = [
        (Round, Round.history.filter(id=round_.pk)),
        (Seat, Seat.history.filter(round_id=round_.pk)),
        (Deal, Deal.history.filter(round_id=round_.pk)),
        (Adjustment, Adjustment.history.filter(round_id=round_.pk)),
    ]
    for model, queryset in models:
        records = queryset.select_related("history_user__player").order_by("id", "history_date", "history_id")
        yield model, list(records)


def _player_ids(records):
    ids = set()
    for record in records:
        for name in ("dealer_id", "taker_id", "partner_id", "player_id"):
            ids.add(getattr(record, name, None))
        for item in getattr(record, "poignees", None) or []:
            ids.add(item.get("player"))
        ids.update(getattr(record, "miseres", None) or [])
    return ids


def _history_lines(round_):
    """(when, user, why, text, total change) per meaningful historical record."""
    describer = _Describer(round_)
    loaded = list(_records(round_))
    describer.load_players(set().union(*(_player_ids(records) for _model, records in loaded)))
    lines = []
    for model, records in loaded:
        previous = None
        for record in records:
            text, total = None, None
            if record.history_type == "+":
                text = describer.created(model, record)
            elif record.history_type == "-":
                text = describer.deleted(model, record)
            elif previous is not None and previous.id == record.id:
                text, total = describer.changed(model, record, previous)
            if text or total:
                why = record.history_change_reason or ""
                lines.append((record.history_date, record.history_user, why, text, total))
            previous = record
    lines.sort(key=lambda line: line[0])
    return lines


def round_history(round_, window_seconds=10):
    """History entries of a round, most recent first: who, when, what changed, why.

    Records saved together (same user, a few seconds apart, same reason or an automatic
    "recalcul") form one entry; the seat totals they changed are summed up in one line.
    """
    entries = []
    for when, user, why, text, total in _history_lines(round_):
        last = entries[-1] if entries else None
        joins = (
            last is not None
            and last["user"] == user
            and (why == last["why"] or why == "recalcul")
            and (when - last["when"]).total_seconds() <= window_seconds
        )
        if not joins:
            last = {"when": when, "user": user, "why": why, "changes": [], "totals": {}}
            entries.append(last)
        last["when"] = when
        if text:
            last["changes"].append(text)
        if total:
            name, old, new = total
            first_old = last["totals"].get(name, (old, new))[0]
            last["totals"][name] = (first_old, new)
    result = []
    for entry in reversed(entries):
        changes = list(entry["changes"])
        moved = [(name, old, new) for name, (old, new) in entry["totals"].items() if old != new]
        if moved:
            changes.append(
                "Totaux : "
                + ", ".join(
                    f"{name} {num(old) or '—'} → {num(new)}" for name, old, new in moved
                )
            )
        if changes:
            result.append(HistoryEntry(entry["when"], _who(entry["user"]), entry["why"], tuple(changes)))
    return result
