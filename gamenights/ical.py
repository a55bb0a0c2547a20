"""iCalendar feeds (RFC 5545, the `icalendar` library) of the nights: the federation's, a
season's, one member's (every night of his seasons, his answer and his seat in the summary, two
alarms: docs/calendrier.md, « Ce que contient son calendrier »). Each night is one event whose UID
never changes; its SEQUENCE is the night's `sequence`, raised at every change a calendar shows,
so that a subscribed calendar replaces it; a cancelled night stays, with STATUS:CANCELLED and
« Annulée » in its summary, a night whose date is to be confirmed has STATUS:TENTATIVE. The UID
and the event's link take the site's address, `SITE_URL`, never the request's host: a site
reached under two names gives a night one UID.

`icalendar` is imported on first use, as WeasyPrint is: its import costs more than a tenth of a
second, paid by every process that loads the URLs (tests/test_startup_imports.py)."""

import datetime
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext

from federation.addresses import absolute, host
from gamenights import schedule
from gamenights.models import GameNight, Rsvp

DURATION = datetime.timedelta(hours=4)
PRODID = "-//Fédération Française de Tarot-Bière//Calendrier//FR"
# The alarms of a member's feed: the evening before at this local time (Europe/Paris), and this
# long before the start (docs/calendrier.md, « Ce que contient son calendrier »).
EVE_ALARM_AT = datetime.time(19, 0)
BEFORE_START = datetime.timedelta(hours=2)


def uid(night):
    return f"soiree-{night.pk}@{host()}"


def _summary(night, mark=""):
    stage = dict(GameNight._meta.get_field("stage").choices)[night.stage]
    summary = gettext("Tarot-Bière : %(stage)s") % {"stage": stage}
    if night.table:
        summary += f" {night.table}"
    if night.place:
        summary += f" — {night.place}"
    if night.cancelled:
        mark = gettext("Annulée")
    return f"{mark} · {summary}" if mark else summary


def event(night, mark=""):
    from icalendar import Event  # noqa: PLC0415 — on first use (module docstring)

    item = Event()
    item.add("uid", uid(night))
    item.add("dtstamp", night.updated_at)
    item.add("last-modified", night.updated_at)
    item.add("sequence", night.sequence)
    start = timezone.localtime(night.starts_at)
    item.add("dtstart", start)
    item.add("dtend", start + DURATION)
    item.add("summary", _summary(night, mark))
    if night.place:
        item.add("location", night.place)
    if night.notes:
        item.add("description", night.notes)
    item.add("url", absolute(night.get_absolute_url()))
    item.add("status", "CANCELLED" if night.cancelled else "TENTATIVE" if night.tentative else "CONFIRMED")
    return item


def _calendar(name, events):
    from icalendar import Calendar  # noqa: PLC0415 — on first use (module docstring)

    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    for item in events:
        cal.add_component(item)
    cal.add_missing_timezones()
    return cal.to_ical()


def calendar(nights, name):
    """The iCalendar text (bytes) of `nights`, for all (no answer, no alarm)."""
    return _calendar(name, (event(night) for night in nights))


# --- a member's own feed ---------------------------------------------------------------------------


@dataclass
class Member:
    """What a member's feed knows of him: his answers and places (`schedule.places_of`) by night."""

    answers: dict
    places: dict
    now: datetime.datetime

    def mark(self, night):
        """His answer as the summary starts with it (docs/calendrier.md)."""
        answer = self.answers.get(night.pk)
        if answer == Rsvp.YES:
            place = self.places.get(night.pk)
            if place == 1:
                return gettext("✔ Je viens, en tête de la liste d'attente")
            if place:
                return gettext("✔ Je viens, %(place)se sur la liste d'attente") % {"place": place}
            return gettext("✔ Je viens")
        if answer == Rsvp.NO:
            return gettext("✘ Je ne viens pas")
        if answer == Rsvp.MAYBE:
            return gettext("? Peut-être")
        return gettext("Réponse attendue") if night.answers_open(self.now) else ""

    def alarmed(self, night):
        """Alarms on a night to come, not cancelled, that he has not declined."""
        return not night.cancelled and self.answers.get(night.pk) != Rsvp.NO and night.starts_at > self.now


def _alarm(trigger, description):
    from icalendar import Alarm  # noqa: PLC0415 — on first use (module docstring)

    alarm = Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("description", description)
    if isinstance(trigger, datetime.datetime):  # absolute: in UTC (RFC 5545, 3.8.6.3)
        alarm.add("trigger", trigger.astimezone(datetime.UTC), parameters={"VALUE": "DATE-TIME"})
    else:
        alarm.add("trigger", trigger)
    return alarm


def alarms(night, summary):
    """The evening before at EVE_ALARM_AT (local time), and BEFORE_START before the start."""
    start = timezone.localtime(night.starts_at)
    values = {"time": f"{start:%H}h{start:%M}", "summary": summary}
    eve_day = night.date - datetime.timedelta(days=1)
    eve = timezone.make_aware(datetime.datetime.combine(eve_day, EVE_ALARM_AT))
    return [
        _alarm(eve, gettext("Demain à %(time)s : %(summary)s") % values),
        _alarm(-BEFORE_START, gettext("Dans deux heures, à %(time)s : %(summary)s") % values),
    ]


def member_calendar(player, name, now=None):
    """The iCalendar text (bytes) of `player`'s own feed: every night of his seasons
    (`schedule.member_nights`), his answer in each summary, alarms where he may come."""
    nights = list(schedule.member_nights(player))
    member = Member(
        answers=dict(Rsvp.objects.filter(player=player).values_list("night_id", "answer")),
        places=schedule.places_of(player, nights),
        now=now or timezone.now(),
    )
    events = []
    for night in nights:
        item = event(night, member.mark(night))
        if member.alarmed(night):
            for alarm in alarms(night, str(item["SUMMARY"])):
                item.add_component(alarm)
        events.append(item)
    return _calendar(name, events)
