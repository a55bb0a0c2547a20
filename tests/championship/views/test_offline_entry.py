"""The queue of deals kept on the phone offline (championship.views.offline, js/offline-entry.js):
each deal sent with its one-time key, the round's version it was entered at and the account that
kept it, answered in JSON; a deal sent again is stored once and answered as stored; a refusal says
why, in French, and the number the deal would have now; a deal kept by another account than the
session's is refused, nothing written."""

import uuid

import pytest
from django.templatetags.static import static
from django.urls import reverse

from championship import services
from championship.models import Deal, Round
from tests.factories import fifth_deal_data, player


def send_url(round_):
    return reverse("championship:deal_send", args=[round_.pk])


def queued(round_, who, **changes):
    """A kept deal as the phone sends it: the form's fields, a one-time key, the version seen, the
    account that kept it (`who`: a Player with an account)."""
    return {
        "key": str(uuid.uuid4()),
        "version": str(round_.version),
        "account": str(who.user.pk),
        **fifth_deal_data(**changes),
    }


def test_it_stores_a_kept_deal_and_answers_its_number_and_the_new_version(as_user, example, secretary):
    version = example.version
    response = as_user("secretary").post(send_url(example), queued(example, secretary))
    assert response.status_code == 200
    answer = response.json()
    example.refresh_from_db()
    assert answer == {
        "stored": True,
        "number": 5,
        "version": example.version,
        "next": 6,
        "message": "Donne 5 enregistrée.",
    }
    assert example.version > version
    assert example.deals.get(number=5).taker == player("Bruno")


def test_a_deal_sent_again_after_a_lost_answer_is_stored_once_and_answered_as_stored(
    as_user, example, secretary
):
    client = as_user("secretary")
    deal = queued(example, secretary)  # sent at the version before it was stored: the phone never heard back
    client.post(send_url(example), deal)
    again = client.post(send_url(example), deal)
    assert again.status_code == 200
    assert again.json()["stored"] is True and again.json()["replay"] is True
    example.refresh_from_db()
    assert again.json()["version"] == example.version and again.json()["next"] == 6
    assert example.deals.count() == 5


def test_a_deal_entered_before_the_round_changed_is_refused_with_what_changed(
    as_user, example, president, secretary
):
    deal = queued(example, secretary)
    services.delete_deal(example.deals.get(number=4), user=president.user)  # meanwhile, elsewhere
    response = as_user("secretary").post(send_url(example), deal)
    assert response.status_code == 409
    answer = response.json()
    example.refresh_from_db()
    assert answer["stored"] is False and answer["code"] == "stale"
    assert answer["version"] == example.version
    assert answer["next"] == 4  # sent again now, it would be deal 4
    [message] = answer["errors"]
    assert message.startswith("La manche a été modifiée pendant que vous la lisiez : donne 4 supprimée par")
    assert "Rien n'est enregistré" in message
    assert example.deals.count() == 3
    # Its key was not used up: sent again as the round now is, it is stored.
    deal["version"] = str(example.version)
    assert as_user("secretary").post(send_url(example), deal).json()["stored"] is True
    assert example.deals.count() == 4


def test_a_deal_for_a_submitted_round_is_refused_in_french(as_user, example, secretary):
    services.submit_round(example, secretary.user)
    response = as_user("secretary").post(send_url(example), queued(example, secretary))
    assert response.status_code == 409
    assert response.json()["code"] == "status"
    assert response.json()["errors"] == [
        "Cette manche est soumise pour homologation : la remettre en brouillon pour ajouter une donne."
    ]
    assert Round.objects.get(pk=example.pk).deals.count() == 4


def test_an_invalid_kept_deal_is_refused_with_the_field_named(as_user, example, secretary):
    version = example.version
    response = as_user("secretary").post(send_url(example), queued(example, secretary, points="90"))
    assert response.status_code == 422
    answer = response.json()
    assert answer["stored"] is False and answer["code"] == "invalid"
    assert answer["next"] == 5
    assert any("Donne 5" in error and "points" in error for error in answer["errors"]), answer["errors"]
    assert answer["version"] == version
    assert not Deal.objects.filter(round=example, number=5).exists()


