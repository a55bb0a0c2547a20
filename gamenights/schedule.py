"""Reads of the calendar: the nights still to come, who answered what, whether a table is on.

`remaining_regular_rounds` is what the play-off statuses count (`championship.cup`): the regular
nights of the season from today on, neither cancelled nor already with their round. A season with
no night on its calendar at all keeps the count typed before the calendar existed
(`Season.remaining_rounds`, see docs/calendrier.md).
"""

from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from championship.models import Round
from gamenights.models import QUORUM, GameNight, Rsvp


def with_round(nights):
    """`nights` annotated with `has_round`: a round of their season, date and stage exists."""
    return nights.annotate(
        has_round=Exists(
            Round.objects.filter(
                season=OuterRef("season"),
                date=OuterRef("date"),
                stage=OuterRef("stage"),
                table=OuterRef("table"),
            )
        )
    )


def remaining_regular_rounds(season, today=None):
    """Regular rounds still on the calendar of `season` (see the module's docstring), in one
    query: the play-off statuses ask it several times a page."""
    today = today or timezone.localdate()
    counts = with_round(GameNight.objects.filter(season=season)).aggregate(
        nights=Count("pk"),
        remaining=Count(
            "pk",
            filter=Q(stage=GameNight.REGULAR, date__gte=today, cancelled=False, has_round=False),
        ),
    )
    if not counts["nights"]:
        return season.remaining_rounds
    return counts["remaining"]


def upcoming(nights, today=None):
    """`nights` from `today` on (cancelled ones too, marked), the next first."""
    today = today or timezone.localdate()
    return (
        with_round(nights.filter(date__gte=today))
        .select_related("season", "host")
        .order_by("date", "time", "pk")
    )


def past(nights, today=None):
    today = today or timezone.localdate()
    return (
        with_round(nights.filter(date__lt=today))
        .select_related("season", "host")
        .order_by("-date", "-time", "-pk")
    )


@dataclass
class Answers:
    """The answers to one night, by kind, and whether the table is on."""

    yes: list = field(default_factory=list)
    no: list = field(default_factory=list)
    maybe: list = field(default_factory=list)
    quorum: int = QUORUM

    @property
    def table_is_on(self):
        return len(self.yes) >= self.quorum

    @property
    def missing(self):
        return max(self.quorum - len(self.yes), 0)

    def of(self, player):
        for rsvp in self.yes + self.no + self.maybe:
            if rsvp.player_id == getattr(player, "pk", None):
                return rsvp
        return None


def answers(night):
    """The answers of the active players to `night` (an inactive player's, given before, neither
    shows nor counts toward the quorum)."""
    found = Answers()
    for rsvp in (
        Rsvp.objects.filter(night=night, player__active=True)
        .select_related("player", "answered_by")
        .order_by("answered_at", "pk")
    ):
        getattr(found, rsvp.answer).append(rsvp)
    return found
