"""The news the clock brings, written by the `deliver_news` run (cron, every five minutes) and
after a homologation, never in a request:

- `night_soon`: a night (not cancelled) starting within `SOON` to those who have a seat at it
  (a regular night's seated players, `schedule.seating`; a cup night's convoked players), once
  per night and date;
- `report_news`: the reports due and overdue (`notifications.plan.report_reminders`, the same as
  the e-mail reminders, which the reminders' run sends) on the phone, once per occurrence;
- `playoff_news`: the play-off statuses settled (qualifié, éliminé) of an open season, to each
  player concerned, once per season and status (`championship.cup.outlook.season_statuses`).

Each is written by `news.write` under its key: two runs at once write it once."""

import datetime
import logging

from django.db import transaction
from django.utils import timezone

from championship.cup.outlook import season_statuses
from federation.models import Season
from gamenights import cup as cup_nights
from gamenights import schedule
from gamenights.models import GameNight
from notifications import news, plan
from notifications.models import PLAYOFF, PUSH, SOON
from scoring.outlook.season import ELIMINATED, QUALIFIED

logger = logging.getLogger("notifications.news")

SOON_AHEAD = datetime.timedelta(hours=2)


def seated(night):
    if night.stage == GameNight.REGULAR:
        return [player.pk for player in schedule.seating(night).seated]
    return [player.pk for player in cup_nights.players_of(night)]


def night_soon(now=None):
    """Write the news of the nights starting within two hours; the nights written."""
    now = now or timezone.now()
    local = timezone.localtime(now)
    nights = GameNight.objects.filter(
        cancelled=False, date__gte=local.date(), date__lte=(local + SOON_AHEAD).date()
    ).select_related("season")
    found = []
    for night in nights:
        if now < night.starts_at <= now + SOON_AHEAD:
            with transaction.atomic():
                news.write(SOON, f"soon:{night.pk}:{night.sequence}", night.pk, seated(night), later=False)
            found.append(night)
    return found


def report_news(today=None):
    """Write the phone's news of the reports due and overdue on `today` (the e-mails are the
    reminders' run's)."""
    today = today or timezone.localdate()
    found = plan.report_reminders(today)
    for reminder in found:
        key = f"{reminder.kind}:{reminder.subject.pk}:{reminder.occurrence}"
        facts = {reminder.recipient.pk: {"deadline": reminder.facts["deadline"].isoformat()}}
        with transaction.atomic():
            news.write(reminder.kind, key, reminder.subject.pk, [reminder.recipient], facts, (PUSH,), False)
    return found


def playoff_news(season, later=False):
    """Write the news of `season`'s play-off statuses settled (an open season only)."""
    season = Season.objects.filter(pk=getattr(season, "pk", season), is_open=True).first()
    if season is None:
        return []
    settled = {QUALIFIED: [], ELIMINATED: []}
    for player, status in season_statuses(season).items():
        if status.code in settled:
            settled[status.code].append(player.pk)
    written = []
    for code, players in settled.items():
        facts = {pk: {"code": code} for pk in players}
        with transaction.atomic():
            written += news.write(
                PLAYOFF, f"playoff:{season.pk}:{code}", season.pk, players, facts, later=later
            )
    return written


def playoff_news_in_background(season_pk):
    """`playoff_news` on a thread of the news, after a homologation: sent at once."""
    try:
        return playoff_news(season_pk, later=True)
    except Exception:
        logger.exception("statuts des play-offs : nouvelles non écrites, laissées au prochain passage")
        return None


def open_seasons_playoff_news():
    return [row for season in Season.objects.filter(is_open=True) for row in playoff_news(season)]
