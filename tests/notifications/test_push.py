"""The members' news on their phones (notifications.news, notifications.push), without the
internet: the payload's encryption checked by decrypting it as a phone would, then pushes to the
tests' own push service on 127.0.0.1 (tests/notifications/push_service.py), which checks each
VAPID token, decrypts each payload and answers 201, 404, 410 or 429 as asked."""

import datetime
import io
import json

import http_ece
import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from championship.cup.outlook import season_statuses
from championship.models import Round
from championship.services import homologate_round, submit_round
from championship.standings.season import season_standings
from federation.models import Player, Season
from federation.row_outbox import FORGOTTEN, OutboxRow
from gamenights import services as nights
from gamenights.models import Rsvp
from notifications import clock, messages, news, push, services
from notifications.models import EMAIL, PUSH, RESULT, SOON, News, PushSubscription
from scoring import french
from scoring.outlook.season import ELIMINATED, QUALIFIED
from tests.factories import make_round
from tests.notifications.push_service import Phone, b64url
from webhooks.addresses import Refused

from .conftest import ROUND_DATE, with_account

pytestmark = pytest.mark.django_db


def come(night, player):
    """« Je viens », given by the board (the example night is in 2010: its answers are closed)."""
    return nights.answer(night, player, Rsvp.YES, on_behalf=True)


def phone_only(player):
    """A cancelled night is e-mailed too by default: these tests look at the phone alone."""
    services.set_preferences(player, email_night_changed=False)


def deliver():
    """What the `deliver_news` run does with the rows due (here, on the test's connection)."""
    return news.outbox.deliver_all(news.outbox.due())


def test_the_payload_is_encrypted_for_the_phone_alone(push_settings, members):
    phone = Phone()
    subscription = phone.subscribe(members["Alice"].user, "https://fcm.googleapis.com/fcm/send/abc")
    message = {"title": "Table confirmée", "text": "Soirée du mardi…", "url": "/soirees/1/", "extra": "x"}
    body = push.encrypt(subscription, push.payload(message))
    assert b"Table" not in body
    clear = http_ece.decrypt(body, private_key=phone.key, auth_secret=phone.auth, version="aes128gcm")
    assert json.loads(clear) == {"title": "Table confirmée", "text": "Soirée du mardi…", "url": "/soirees/1/"}
    with pytest.raises(http_ece.ECEException):  # another phone's keys read nothing
        other = Phone()
        http_ece.decrypt(body, private_key=other.key, auth_secret=other.auth, version="aes128gcm")


@pytest.fixture
def round_to_homologate(season, members):
    return make_round(season, status="submitted", date=ROUND_DATE)


def test_a_homologation_pushes_each_seated_players_phones_once(
    push_service, members, round_to_homologate, president, django_capture_on_commit_callbacks
):
    alice, bruno = members["Alice"], members["Bruno"]
    push_service.subscribe(alice.user, "alice-1")
    push_service.subscribe(alice.user, "alice-2")
    push_service.subscribe(bruno.user, "bruno")
    with django_capture_on_commit_callbacks():  # the background threads left out: the run sends
        homologate_round(round_to_homologate, president.user)
    assert sorted(deliver()) == [OutboxRow.DELIVERED] * 3
    assert deliver() == []  # nothing twice
    assert push_service.refused == []
    payload = push_service.payloads("alice-1")[0]
    assert set(payload) == {"title", "text", "url"}
    assert payload["title"] == "Manche homologuée"
    assert payload["url"] == round_to_homologate.get_absolute_url()
    seat = round_to_homologate.seats.get(player=alice)
    assert f"{'1er' if seat.rank == 1 else f'{seat.rank}e'} de la table" in payload["text"]
    assert "Pas encore classé." in payload["text"]  # one round of the three that rank
    assert len(push_service.payloads("alice-2")) == 1 and len(push_service.payloads("bruno")) == 1


def test_the_message_is_in_the_members_language(push_service, members, round_to_homologate, president):
    services.set_preferences(members["Alice"], language="en")
    push_service.subscribe(members["Alice"].user, "alice")
    homologate_round(round_to_homologate, president.user)
    deliver()
    assert push_service.payloads("alice")[0]["title"] == "Round homologated"


