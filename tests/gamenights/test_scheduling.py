"""Scheduling nights: the board's forms, the services' history, the calendar and night pages."""

import datetime

import pytest
from django.urls import reverse

from gamenights import services
from gamenights.models import GameNight
from gamenights.services import NightError
from tests.gamenights.conftest import in_days

pytestmark = pytest.mark.django_db


def test_the_board_schedules_a_night_from_the_form(client, open_season, board):
    client.force_login(board.user)
    url = reverse("gamenights:night_create", args=[open_season.name])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        {
            "date": in_days(5).isoformat(),
            "time": "20:30",
            "place": "Au Bar",
            "host": board.pk,
        },
    )
    night = GameNight.objects.get()
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    assert (night.place, night.host, night.sequence) == ("Au Bar", board, 0)
    record = night.history.get()
    assert record.history_user == board.user and record.history_change_reason == "soirée programmée"


def test_the_form_refuses_a_date_outside_the_season(client, open_season, board):
    client.force_login(board.user)
    url = reverse("gamenights:night_create", args=[open_season.name])
    outside = open_season.end_date + datetime.timedelta(days=1)
    response = client.post(url, {"date": outside.isoformat(), "time": "20:30"})
    assert response.status_code == 200
    text = response.content.decode()
    assert "n&#x27;est pas dans la saison" in text or "n'est pas dans la saison" in text
    assert not GameNight.objects.exists()


def test_a_member_may_not_schedule(client, open_season, member):
    client.force_login(member.user)
    assert client.get(reverse("gamenights:night_create", args=[open_season.name])).status_code == 403


def test_a_change_shown_by_calendars_raises_the_sequence_with_history(night, board):
    services.change_night(night, notes="Apportez des jetons", user=board.user)
    night.refresh_from_db()
    assert night.sequence == 0  # notes: not what an agenda shows
    services.change_night(night, date=in_days(4), user=board.user, reason="salle prise")
    night.refresh_from_db()
    assert (night.date, night.sequence) == (in_days(4), 1)
    assert night.history.first().history_change_reason == "salle prise"
    services.cancel_night(night, reason="trop peu de joueurs", user=board.user)
    night.refresh_from_db()
    assert night.cancelled and night.sequence == 2
    with pytest.raises(NightError) as refused:
        services.change_night(night, place="Ailleurs")
    assert refused.value.code == "cancelled"


def test_cancelling_needs_a_reason(night):
    with pytest.raises(NightError) as refused:
        services.cancel_night(night, reason=" ")
    assert refused.value.code == "reason"


def test_the_calendar_shows_the_next_night_first(client, open_season, board, night):
    later = services.schedule_night(open_season, date=in_days(10), time=datetime.time(21), place="Plus tard")
    services.schedule_night(open_season, date=in_days(-3), time=datetime.time(21), place="Passée")
    page = client.get(reverse("gamenights:calendar")).content.decode()
    assert page.index("Chez Steph") < page.index("Plus tard") < page.index("Passée")
    season_page = client.get(reverse("gamenights:season_calendar", args=[open_season.name])).content.decode()
    assert "2 manches régulières encore au calendrier" in season_page
    assert later.get_absolute_url() in season_page


def test_the_night_page_shows_the_board_its_tools_and_the_public_none(client, night, board):
    public = client.get(night.get_absolute_url()).content.decode()
    assert "Chez Steph" in public and "Modifier la soirée" not in public
    assert "il manque 4 joueurs" in public
    client.force_login(board.user)
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Modifier la soirée" in page and "Répondre pour un joueur" in page


def test_the_board_edits_and_cancels_from_the_pages(client, night, board):
    client.force_login(board.user)
    edit = reverse("gamenights:night_edit", args=[night.pk])
    assert client.get(edit).status_code == 200
    data = {
        "date": night.date.isoformat(),
        "time": "21:00",
        "place": "Chez Léa",
        "reason": "déménagement",
    }
    assert client.post(edit, data).status_code == 302
    night.refresh_from_db()
    assert (night.place, night.time, night.sequence) == ("Chez Léa", datetime.time(21), 1)
    cancel = reverse("gamenights:night_cancel", args=[night.pk])
    assert client.post(cancel, {"cancel-reason": ""}).status_code == 400
    assert client.post(cancel, {"cancel-reason": "pluie"}).status_code == 302
    night.refresh_from_db()
    assert night.cancelled and night.history.first().history_change_reason == "pluie"


def test_the_pages_read_in_english(client, night):
    client.cookies["django_language"] = "en"
    page = client.get(reverse("gamenights:calendar"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Upcoming nights" in page
