"""Told when sitting out (docs/calendrier.md, « La liste d'attente »): when more say « je viens »
than tables of 4 or 5 seat, the first to have said it have a seat and the others wait in that
order; a « je ne viens plus » gives the freed seat to the next; each member reads his own state on
the night's page, and everyone who sees the night reads the list."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from gamenights import proposals, schedule, services, signals
from gamenights.models import GameNight, Rsvp
from tests.conftest import make_player

pytestmark = pytest.mark.django_db

NAMES = ("Alice", "Bruno", "Chloé", "David", "Émile", "Fanny", "Gaston", "Karim")


def players(count):
    return [make_player(name) for name in NAMES[:count]]


def coming(night, comers, start=None):
    """Each of `comers` says « je viens », a minute after the one before (in that order)."""
    start = start or timezone.now() - datetime.timedelta(hours=1)
    for minute, player in enumerate(comers):
        services.answer(night, player, Rsvp.YES, now=start + datetime.timedelta(minutes=minute))


def names(found):
    return [player.name for player in found]


def test_the_first_to_say_je_viens_have_the_seats_and_the_others_wait_in_order(night):
    comers = players(7)
    coming(night, list(reversed(comers)))  # Gaston first, Alice last
    found = schedule.seating(night)
    assert names(found.seated) == ["Gaston", "Fanny", "Émile", "David", "Chloé"]
    assert names(found.waiting) == ["Bruno", "Alice"]
    assert found.position(comers[1]) == 1 and found.position(comers[0]) == 2
    assert found.position(comers[6]) is None and found.has_seat(comers[6])


@pytest.mark.parametrize(
    ("count", "seated"),
    [(3, 0), (4, 4), (5, 5), (6, 5), (7, 5), (8, 8), (9, 9), (10, 10), (11, 10), (12, 12)],
)
def test_the_seats_are_those_of_tables_of_four_or_five(night, count, seated):
    coming(night, [make_player(f"J{i}", with_user=False) for i in range(count)])
    found = schedule.seating(night)
    assert len(found.seated) == seated
    # Under four there is no table yet, and no one waits: they all play once a fourth comes.
    assert len(found.waiting) == (count - seated if seated else 0)


def test_the_waiting_list_is_the_one_the_secretary_sees(night):
    coming(night, players(7))
    tables, sitting_out = proposals.tables(night, proposals.comers(schedule.answers(night)))
    assert sitting_out == schedule.seating(night).waiting
    assert sorted(p.pk for table in tables for p in table.players) == sorted(
        p.pk for p in schedule.seating(night).seated
    )


def test_answering_je_viens_again_keeps_the_place(client, night):
    """A member already coming who answers « je viens » again (with a reason, which a « je viens »
    does not keep, or through the board) stays where he was: his place is the time he said it."""
    comers = players(7)
    coming(night, comers)
    client.force_login(comers[0].user)
    url = reverse("gamenights:night_answer", args=[night.pk])
    assert client.post(url, {"answer": "yes", "reason": "j'apporte la bière"}).status_code == 302
    services.answer(night, comers[1], Rsvp.YES, user=None, on_behalf=True, reason="vu au bar")
    found = schedule.seating(night)
    assert names(found.seated) == list(NAMES[:5]) and names(found.waiting) == ["Fanny", "Gaston"]


def test_a_no_or_a_maybe_then_je_viens_again_goes_to_the_end(night):
    comers = players(7)
    coming(night, comers)
    services.answer(night, comers[0], Rsvp.MAYBE)
    services.answer(night, comers[0], Rsvp.YES)
    assert names(schedule.seating(night).waiting) == ["Gaston", "Alice"]


def test_a_freed_seat_goes_to_the_next_on_the_list_and_is_signalled(night):
    comers = players(7)
    coming(night, comers)
    heard = []

    def receiver(sender, night, promoted, demoted, **kwargs):
        heard.append((night.pk, names(promoted), names(demoted)))

    signals.seating_changed.connect(receiver)
    try:
        services.answer(night, comers[2], Rsvp.NO, reason="malade")  # Chloé: Fanny takes her seat
        found = schedule.seating(night)
        assert names(found.seated) == ["Alice", "Bruno", "David", "Émile", "Fanny"]
        assert names(found.waiting) == ["Gaston"]
        assert heard == [(night.pk, ["Fanny"], [])]
        services.answer(night, comers[2], Rsvp.NO, reason="très malade")  # nothing moves
        assert len(heard) == 1
    finally:
        signals.seating_changed.disconnect(receiver)


def test_two_tables_can_turn_into_one_and_the_last_seated_then_wait(night):
    """8 who come sit at two tables of 4; one who leaves leaves 7, whom tables of 4 or 5 do not
    all seat: the last two to have said « je viens » go back to the list (and are told)."""
    comers = players(8)
    coming(night, comers)
    heard = []

    def receiver(sender, night, promoted, demoted, **kwargs):
        heard.append((names(promoted), names(demoted)))

    signals.seating_changed.connect(receiver)
    try:
        services.answer(night, comers[0], Rsvp.NO)
        assert heard == [([], ["Gaston", "Karim"])]
        services.answer(night, comers[0], Rsvp.YES)  # 8 again: everyone seated, Alice last
        assert heard[-1] == (["Gaston", "Karim"], [])
    finally:
        signals.seating_changed.disconnect(receiver)


def test_each_member_reads_his_own_state_on_the_night_page(client, night):
    comers = players(7)
    coming(night, comers)
    client.force_login(comers[0].user)
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Vous avez une place à une table." in page
    client.force_login(comers[5].user)  # Fanny: first on the list
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Vous êtes en tête de la liste d'attente" in page
    client.force_login(comers[6].user)  # Gaston: second
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Vous êtes 2e sur la liste d'attente" in page
    services.answer(night, comers[2], Rsvp.NO)  # Chloé leaves: Gaston is first now
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Vous êtes en tête de la liste d'attente" in page
    services.answer(night, comers[3], Rsvp.NO)  # David leaves: Gaston has a seat, at once
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Vous avez une place à une table." in page and "liste d'attente" not in page


def test_everyone_who_sees_the_night_reads_the_list_in_order(client, night):
    coming(night, players(7))
    page = client.get(night.get_absolute_url()).content.decode()  # not logged in
    assert "Liste d'attente" in page
    assert page.index("1. Fanny") < page.index("2. Gaston")
    assert "Vous avez une place" not in page and "Vous êtes" not in page


def test_no_list_nor_state_without_more_comers_than_seats(client, night):
    comers = players(5)
    coming(night, comers)
    client.force_login(comers[4].user)
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Liste d'attente" not in page and "Vous avez une place à une table." in page
    services.answer(night, comers[0], Rsvp.NO)
    services.answer(night, comers[1], Rsvp.NO)  # 3 come: no table yet, no seat promised
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Vous avez une place" not in page and "Liste d'attente" not in page


def test_a_cup_night_has_its_convoked_players_and_no_waiting_list(night):
    GameNight.objects.filter(pk=night.pk).update(stage=GameNight.FINAL)
    night.refresh_from_db()
    coming(night, players(7))
    found = schedule.seating(night)
    assert (found.seated, found.waiting) == ([], [])
