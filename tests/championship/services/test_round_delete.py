"""A round created by mistake (wrong players, wrong evening) is deleted by the secretary or the
board while it is a draft, with a reason kept in its history; a submitted or homologated round
is never deleted."""

import pytest
from django.urls import reverse

from championship.models import Deal, Round, Seat
from championship.services import RoundError, delete_draft_round, homologate_round, submit_round
from tests.factories import make_round


def delete_url(round_):
    return reverse("championship:round_delete", args=[round_.pk])


def test_it_deletes_a_draft_round_with_its_reason_and_author_in_the_history(season, secretary):
    round_ = make_round(season)
    pk = round_.pk
    delete_draft_round(round_, secretary.user, "mauvais joueurs à la table")
    assert not Round.objects.filter(pk=pk).exists()
    assert not Deal.objects.filter(round_id=pk).exists() and not Seat.objects.filter(round_id=pk).exists()
    record = Round.history.filter(id=pk).order_by("-history_date").first()
    assert record.history_type == "-"
    assert record.history_change_reason == "mauvais joueurs à la table"
    assert record.history_user == secretary.user


@pytest.mark.parametrize("reason", ["", "   "])
def test_it_refuses_to_delete_without_a_reason(season, secretary, reason):
    round_ = make_round(season)
    with pytest.raises(RoundError) as error:
        delete_draft_round(round_, secretary.user, reason)
    assert error.value.code == "reason"
    assert Round.objects.filter(pk=round_.pk).exists()


@pytest.mark.parametrize("stage", ["submitted", "homologated"])
def test_it_never_deletes_a_submitted_or_homologated_round(season, president, stage):
    round_ = make_round(season)
    submit_round(round_)
    if stage == "homologated":
        homologate_round(round_, president.user)
    with pytest.raises(RoundError) as error:
        delete_draft_round(round_, president.user, "erreur")
    assert error.value.code == "status"
    assert Round.objects.filter(pk=round_.pk).exists()


def test_the_secretary_confirms_then_deletes_a_draft_on_the_site(client, season, secretary):
    round_ = make_round(season)
    client.force_login(secretary.user)
    page = client.get(delete_url(round_)).content.decode()
    assert "Supprimer la manche" in page and "Motif" in page
    response = client.post(delete_url(round_), {"motif": "soirée saisie deux fois"})
    assert response.status_code == 302
    assert response["Location"] == reverse("championship:round_list", args=[season.name])
    assert not Round.objects.filter(pk=round_.pk).exists()


def test_the_page_asks_for_the_reason_and_keeps_the_round(client, season, secretary):
    round_ = make_round(season)
    client.force_login(secretary.user)
    response = client.post(delete_url(round_), {"motif": ""})
    assert response.status_code == 200
    assert "Motif : obligatoire" in response.content.decode()
    assert Round.objects.filter(pk=round_.pk).exists()


def test_a_plain_member_cannot_delete_a_round(client, season, member):
    round_ = make_round(season)
    client.force_login(member.user)
    assert client.post(delete_url(round_), {"motif": "x"}).status_code == 403
    assert Round.objects.filter(pk=round_.pk).exists()


def test_a_submitted_round_cannot_be_deleted_on_the_site(client, season, secretary):
    round_ = make_round(season)
    submit_round(round_)
    client.force_login(secretary.user)
    response = client.post(delete_url(round_), {"motif": "erreur"}, follow=True)
    assert "Seule une manche en brouillon peut être supprimée." in response.content.decode()
    assert Round.objects.filter(pk=round_.pk).exists()
