"""The home page on the demo federation (`manage.py demo`), built once for this module's tests
(tests/conftest.py `demo`): each viewer's test reads it in its own savepoint."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.championship.views.test_home import home

LINK = re.compile(r'href="(/(?!static/)[^"#?]*)')


@pytest.mark.parametrize("who", ["anonymous", "david", "chloe"])
def test_it_links_only_to_pages_the_viewer_may_open_on_the_demo(client, db, demo, who):
    """Every link of the demo's home page answers 200 to whoever sees it (the demo's current
    season has a submitted round whose report is due)."""
    if who != "anonymous":
        client.force_login(get_user_model().objects.get(username=who))
    html = home(client)
    links = sorted(set(LINK.findall(html)) - {reverse("logout"), reverse("set_language")})
    assert any("/compte-rendu/" in link for link in links)
    for link in links:
        assert client.get(link).status_code == 200, link
