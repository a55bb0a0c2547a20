"""After a write commits, its season's figures are computed again in the background: the first
reader (in the site's language) finds them ready, and they are the figures a cold read computes
(issue 20). Run by
`tests/championship/test_concurrency.py` (the warming is a thread with its own connection: it
needs a database shared for real)."""

import logging
import threading

import pytest
from django.core.cache import cache

from championship import services
from championship.models import Round
from championship.views import warming
from federation.models import Official
from tests.championship.lib.test_read_cost import make_season, rounds_every_write_can_touch
from tests.conftest import make_player
from tests.factories import player
from tests.pages import without_random_tokens

from .conftest import RACES

pytestmark = [
    pytest.mark.skipif(not RACES, reason="lancé par tests/championship/test_concurrency.py"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def warm(settings):
    settings.WARM_FIGURES = True
    yield
    warming.wait_for_warming()


@pytest.fixture
def computations(caplog):
    caplog.set_level(logging.INFO, logger="championship.figures")

    def count():
        return sum(1 for record in caplog.records if record.getMessage().startswith("calcul "))

    return count


def absence(season):
    round_ = Round.objects.filter(season=season, status=Round.HOMOLOGATED).order_by("number").first()
    services.add_adjustment(round_, player("Émile"), "absence", reason="absent")


def pages(season):
    return [
        "/",
        "/saisons/",
        f"/saisons/{season.name}/",
        f"/saisons/{season.name}/manches/",
        f"/saisons/{season.name}/coupe/qualifications/",
        f"/joueurs/{player('Émile').pk}/",
    ]


def read(client, urls, **headers):
    return {url: without_random_tokens(client.get(url, **headers).content.decode()) for url in urls}


def test_the_pages_read_after_a_write_find_their_figures_computed(
    transactional_db, client, warm, computations
):
    season = make_season(2010)
    secretary = make_player("Secrétaire")
    Official.objects.create(season=season, player=secretary, role=Official.SECRETARY)
    rounds_every_write_can_touch(season)
    absence(season)
    warming.wait_for_warming()
    warmed = computations()
    assert warmed > 0

    urls = pages(season)
    served = read(client, urls)
    client.force_login(secretary.user)
    served_official = read(client, [f"/saisons/{season.name}/manches/"])
    assert computations() == warmed, "a page computed a figure the warming had not"

    cache.clear()  # what each page shows, computed cold
    assert read(client, [f"/saisons/{season.name}/manches/"]) == served_official
    client.logout()
    assert read(client, urls) == served
    assert computations() > warmed


def test_the_write_does_not_wait_for_the_warming(transactional_db, warm, monkeypatch):
    season = make_season(2010)
    rounds_every_write_can_touch(season)
    warming.wait_for_warming()
    started, release = threading.Event(), threading.Event()
    real = warming.warm

    def slow(pk):
        started.set()
        assert release.wait(30)
        return real(pk)

    monkeypatch.setattr(warming, "warm", slow)
    absence(season)  # returns while the warming has begun and is held
    assert started.wait(30)
    assert warming._worker["thread"].is_alive()
    release.set()
    warming.wait_for_warming()


def test_a_warming_that_fails_is_logged_and_costs_nothing_else(transactional_db, warm, monkeypatch, caplog):
    season = make_season(2010)
    rounds_every_write_can_touch(season)
    warming.wait_for_warming()

    def broken(pk):
        raise RuntimeError("panne")

    monkeypatch.setattr(warming, "warm", broken)
    absence(season)
    warming.wait_for_warming()
    assert "réchauffage de la saison" in caplog.text