def test_an_act_rolled_back_sends_nothing(push_service, members, night, django_capture_on_commit_callbacks):
    phone_only(members["Alice"])
    push_service.subscribe(members["Alice"].user, "alice")
    come(night, members["Alice"])
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(RuntimeError), transaction.atomic():
        nights.cancel_night(night, reason="salle prise")
        assert News.objects.filter(event="night_changed").count() == 1  # written in the act
        raise RuntimeError("l'acte échoue après coup")
    assert callbacks == [] and not News.objects.exists()
    assert deliver() == [] and push_service.received == []


def test_a_phone_the_push_service_forgot_is_removed(push_service, members, night):
    phone_only(members["Alice"])
    alice = members["Alice"]
    push_service.subscribe(alice.user, "gone")
    push_service.subscribe(alice.user, "kept")
    come(night, alice)
    push_service.answers = [410]  # the first push: its phone unsubscribed
    with transaction.atomic():
        nights.cancel_night(night, reason="salle prise")
    results = deliver()
    assert sorted(results, key=str) == sorted([FORGOTTEN, OutboxRow.DELIVERED], key=str)
    assert PushSubscription.objects.filter(user=alice.user).count() == 1


@pytest.mark.parametrize("status", [404, 410])
def test_404_and_410_remove_the_subscription(push_service, members, night, status):
    phone_only(members["Alice"])
    push_service.subscribe(members["Alice"].user, "alice")
    come(night, members["Alice"])
    push_service.answers = [status]
    nights.cancel_night(night, reason="salle prise")
    assert deliver() == [FORGOTTEN]
    assert not PushSubscription.objects.exists() and not News.objects.exists()


def test_429_is_retried_later_then_sent(push_service, members, night):
    phone_only(members["Alice"])
    push_service.subscribe(members["Alice"].user, "alice")
    come(night, members["Alice"])
    push_service.answers = [429]
    push_service.retry_after = 600
    nights.cancel_night(night, reason="salle prise")
    assert deliver() == [OutboxRow.PENDING]
    row = News.objects.get()
    assert row.last_error == "HTTP 429" and row.attempts == 1
    assert row.next_attempt_at > row.created_at + datetime.timedelta(seconds=590)  # its Retry-After
    assert deliver() == []  # not due yet
    later = row.next_attempt_at + datetime.timedelta(seconds=1)
    assert news.outbox.deliver_all(news.outbox.due(later), later) == [OutboxRow.DELIVERED]
    assert [p["title"] for p in push_service.payloads("alice")] == ["Soirée annulée"]


def test_a_server_error_is_retried_and_the_message_kept(push_service, members, night):
    phone_only(members["Alice"])
    push_service.subscribe(members["Alice"].user, "alice")
    come(night, members["Alice"])
    push_service.answers = [503]
    nights.cancel_night(night, reason="salle prise")
    assert deliver() == [OutboxRow.PENDING]
    kept = News.objects.get().message
    later = News.objects.get().next_attempt_at
    assert news.outbox.deliver_all(news.outbox.due(later), later) == [OutboxRow.DELIVERED]
    assert push_service.payloads("alice") == [kept]


def test_a_push_service_that_does_not_answer_is_cut_at_the_deadline_and_retried(
    push_service, members, night, settings
):
    settings.PUSH_TIMEOUT = 1
    phone_only(members["Alice"])
    push_service.subscribe(members["Alice"].user, "alice")
    come(night, members["Alice"])
    push_service.answers = ["hang"]
    nights.cancel_night(night, reason="salle prise")
    assert deliver() == [OutboxRow.PENDING]
    assert News.objects.get().last_error == "délai dépassé"


