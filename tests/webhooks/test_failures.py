"""What a chat can do wrong, and what the outbox makes of it (issue 30): a redirect is a failure,
never followed; one deadline bounds the whole post; an answer that is not HTTP, or any other
error, is a failure of its row, retried, while the batch goes on; a row left « en cours
d'envoi » past the deadline is shown to the board and sent again; each post carries a stable
idempotency key, so that a chat that answered late can drop the repeat."""

import datetime
import importlib
import io
import time

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import DatabaseError
from django.urls import reverse
from django.utils import timezone

from gamenights import services as nights
from tests.local_servers import serving
from tests.webhooks.conftest import Chat, deliver_command
from webhooks import delivery, posting
from webhooks.models import Delivery, Webhook

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def queued(night, monkeypatch):
    """`announce()`: the night cancelled, its rows written and left to the command (no thread)."""

    def announce():
        with monkeypatch.context() as patch:
            patch.setattr(delivery.transaction, "on_commit", lambda job: None)
            nights.cancel_night(night, reason="salle prise")
        return delivery.due()

    return announce


def rows():
    return {
        name: (status, error)
        for name, status, error in Delivery.objects.values_list("webhook__name", "status", "last_error")
    }


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_a_failure_never_followed(chat, queued, status):
    with serving(Chat()) as inside:
        chat.status, chat.location = status, inside.url("/admin/reset")
        Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
        queued()
        assert deliver_command() == "0 livrée(s), 1 à réessayer, 0 abandonnée(s).\n"
        assert rows() == {"json": ("pending", f"redirection refusée (HTTP {status})")}
        assert (inside.connections, inside.requests) == (0, [])
        assert chat.requests == [("POST", "/hook")]


def test_one_deadline_bounds_the_whole_post(raw_chat, queued, settings):
    """A chat that trickles its answer, a byte every 0.3 s (each read well within the timeout),
    is given up once WEBHOOK_TIMEOUT has passed since the post began."""
    settings.WEBHOOK_TIMEOUT = 1
    raw_chat.answer = b"HTTP/1.1 200 OK\r\nX-Lent: " + b"a" * 30 + b"\r\nContent-Length: 0\r\n\r\n"
    raw_chat.pause = 0.3
    Webhook.objects.create(name="lent", url=raw_chat.url("/hook"), format="json")
    [pk] = queued()
    start = time.monotonic()
    assert delivery.deliver(pk) == "pending"
    took = time.monotonic() - start
    assert raw_chat.received.is_set()
    assert took < 2.5, f"{took:.1f} s"
    assert rows() == {"lent": ("pending", "délai dépassé")}


@pytest.mark.parametrize(
    "answer",
    [
        b"ERROR\r\n",
        b"HTTP/1.1 200 OK\r\n" + b"X-En-Trop: oui\r\n" * 101 + b"\r\n",
        b"HTTP/1.1 2000 Bof\r\n\r\n",
        b"",
    ],
    ids=["not-http", "101-headers", "bad-status", "nothing"],
)
def test_a_non_http_answer_is_a_failure_of_its_row_and_the_batch_goes_on(raw_chat, chat, queued, answer):
    raw_chat.answer = answer
    Webhook.objects.create(name="bizarre", url=raw_chat.url("/hook"), format="json")
    Webhook.objects.create(name="bon", url=chat.url("/hook"), format="json")
    queued()
    assert deliver_command() == "1 livrée(s), 1 à réessayer, 0 abandonnée(s).\n"
    assert rows() == {"bizarre": ("pending", "réponse illisible"), "bon": ("delivered", "")}


def test_any_error_of_a_post_is_a_failure_of_its_row(chat, queued, monkeypatch):
    Webhook.objects.create(name="cassé", url=chat.url("/a"), format="json")
    Webhook.objects.create(name="bon", url=chat.url("/b"), format="json")
    real = posting.post

    def post(url, body, key=""):
        if url.endswith("/a"):
            raise RuntimeError("imprévu")
        return real(url, body, key)

    monkeypatch.setattr(posting, "post", post)
    queued()
    assert deliver_command() == "1 livrée(s), 1 à réessayer, 0 abandonnée(s).\n"
    assert rows() == {"cassé": ("pending", "envoi impossible (RuntimeError)"), "bon": ("delivered", "")}


def test_a_row_whose_sending_raises_is_left_to_the_next_run_and_the_command_ends_in_error(
    chat, queued, monkeypatch
):
    Webhook.objects.create(name="a", url=chat.url("/a"), format="json")
    Webhook.objects.create(name="b", url=chat.url("/b"), format="json")
    first, second = queued()
    real = delivery.deliver

    def deliver(pk, now=None):
        if pk == first:
            raise DatabaseError("base indisponible")
        return real(pk, now)

    monkeypatch.setattr(delivery, "deliver", deliver)
    out = io.StringIO()
    with pytest.raises(CommandError, match=r"1 annonce\(s\) en erreur"):
        call_command("deliver_webhooks", stdout=out)
    assert out.getvalue() == "1 livrée(s), 0 à réessayer, 0 abandonnée(s).\n"
    assert delivery.due() == [first]


