"""Delivery to a chat of the test's own (`conftest.Chat`, a local HTTP server): each format's
body, failures retried by `deliver_webhooks` with back-off, a hung chat that never holds the
official's act, and a row never posted twice."""

import datetime
import os
import socket
import threading

import pytest
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from championship.services import homologate_round
from gamenights import services as nights
from tests.child_pytest import run_child_pytest
from tests.factories import make_round
from tests.postgres import side_database
from tests.webhooks.conftest import deliver_command
from webhooks import delivery
from webhooks.models import Delivery, Webhook

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_format_gets_its_body_after_the_commit(chat, season, president, settings):
    settings.SITE_URL = "https://tarot.example"
    for name in ("discord", "slack", "matrix", "json"):
        Webhook.objects.create(name=name, url=chat.url(f"/{name}"), format=name)
    round_ = make_round(season, status="submitted")
    homologate_round(round_, president.user)
    assert delivery.wait(10)
    bodies = dict(chat.posts)
    assert sorted(bodies) == ["/discord", "/json", "/matrix", "/slack"]
    page = f"https://tarot.example/manches/{round_.pk}/"
    winner = round_.seats.order_by("rank", "position").first()
    title = "Homologuée : la manche 1 de la saison 2010-2011 (jouée le 19/11/2010, Chez Steph)"
    first = f"🥇 {winner.player.name} : +{winner.total}"
    assert bodies["/discord"]["content"] == title
    [embed] = bodies["/discord"]["embeds"]
    assert embed["url"] == page and embed["description"].startswith(first)
    assert bodies["/slack"]["text"].startswith(title)
    [block] = bodies["/slack"]["blocks"]
    assert block["type"] == "section" and block["text"]["text"].startswith(f"<{page}|{title}>\n{first}")
    assert bodies["/matrix"]["text"].endswith(page)
    assert bodies["/matrix"]["html"].startswith(f'<p><a href="{page}">{title}</a></p><ul><li>{first}</li>')
    assert bodies["/json"]["event"] == "round_homologated" and bodies["/json"]["url"] == page
    assert Delivery.objects.filter(status="delivered").count() == 4


def test_a_failure_is_retried_by_the_command_with_back_off(chat, night):
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    chat.status = 500
    before = timezone.now()
    nights.cancel_night(night, reason="salle prise")
    assert delivery.wait(10)
    row = Delivery.objects.get()
    assert (row.status, row.attempts, row.last_error) == ("pending", 1, "HTTP 500")
    assert before + delivery.backoff(1) <= row.next_attempt_at <= timezone.now() + delivery.backoff(1)
    assert deliver_command() == "0 livrée(s), 0 à réessayer, 0 abandonnée(s).\n"  # not due yet
    Delivery.objects.update(next_attempt_at=timezone.now())
    before = timezone.now()
    assert deliver_command() == "0 livrée(s), 1 à réessayer, 0 abandonnée(s).\n"
    row.refresh_from_db()
    assert row.attempts == 2 and row.next_attempt_at >= before + datetime.timedelta(minutes=2)
    chat.status = 200
    Delivery.objects.update(next_attempt_at=timezone.now())
    assert deliver_command() == "1 livrée(s), 0 à réessayer, 0 abandonnée(s).\n"
    Delivery.objects.update(next_attempt_at=timezone.now())
    assert deliver_command() == "0 livrée(s), 0 à réessayer, 0 abandonnée(s).\n"  # never twice
    assert [path for path, _body in chat.posts] == ["/hook"] * 3


def test_a_refused_connection_is_retried_then_given_up(night):
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    Webhook.objects.create(name="json", url=f"http://127.0.0.1:{port}/hook", format="json")
    nights.cancel_night(night, reason="salle prise")
    assert delivery.wait(10)
    row = Delivery.objects.get()
    assert (row.status, row.attempts) == ("pending", 1)
    assert row.last_error.startswith("connexion impossible")
    for _attempt in range(delivery.MOST_ATTEMPTS - 1):
        Delivery.objects.update(next_attempt_at=timezone.now())
        deliver_command()
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("failed", delivery.MOST_ATTEMPTS)


