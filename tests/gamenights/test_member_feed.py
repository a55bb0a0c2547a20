"""A member's own feed address is a bearer secret (docs/calendrier.md, « L'adresse de son
calendrier ») : renewable from the account page (the old address then not found), closed with
the account, and the addresses signed the old way (SECRET_KEY and the player's id alone) still
open until the member first renews."""

import datetime
import importlib

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.urls import reverse

from gamenights import links, services
from gamenights.models import FeedKey, Rsvp
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


def renew_url():
    return reverse("notifications:feed_renew")


def shown_address(client):
    """The feed address the account page shows (its path)."""
    page = client.get(reverse("notifications:account"))
    assert page.status_code == 200
    return page.context["member_feed_url"].split("testserver", 1)[1]


def test_renewing_the_address_closes_the_old_one(client, member, night):
    services.answer(night, member, Rsvp.YES)
    client.force_login(member.user)
    old = shown_address(client)
    assert client.get(old).status_code == 200
    assert shown_address(client) == old  # the same address from one visit to the next

    response = client.post(renew_url(), follow=True)
    assert response.redirect_chain[-1][0] == reverse("notifications:account")
    assert "Nouvelle adresse de votre calendrier" in response.content.decode()
    new = shown_address(client)
    assert new != old
    assert client.get(old).status_code == 404
    assert client.get(new).status_code == 200
    assert client.get(reverse("gamenights:feed")).status_code == 200  # the public feed is untouched


def test_the_renewal_is_kept_in_the_history_without_the_secret(client, member):
    client.force_login(member.user)
    shown_address(client)
    client.post(renew_url())
    key = FeedKey.objects.get(player=member)
    assert key.renewed_at is not None
    record = key.history.first()
    assert (record.history_user, record.history_change_reason) == (
        member.user,
        "adresse du calendrier renouvelée",
    )
    assert not hasattr(record, "key")  # a history row never holds a secret, even an old one


def test_renewing_asks_for_a_post_and_a_player(client, member, db):
    client.force_login(member.user)
    assert client.get(renew_url()).status_code == 405
    staff = get_user_model().objects.create_user(username="equipe", password="secret-pass-1")
    client.force_login(staff)
    assert client.post(renew_url()).status_code == 403


def test_the_feed_of_a_disabled_account_is_not_found(client, member):
    url = links.feed_url(member)
    assert client.get(url).status_code == 200
    member.user.is_active = False
    member.user.save()
    assert client.get(url).status_code == 404


def test_the_feed_of_a_player_without_an_account_is_not_found(client, member):
    url = links.feed_url(member)
    member.user = None
    member.save()
    assert client.get(url).status_code == 404


def test_the_address_is_made_of_the_key_and_the_site_secret(client, member, settings):
    """A copy of the database alone (a backup) does not open a feed: the stored key is not the
    address, which is its HMAC under SECRET_KEY; a key rotated with SECRET_KEY_FALLBACKS keeps
    the addresses handed out open."""
    url = links.feed_url(member)
    key = FeedKey.objects.get(player=member).key
    assert key not in url
    old_secret = settings.SECRET_KEY
    settings.SECRET_KEY = "another-secret-key-of-the-site-" + "x" * 20
    assert links.feed_url(member) != url
    assert client.get(url).status_code == 404
    settings.SECRET_KEY_FALLBACKS = [old_secret]
    assert client.get(url).status_code == 200


@pytest.mark.parametrize(
    "forged",
    ["faux", "1.", ".abc", "99999.abc", "{pk}.abc", "{pk}.{pk}", "{pk}.{other}"],
)
def test_a_forged_address_is_not_found(client, member, forged):
    other = make_player("Autre")
    other_mac = links.feed_token(other).split(".", 1)[1]
    token = forged.format(pk=member.pk, other=other_mac)
    links.feed_url(member)  # the member has a key
    assert client.get(reverse("gamenights:member_feed", args=[token])).status_code == 404


