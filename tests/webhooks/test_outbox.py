"""The outbox is written in the act's transaction: one row per active webhook and news, none
when the act rolls back; each act announced says what the chat is told."""

import datetime

import pytest
from django.db import transaction

from championship.services import homologate_round, save_report
from gamenights import services as nights
from gamenights.models import Rsvp
from tests.conftest import make_player
from tests.factories import make_round, player
from webhooks.models import Delivery, Webhook

pytestmark = pytest.mark.django_db


@pytest.fixture
def hooks(db):
    return [
        Webhook.objects.create(
            name="Discord", url="https://discord.example/api/webhooks/1/abc", format="discord"
        ),
        Webhook.objects.create(name="JSON", url="https://hooks.example/tarot", format="json"),
        Webhook.objects.create(name="Éteint", url="https://off.example/x", format="slack", active=False),
    ]


def test_an_act_writes_one_row_per_active_webhook_inside_its_transaction(
    hooks, night, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        nights.cancel_night(night, reason="salle prise")
        rows = list(Delivery.objects.order_by("webhook__name"))  # before the commit
    assert [(row.webhook.name, row.status, row.event) for row in rows] == [
        ("Discord", "pending", "night_cancelled"),
        ("JSON", "pending", "night_cancelled"),
    ]
    # the posting waits for the commit (beside it, the season's figures warmed again, and the
    # members' news sent, each on their own)
    posting = [c for c in callbacks if c.__module__.startswith("webhooks")]
    assert len(posting) == 1, [f"{c.__module__}.{c.__qualname__}" for c in callbacks]


def test_no_row_when_the_acts_transaction_rolls_back(hooks, night, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(RuntimeError), transaction.atomic():
        nights.cancel_night(night, reason="salle prise")
        assert Delivery.objects.count() == 2
        raise RuntimeError("l'acte échoue après coup")
    assert Delivery.objects.count() == 0 and callbacks == []


def test_a_homologated_round_announces_its_podium_and_its_report(hooks, season, president):
    round_ = make_round(season, status="submitted")
    save_report(round_, "Une belle soirée.", author=player("Bruno"), user=president.user)
    assert not Delivery.objects.exists()  # a report of a round not homologated is not public
    homologate_round(round_, president.user)
    body = Delivery.objects.get(webhook__format="json").body
    podium = list(round_.seats.order_by("rank", "position").values_list("player__name", "total")[:3])
    assert body["event"] == "round_homologated"
    assert body["data"]["podium"] == [{"player": name, "total": total} for name, total in podium]
    assert f"/manches/{round_.pk}/compte-rendu/" in body["text"]
    assert body["url"].endswith(f"/manches/{round_.pk}/")
    assert body["text"].startswith("Homologuée : la manche 1 de la saison 2010-2011 (jouée le 19/11/2010")


def test_a_report_filed_on_a_homologated_round_is_announced_once(hooks, season, president):
    round_ = make_round(season, status="submitted")
    homologate_round(round_, president.user)
    save_report(round_, "Récit.", author=player("Bruno"), user=president.user)
    save_report(round_, "Récit corrigé.", user=president.user)  # a correction: no news
    events = list(Delivery.objects.filter(webhook__format="json").values_list("event", flat=True))
    assert sorted(events) == ["report_published", "round_homologated"]
    body = Delivery.objects.get(webhook__format="json", event="report_published").body
    assert body["text"].startswith("Compte-rendu publié par Bruno : la manche 1")


def test_the_fourth_yes_confirms_the_table_once(hooks, night):
    comers = [make_player(name) for name in ("Anne", "Bea", "Cyril", "Dora", "Eve")]
    for comer in comers[:3]:
        nights.answer(night, comer, Rsvp.YES, now=datetime.datetime(2010, 11, 1, tzinfo=datetime.UTC))
    assert not Delivery.objects.exists()
    nights.answer(night, comers[3], Rsvp.YES, on_behalf=True)
    nights.answer(night, comers[4], Rsvp.YES, on_behalf=True)  # already on: no news
    nights.answer(night, comers[4], Rsvp.NO, on_behalf=True)
    nights.answer(night, comers[0], Rsvp.NO, on_behalf=True)  # 3 left: off
    nights.answer(night, comers[0], Rsvp.YES, on_behalf=True)  # on again, same night: written once
    body = Delivery.objects.get(webhook__format="json").body
    assert body["event"] == "table_confirmed"
    assert body["data"]["players"] == ["Anne", "Bea", "Cyril", "Dora"]
    assert body["text"].startswith("Table confirmée : soirée du 19/11/2010 à 20:30, Chez Steph")


def test_the_confirmed_table_names_only_the_active_players(hooks, night):
    comers = [make_player(name) for name in ("Anne", "Bea", "Cyril", "Dora", "Eve")]
    nights.answer(night, comers[4], Rsvp.YES, on_behalf=True)
    comers[4].active = False  # Eve's answer was given before she left the federation
    comers[4].save()
    for comer in comers[:4]:
        nights.answer(night, comer, Rsvp.YES, on_behalf=True)
    body = Delivery.objects.get(webhook__format="json").body
    assert body["data"]["players"] == ["Anne", "Bea", "Cyril", "Dora"]


def test_a_night_moved_is_announced_not_a_change_of_its_notes(hooks, night):
    nights.change_night(night, notes="Apportez des jetons")
    assert not Delivery.objects.exists()
    nights.change_night(night, place="Au Bar", reason="salle prise")
    body = Delivery.objects.get(webhook__format="json").body
    assert body["event"] == "night_moved"
    assert body["text"].startswith("Soirée déplacée : désormais le 19/11/2010 à 20:30, Au Bar")
    nights.cancel_night(night, reason="plus de salle du tout")
    cancelled = Delivery.objects.get(webhook__format="json", event="night_cancelled").body
    assert "Motif : plus de salle du tout" in cancelled["text"]


def test_no_webhook_no_row(season, night):
    nights.cancel_night(night, reason="salle prise")
    assert not Delivery.objects.exists()
