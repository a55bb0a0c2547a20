"""« S'abonner » (docs/calendrier.md, « S'abonner depuis un téléphone »): on the calendar page and
on « Mon compte », for an identified member only, a large button per phone — iPhone: the webcal
address of his feed; Android: Google Calendar's subscription page for it — and the https address to
copy for any other calendar. Each opens his own feed."""

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.urls import reverse

from gamenights import links

pytestmark = pytest.mark.django_db

PAGES = ("gamenights:calendar", "notifications:account")


def buttons(html):
    """The hrefs of the large subscribe buttons, by their label."""
    found = re.findall(r'<a class="button big subscribe-button[^"]*" href="([^"]+)"[^>]*>([^<]+)</a>', html)
    return {label.strip(): href.replace("&amp;", "&") for href, label in found}


@pytest.mark.parametrize("page", PAGES)
def test_a_member_gets_the_iphone_and_android_buttons_and_the_address_to_copy(client, member, page):
    client.force_login(member.user)
    html = client.get(reverse(page)).content.decode()
    path = links.feed_url(member)
    found = buttons(html)
    assert found["S'abonner sur iPhone"] == f"webcal://testserver{path}"
    google = urlsplit(found["S'abonner sur Android"])
    assert (google.scheme, google.netloc, google.path) == ("https", "calendar.google.com", "/calendar/r")
    assert parse_qs(google.query) == {"cid": [f"webcal://testserver{path}"]}
    assert f'value="http://testserver{path}"' in html  # the address to copy, for another calendar
    assert client.get(path).status_code == 200  # the address each of them subscribes to


def test_the_address_to_copy_is_https_on_a_site_served_in_https(client, member):
    client.force_login(member.user)
    html = client.get(reverse("notifications:account"), secure=True).content.decode()
    path = links.feed_url(member)
    assert f'value="https://testserver{path}"' in html
    assert buttons(html)["S'abonner sur iPhone"] == f"webcal://testserver{path}"


def test_no_button_for_a_visitor_or_an_account_without_a_player(client, db):
    html = client.get(reverse("gamenights:calendar")).content.decode()
    assert buttons(html) == {} and "/calendrier/membre/" not in html
    from django.contrib.auth import get_user_model  # noqa: PLC0415

    client.force_login(get_user_model().objects.create_user(username="equipe", password="x-pass-1"))
    for page in PAGES:
        html = client.get(reverse(page)).content.decode()
        assert buttons(html) == {} and "/calendrier/membre/" not in html, page


def test_the_calendar_page_shows_the_buttons_once_at_its_top(client, member):
    client.force_login(member.user)
    html = client.get(reverse("gamenights:calendar")).content.decode()
    assert html.count('class="button big subscribe-button') == 2  # not again in « mon agenda »
    assert html.index(">S'abonner sur iPhone<") < html.index("Prochaines soirées")


def test_the_account_page_has_its_calendar_in_one_include():
    account = Path(settings.BASE_DIR, "templates", "notifications", "account.html").read_text()
    assert account.count('{% include "notifications/_account_calendar.html" %}') == 1
    assert "_member_feed.html" not in account