@pytest.mark.parametrize("signer", [signing.Signer, signing.TimestampSigner], ids=["signed", "time-stamped"])
def test_an_address_signed_the_old_way_opens_until_the_first_renewal(client, member, signer):
    old = reverse("gamenights:member_feed", args=[signer(salt=links.FEED_SALT).sign_object(member.pk)])
    assert client.get(old).status_code == 200
    links.feed_url(member)  # the account page shown: a key made, the old address still open
    assert client.get(old).status_code == 200
    services.renew_feed_key(member, user=member.user)
    assert client.get(old).status_code == 404


def test_the_calendar_page_shows_the_same_address_as_the_account_page(client, member):
    client.force_login(member.user)
    account = shown_address(client)
    calendar = client.get(reverse("gamenights:calendar")).context["member_feed_url"]
    assert calendar.endswith(account)
    assert calendar.startswith("http://testserver/calendrier/membre/")


def test_two_first_visits_make_one_key(member, monkeypatch):
    first = services.feed_key(member)
    again = services.feed_key(member)
    assert first.pk == again.pk and FeedKey.objects.count() == 1
    assert len(first.key) >= 40
    # Two first visits at once: the second one's look-up missed the key the first was making; its
    # insert is refused by the unique player, and it reads the key made (on PostgreSQL, the
    # refused insert must not leave the request's transaction aborted).
    missed = FeedKey.objects.none()
    monkeypatch.setattr(services.FeedKey.objects, "filter", lambda **_kw: missed)
    with transaction.atomic():
        raced = services.feed_key(member)
        assert raced.pk == first.pk and raced.key == first.key
        assert Rsvp.objects.count() == 0  # the transaction still answers


def test_the_member_feed_holds_his_nights_after_a_renewal(client, member, night, open_season):
    services.answer(night, member, Rsvp.NO, reason="en déplacement")
    services.schedule_night(open_season, date=night.date + datetime.timedelta(days=7))
    services.renew_feed_key(member, user=member.user)
    body = client.get(links.feed_url(member)).content.decode()
    assert body.count("BEGIN:VEVENT") == 2 and "✘ Je ne viens pas · " in body  # his season's two nights


def test_a_member_gets_his_key_with_his_account_and_his_pages_only_read_it(client):
    """A page reads in one snapshot, where a write fails on SQLite once another has committed
    (tests/notifications/races/test_feed_key_races.py): the key is made by the write that gives
    the account, and the pages that show the address write nothing."""
    zoe = make_player("Zoé", with_user=False)
    assert not FeedKey.objects.filter(player=zoe).exists()
    zoe.user = get_user_model().objects.create_user(username="zoe", password="secret-pass-1")
    zoe.save()
    key = FeedKey.objects.get(player=zoe)
    client.force_login(zoe.user)
    keys_before = list(FeedKey.history.values_list("history_id", flat=True))
    assert shown_address(client) == links.feed_url(zoe)
    assert client.get(reverse("gamenights:calendar")).status_code == 200
    assert FeedKey.objects.get(player=zoe).key == key.key
    assert list(FeedKey.history.values_list("history_id", flat=True)) == keys_before


def test_the_migration_gives_a_key_to_each_member_who_had_an_account_without_one():
    """Its function, run on the models as they are (the suite's database is built migrated)."""
    from django.apps import apps  # noqa: PLC0415

    migration = importlib.import_module("gamenights.migrations.0004_feed_keys_of_the_members")
    members = [make_player("Yves"), make_player("Xavier")]
    without_account = make_player("Walter", with_user=False)
    kept = FeedKey.objects.get(player=members[0]).key
    FeedKey.objects.filter(player=members[1]).delete()  # an account from before the keys
    migration.make_the_missing_keys(apps, None)
    assert FeedKey.objects.get(player=members[0]).key == kept
    assert len(FeedKey.objects.get(player=members[1]).key) >= 40
    assert not FeedKey.objects.filter(player=without_account).exists()
