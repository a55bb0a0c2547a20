"""Reads of the calendar: the nights still to come, who answered what, whether a table is on,
who has a seat and who waits (`seating`, docs/calendrier.md, « La liste d'attente »).

`remaining_regular_rounds` counts the regular nights of the season from today on, neither
cancelled nor already with their round; a season with no night on its calendar at all keeps the
count typed before the calendar existed (`Season.remaining_rounds`, see docs/calendrier.md).
`Calendar` is what the competition reads of it (`championship.lib.calendar`, registered by
`gamenights.apps`): those nights as rounds with who may sit (the play-off outlook,
docs/regles.md §6.4), and a member's next night (« Moi »).
"""

from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.utils import timezone

from championship.lib import calendar
from championship.models import Round, Seat
from federation.models import Season
from gamenights import cup as cup_nights
from gamenights.models import QUORUM, GameNight, Rsvp
from scoring.seating import table_sizes

NIGHTS_LOOKED_AT = 5  # « Moi »: the next nights read to find his (a cup night may not be his)


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


def coming_rounds(season, today=None):
    """The regular rounds still on the calendar of `season` (`championship.lib.calendar.ComingRound`,
    docs/regles.md §6.4): a night to come, neither cancelled nor with its round, is one round open
    to every active player until its table is on; once on, its « je viens » are its only possible
    players, at as many tables as they fill (`scoring.seating.table_sizes`: nine answers are a
    table of 5 and one of 4, seven are one table of 5 that two of them will leave). A season with
    no night keeps its typed count. Two queries."""
    today = today or timezone.localdate()
    every = list(
        with_round(GameNight.objects.filter(season=season))
        .order_by("date", "time", "pk")
        .values_list("pk", "stage", "date", "cancelled", "has_round")
    )
    if not every:
        return [calendar.ComingRound()] * season.remaining_rounds
    nights = [
        pk
        for pk, stage, date, cancelled, has_round in every
        if stage == GameNight.REGULAR and date >= today and not cancelled and not has_round
    ]
    comers = {pk: [] for pk in nights}
    answers = Rsvp.objects.filter(night__in=nights, answer=Rsvp.YES, player__active=True)
    for night_pk, player_pk in answers.values_list("night_id", "player_id") if nights else ():
        comers[night_pk].append(player_pk)
    found = []
    for pk in nights:
        if len(comers[pk]) < QUORUM:
            found.append(calendar.ComingRound(night=pk))
            continue
        sizes, _seated = table_sizes(len(comers[pk]))
        found += [calendar.ComingRound(size, frozenset(comers[pk]), pk) for size in sizes]
    return found


def next_night(season, player, today=None):
    """`player`'s next night of `season` (not cancelled; a cup night only when the cup sends
    him), with `my_answer` (his answer's code, or None) and `my_answer_label` (its words)."""
    mine = Rsvp.objects.filter(night=OuterRef("pk"), player=player).values("answer")[:1]
    nights = upcoming(GameNight.objects.filter(season=season, cancelled=False), today).annotate(
        my_answer=Subquery(mine)
    )
    for night in nights[:NIGHTS_LOOKED_AT]:
        if night.stage == GameNight.REGULAR or player in cup_nights.players_of(night):
            night.my_answer_label = dict(Rsvp.ANSWERS)[night.my_answer] if night.my_answer else ""
            return night
    return None


class Calendar:
    """The reader that `gamenights.apps` registers in `championship.lib.calendar`."""

    def coming_rounds(self, season, today):
        return coming_rounds(season, today)

    def next_night(self, season, player, today):
        return next_night(season, player, today)


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


@dataclass
class Seating:
    """Who has a seat at a regular night and who waits for one, in order (docs/calendrier.md,
    « La liste d'attente »). Computed at every read, never stored: a « je ne viens plus » gives
    its seat to the next at once."""

    seated: list = field(default_factory=list)  # players
    waiting: list = field(default_factory=list)  # players, the next to be seated first

    def has_seat(self, player):
        return _pk(player) in {_pk(seated) for seated in self.seated}

    def place_of(self, player):
        """0: `player` has a seat; n: he is n-th on the waiting list; None: neither."""
        if player is None:
            return None
        return 0 if self.has_seat(player) else self.position(player)

    def position(self, player):
        """`player`'s place on the waiting list (1: the next to be seated), else None."""
        for place, waiting in enumerate(self.waiting, start=1):
            if _pk(waiting) == _pk(player):
                return place
        return None


def _pk(player):
    return getattr(player, "pk", player)


def split(comers):
    """The `Seating` of `comers` (players or their pks) in the order they said « je viens »: the
    first as many as tables of 4 or 5 seat (`scoring.seating.table_sizes`) have a seat, the
    others wait in that order; under four, no table yet and no one waits."""
    _sizes, seats = table_sizes(len(comers))
    return Seating(list(comers[:seats]), list(comers[seats:])) if seats else Seating()


def seating(night, found=None):
    """The seats of `night` (`found`: its `answers`, when already read): `split` of the active
    players who said « je viens », in the order they said it (`Rsvp.answered_at`, which an
    unchanged « je viens » does not move, `services.answer`). A night of the cup seats its convoked players
    (`gamenights.cup`), whatever the answers: no seat nor list here."""
    if night.stage != GameNight.REGULAR:
        return Seating()
    found = found or answers(night)
    return split([rsvp.player for rsvp in found.yes])


def seating_changes(before, after):
    """`(promoted, demoted)` from the `Seating` `before` to `after`: who waited and now has a
    seat, who had one and now waits (7 who come after 8: two tables of 4 are one of 5)."""
    promoted = [player for player in after.seated if before.position(player) is not None]
    demoted = [player for player in after.waiting if before.has_seat(player)]
    return promoted, demoted


# --- a member's own feed (gamenights.ical, docs/calendrier.md « Ce que contient son calendrier ») ---


def member_seasons(player):
    """The seasons of `player`'s own feed: the open seasons while he is active, and every season
    whose nights he answered or at whose rounds he sat (open or closed, active or not)."""
    mine = Q(pk__in=Rsvp.objects.filter(player=player).values("night__season")) | Q(
        pk__in=Seat.objects.filter(player=player).values("round__season")
    )
    if player.active:
        mine |= Q(is_open=True)
    return Season.objects.filter(mine)


def member_nights(player):
    """Every night of `player`'s seasons (cancelled ones too), in date order."""
    return (
        GameNight.objects.filter(season__in=member_seasons(player))
        .select_related("season")
        .order_by("date", "time", "pk")
    )


def places_of(player, nights):
    """`{night pk: place}` of `player` at the regular `nights` he comes to, as `Seating.place_of`
    says it (0: a seat; n: n-th on the waiting list), in one query."""
    comers = {}
    rows = (
        Rsvp.objects.filter(
            night__in=[night.pk for night in nights if night.stage == GameNight.REGULAR],
            answer=Rsvp.YES,
            player__active=True,
        )
        .order_by("answered_at", "pk")
        .values_list("night_id", "player_id")
    )
    for night_pk, player_pk in rows:
        comers.setdefault(night_pk, []).append(player_pk)
    places = {night_pk: split(pks).place_of(player.pk) for night_pk, pks in comers.items()}
    return {night_pk: place for night_pk, place in places.items() if place is not None}
