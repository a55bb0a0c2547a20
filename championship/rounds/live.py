"""The live view of a round for the table: what the players follow on their phones while the
secretary enters the deals (running totals, the pot, the next dealer, the last deals, the
table's sign-off), and the stamp a poll compares to know whether anything changed.

The figures are the stored ones (`rounds.display.round_display`), the next dealer the rotation's
(`rounds.data.next_dealer`): nothing is computed here.
"""

from dataclasses import dataclass

from django.db.models import Count, Max, OuterRef, Subquery

from championship.models import Round, Signoff
from championship.rounds.data import next_dealer, read_round_data
from championship.rounds.display import round_display
from championship.rounds.signoffs import table_signoffs

LAST_DEALS = 3  # how many of the last deals the live view lists, newest first


def with_stamp(rounds):
    """`rounds` annotated with what their stamp (`stamp_of`) depends on besides their version and
    status: their sign-offs' count and last time (two subqueries, no join)."""
    signoffs = Signoff.objects.filter(round=OuterRef("pk")).order_by().values("round")
    return rounds.annotate(
        signoffs_count=Subquery(signoffs.annotate(count=Count("pk")).values("count")),
        last_signoff=Subquery(signoffs.annotate(last=Max("signed_at")).values("last")),
    )


def stamp_of(row):
    """The stamp of a round read through `with_stamp`: its version (raised by every write of the
    round), its status, and its sign-offs (count and last time)."""
    moment = int(row.last_signoff.timestamp() * 1000) if row.last_signoff else 0
    return f"{row.version}-{row.status[0]}-{row.signoffs_count or 0}-{moment}"


def live_stamp(pk):
    """What the live view of round `pk` shows depends on (`stamp_of`), in one query; None if the
    round does not exist. A poll sent with the stamp it has is answered « unchanged »."""
    row = with_stamp(Round.objects.filter(pk=pk).only("version", "status")).first()
    return stamp_of(row) if row is not None else None


@dataclass(frozen=True)
class LiveView:
    stamp: str
    display: object  # rounds.display.RoundDisplay
    last_deals: tuple  # (DealRow, ((SeatRow, share), …)) of the last deals, newest first
    next_dealer: str  # a name, "" when the round takes no more deals
    signoffs: object  # rounds.signoffs.TableSignoffs


def live_view(round_, stamp):
    """The live view of `round_` as read now, under `stamp` (`live_stamp`, read just before)."""
    data = read_round_data(round_)
    display = round_display(round_, data=data)
    dealer = ""
    if round_.status == Round.DRAFT and not round_.totals_only:
        dealer_id = next_dealer(data.seats, data.deals)
        dealer = next((seat.player.name for seat in data.seats if seat.player_id == dealer_id), "")
    return LiveView(
        stamp=stamp,
        display=display,
        last_deals=tuple(
            (deal, tuple(zip(display.seats, deal.shares, strict=True)))
            for deal in reversed(display.deals[-LAST_DEALS:])
        ),
        next_dealer=dealer,
        signoffs=table_signoffs(round_, data.seats),
    )