def test_a_row_stuck_sending_is_shown_to_the_board_then_sent_again(chat, queued, client, board_user):
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    [pk] = queued()
    long_ago = timezone.now() - delivery.stuck_after() - datetime.timedelta(seconds=1)
    Delivery.objects.update(status="sending", attempts=1, claimed_at=long_ago)  # its process died
    board_user.is_staff = True
    board_user.save()
    client.force_login(board_user)
    page = client.get(reverse("admin:webhooks_delivery_changelist")).content.decode()
    assert "bloquée en cours d&#x27;envoi" in page
    assert delivery.due() == [pk]
    assert deliver_command() == "1 livrée(s), 0 à réessayer, 0 abandonnée(s).\n"
    row = Delivery.objects.get()
    assert (row.status, row.attempts) == ("delivered", 2)
    assert "bloquée" not in client.get(reverse("admin:webhooks_delivery_changelist")).content.decode()


def test_a_row_being_sent_is_neither_stuck_nor_taken_again(chat, queued, client, board_user):
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    queued()
    lately = timezone.now() - delivery.stuck_after() + datetime.timedelta(seconds=30)
    Delivery.objects.update(status="sending", attempts=1, claimed_at=lately)
    board_user.is_staff = True
    board_user.save()
    client.force_login(board_user)
    page = client.get(reverse("admin:webhooks_delivery_changelist")).content.decode()
    assert "bloquée" not in page and "en cours d&#x27;envoi" in page
    assert delivery.due() == []
    assert deliver_command() == "0 livrée(s), 0 à réessayer, 0 abandonnée(s).\n"
    assert chat.posts == []


def test_a_late_sender_does_not_overwrite_the_row_taken_again(chat, queued):
    """The stuck row was taken again by another process: the first one's late result is dropped."""
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    [pk] = queued()
    long_ago = timezone.now() - delivery.stuck_after() - datetime.timedelta(seconds=1)

    def taken_again():
        Delivery.objects.update(claimed_at=long_ago)  # as if this post had been stuck…
        assert delivery.deliver(pk) == "delivered"  # …and another process took it again

    chat.during_post = taken_again
    assert delivery.deliver(pk) is None  # its own result, once back, finds the row not its own
    row = Delivery.objects.get()
    assert (row.status, row.attempts) == ("delivered", 2)


def test_each_post_carries_a_stable_idempotency_key(chat, queued):
    Webhook.objects.create(name="json", url=chat.url("/json"), format="json")
    Webhook.objects.create(name="discord", url=chat.url("/discord"), format="discord")
    chat.status = 500
    queued()
    assert deliver_command() == "0 livrée(s), 2 à réessayer, 0 abandonnée(s).\n"
    chat.status = 204
    Delivery.objects.update(next_attempt_at=timezone.now())
    assert deliver_command() == "2 livrée(s), 0 à réessayer, 0 abandonnée(s).\n"
    keys = {}
    for (path, body), headers in zip(chat.posts, chat.headers, strict=True):
        keys.setdefault(path, []).append(headers["Idempotency-Key"])
        if path == "/json":
            assert body["idempotency_key"] == headers["Idempotency-Key"]
    assert sorted(keys) == ["/discord", "/json"]
    assert all(len(set(sent)) == 1 and len(sent) == 2 for sent in keys.values())  # the same, twice
    assert keys["/json"][0] != keys["/discord"][0]
    assert all(len(sent[0]) >= 32 for sent in keys.values())


def test_a_row_left_sending_before_the_claim_was_dated_is_taken_again(chat, queued):
    """The rows that the old outbox left « en cours d'envoi » for ever: the migration dates their
    claim when they were due, so they are stuck, and sent again."""
    migration = importlib.import_module("webhooks.migrations.0002_delivery_claimed_at")
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    [pk] = queued()
    long_ago = timezone.now() - datetime.timedelta(days=3)
    Delivery.objects.update(status="sending", attempts=1, claimed_at=None, next_attempt_at=long_ago)
    assert delivery.due() == []  # undated: never taken again
    migration.date_the_rows_left_sending(apps, None)
    assert Delivery.objects.get().claimed_at == long_ago
    assert delivery.due() == [pk]
    assert deliver_command() == "1 livrée(s), 0 à réessayer, 0 abandonnée(s).\n"
