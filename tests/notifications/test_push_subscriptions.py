"""A member's phones that receive his news: subscribed from « Moi » (the browser posts its push
subscription), listed on « Mon compte » by name and host only (the address is a secret),
removable, gone with the account; and his choices per event and channel."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from notifications.models import PUSH, News, PushSubscription
from tests.notifications.push_service import Phone, b64url

pytestmark = pytest.mark.django_db

ENDPOINT = "https://fcm.googleapis.com/fcm/send/dGVzdC1zZWNyZXQtdG9rZW4tMTIzNDU2Nzg5"
ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile"
)


@pytest.fixture(autouse=True)
def production_push_hosts(settings, vapid_pair):
    from federation import settings as production  # noqa: PLC0415

    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = vapid_pair
    settings.PUSH_ALLOWED_HOSTS = production.PUSH_ALLOWED_HOSTS
    settings.PUSH_ALLOW_LOOPBACK = False


def subscription_json(phone=None, endpoint=ENDPOINT, **changes):
    phone = phone or Phone()
    data = {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": phone.p256dh, "auth": b64url(phone.auth)},
    }
    data["keys"].update(changes)
    return json.dumps(data)


def post(client, body, agent=ANDROID):
    return client.post(
        reverse("notifications:push_subscribe"), body, content_type="application/json", HTTP_USER_AGENT=agent
    )


def test_a_member_subscribes_his_phone_and_sees_it_by_name_only(client, members):
    alice = members["Alice"]
    client.force_login(alice.user)
    response = post(client, subscription_json())
    assert response.status_code == 201 and response.json() == {"phone": "Android · Chrome"}
    assert post(client, subscription_json()).status_code == 200  # the same phone again: still one
    phone = PushSubscription.objects.get()
    assert (phone.user, phone.label, phone.host) == (alice.user, "Android · Chrome", "fcm.googleapis.com")
    html = client.get(reverse("notifications:account")).content.decode()
    assert "Android · Chrome" in html and "fcm.googleapis.com" in html
    assert "dGVzdC1zZWNyZXQ" not in html  # the address's secret part is never shown


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (
            subscription_json(endpoint="https://intranet.example.org/push/1"),
            "service de notifications permis",
        ),
        (subscription_json(endpoint="http://fcm.googleapis.com/fcm/send/1"), "https://"),
        (subscription_json(auth="court"), "Abonnement illisible"),
        (subscription_json(p256dh=b64url(b"\x04" + b"x" * 30)), "Abonnement illisible"),
        ("{pas du json", "Abonnement illisible"),
        (json.dumps({"endpoint": ENDPOINT}), "Abonnement illisible"),
    ],
)
def test_a_subscription_out_of_the_rules_is_refused(client, members, body, why):
    client.force_login(members["Alice"].user)
    response = post(client, body)
    assert response.status_code == 400 and why in response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_only_an_identified_member_subscribes(client, db):
    response = post(client, subscription_json())
    assert response.status_code == 302 and not PushSubscription.objects.exists()
    staff = get_user_model().objects.create_user(username="equipe", password="x-pass-1")
    client.force_login(staff)
    assert post(client, subscription_json()).status_code == 403


def test_a_shared_phone_follows_who_subscribed_it_last(client, members):
    client.force_login(members["Alice"].user)
    post(client, subscription_json())
    client.force_login(members["Bruno"].user)
    assert post(client, subscription_json()).status_code == 200
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bruno"]


def test_a_member_removes_his_phone_and_only_his(client, members):
    alice_phone = Phone().subscribe(members["Alice"].user, ENDPOINT)
    bruno_phone = Phone().subscribe(members["Bruno"].user, ENDPOINT + "-b")
    client.force_login(members["Alice"].user)
    assert client.post(reverse("notifications:push_remove", args=[bruno_phone.pk])).status_code == 404
    response = client.post(reverse("notifications:push_remove", args=[alice_phone.pk]), follow=True)
    assert "Ce téléphone ne recevra plus vos nouvelles." in response.content.decode()
    assert list(PushSubscription.objects.all()) == [bruno_phone]


def test_the_phones_and_their_news_go_with_the_account(members, night):
    alice = members["Alice"]
    phone = Phone().subscribe(alice.user, ENDPOINT)
    News.objects.create(
        recipient=alice,
        channel=PUSH,
        subscription=phone,
        target=f"push:{phone.pk}",
        key="k",
        event="seat",
        subject_id=1,
    )
    alice.user.delete()  # the account's erasure
    assert not PushSubscription.objects.exists() and not News.objects.exists()


def test_the_choices_are_saved_per_event_and_channel(client, members):
    bruno = members["Bruno"]
    client.force_login(bruno.user)
    html = client.get(reverse("notifications:account")).content.decode()
    assert 'aria-label="Table confirmée (téléphone)"' in html  # each box named for what it turns on
    on_by_default = 'aria-label="Manche homologuée (téléphone)" id="id_push_round_result" checked'
    assert on_by_default in html
    choices = {"night": "on", "language": "fr", "push_round_result": "on", "email_night_changed": "on"}
    client.post(reverse("notifications:account"), choices)
    preference = bruno.reminder_preference
    assert preference.wants("round_result", "push") and preference.wants("night_changed", "email")
    assert not preference.wants("table_confirmed", "push") and not preference.wants("report_due", "email")


def test_an_eleventh_phone_replaces_the_oldest(client, members):
    client.force_login(members["Alice"].user)
    for index in range(11):
        assert post(client, subscription_json(endpoint=f"{ENDPOINT}-{index}")).status_code == 201
    kept = sorted(PushSubscription.objects.values_list("endpoint", flat=True))
    assert len(kept) == 10 and f"{ENDPOINT}-0" not in kept and f"{ENDPOINT}-10" in kept
