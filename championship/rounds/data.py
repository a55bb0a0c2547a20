"""A round read from the database: its stored inputs (`RoundData`), read once and passed
along (form → write → page), and the round scored from them (`ScoredRound`); the numbers of the
next round and the next deal. Reads only: every write is `championship.services`'.
"""

from dataclasses import dataclass

from championship.models import Deal, Round, Seat
from scoring.deal import DealInput, Poignee
from scoring.round import next_dealer as rotation_next
from scoring.round import score_round, totals_only_round

# A deal's input fields, as a form or a sheet gives them to `services.add_deal`.
DEAL_FIELDS = [
    "kind",
    "dealer",
    "taker",
    "contract",
    "called",
    "called_rank",
    "partner",
    "bouts",
    "points",
    "poignees",
    "miseres",
    "petit_au_bout",
    "chelem_announced",
    "chelem_made_by",
]


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
    then; a round that does not count for the championship has none). `scored`: the round
    scored from exactly these seats and deals, when a write has just scored it (None until
    then): the page shows it rather than scoring the round again."""

    seats: list
    deals: list
    adjustments: list | None
    version: int
    lines: list | None = None
    scored: "ScoredRound | None" = None


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


def scored_from(scored, round_, seats, deals):
    """`scored` if it is the round scored from exactly these seats and deals (same players in
    the same order, same inputs, the season's rulebook), else None: a result handed from one
    step to the next (form → write → page) is used only for the inputs it was computed from."""
    if scored is None or scored.round.pk != round_.pk or round_.totals_only:
        return None
    if [seat.player_id for seat in scored.seats] != [seat.player_id for seat in seats]:
        return None
    if list(scored.inputs) != [deal_input(deal, scored.names) for deal in deals]:
        return None
    rulebook = scored.round.season.rulebook
    return scored if rulebook is round_.season.rulebook or rulebook == round_.season.rulebook else None


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


def counts_for_championship(round_):
    return round_.status == Round.HOMOLOGATED and round_.stage == Round.REGULAR


def next_round_number(season, stage=Round.REGULAR, table=""):
    last = Round.objects.filter(season=season, stage=stage, table=table).order_by("-number").first()
    return (last.number + 1) if last else 1


def seats_in_order(round_):
    return list(Seat.objects.filter(round=round_).select_related("player").order_by("position"))


def next_dealer(seats, deals):
    """The player id of the next dealer (seats and deals in order): the first seat's to begin
    with, then by rotation after the last deal (`scoring.round.next_dealer`); None without seats."""
    if not seats:
        return None
    if not deals:
        return seats[0].player_id
    last = deals[-1]
    return rotation_next([seat.player_id for seat in seats], last.dealer_id, last.kind)


def next_deal_number(round_):
    last = Deal.objects.filter(round=round_).order_by("-number").first()
    return (last.number + 1) if last else 1
