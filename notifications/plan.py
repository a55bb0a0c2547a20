"""Which reminders are due on a day (reads only): who gets what, and why.

- ``night``: a night of an open season from ``today`` to ``NIGHT_DAYS_AHEAD`` days ahead, neither
  cancelled nor past its answers' deadline, to each active member with an e-mail address who has
  not answered it; once per night and date (a night moved to another date is reminded again);
- ``report_due``: a compte-rendu not filed whose deadline is at most ``REPORT_DAYS_AHEAD`` days
  ahead, to its author (the designated writer), once per deadline;
- ``report_late``: a compte-rendu still missing after its deadline, to its author, once per
  started week of lateness (docs/regles.md §5.5): the first the day after the deadline, the next
  ones each week as long as the malus grows (a round that costs a malus, a season not over: its
  lateness is counted up to the season's end, ``default_as_of``).

A member who turned a kind off (``ReminderPreference``) is left out. The run that sends them is
``notifications.sending``.
"""

import datetime
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef
from django.utils import timezone

from championship.reports.due import reports_due
from championship.standings.lateness import DUE, MISSING, late_report_line
from federation.models import Player, Season
from gamenights.models import GameNight, Rsvp
from notifications.models import NIGHT, REPORT_DUE, REPORT_LATE, ReminderPreference

NIGHT_DAYS_AHEAD = 3
REPORT_DAYS_AHEAD = 2


@dataclass
class Reminder:
    kind: str
    subject: object  # the night or the round
    recipient: Player
    occurrence: str
    why: str  # in French, for the operator (--dry-run)
    facts: dict = field(default_factory=dict)  # what the e-mail says besides the subject

    @property
    def key(self):
        return (self.kind, self.subject.pk, self.recipient.pk, self.occurrence)


def moment_of(today):
    """The time the run stands at: now on the real today, else the start of the day given."""
    if today == timezone.localdate():
        return timezone.now()
    return timezone.make_aware(datetime.datetime.combine(today, datetime.time()))


def reachable(players):
    """Players with an e-mail address (their account's, ``user.email``: one they confirmed by the
    link mailed to it, or one the board entered; never an address still waiting for its
    confirmation, docs/comptes.md), and their preferences."""
    return (
        players.filter(user__isnull=False, user__is_active=True)
        .exclude(user__email="")
        .select_related("user", "reminder_preference")
    )


def preference(player):
    try:
        return player.reminder_preference
    except ReminderPreference.DoesNotExist:
        return ReminderPreference(player=player)


def night_reminders(today):
    now = moment_of(today)
    nights = GameNight.objects.filter(
        season__is_open=True,
        cancelled=False,
        date__gte=today,
        date__lte=today + datetime.timedelta(days=NIGHT_DAYS_AHEAD),
    ).select_related("season", "host")
    found = []
    for night in nights:
        if not night.answers_open(now):
            continue
        answered = Rsvp.objects.filter(night=night, player=OuterRef("pk"))
        members = reachable(Player.objects.filter(active=True)).filter(~Exists(answered))
        days = (night.date - today).days
        for player in members:
            why = f"soirée du {night.date:%d/%m/%Y} (dans {days} j), pas encore de réponse"
            found.append(Reminder(NIGHT, night, player, night.date.isoformat(), why, {"days": days}))
    return found


def report_reminders(today):
    found = []
    for season in Season.objects.filter(is_open=True):
        as_of = min(today, season.end_date)
        for due in reports_due(season, as_of):
            if due.author is None:
                continue
            reminder = report_reminder(due, today)
            if reminder is not None:
                found.append(reminder)
    return found


def report_reminder(due, today):
    """The reminder of one report due (``championship.reports.due.DueReport``) on ``today``, or None."""
    status, round_ = due.status, due.round
    days_left = (due.deadline - today).days
    facts = {"deadline": due.deadline, "days_left": days_left, "weeks": status.weeks_late}
    if status.state == DUE and 0 <= days_left <= REPORT_DAYS_AHEAD:
        why = f"compte-rendu de la manche du {round_.date:%d/%m/%Y} dû le {due.deadline:%d/%m/%Y}"
        return Reminder(REPORT_DUE, round_, due.author, due.deadline.isoformat(), why, facts)
    if status.state != MISSING:
        return None
    line = late_report_line(round_, due.author, status)
    if status.weeks_late > 1 and line is None:
        return None  # the malus no longer grows: the first reminder was enough
    facts["malus"] = abs(line.points) if line is not None else 0
    facts["next_step"] = due.deadline + datetime.timedelta(days=7 * status.weeks_late + 1)
    why = (
        f"compte-rendu de la manche du {round_.date:%d/%m/%Y} en retard "
        f"(échéance {due.deadline:%d/%m/%Y}, semaine {status.weeks_late})"
    )
    return Reminder(REPORT_LATE, round_, due.author, f"semaine-{status.weeks_late}", why, facts)


def reminders(today):
    """Every reminder due on ``today`` that its recipient wants, nights first."""
    wanted = []
    for reminder in night_reminders(today) + report_reminders(today):
        if reminder.kind != NIGHT:  # the night's members were read with their e-mail address
            user = reminder.recipient.user
            if user is None or not user.is_active or not user.email:
                continue
        if preference(reminder.recipient).wants(reminder.kind):
            wanted.append(reminder)
    return wanted
