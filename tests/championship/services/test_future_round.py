"""A round dated after today (issue 35): a warning on its entry page, and homologating it takes
the board's explicit confirmation of the date (the service refuses it otherwise)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from championship import services
from championship.models import Round
from championship.services import RoundError
from tests.factories import make_round


@pytest.fixture
def ahead(season):
    """A submitted round dated two days after today (its season stretched to hold it)."""
    today = timezone.localdate()
    season.end_date = today + datetime.timedelta(days=60)
    season.save()
    return make_round(season, status=Round.SUBMITTED, date=today + datetime.timedelta(days=2))


def test_homologating_a_round_dated_after_today_needs_the_date_confirmed(ahead, president):
    with pytest.raises(RoundError) as refused:
        services.homologate_round(ahead, president.user)
    assert refused.value.code == "future" and "après aujourd'hui" in refused.value.message
    ahead.refresh_from_db()
    assert ahead.status == Round.SUBMITTED
    services.homologate_round(ahead, president.user, date_confirmed=True)
    assert Round.objects.get(pk=ahead.pk).status == Round.HOMOLOGATED


def test_a_round_of_today_or_before_needs_no_confirmation(season, president):
    round_ = make_round(season, status=Round.SUBMITTED)
    services.homologate_round(round_, president.user)
    assert Round.objects.get(pk=round_.pk).status == Round.HOMOLOGATED


def test_the_board_confirms_the_date_on_the_homologation_page(client, ahead, president):
    client.force_login(president.user)
    url = reverse("championship:round_homologate", args=[ahead.pk])
    html = client.get(url).content.decode()
    assert 'name="date_confirmed"' in html and "après aujourd&#x27;hui" in html.replace("'", "&#x27;")
    client.post(url, {"version": ahead.version})
    assert Round.objects.get(pk=ahead.pk).status == Round.SUBMITTED
    client.post(url, {"version": ahead.version, "date_confirmed": "on"})
    assert Round.objects.get(pk=ahead.pk).status == Round.HOMOLOGATED


def test_the_entry_page_warns_of_a_date_after_today(client, ahead, secretary):
    client.force_login(secretary.user)
    html = client.get(reverse("championship:round_edit", args=[ahead.pk])).content.decode()
    assert 'class="message warning future-date"' in html
    round_ = make_round(ahead.season, status=Round.DRAFT)
    html = client.get(reverse("championship:round_edit", args=[round_.pk])).content.decode()
    assert "future-date" not in html
