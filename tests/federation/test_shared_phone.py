"""A phone passed from hand to hand at the bar (docs/exploitation.md, « Comptes et sécurité »):
what the server does so that the next person sees nothing of the previous account's pages.

- every answer to a logged-in account is `Cache-Control: private, no-store` (no shared cache, no
  copy in the browser's cache: the account page shows the calendar's secret address);
- logging out sends `Clear-Site-Data: "cache"` (the browser's cache of the site), never
  `"storage"` (it would erase the deals kept on the phone, which stay until sent);
- the service worker keeps the pages in a cache of their own, which it empties when someone logs
  in or out on the phone (the browser side is tested in tests/e2e/test_offline_entry.py).
"""

import json
import re

import pytest
from django.urls import reverse

from tests.factories import make_round


def cache_control(response):
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


@pytest.fixture
def pages(season, secretary, president):
    round_ = make_round(season)
    return {
        "account": reverse("notifications:account"),
        "entry": reverse("championship:round_edit", args=[round_.pk]),
        "live": reverse("championship:round_live", args=[round_.pk]),
        "home": reverse("federation:home"),
        "season": reverse("championship:season", args=[season.name]),
    }


@pytest.mark.parametrize("page", ["account", "entry", "live", "home", "season"])
def test_every_page_of_a_logged_in_account_is_private_and_never_stored(client, secretary, pages, page):
    client.force_login(secretary.user)
    response = client.get(pages[page])
    assert response.status_code == 200
    assert {"private", "no-store"} <= cache_control(response)
    assert "public" not in cache_control(response)


def test_a_public_page_read_anonymously_may_be_kept(client, pages):
    response = client.get(pages["season"])
    assert response.status_code == 200
    assert "no-store" not in cache_control(response)


def test_the_answer_to_logging_out_is_never_stored(client, secretary):
    client.force_login(secretary.user)
    logout = client.post(reverse("logout"))
    assert logout.status_code == 302
    assert {"private", "no-store"} <= cache_control(logout)


def test_logging_out_clears_the_browsers_cache_of_the_site_but_not_its_storage(client, secretary):
    client.force_login(secretary.user)
    response = client.post(reverse("logout"))
    assert response["Clear-Site-Data"] == '"cache"'  # not "storage": the kept deals stay
    # A session that expired meanwhile: its pages may still be on the phone.
    assert client.post(reverse("logout"))["Clear-Site-Data"] == '"cache"'


def test_the_service_worker_keeps_pages_apart_and_empties_them_when_someone_logs_in_or_out(client, db):
    script = client.get("/sw.js").content.decode()
    static_cache = re.search(r'const CACHE = "(tarot-[0-9a-f]{12})";', script).group(1)
    pages_cache = re.search(r'const PAGES = "(tarot-pages-[0-9a-f]{12})";', script).group(1)
    assert static_cache != pages_cache
    accounts = json.loads(re.search(r"const ACCOUNT_CHANGES = (\[.*?\]);", script).group(1))
    # the private link's page logs a member in too (federation.private_links)
    assert accounts == [
        reverse("login"),
        reverse("login_code"),  # the second factor's code: where its login happens
        reverse("logout"),
        reverse("admin:login"),
        reverse("admin:logout"),
        reverse("links:open"),
    ]