def test_a_push_with_a_wrong_vapid_key_is_refused_and_given_up(push_service, members, night, settings):
    phone_only(members["Alice"])
    from notifications.management.commands.vapid_keys import new_pair  # noqa: PLC0415

    push_service.subscribe(members["Alice"].user, "alice")
    come(night, members["Alice"])
    nights.cancel_night(night, reason="salle prise")
    settings.VAPID_PRIVATE_KEY = new_pair()[0]  # not the key the phone subscribed with
    assert deliver() == [OutboxRow.FAILED]
    assert push_service.refused == [("/push/alice", "clé publique inconnue")]


def test_each_event_and_channel_follows_the_members_choice(push_service, members, night, mailoutbox):
    alice, bruno = members["Alice"], members["Bruno"]
    push_service.subscribe(alice.user, "alice")
    push_service.subscribe(bruno.user, "bruno")
    services.set_preferences(bruno, push_night_changed=False, email_night_changed=False)
    for player in (alice, bruno):
        come(night, player)
    nights.cancel_night(night, reason="salle prise")
    channels = sorted(News.objects.values_list("recipient__name", "channel"))
    assert channels == [("Alice", EMAIL), ("Alice", PUSH)]  # a cancelled night: by e-mail too by default
    deliver()
    assert push_service.payloads("bruno") == []
    assert [mail.to for mail in mailoutbox] == [[alice.user.email]]
    assert "Soirée annulée" in mailoutbox[0].subject and night.get_absolute_url() in mailoutbox[0].body


def test_no_push_without_vapid_keys(push_service, members, night, settings):
    settings.VAPID_PRIVATE_KEY = ""
    push_service.subscribe(members["Alice"].user, "alice")
    come(night, members["Alice"])
    nights.cancel_night(night, reason="salle prise")
    assert not News.objects.filter(channel=PUSH).exists()


def test_a_push_address_must_be_a_push_service_in_production(settings):
    from federation import settings as production  # noqa: PLC0415

    settings.PUSH_ALLOW_LOOPBACK = production.PUSH_ALLOW_LOOPBACK
    settings.PUSH_ALLOWED_HOSTS = production.PUSH_ALLOWED_HOSTS
    push.check("https://fcm.googleapis.com/fcm/send/abc")
    push.check("https://web.push.apple.com/QGx")
    for refused in (
        "http://127.0.0.1:8000/push/x",
        "https://169.254.169.254/latest/",
        "https://intranet.example.org/push",
        "http://fcm.googleapis.com/fcm/send/abc",
        "https://fcm.googleapis.com:8443/fcm/send/abc",
    ):
        with pytest.raises(Refused):
            push.check(refused)


def test_the_round_result_says_place_points_and_rank_with_its_move(season, members, president):
    for day in (5, 12):
        make_round(season, status=Round.HOMOLOGATED, date=datetime.date(2010, 11, day))
    third = make_round(season, status=Round.SUBMITTED, date=ROUND_DATE)
    homologate_round(third, president.user)
    standings = season_standings(season)
    for seat in third.seats.select_related("player"):
        row = News(
            recipient=seat.player,
            event=RESULT,
            subject_id=third.pk,
            facts={"place": seat.rank, "total": seat.total, "points": seat.championship_points},
        )
        text = messages.compose(row)["text"]
        ranked = standings.row_of(seat.player)
        assert text.startswith(f"2010-2011 — Manche 3\u00a0: {french.ordinal(seat.rank)} de la table (")
        assert f" {seat.championship_points} point" in text
        assert f"Classement\u00a0: {french.ordinal(ranked.rank)}" in text
        if ranked.trend.code in ("up", "down"):
            assert ranked.trend.label in text


def test_the_subscription_keys_are_stored_as_given(members):
    phone = Phone()
    row = phone.subscribe(members["Alice"].user, "https://fcm.googleapis.com/fcm/send/abc")
    assert row.auth == b64url(phone.auth) and row.host == "fcm.googleapis.com"


def homologation_queries(season, president, phones_each, members, push_service):
    """The queries of one homologation (the official's request's act) with `phones_each` phones
    per seated player."""
    for player in members.values():
        for index in range(phones_each):
            push_service.subscribe(player.user, f"{player.pk}-{phones_each}-{index}")
    round_ = make_round(season, status=Round.SUBMITTED, date=ROUND_DATE)
    with CaptureQueriesContext(connection) as queries:
        homologate_round(round_, president.user)
    return len(queries), News.objects.filter(subject_id=round_.pk, event=RESULT).count()


