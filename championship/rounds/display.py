"""What a round looks like on a page: plain data built from the stored round and its scoring.

`round_display(round_)` returns a `RoundDisplay` made of dataclasses, strings, integers and
Decimals only (no model instances), read by the round page, the entry page and the report PDF.
Shares, pots and totals are the stored figures; the computation terms of each deal are
recomputed from `scoring` so that every figure can be explained.
"""

import re
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal

from django.utils.translation import gettext

from championship import labels
from championship.choices import CHIPS_LABELS, COLOUR_LABELS
from championship.models import ChampionshipLine, Deal, Round
from championship.rounds.data import score_stored_round, scored_from
from championship.rounds.history import round_history, who
from championship.rounds.paper import paper_check
from scoring.errors import ScoringError
from scoring.french import num
from scoring.round import running_totals
from scoring.vocabulary import (
    MAX_PLAYERS,
    PLAYOFF,
    QUEEN,
    SIDE_LABELS,
    SIDE_LABELS_WITH_ARTICLE,
    TABLE_SIZES,
    capfirst,
)

STATUS_LABELS = dict(Round.STATUSES)
RANK_CODE = "rank"  # the championship line of a player's rank at the table, not a bonus
# A rotation warning of the engine (scoring.round.check_rotation) names its deal first.
DEAL_WARNING = re.compile(r"^donne (\d+)[ \u00a0]: (.+)$")


def _with_warnings(rows, warnings):
    """Each deal row with the rotation warning about its dealer, shown next to the deal."""
    about = {}
    for warning in warnings:
        if match := DEAL_WARNING.match(warning):
            about[int(match[1])] = match[2]
    return [replace(row, warning=about[row.number]) if row.number in about else row for row in rows]


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
    chips_label: str  # « jetons blancs »
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
    partner_label: str  # « sans partenaire » when the taker played alone at 5
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
    warning: str = ""  # the rotation warning about this deal's dealer, if any

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
class BonusLine:
    """A bonus or malus of the round, the same on every page (its own, the report, the PDF)."""

    player: str
    label: str
    points: int
    deal_number: int | None = None


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
    bonuses: tuple  # BonusLine (see bonus_lines)
    warnings: tuple
    has_championship_points: bool
    error: str = ""  # set when the stored round no longer scores (e.g. the rulebook changed)
    history: tuple = field(default=())
    paper: object = None  # PaperCheck: the paper sheet's totals against the computed ones

    @property
    def seat_count(self):
        return len(self.seats)

    @property
    def board(self):
        """(SeatRow, figure) per seat, the score cards of the entry page: while the round is a
        draft, the running total after its last deal (the grid's last figure, the pot still in
        play); once submitted, the round's total (the pot paid back)."""
        if self.status != Round.DRAFT or self.totals_only or not self.deals:
            return tuple((seat, seat.total) for seat in self.seats)
        return tuple(zip(self.seats, self.deals[-1].running, strict=True))

    @property
    def seats_with_refund(self):
        """(SeatRow, pot refund) per seat, in seat order."""
        return tuple(zip(self.seats, self.pot_refund, strict=True))

    @property
    def pot_track(self):
        """(deal number, pot after the deal) of each deal: the pot's chart
        (`championship.rounds.pot_chart`) and its figures."""
        return tuple((deal.number, deal.pot_after) for deal in self.deals)


def stage_label(round_):
    label = labels.stage(round_.stage)
    if round_.stage == PLAYOFF:
        return gettext("%(stage)s, table %(table)s") % {"stage": label, "table": round_.table}
    return label


def round_title(round_):
    """« Manche 3 », « Play-off, table A — manche 1 », in the active language."""
    if round_.stage == Round.REGULAR:
        return gettext("Manche %(number)s") % {"number": round_.number}
    return gettext("%(stage)s — manche %(number)s") % {"stage": stage_label(round_), "number": round_.number}


def result_label(made, diff):
    if made is None:
        return ""
    if diff == 0:
        return gettext("juste faite")
    if made:
        return gettext("faite de %(diff)s") % {"diff": diff}
    return gettext("chutée de %(diff)s") % {"diff": abs(diff)}


