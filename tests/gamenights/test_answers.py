"""Who comes: answers until the deadline, with history; the board answers for a member; the
signed link of an e-mail; the quorum."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from gamenights import links, schedule, services, signals
from gamenights.models import Rsvp
from gamenights.services import NightError
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


def test_a_member_answers_and_changes_his_mind_with_history(client, night, member):
    client.force_login(member.user)
    url = reverse("gamenights:night_answer", args=[night.pk])
    assert client.post(url, {"answer": "yes"}).status_code == 302
    assert client.post(url, {"answer": "no", "reason": "anniversaire"}).status_code == 302
    rsvp = Rsvp.objects.get()
    assert (rsvp.answer, rsvp.reason, rsvp.answered_by) == ("no", "anniversaire", member.user)
    assert [h.answer for h in rsvp.history.order_by("history_date")] == ["yes", "no"]
    assert rsvp.history.first().history_user == member.user
    page = client.get(night.get_absolute_url()).content.decode()
    assert "anniversaire" in page and "Votre réponse (vous pouvez la changer)" in page


def test_a_maybe_keeps_no_reason(night, member):
    rsvp = services.answer(night, member, Rsvp.MAYBE, reason="on verra")
    assert rsvp.reason == ""


def test_answers_close_at_the_deadline_but_the_board_may_still_answer(night, member, board):
    services.change_night(night, answers_until=timezone.now() - datetime.timedelta(minutes=1))
    night.refresh_from_db()
    with pytest.raises(NightError) as refused:
        services.answer(night, member, Rsvp.YES, user=member.user)
    assert refused.value.code == "deadline"
    rsvp = services.answer(
        night, member, Rsvp.NO, reason="prévenu par téléphone", user=board.user, on_behalf=True
    )
    assert rsvp.answered_by == board.user
    assert rsvp.history.get().history_change_reason == "réponse donnée par la Direction"


def test_the_board_answers_for_a_member_from_the_page(client, night, member, board):
    client.force_login(board.user)
    url = reverse("gamenights:night_answer_for", args=[night.pk])
    response = client.post(url, {"for-player": member.pk, "for-answer": "yes"})
    assert response.status_code == 302
    assert Rsvp.objects.get(player=member).answered_by == board.user
    client.force_login(member.user)
    assert client.post(url, {"for-player": member.pk, "for-answer": "no"}).status_code == 403


def test_the_quorum_is_four_who_come(night):
    players = [make_player(f"J{i}", with_user=False) for i in range(4)]
    for player in players[:3]:
        services.answer(night, player, Rsvp.YES)
    found = schedule.answers(night)
    assert (found.table_is_on, found.missing) == (False, 1)
    services.answer(night, players[3], Rsvp.YES)
    assert schedule.answers(night).table_is_on


def test_the_signed_link_answers_without_logging_in(client, night, member):
    url = links.answer_url(night, member)
    assert client.get(url).status_code == 200
    assert client.post(url, {"answer": "maybe"}).status_code == 302
    rsvp = Rsvp.objects.get()
    assert (rsvp.player, rsvp.answer, rsvp.answered_by) == (member, "maybe", None)


def test_the_link_of_a_mail_opens_with_its_answer_ticked_and_records_nothing(client, night, member):
    """The reminder's three links (`?reponse=yes|no|maybe`): the page opens with that answer
    pressed, one tap on it records it; opening it (a mail scanner does) answers nothing."""
    url = links.answer_url(night, member)
    html = client.get(url, {"reponse": "no"}).content.decode()
    assert re.search(r'<button type="submit" name="answer" value="no"[^>]*aria-pressed="true"', html)
    assert re.search(r'<button type="submit" name="answer" value="yes"[^>]*aria-pressed="false"', html)
    assert not Rsvp.objects.exists()
    assert client.post(url, {"answer": "no"}).status_code == 302
    assert Rsvp.objects.get().answer == "no"


def test_a_forged_or_foreign_link_is_refused(client, night, open_season, member):
    other = services.schedule_night(open_season, date=night.date)
    token = links.answer_token(other, member)
    assert client.get(reverse("gamenights:answer_link", args=[night.pk, token])).status_code == 404
    assert (
        client.post(
            reverse("gamenights:answer_link", args=[night.pk, token + "x"]), {"answer": "yes"}
        ).status_code
        == 404
    )
    assert not Rsvp.objects.exists()


def test_a_cancelled_night_takes_no_answer(night, member):
    services.cancel_night(night, reason="neige")
    with pytest.raises(NightError):
        services.answer(night, member, Rsvp.YES)


# --- an inactive player (Player.active unchecked) neither answers nor counts toward the quorum ---


def deactivated(player):
    player.active = False
    player.save()
    return player


def test_an_inactive_player_cannot_answer(night, member, board):
    deactivated(member)
    for on_behalf, user in ((False, member.user), (True, board.user)):
        with pytest.raises(NightError) as refused:
            services.answer(night, member, Rsvp.YES, user=user, on_behalf=on_behalf)
        assert refused.value.code == "inactive"
        assert "Membre est inactif" in refused.value.message
    assert not Rsvp.objects.exists()


def test_an_inactive_players_answer_does_not_count_toward_the_quorum(night):
    confirmed = []

    def receiver(sender, night, **kwargs):
        confirmed.append(night.pk)

    signals.table_confirmed.connect(receiver)
    try:
        players = [make_player(f"J{i}", with_user=False) for i in range(5)]
        for player in players[:4]:
            services.answer(night, player, Rsvp.YES)
        assert confirmed == [night.pk]
        deactivated(players[0])  # he said « je viens » while still active
        found = schedule.answers(night)
        assert (found.table_is_on, found.missing, len(found.yes)) == (False, 1, 3)
        assert players[0] not in [rsvp.player for rsvp in found.yes + found.no + found.maybe]
        services.answer(night, players[4], Rsvp.YES)  # the fourth who comes: the table is on again
        assert schedule.answers(night).table_is_on
        assert confirmed == [night.pk, night.pk]
    finally:
        signals.table_confirmed.disconnect(receiver)


def test_the_night_page_does_not_offer_an_inactive_player_to_answer(client, night, member):
    deactivated(member)
    client.force_login(member.user)
    page = client.get(night.get_absolute_url()).content.decode()
    assert 'name="answer"' not in page
    assert "Votre fiche de joueur est inactive" in page
    response = client.post(reverse("gamenights:night_answer", args=[night.pk]), {"answer": "yes"})
    assert response.status_code == 400
    assert "Votre fiche de joueur est inactive" in response.content.decode()
    assert not Rsvp.objects.exists()


def test_the_signed_link_of_an_inactive_player_answers_nothing(client, night, member):
    url = links.answer_url(night, member)
    deactivated(member)
    page = client.get(url)
    assert page.status_code == 200
    assert 'name="answer"' not in page.content.decode()
    assert "inactive" in page.content.decode()
    response = client.post(url, {"answer": "yes"})
    assert response.status_code == 400
    assert not Rsvp.objects.exists()
