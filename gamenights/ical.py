"""iCalendar feeds (RFC 5545, the `icalendar` library) of the nights: the federation's, a
season's, one member's (the nights he answered, his answer in the summary). Each night is one
event whose UID never changes; its SEQUENCE is the night's `sequence`, raised at every change a
calendar shows, so that a subscribed calendar replaces it; a cancelled night stays, with
STATUS:CANCELLED, a night whose date is to be confirmed has STATUS:TENTATIVE. The UID and the
event's link take the site's address, `SITE_URL`, never the request's host: a site reached under
two names gives a night one UID."""

import datetime

from django.utils import timezone
from django.utils.translation import gettext
from icalendar import Calendar, Event

from federation.addresses import absolute, host
from gamenights.models import GameNight, Rsvp

DURATION = datetime.timedelta(hours=4)
PRODID = "-//Fédération Française de Tarot-Bière//Calendrier//FR"


def uid(night):
    return f"soiree-{night.pk}@{host()}"


def _summary(night, answer=None):
    stage = dict(GameNight._meta.get_field("stage").choices)[night.stage]
    summary = gettext("Tarot-Bière : %(stage)s") % {"stage": stage}
    if night.table:
        summary += f" {night.table}"
    if night.place:
        summary += f" — {night.place}"
    if answer:
        summary += f" ({dict(Rsvp.ANSWERS)[answer]})"
    return summary


def event(night, answer=None):
    item = Event()
    item.add("uid", uid(night))
    item.add("dtstamp", night.updated_at)
    item.add("last-modified", night.updated_at)
    item.add("sequence", night.sequence)
    start = timezone.localtime(night.starts_at)
    item.add("dtstart", start)
    item.add("dtend", start + DURATION)
    item.add("summary", _summary(night, answer))
    if night.place:
        item.add("location", night.place)
    if night.notes:
        item.add("description", night.notes)
    item.add("url", absolute(night.get_absolute_url()))
    item.add("status", "CANCELLED" if night.cancelled else "TENTATIVE" if night.tentative else "CONFIRMED")
    return item


def calendar(nights, name, answers=None):
    """The iCalendar text (bytes) of `nights`; `answers`: {night pk: answer} for a member's feed."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    for night in nights:
        cal.add_component(event(night, (answers or {}).get(night.pk)))
    cal.add_missing_timezones()
    return cal.to_ical()
