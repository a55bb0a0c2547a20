"""The night's page read by a member on a phone (issue 35): answering is one tap on large buttons,
never offered once the night is played; its place and its host read as one address, with a map
link when the place has an address; the night form's « Date à confirmer » box sits with its label."""

import re
from html import unescape

import pytest
from django.urls import reverse

from championship.models import Round
from gamenights import services
from tests.factories import make_round

pytestmark = pytest.mark.django_db


def answer_form(html):
    match = re.search(r'<form[^>]*class="[^"]*answer-form[^"]*".*?</form>', html, re.S)
    return match.group(0) if match else ""


def test_a_member_answers_in_one_tap_on_large_buttons(client, night, member):
    client.force_login(member.user)
    form = answer_form(client.get(night.get_absolute_url()).content.decode())
    assert 'type="radio"' not in form
    buttons = re.findall(r'<button type="submit" name="answer" value="(\w+)"', form)
    assert buttons == ["yes", "maybe", "no"]
    answered = client.post(reverse("gamenights:night_answer", args=[night.pk]), {"answer": "yes"})
    assert answered.status_code == 302
    form = answer_form(client.get(night.get_absolute_url()).content.decode())
    assert re.search(r'value="yes"[^>]*aria-pressed="true"', form), "the answer given shows as pressed"


def test_no_answer_is_offered_once_the_night_is_played(client, night, member):
    client.force_login(member.user)
    make_round(night.season, date=night.date, status=Round.SUBMITTED)
    page = client.get(night.get_absolute_url()).content.decode()
    assert answer_form(page) == ""
    assert "La soirée a été jouée" in page


def test_the_place_and_the_host_read_as_one_address_with_a_map_link(client, night, board):
    services.change_night(night, place="12 rue des Lilas, Lyon")
    page = client.get(night.get_absolute_url()).content.decode()
    lead = re.search(r'<p class="lead">(.*?)</p>', page, re.S)
    text = re.sub(r"[ \n]+", " ", unescape(re.sub(r"<[^>]+>", " ", lead.group(1))))
    assert "Lieu\u00a0: 12 rue des Lilas, Lyon plan · Hôte\u00a0: Présidente" in text
    assert "chez" not in text
    assert "https://www.openstreetmap.org/search?query=12%20rue%20des%20Lilas%2C%20Lyon" in lead.group(1)


def test_a_place_without_an_address_gets_no_map_link(client, night):
    page = client.get(night.get_absolute_url()).content.decode()
    lead = re.search(r'<p class="lead">(.*?)</p>', page, re.S).group(1)
    assert "openstreetmap" not in lead and "Chez Steph" in lead
    assert "chez Présidente" not in lead  # « Chez Steph · chez Présidente » read as two places


def test_the_tentative_box_sits_with_its_label(client, night, board):
    client.force_login(board.user)
    html = client.get(reverse("gamenights:night_edit", args=[night.pk])).content.decode()
    box = r'<label[^>]*>\s*<input type="checkbox" name="tentative"[^>]*>\s*Date à confirmer\s*</label>'
    assert re.search(box, html)
