"""Entering a round from a night: the page fills in date, place and who came; the `hote` bonus
and the `absence` malus are proposed to the board, applied only when it confirms with a reason."""

import pytest
from django.urls import reverse

from championship.models import Adjustment
from championship.services import create_round
from gamenights import proposals, schedule, services
from gamenights.models import Rsvp
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def comers(night, board):
    players = [board] + [
        make_player(name, with_user=False) for name in ("Alice", "Bruno", "Chloé", "David", "Émile")
    ]
    for player in players:
        services.answer(night, player, Rsvp.YES)
    return players


def test_the_entry_link_fills_in_the_new_round_page(client, night, comers, board):
    client.force_login(board.user)
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Saisir cette table" in page and "Sans place à une table de 4 ou 5 :" in page  # 6 come: 5 seated
    answers = schedule.answers(night)
    url = proposals.entry_url(night, proposals.comers(answers)[:5])
    form = client.get(url).context["form"]
    assert form["date"].value() == night.date.isoformat()
    assert form["place"].value() == "Chez Steph"
    assert [form[f"player_{row}"].value() for row in range(1, 6)] == [str(p.pk) for p in comers[:5]]


def test_eight_comers_get_two_tables_that_mix_the_pairings(client, night, comers, board, open_season):
    for name in ("Fanny", "Gaston"):
        services.answer(night, make_player(name, with_user=False), Rsvp.YES)
    client.force_login(board.user)
    context = client.get(night.get_absolute_url()).context
    tables = context["tables"]
    assert [len(table.players) for table in tables] == [4, 4]
    assert all("?date=" in table.entry_url for table in tables)


def test_host_bonus_and_absence_malus_are_proposed_and_confirmed_with_a_reason(client, night, comers, board):
    seated = comers[:5]  # Émile said « je viens » and sits at no table
    round_ = create_round(
        night.season,
        seated,
        [],
        totals={p.name: t for p, t in zip(seated, [60, 20, 0, -30, -50], strict=True)},
        date=night.date,
        place=night.place,
    )
    found = proposals.adjustments(night, schedule.answers(night))
    assert {(p.player.name, p.code) for p in found} == {("Présidente", "hote"), ("Émile", "absence")}
    assert not Adjustment.objects.exists()  # nothing applied silently

    client.force_login(board.user)
    url = reverse("gamenights:night_confirm", args=[night.pk])
    emile = comers[5]
    client.post(url, {"player": emile.pk, "code": "absence", "reason": ""})
    assert not Adjustment.objects.exists()  # no reason, nothing
    client.post(url, {"player": emile.pk, "code": "absence", "reason": "pas prévenu"})
    adjustment = Adjustment.objects.get()
    assert (adjustment.round, adjustment.player, adjustment.points, adjustment.note) == (
        round_,
        emile,
        -2,
        "pas prévenu",
    )
    assert adjustment.entered_by == board.user
    # Confirmed once: the proposal is gone, a second POST adds nothing.
    client.post(url, {"player": emile.pk, "code": "absence", "reason": "encore"})
    assert Adjustment.objects.count() == 1
    assert {p.code for p in proposals.adjustments(night, schedule.answers(night))} == {"hote"}


def test_a_member_cannot_confirm(client, night, member):
    client.force_login(member.user)
    url = reverse("gamenights:night_confirm", args=[night.pk])
    assert client.post(url, {"player": member.pk, "code": "hote", "reason": "x"}).status_code == 403
