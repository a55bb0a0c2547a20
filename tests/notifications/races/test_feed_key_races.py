"""A member's first visit of his account page while another write commits (found by the crawl of
the site under gunicorn: two members opening « Mon compte » at once, one got a 500 « database is
locked »). A page reads in one snapshot (federation.snapshot); on SQLite a write inside it fails
at once when another connection committed since the page's first read. So the page must not
write: the member's feed key is made with his account, the page only reads it. Run by
`tests/notifications/test_concurrent_runs.py` on SQLite and PostgreSQL."""

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from federation.models import Player
from gamenights import links

from .conftest import RACES

pytestmark = [
    pytest.mark.skipif(not RACES, reason="lancé par tests/notifications/test_concurrent_runs.py"),
    pytest.mark.django_db(transaction=True),
]


def test_the_account_page_shows_the_address_while_another_write_commits(members, monkeypatch):
    bruno = members["Bruno"]
    page_has_read, write_done = threading.Event(), threading.Event()
    feed_addresses = links.feed_addresses

    def after_a_write(request, player):  # the page has read (its snapshot holds) when it gets here
        page_has_read.set()
        assert write_done.wait(30)
        return feed_addresses(request, player)

    monkeypatch.setattr(links, "feed_addresses", after_a_write)
    client = Client()
    client.force_login(bruno.user)
    outcome = {}

    def visit():
        try:
            page = client.get(reverse("notifications:account"))
            outcome["page"] = (page.status_code, "member_feed_url" in page.context)
        except Exception as error:  # noqa: BLE001 — reported below
            outcome["error"] = repr(error)
        finally:
            connection.close()

    thread = threading.Thread(target=visit)
    thread.start()
    try:
        assert page_has_read.wait(30)
        Player.objects.filter(pk=members["Alice"].pk).update(nickname="Lili")  # another write commits
    finally:
        write_done.set()
        thread.join(60)
    assert outcome == {"page": (200, True)}
