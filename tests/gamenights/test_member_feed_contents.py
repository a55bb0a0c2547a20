"""What a member's own feed holds (docs/calendrier.md, « Ce que contient son calendrier »): every
night of his seasons, answered or not, his answer (and his seat) in the title, a cancelled night
cancelled, and two alarms on a night he may come to: the evening before and two hours before.
Parsed back with `icalendar`."""

import datetime
import zoneinfo

import pytest
from django.utils import timezone
from icalendar import Calendar

from championship.services import create_round
from federation.models import Season
from gamenights import ical, links, services
from gamenights.models import Rsvp
from tests.conftest import make_player

pytestmark = pytest.mark.django_db

SITE = "https://tarot.example.org"
PARIS = zoneinfo.ZoneInfo("Europe/Paris")


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = SITE


def feed(client, player):
    response = client.get(links.feed_url(player))
    assert response.status_code == 200
    return {str(event["UID"]): event for event in Calendar.from_ical(response.content).walk("VEVENT")}


def uid(night):
    return f"soiree-{night.pk}@tarot.example.org"


def summary(event):
    return str(event["SUMMARY"])


@pytest.fixture
def closed_season(db):
    today = timezone.localdate()
    return Season.objects.create(
        name="ancienne",
        start_date=today - datetime.timedelta(days=500),
        end_date=today - datetime.timedelta(days=300),
        is_open=False,
    )


def old_night(season, days_after_start=10):
    return services.schedule_night(season, date=season.start_date + datetime.timedelta(days=days_after_start))


def test_the_feed_holds_every_night_of_his_seasons_answered_or_not(client, member, night, open_season):
    later = services.schedule_night(open_season, date=night.date + datetime.timedelta(days=7))
    found = feed(client, member)  # he answered nothing yet: the feed is not empty
    assert set(found) == {uid(night), uid(later)}
    assert all(summary(event).startswith("Réponse attendue") for event in found.values())


def test_a_closed_season_is_his_if_he_answered_or_sat_in_it(client, member, night, closed_season):
    answered, other = old_night(closed_season), old_night(closed_season, 20)
    assert uid(answered) not in feed(client, member)  # a closed season he never played
    Rsvp.objects.create(night=answered, player=member, answer=Rsvp.NO)
    assert {uid(answered), uid(other), uid(night)} <= set(feed(client, member))

    sat = Season.objects.create(
        name="assise", start_date=closed_season.start_date, end_date=closed_season.end_date, is_open=False
    )
    sat_night = old_night(sat)
    seated = [member, *(make_player(f"J{i}", with_user=False) for i in range(4))]
    create_round(sat, seated, [], totals={p.name: 0 for p in seated}, date=sat_night.date)
    assert uid(sat_night) in feed(client, member)


def test_an_inactive_member_keeps_only_the_seasons_he_played(client, member, night, closed_season):
    past = old_night(closed_season)
    Rsvp.objects.create(night=past, player=member, answer=Rsvp.YES)
    member.active = False
    member.save()
    assert set(feed(client, member)) == {uid(past)}


@pytest.mark.parametrize(
    ("answer", "title"),
    [(Rsvp.YES, "✔ Je viens"), (Rsvp.NO, "✘ Je ne viens pas"), (Rsvp.MAYBE, "? Peut-être")],
)
def test_his_answer_is_in_the_title(client, member, night, answer, title):
    services.answer(night, member, answer)
    event = feed(client, member)[uid(night)]
    assert summary(event).startswith(title + " · Tarot-Bière : manche régulière — Chez Steph")


def test_a_member_waiting_for_a_seat_reads_it_in_the_title(client, night):
    comers = [make_player(name) for name in ("Alice", "Bruno", "Chloé", "David", "Émile", "Fanny", "Gaston")]
    start = timezone.now() - datetime.timedelta(hours=1)
    for minute, player in enumerate(comers):
        services.answer(night, player, Rsvp.YES, now=start + datetime.timedelta(minutes=minute))

    def title(player):
        return summary(feed(client, player)[uid(night)])

    assert title(comers[0]).startswith("✔ Je viens · ")
    assert title(comers[5]).startswith("✔ Je viens, en tête de la liste d'attente · ")
    assert title(comers[6]).startswith("✔ Je viens, 2e sur la liste d'attente · ")
    services.answer(night, comers[0], Rsvp.NO)  # Fanny takes the seat freed
    assert title(comers[5]).startswith("✔ Je viens · ")


def test_no_answer_is_awaited_once_answers_are_closed(client, member, night, closed_season):
    past = old_night(closed_season)
    Rsvp.objects.create(night=past, player=member, answer=Rsvp.NO)
    past_unanswered = old_night(closed_season, 20)
    assert summary(feed(client, member)[uid(past_unanswered)]).startswith("Tarot-Bière : ")


def alarms(event):
    return {
        alarm.decoded("TRIGGER"): (str(alarm["ACTION"]), str(alarm["DESCRIPTION"]))
        for alarm in event.walk("VALARM")
    }


def test_two_alarms_the_evening_before_and_two_hours_before(client, member, night):
    services.answer(night, member, Rsvp.YES)
    event = feed(client, member)[uid(night)]
    raw = event.to_ical().decode()
    eve = datetime.datetime.combine(night.date - datetime.timedelta(days=1), datetime.time(19, 0), PARIS)
    # An absolute trigger is in UTC (RFC 5545, 3.8.6.3).
    assert f"TRIGGER;VALUE=DATE-TIME:{eve.astimezone(datetime.UTC):%Y%m%dT%H%M%S}Z" in raw
    assert "TRIGGER:-PT2H" in raw
    found = alarms(event)
    assert set(found) == {eve.astimezone(datetime.UTC), -datetime.timedelta(hours=2)}
    assert {action for action, _description in found.values()} == {"DISPLAY"}
    descriptions = [description for _action, description in found.values()]
    assert any(d.startswith("Demain à 20h30 : ✔ Je viens · Tarot-Bière") for d in descriptions)
    assert any(d.startswith("Dans deux heures, à 20h30 : ✔ Je viens · Tarot-Bière") for d in descriptions)


def test_the_evening_alarm_follows_its_constant(client, member, night, monkeypatch):
    monkeypatch.setattr(ical, "EVE_ALARM_AT", datetime.time(18, 15))
    event = feed(client, member)[uid(night)]
    eve = datetime.datetime.combine(night.date - datetime.timedelta(days=1), datetime.time(18, 15), PARIS)
    assert eve.astimezone(datetime.UTC) in alarms(event)


def test_no_alarm_for_a_night_he_does_not_come_to_nor_a_cancelled_one(client, member, night, open_season):
    unanswered = services.schedule_night(open_season, date=night.date + datetime.timedelta(days=7))
    services.answer(night, member, Rsvp.NO, reason="en déplacement")
    found = feed(client, member)
    assert alarms(found[uid(night)]) == {}
    assert len(alarms(found[uid(unanswered)])) == 2  # an answer awaited: he may come
    services.cancel_night(unanswered, reason="pluie")
    cancelled = feed(client, member)[uid(unanswered)]
    assert str(cancelled["STATUS"]) == "CANCELLED" and alarms(cancelled) == {}
    assert summary(cancelled).startswith("Annulée · Tarot-Bière")


def test_the_uids_are_those_of_the_public_feeds(client, member, night):
    services.answer(night, member, Rsvp.YES)
    assert list(feed(client, member)) == [ical.uid(night)] == [f"soiree-{night.pk}@tarot.example.org"]
