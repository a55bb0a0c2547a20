"""The iCal feeds, parsed back with `icalendar`: stable UIDs, SEQUENCE raised by a change,
STATUS:CANCELLED, one member's feed behind a secret address (renewal: test_member_feed.py; what it
holds: test_member_feed_contents.py)."""

import datetime
import time

import pytest
from django.urls import reverse
from icalendar import Calendar

from gamenights import links, services
from gamenights.models import Rsvp

pytestmark = pytest.mark.django_db


def events(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    found = {}
    for event in calendar.walk("VEVENT"):
        for required in ("UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY", "SEQUENCE", "STATUS"):
            assert required in event, required
        found[str(event["UID"])] = event
    assert calendar.walk("VTIMEZONE"), "the events' TZID is defined in the feed"
    return found


SITE = "https://tarot.example.org"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = SITE
    settings.ALLOWED_HOSTS = ["testserver", "tarot.example.org", "tarot-biere.example.net"]


def test_a_night_moves_and_is_cancelled_under_the_same_uid(client, night, open_season):
    url = reverse("gamenights:season_feed", args=[open_season.name])
    [(uid, event)] = events(client.get(url)).items()
    assert uid == f"soiree-{night.pk}@tarot.example.org"
    assert (int(event["SEQUENCE"]), str(event["STATUS"])) == (0, "CONFIRMED")
    assert event.decoded("DTSTART").replace(tzinfo=None) == datetime.datetime.combine(night.date, night.time)
    assert str(event["LOCATION"]) == "Chez Steph"

    services.change_night(night, time=datetime.time(21, 15))
    [(same, moved)] = events(client.get(url)).items()
    assert same == uid and int(moved["SEQUENCE"]) == 1
    assert moved.decoded("DTSTART").time() == datetime.time(21, 15)

    services.cancel_night(night, reason="pluie")
    [(same, cancelled)] = events(client.get(reverse("gamenights:feed"))).items()
    assert same == uid and str(cancelled["STATUS"]) == "CANCELLED" and int(cancelled["SEQUENCE"]) == 2


def test_a_site_reached_under_two_names_gives_a_night_one_uid(client, night):
    """The UID is the night's for good: it takes the host of SITE_URL, not the request's (a
    site reached under two names gave a night two UIDs, two events in a calendar subscribed to
    both); so does the event's link."""
    seen = set()
    for host in ("tarot.example.org", "tarot-biere.example.net"):
        [(uid, event)] = events(client.get(reverse("gamenights:feed"), HTTP_HOST=host)).items()
        seen.add((uid, str(event["URL"])))
    assert seen == {(f"soiree-{night.pk}@tarot.example.org", f"{SITE}{night.get_absolute_url()}")}


def test_a_tentative_night_is_tentative(client, night):
    services.change_night(night, tentative=True)
    [event] = events(client.get(reverse("gamenights:feed"))).values()
    assert str(event["STATUS"]) == "TENTATIVE"


def test_a_members_feed_holds_the_nights_of_his_season_with_his_answer(client, night, open_season, member):
    """Every night of his seasons, answered or not (what it holds: test_member_feed_contents.py)."""
    later = services.schedule_night(open_season, date=night.date + datetime.timedelta(days=7))
    services.answer(night, member, Rsvp.YES)
    found = events(client.get(links.feed_url(member)))
    assert list(found) == [f"soiree-{night.pk}@tarot.example.org", f"soiree-{later.pk}@tarot.example.org"]
    assert str(found[f"soiree-{night.pk}@tarot.example.org"]["SUMMARY"]).startswith("✔ Je viens · ")
    assert client.get(reverse("gamenights:member_feed", args=["faux"])).status_code == 404


def test_a_members_feed_address_is_the_same_from_one_visit_to_the_next(client, member, monkeypatch):
    """A phone subscribes to one address: the page must show the same one at every visit (the
    signed token once held the time of signing, so it changed every second)."""
    first = links.feed_url(member)
    later = time.time() + 3600
    monkeypatch.setattr(time, "time", lambda: later)
    assert links.feed_url(member) == first
    assert client.get(first).status_code == 200


def test_a_feed_address_handed_out_with_a_time_stamp_still_opens(client, member):
    from django.core import signing

    stamped = signing.dumps(member.pk, salt=links.FEED_SALT)
    assert links.feed_player(stamped) == member
    assert client.get(reverse("gamenights:member_feed", args=[stamped])).status_code == 200