def test_a_background_failure_is_logged_and_left_to_the_command(chat, night, caplog, monkeypatch):
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")

    def broken(pk, now=None):
        raise RuntimeError("base indisponible")

    monkeypatch.setattr(delivery, "deliver", broken)
    nights.cancel_night(night, reason="salle prise")
    assert delivery.wait(10)
    assert "erreur pendant son envoi, laissée au prochain passage" in caplog.text
    monkeypatch.undo()
    assert Delivery.objects.get().status == "pending"
    assert deliver_command() == "1 livrée(s), 0 à réessayer, 0 abandonnée(s).\n"


def test_the_back_off_doubles_up_to_six_hours():
    waits = [delivery.backoff(attempts) for attempts in range(1, 12)]
    minutes = [int(wait.total_seconds() // 60) for wait in waits]
    assert minutes == [1, 2, 4, 8, 16, 32, 64, 128, 256, 360, 360]


def test_a_hung_chat_does_not_hold_the_officials_act(chat, night, client, board_user, settings):
    """The act's page answers while the chat still holds the post; the post then times out and
    is left for the command."""
    settings.WEBHOOK_TIMEOUT = 1
    Webhook.objects.create(name="discord", url=chat.url("/hook"), format="discord")
    chat.hang.set()
    client.force_login(board_user)
    response = client.post(reverse("gamenights:night_cancel", args=[night.pk]), {"cancel-reason": "pluie"})
    assert response.status_code == 302
    assert chat.entered.wait(10)  # the post has reached the chat…
    assert not chat.finished.is_set()  # …which has not answered, yet the page has
    assert delivery.wait(10)  # the post gives up after WEBHOOK_TIMEOUT
    chat.release.set()
    row = Delivery.objects.get()
    assert (row.status, row.last_error) == ("pending", "délai dépassé")
    night.refresh_from_db()
    assert night.cancelled


def test_a_second_delivery_while_the_first_is_posting_posts_nothing(chat, night):
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(delivery.transaction, "on_commit", lambda job: None)  # the command sends
        nights.cancel_night(night, reason="salle prise")
    [pk] = delivery.due()
    second = []
    chat.during_post = lambda: second.append(delivery.deliver(pk))  # another process, meanwhile
    assert delivery.deliver(pk) == "delivered"
    assert second == [None] and len(chat.posts) == 1
    assert delivery.deliver(pk) is None and delivery.due() == []


def test_two_senders_that_read_the_row_as_due_post_once(chat, night):
    """Both have read the row as due before either claims it: the claim decides."""
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(delivery.transaction, "on_commit", lambda job: None)
        nights.cancel_night(night, reason="salle prise")
    first, second = delivery.due(), delivery.due()
    assert first == second != []
    assert delivery.deliver_all(first) == ["delivered"]
    assert delivery.deliver_all(second) == [None]
    assert len(chat.posts) == 1


@pytest.mark.skipif(os.environ.get("WEBHOOK_RACE") != "1", reason="lancé par test_race_on_postgresql")
def test_two_threads_at_once_post_once(chat, night):
    """Two threads, each on its own connection, send the same due rows at the same instant."""
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    Webhook.objects.create(name="json2", url=chat.url("/other"), format="json")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(delivery.transaction, "on_commit", lambda job: None)
        nights.cancel_night(night, reason="salle prise")
    pks = delivery.due()
    start = threading.Barrier(2)
    results = []

    def run():
        try:
            start.wait(5)
            results.extend(delivery.deliver_all(pks))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(results, key=str) == [None, None, "delivered", "delivered"]
    assert sorted(path for path, _body in chat.posts) == ["/hook", "/other"]


@pytest.fixture
def postgres_url():
    with side_database("webhooks", template="migrated") as url:
        yield url


if os.environ.get("WEBHOOK_RACE") == "1":

    @pytest.fixture(scope="session")
    def django_db_setup(django_db_blocker):
        """In the child pytest of `test_race_on_postgresql`: its database as it is, a copy of the
        migrated one (tests/databases.py), never a test database migrated again."""
        from django.core.management import call_command  # noqa: PLC0415

        with django_db_blocker.unblock():
            call_command("migrate", verbosity=0)


@pytest.mark.postgresql
def test_race_on_postgresql(postgres_url):
    """`test_two_threads_at_once_post_once` in a child pytest on a PostgreSQL database of its own
    (threads on SQLite's shared in-memory test database would meet its table locks instead)."""
    run_child_pytest(
        f"{__file__}::test_two_threads_at_once_post_once",
        {"DATABASE_URL": postgres_url, "WEBHOOK_RACE": "1"},
        "1 passed",
        unset=["TEST_POSTGRES_URL"],
    )
