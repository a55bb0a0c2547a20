"""Correcting the totals of a round whose deals were not kept."""

import pytest
from django.urls import reverse

from championship.models import ChampionshipLine, Round
from championship.services import homologate_round
from tests.factories import make_round, round_totals

TOTALS = {"Alice": 300, "Bruno": 50, "Chloé": -20, "David": -100, "Émile": -230}
CORRECTED = {"Alice": 100, "Bruno": 250, "Chloé": -20, "David": -100, "Émile": -230}


@pytest.fixture
def totals_round(season, president, secretary):
    return make_round(season, totals=TOTALS)


def post_totals(client, round_, totals, **extra):
    data = {f"totals-total_{position}": total for position, total in enumerate(totals.values())}
    data.update(extra)
    return client.post(reverse("championship:seat_totals", args=[round_.pk]), data)


def test_it_corrects_the_totals_and_rescores_the_ranking(client, totals_round, secretary):
    client.force_login(secretary.user)
    page = client.get(reverse("championship:round_edit", args=[totals_round.pk])).content.decode()
    assert "Corriger les totaux" in page
    response = post_totals(client, totals_round, CORRECTED)
    assert response.status_code == 302
    assert round_totals(totals_round) == CORRECTED
    assert totals_round.seats.get(player__name="Bruno").rank == 1


def test_it_refuses_totals_that_do_not_cancel_out_and_changes_nothing(client, totals_round, secretary):
    client.force_login(secretary.user)
    response = post_totals(client, totals_round, {**CORRECTED, "Alice": 110})
    assert response.status_code == 200
    assert (
        "Totaux : ils doivent s&#x27;annuler, or leur somme fait 10 (et non 0)." in response.content.decode()
    )
    assert round_totals(totals_round) == TOTALS


def test_it_names_the_player_whose_total_is_not_a_number(client, totals_round, secretary):
    client.force_login(secretary.user)
    response = post_totals(client, totals_round, {**CORRECTED, "Chloé": "douze"})
    assert "Total de Chloé : un nombre entier est attendu." in response.content.decode()
    assert round_totals(totals_round) == TOTALS


def test_it_needs_a_motif_from_the_board_on_a_homologated_round(client, totals_round, president):
    homologate_round(totals_round, president.user)
    client.force_login(president.user)
    response = post_totals(client, totals_round, CORRECTED)
    assert response.status_code == 200
    assert round_totals(totals_round) == TOTALS
    response = post_totals(client, totals_round, CORRECTED, **{"totals-motif": "feuille relue"})
    assert response.status_code == 302
    assert round_totals(totals_round) == CORRECTED
    rank = ChampionshipLine.objects.get(round=totals_round, player__name="Bruno", code="rank")
    assert rank.points == 10
    reasons = set(
        totals_round.seats.get(player__name="Bruno").history.values_list("history_change_reason", flat=True)
    )
    assert "feuille relue" in reasons


@pytest.mark.parametrize(("who", "status"), [("anonymous", 302), ("member", 403), ("secretary", 403)])
def test_it_keeps_a_homologated_round_s_totals_from_others(
    client, totals_round, president, who, status, request
):
    homologate_round(totals_round, president.user)
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who).user)
    response = post_totals(client, totals_round, CORRECTED, **{"totals-motif": "x"})
    assert response.status_code == status
    assert round_totals(totals_round) == TOTALS


def test_it_has_no_totals_to_correct_on_a_round_with_deals(client, season, secretary):
    round_ = make_round(season)
    client.force_login(secretary.user)
    assert post_totals(client, round_, CORRECTED).status_code == 404
    assert Round.objects.get(pk=round_.pk).totals_only is False
