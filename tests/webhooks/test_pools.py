"""The webhooks post on threads of their own, apart from the mails' (issue 30): a chat that
holds every posting thread leaves a password-reset mail free to leave at once."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from federation import outbox
from gamenights import services as nights
from tests.webhooks.conftest import wait_until
from webhooks import delivery
from webhooks.models import Webhook

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_chat_that_holds_every_posting_thread_does_not_hold_a_mail(
    chat, season, client, settings, monkeypatch
):
    settings.WEBHOOK_TIMEOUT = 20
    chat.hang.set()
    Webhook.objects.create(name="json", url=chat.url("/hook"), format="json")
    Webhook.objects.create(name="autre", url=chat.url("/other"), format="json")
    night = nights.schedule_night(season, date=datetime.date(2010, 11, 19), place="Chez Steph")
    with monkeypatch.context() as patch:
        patch.setattr(delivery.transaction, "on_commit", lambda job: None)
        nights.cancel_night(night, reason="plus de salle")
    # one post per thread, each handed over once the one before is in the chat's hands (the
    # test's in-memory SQLite refuses two threads claiming at the same instant)
    for count, pk in enumerate(delivery.due(), start=1):
        delivery.workers.send_later(delivery.deliver_in_background, [pk])
        assert wait_until(lambda count=count: len(chat.posts) == count)
    assert len(chat.posts) == delivery.WORKERS  # every posting thread held by the chat
    get_user_model().objects.create_user("membre", email="membre@example.org", password="secret-pass-1")
    client.post(reverse("password_reset"), {"email": "membre@example.org"})
    assert outbox.wait(5), "le courriel attend la discussion"
    assert [message.to for message in mail.outbox] == [["membre@example.org"]]
    assert not chat.finished.is_set()  # the chat still holds both posts
    chat.release.set()
    assert delivery.wait(30)