def test_without_a_version_a_kept_deal_is_stored_whatever_changed(as_user, example, president, secretary):
    deal = queued(example, secretary)
    deal["version"] = ""
    services.delete_deal(example.deals.get(number=4), user=president.user)
    assert as_user("secretary").post(send_url(example), deal).json()["stored"] is True


@pytest.mark.parametrize("who", ["member", "anonymous"])
def test_only_those_who_enter_the_round_may_send_a_kept_deal(as_user, example, who, secretary):
    response = as_user(who).post(send_url(example), queued(example, secretary))
    assert response.status_code in (302, 403)
    assert example.deals.count() == 4


def test_a_deal_kept_before_an_earlier_deal_was_deleted_is_told_of_the_deletion_and_its_new_number(
    as_user, example, secretary, president
):
    """Deal 2 deleted meanwhile (deals 3 and 4 renumbered after it): the refusal names the
    deletion, not the renumbering, and the deal kept as 5 would now be deal 4."""
    deal = queued(example, secretary)
    services.delete_deal(example.deals.get(number=2), user=president.user)
    answer = as_user("secretary").post(send_url(example), deal).json()
    assert answer["code"] == "stale" and answer["next"] == 4
    [message] = answer["errors"]
    assert message.startswith(
        "La manche a été modifiée pendant que vous la lisiez : donne 2 supprimée par Président"
    )


def test_a_deal_kept_by_another_account_is_refused_and_nothing_is_written(
    as_user, example, secretary, president
):
    """A shared phone: the deal the secretary kept is never sent in the président's session; if
    it were, the server refuses it (the history would name the président)."""
    version = example.version
    response = as_user("president").post(send_url(example), queued(example, secretary))
    assert response.status_code == 409
    answer = response.json()
    assert answer["stored"] is False and answer["code"] == "account"
    assert answer["errors"] == [
        "Cette donne a été gardée sur ce téléphone par un autre compte : elle ne part que depuis "
        "la session de ce compte. Rien n'est enregistré."
    ]
    example.refresh_from_db()
    assert example.version == version and example.deals.count() == 4
    assert as_user("president").post(send_url(example), queued(example, president)).json()["stored"] is True


@pytest.mark.parametrize("account", ["", "pas-un-nombre"])
def test_a_deal_kept_without_its_account_is_refused(as_user, example, secretary, account):
    deal = queued(example, secretary)
    deal["account"] = account
    response = as_user("secretary").post(send_url(example), deal)
    assert response.status_code == 409 and response.json()["code"] == "account"
    assert example.deals.count() == 4


# --- the entry page itself ------------------------------------------------------------------------


def entry_url(round_):
    return reverse("championship:round_edit", args=[round_.pk])


def test_the_entry_page_refuses_a_deal_entered_at_an_older_version_and_says_why(
    as_user, example, president, secretary
):
    deal = queued(example, secretary)
    services.delete_deal(example.deals.get(number=4), user=president.user)
    response = as_user("secretary").post(entry_url(example), deal, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "La manche a été modifiée pendant que vous la lisiez" in html
    assert example.deals.count() == 3


def test_the_entry_page_answers_a_deal_sent_again_at_an_older_version_as_stored(as_user, example, secretary):
    client = as_user("secretary")
    deal = queued(example, secretary)
    client.post(entry_url(example), deal, HTTP_HX_REQUEST="true")
    again = client.post(entry_url(example), deal, HTTP_HX_REQUEST="true")
    assert "Donne 5 enregistrée." in again.content.decode()
    assert example.deals.count() == 5


def test_the_entry_page_form_carries_an_empty_version_and_the_offline_queue(as_user, example):
    html = as_user("secretary").get(entry_url(example)).content.decode()
    assert '<input type="hidden" name="version" id="id_version">' in html  # empty: not checked
    assert f'data-send="{send_url(example)}"' in html
    assert f'data-version="{example.version}"' in html
    assert 'data-sw="/sw.js"' in html
    # Under the manifest storage, as production names them: their versioned names.
    assert static("js/offline-entry.js") in html and static("js/idb-keyval.min.js") in html
