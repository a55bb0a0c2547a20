"""`manage.py warm_figures`: after it, with an empty cache before, no statistics page a reader
opens first computes anything; with `--players`, neither does a player's page."""

import io

import pytest
from django.core.cache import cache
from django.core.management import call_command

from tests.championship.stats.test_fresh_pages import read
from tests.championship.stats.test_views import pk, urls


@pytest.mark.parametrize("players", [False, True])
def test_after_warm_figures_the_first_readers_compute_nothing(
    transactional_db,
    client,
    three_rounds,
    computed,
    players,
):
    season = three_rounds[0].season
    shown = [urls(season)[page] for page in ("partners", "rating", "palmares")]
    shown += [
        f"/joueurs/{pk('Alice')}/statistiques/",
        f"/joueurs/{pk('Alice')}/statistiques/?saison={season.name}",
    ]
    fresh = {url: read(client, url) for url in shown}
    cache.clear()
    out = io.StringIO()
    call_command("warm_figures", *(["--players"] if players else []), stdout=out)
    assert f"Saison {season.name} : chiffres calculés." in out.getvalue()
    assert ("Pages de 5 joueurs rendues." in out.getvalue()) == players
    for seen in computed.values():
        seen.clear()
    assert {url: read(client, url) for url in shown} == fresh
    rendered = set(computed["rendered"])
    assert not rendered & {"_partners_body.html", "_rating_body.html"}  # the season's pages ready
    if players:
        assert computed == {"figures": [], "bodies": [], "rendered": []}
    else:
        assert computed["bodies"] == [(pk("Alice"), None), (pk("Alice"), season.name)]
