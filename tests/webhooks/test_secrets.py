"""A webhook's URL holds its secret: the logs, the outbox's errors, the admin's lists and the
webhook's history name it by its host only."""

import datetime
import logging

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from gamenights import services as nights
from tests.webhooks.conftest import SECRET
from webhooks import delivery
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_logs_and_errors_show_the_host_never_the_secret(chat, discord, season, caplog):
    night = nights.schedule_night(season, date=datetime.date(2010, 11, 19))
    caplog.set_level(logging.INFO, logger="webhooks")
    chat.status = 500
    nights.change_night(night, place="Au Bar")
    assert delivery.wait(10)
    chat.status = 204
    nights.cancel_night(night, reason="pluie")
    assert delivery.wait(10)
    messages = [record.getMessage() for record in caplog.records if record.name == "webhooks"]
    assert messages == [
        "annonce night_moved non livrée à 127.0.0.1 (essai 1) : HTTP 500",
        "annonce night_cancelled livrée à 127.0.0.1",
    ]
    assert not any(SECRET in text for text in messages)
    assert all(SECRET not in row.last_error for row in Delivery.objects.all())


def test_the_admin_lists_and_history_hide_the_secret(chat, discord, season, client):
    night = nights.schedule_night(season, date=datetime.date(2010, 11, 19))
    nights.cancel_night(night, reason="pluie")
    assert delivery.wait(10)
    admin = get_user_model().objects.create_superuser("chef", password="secret-pass-1")
    client.force_login(admin)
    pages = [
        reverse("admin:webhooks_webhook_changelist"),
        reverse("admin:webhooks_webhook_history", args=[discord.pk]),
        reverse("admin:webhooks_delivery_changelist"),
        reverse("admin:webhooks_delivery_change", args=[Delivery.objects.get().pk]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert SECRET not in response.content.decode(), url
    assert "127.0.0.1" in client.get(pages[0]).content.decode()
    # its own form shows it, for the board to correct it
    form = client.get(reverse("admin:webhooks_webhook_change", args=[discord.pk]))
    assert SECRET in form.content.decode()


def test_only_a_board_edits_the_webhooks(discord, client, member, board_user):
    member.user.is_staff = True
    member.user.save()
    client.force_login(member.user)
    assert client.get(reverse("admin:webhooks_webhook_changelist")).status_code == 403
    board_user.is_staff = True
    board_user.save()
    client.force_login(board_user)
    assert client.get(reverse("admin:webhooks_webhook_changelist")).status_code == 200