def test_what_a_homologation_costs_does_not_grow_with_the_phones(season, members, president, push_service):
    """Ten phones for each of the five seated players (50) cost the official's act the same
    queries as one each: their rows are written in one statement, pushed off the request."""
    few = homologation_queries(season, president, 1, members, push_service)
    PushSubscription.objects.all().delete()
    many = homologation_queries(season, president, 10, members, push_service)
    assert few[1] == 5 and many[1] == 50
    assert many[0] == few[0]
    assert push_service.received == []  # nothing pushed in the act


def test_the_run_pushes_a_night_two_hours_ahead_to_those_seated_once(push_service, members):
    start = timezone.localtime() + datetime.timedelta(hours=1)
    current = Season.objects.create(
        name="2030-2031",
        start_date=start.date() - datetime.timedelta(days=30),
        end_date=start.date() + datetime.timedelta(days=30),
    )
    tonight = nights.schedule_night(current, date=start.date(), time=start.time().replace(microsecond=0))
    for name in ("Alice", "Bruno", "Chloé", "David"):
        come(tonight, members[name])
    push_service.subscribe(members["Alice"].user, "alice")
    push_service.subscribe(members["Émile"].user, "emile")  # not coming: nothing
    News.objects.all().delete()  # the table confirmed: not what this test looks at
    out = io.StringIO()
    call_command("deliver_news", stdout=out)
    assert " 0 à réessayer, 0 abandonnée(s)" in out.getvalue()
    call_command("deliver_news", stdout=io.StringIO())  # a second run: nothing twice
    soon = [p for p in push_service.payloads() if p["title"] == "Soirée dans deux heures"]
    assert soon == push_service.payloads("alice")[:1] and len(soon) == 1
    assert soon[0]["url"] == tonight.get_absolute_url()
    assert News.objects.filter(event=SOON).count() == 1


def test_a_settled_play_off_status_is_pushed_once_to_each_player(push_service, season, members):
    make_round(season, status=Round.HOMOLOGATED, date=ROUND_DATE)
    statuses = {player.name: status.code for player, status in season_statuses(season).items()}
    settled = {name: code for name, code in statuses.items() if code in (QUALIFIED, ELIMINATED)}
    assert settled  # the season is over (2010-2011): every status is settled
    for name in settled:
        push_service.subscribe(members[name].user, str(members[name].pk))
    clock.playoff_news(season)
    clock.playoff_news(season)  # again (a run after a homologation): nothing twice
    deliver()
    for name, code in settled.items():
        [payload] = push_service.payloads(str(members[name].pk))
        assert payload["title"] == ("Qualifié\u00a0!" if code == QUALIFIED else "Éliminé des play-offs")
        assert payload["url"] == f"/saisons/{season.name}/coupe/qualifications/"


def test_the_table_a_freed_seat_and_a_sheet_to_sign_reach_those_concerned(
    push_service, season, members, night, president
):
    fanny = with_account(Player.objects.create(name="Fanny"))
    everyone = [*members.values(), fanny]
    for player in everyone:
        push_service.subscribe(player.user, f"p{player.pk}")
    for player in everyone:  # the sixth waits: one table of five
        come(night, player)
    nights.answer(night, members["Alice"], Rsvp.NO, on_behalf=True)  # her seat goes to Fanny
    make_round(season, status=Round.DRAFT, date=ROUND_DATE)
    round_ = Round.objects.get()
    submit_round(round_, president.user)
    deliver()

    def titles(player):
        return [payload["title"] for payload in push_service.payloads(f"p{player.pk}")]

    assert titles(members["Bruno"]) == ["Table confirmée", "Feuille à signer"]
    assert titles(fanny) == ["Vous avez une place"]  # the table was confirmed before she came
    sign = push_service.payloads(f"p{members['Bruno'].pk}")[1]
    assert sign["url"] == f"/manches/{round_.pk}/direct/"