def deal_summary(deal, names, made, diff):
    dealer = names.get(deal.dealer_id, "?")
    if deal.kind != Deal.PLAYED:
        return gettext("%(kind)s (donneur %(dealer)s)") % {
            "kind": capfirst(labels.kind(deal.kind)),
            "dealer": dealer,
        }
    taker = names.get(deal.taker_id, "?")
    values = {"contract": labels.contract(deal.contract), "of_taker": labels.of_player(taker), "taker": taker}
    text = gettext("%(contract)s %(of_taker)s") % values
    if deal.partner_id:
        text = gettext("%(contract)s %(of_taker)s avec %(partner)s") % {
            **values,
            "partner": names.get(deal.partner_id, "?"),
        }
    elif deal.called:
        text = gettext("%(contract)s %(of_taker)s, sans partenaire") % values
    outcome = result_label(made, diff)
    return f"{text}, {outcome}" if outcome else text


def announces(deal, names):
    lines = []
    for item in deal.poignees:
        lines.append(labels.poignee_of(item["size"], names.get(item["player"], "?")))
    for player_id in deal.miseres:
        lines.append(labels.misere_of(names.get(player_id, "?")))
    if deal.petit_au_bout:
        lines.append(gettext("Petit au bout (%(side)s)") % {"side": gettext(SIDE_LABELS[deal.petit_au_bout])})
    if deal.chelem_announced:
        lines.append(gettext("Chelem annoncé"))
    if deal.chelem_made_by:
        side = gettext(SIDE_LABELS_WITH_ARTICLE[deal.chelem_made_by])
        lines.append(gettext("Chelem réalisé par %(side)s") % {"side": side})
    return tuple(lines)


def _pot_terms(outcome, players):
    terms = []
    antes = {name: amount for name, amount in outcome.antes.items() if amount}
    if antes and len(antes) == len(players):
        ante = next(iter(antes.values()))
        terms.append(Term(gettext("Pot vide : chacun mise %(ante)s") % {"ante": ante}, sum(antes.values())))
    else:
        for name, amount in antes.items():
            terms.append(Term(gettext("Mise du donneur %(dealer)s") % {"dealer": name}, amount))
    for name, amount in outcome.penalty.items():
        if amount:
            terms.append(Term(gettext("Pénalité de fausse donne (%(player)s)") % {"player": name}, amount))
    for name, amount in outcome.pot_won.items():
        if amount:
            terms.append(Term(gettext("Pot gagné par %(player)s") % {"player": name}, amount))
    terms.append(Term(gettext("Pot après la donne"), outcome.pot_after))
    return terms


