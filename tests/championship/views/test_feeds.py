"""Atom feeds of the homologated rounds and the published comptes-rendus: only what a visitor may
read, per season or federation-wide, and linked from the pages."""

import datetime
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from championship.models import Report, Round
from federation.models import Player, Season
from tests.factories import make_round

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def world(season):
    homologated = make_round(season, status=Round.HOMOLOGATED, place="Au Bar des Sports")
    submitted = make_round(
        season, status=Round.SUBMITTED, place="Chez Steph", date=datetime.date(2010, 11, 26)
    )
    draft = make_round(season, place="Chez Karim", date=datetime.date(2010, 12, 3))
    bruno = Player.objects.get(name="Bruno")
    Report.objects.create(
        round=homologated, author=bruno, text="Une *belle* soirée.", filed_on=homologated.date
    )
    Report.objects.create(round=submitted, author=bruno, text="Pas encore publié.", filed_on=submitted.date)
    other = Season.objects.create(
        name="2011-2012", start_date=datetime.date(2011, 9, 1), end_date=datetime.date(2012, 6, 30)
    )
    elsewhere = make_round(other, status=Round.HOMOLOGATED, place="Chez Léa", date=datetime.date(2011, 10, 7))
    Report.objects.create(round=elsewhere, author=bruno, text="", filed_on=None)  # nothing written yet
    return homologated, submitted, draft, elsewhere


def entries(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    root = ET.fromstring(response.content)
    return [
        (entry.find(f"{ATOM}title").text, entry.find(f"{ATOM}link").get("href"), entry)
        for entry in root.findall(f"{ATOM}entry")
    ]


def test_the_rounds_feed_holds_homologated_rounds_only(client, world):
    homologated, submitted, draft, elsewhere = world
    season_feed = entries(client, reverse("championship:feed_season_rounds", args=["2010-2011"]))
    assert [link for _title, link, _entry in season_feed] == [f"http://testserver/manches/{homologated.pk}/"]
    title, _link, entry = season_feed[0]
    assert title == "Manche 1 — saison 2010-2011"
    assert "Au Bar des Sports" in entry.find(f"{ATOM}summary").text
    everywhere = entries(client, reverse("championship:feed_rounds"))
    assert {link for _title, link, _entry in everywhere} == {
        f"http://testserver/manches/{homologated.pk}/",
        f"http://testserver/manches/{elsewhere.pk}/",
    }


def test_the_reports_feed_holds_published_reports_only(client, world):
    homologated, _submitted, _draft, _elsewhere = world
    feed = entries(client, reverse("championship:feed_reports"))
    assert [link for _title, link, _entry in feed] == [
        f"http://testserver/manches/{homologated.pk}/compte-rendu/"
    ]
    title, _link, entry = feed[0]
    assert title == "Compte-rendu : Manche 1 — saison 2010-2011"
    assert "<em>belle</em>" in entry.find(f"{ATOM}summary").text
    assert entry.find(f"{ATOM}author/{ATOM}name").text == "Bruno"
    assert "Pas encore publié" not in client.get(reverse("championship:feed_reports")).content.decode()
    assert entries(client, reverse("championship:feed_season_reports", args=["2011-2012"])) == []


def test_an_unknown_season_has_no_feed(client, db):
    assert client.get(reverse("championship:feed_season_rounds", args=["1999-2000"])).status_code == 404


def test_the_pages_link_to_the_feeds(client, world):
    html = client.get(reverse("championship:round_list", args=["2010-2011"])).content.decode()
    for name in ("championship:feed_season_rounds", "championship:feed_season_reports"):
        url = reverse(name, args=["2010-2011"])
        assert '<link rel="alternate" type="application/atom+xml"' in html
        assert f'href="{url}"' in html
        assert html.count(f'href="{url}"') == 2  # in the head, and a visible link in the page
    home = client.get("/").content.decode()
    head, body = home.split("</head>")
    assert f'href="{reverse("championship:feed_rounds")}"' in head
    assert f'href="{reverse("championship:feed_reports")}"' in body