def _deal_rows(deals, seats, names, scored):
    outcomes = scored.result.deals if scored is not None else [None] * len(deals)
    # The running totals are the scoring's (`scoring.round.running_totals`), the preview's too;
    # a round that no longer scores shows only its stored shares, added up.
    afters = running_totals(scored.result) if scored is not None else [None] * len(deals)
    running = dict.fromkeys((seat.player_id for seat in seats), 0)
    rows = []
    for deal, outcome, after in zip(deals, outcomes, afters, strict=True):
        terms = []
        if outcome is not None:
            terms = [Term(labels.term_label(term), term.value) for term in outcome.result.terms]
            terms += _pot_terms(outcome, [names[seat.player_id] for seat in seats])
        for seat in seats:
            running[seat.player_id] = (
                after[names[seat.player_id]]
                if after is not None
                else running[seat.player_id] + deal.share_of(seat.player_id)
            )
        diff = outcome.result.diff if outcome is not None else None
        rows.append(
            DealRow(
                number=deal.number,
                kind=deal.kind,
                kind_label=capfirst(labels.kind(deal.kind)),
                dealer=names.get(deal.dealer_id, "?"),
                taker=names.get(deal.taker_id, ""),
                contract=deal.contract,
                contract_label=labels.contract(deal.contract) if deal.contract else "",
                called_label=_called_label(deal),
                partner_label=names.get(deal.partner_id, "")
                if deal.partner_id
                else (
                    gettext("sans partenaire")
                    if deal.kind == Deal.PLAYED and len(seats) == MAX_PLAYERS
                    else ""
                ),
                bouts=deal.bouts,
                points=deal.points,
                points_label=num(deal.points),
                made=deal.made,
                diff=diff,
                result_label=result_label(deal.made, diff),
                unit=deal.unit,
                summary=deal_summary(deal, names, deal.made, diff),
                announces=announces(deal, names),
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
    suit = labels.suit(deal.called)
    if deal.called_rank == QUEEN:
        return gettext("Dame de %(suit)s") % {"suit": suit}
    return gettext("Roi de %(suit)s") % {"suit": suit}


def _stored_lines(round_, computed=None):
    """The round's championship lines in their order (`computed`: the lines a write has just
    stored; else read)."""
    if computed is None:
        computed = ChampionshipLine.objects.filter(round=round_).select_related("player").order_by("order")
    return list(computed)


def _championship_points(stored):
    """Player id → [(label, points)] of the round's championship lines."""
    lines = {}
    for line in stored:
        lines.setdefault(line.player_id, []).append((labels.line_label(line.code, line.label), line.points))
    return lines


def bonus_lines(stored, adjustments, names):
    """The round's bonuses and maluses, one source for every page: once the round gives its
    championship points (at homologation), its stored lines but the points of its ranking, the
    automatic ones (a garde sans beaten in defence, an honourable defeat…) with those entered;
    before, the adjustments entered so far (the automatic ones are computed at homologation)."""
    if stored:
        return tuple(
            BonusLine(
                names.get(line.player_id) or line.player.name,
                labels.line_label(line.code, line.label),
                line.points,
                line.deal_number,
            )
            for line in stored
            if line.code != RANK_CODE
        )
    return tuple(
        BonusLine(row.player, f"{row.label} — {row.note}" if row.note else row.label, row.points)
        for row in adjustments
    )


def _adjustments(round_, data, wanted):
    if not wanted:
        return []
    if data is not None and data.adjustments is not None:
        return data.adjustments
    return round_.adjustments.select_related("player", "entered_by__player")


def _scored(round_, seats, deals, data):
    """The round scored (the write's result if `data` holds it for these inputs), and the
    error that stops it scoring ("" if none)."""
    if data is not None and (scored := scored_from(data.scored, round_, seats, deals)):
        return scored, ""
    if len(seats) not in TABLE_SIZES:
        return None, ""
    try:
        return score_stored_round(round_, deals=deals, seats=seats), ""
    except ScoringError as exc:
        return None, gettext("La manche ne se calcule plus : %(error)s") % {"error": exc}


def round_display(round_, *, history=False, data=None, adjustments=True):
    """The display data of a round (see the module docstring); `history=True` adds its history.

    `data`: the round as the view (or the write it called) read it (`rounds.data.read_round_data`:
    seats, deals, adjustments, and the championship lines when a write computed them); what it
    lacks is read here. `adjustments=False` leaves the adjustments out (a page part that does
    not show them)."""
    if data is None:
        seats = list(round_.seats.select_related("player").order_by("position"))
        deals = [] if round_.totals_only else list(round_.deals.order_by("number"))
    else:
        seats, deals = list(data.seats), ([] if round_.totals_only else list(data.deals))
    names = {seat.player_id: seat.player.name for seat in seats}
    scored, error = _scored(round_, seats, deals, data)
    stored = _stored_lines(round_, data.lines if data is not None else None)
    lines = _championship_points(stored)
    seat_rows = [
        SeatRow(
            player_id=seat.player_id,
            name=seat.player.name,
            position=seat.position + 1,
            colour=seat.colour,
            colour_label=str(COLOUR_LABELS.get(seat.colour, "")),
            chips_label=str(CHIPS_LABELS.get(seat.colour, "")),
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
    deal_rows = _with_warnings(deal_rows, round_.warnings or ())
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
            entered_by=who(adjustment.entered_by),
        )
        for adjustment in _adjustments(round_, data, adjustments)
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
        bonuses=bonus_lines(stored, adjustments, names),
        warnings=tuple(round_.warnings or ()),
        has_championship_points=bool(lines),
        error=error,
        history=tuple(round_history(round_)) if history else (),
        paper=paper_check(round_.paper_totals, seat_rows, deal_rows),
    )
