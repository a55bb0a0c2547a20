"""The player's page across seasons (issue 12): assembled from one cached piece per season, its
statistics are those of every deal counted at once, its query count does not grow with the
history, and a write to a season is seen on it at once."""

import io
import math
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from championship.models import Deal, Round
from championship.standings.lateness import default_as_of
from championship.standings.players import player_page, player_statistics
from championship.standings.season import compute_standings, load_season
from federation.models import Player, Season
from federation.snapshot import read_snapshot
from scoring.vocabulary import ATTACK, DEFENCE, POIGNEE_LABELS
from tests.championship.lib.test_read_cost import (
    PAGES,
    WRITES,
    build,
    page_queries,
    rounds_every_write_can_touch,
)
from tests.factories import make_round, player
from tests.pages import without_random_tokens


def reference_statistics(player):
    """The page's statistics counted the way they were before the cache: every deal of every
    homologated round the player sat at, read at once and counted in Python."""
    deals = Deal.objects.filter(round__status=Round.HOMOLOGATED, round__seats__player=player)
    me = player.pk
    takes, made, stats, poignees = Counter(), Counter(), Counter(), Counter()
    for deal in deals:
        stats["miseres"] += deal.miseres.count(me)
        for poignee in deal.poignees:
            if poignee.get("player") == me:
                poignees[poignee.get("size")] += 1
        if deal.kind != Deal.PLAYED:
            continue
        attack = me in (deal.taker_id, deal.partner_id)
        if deal.taker_id == me:
            takes[deal.contract] += 1
            made[deal.contract] += deal.made is True
            stats["chelems"] += deal.chelem_made_by == ATTACK
        elif deal.partner_id == me:
            stats["called"] += 1
            stats["called_made"] += deal.made is True
        else:
            stats["defended"] += 1
            stats["defended_failed"] += deal.made is False
        if deal.petit_au_bout:
            stats[f"petit_{ATTACK if attack else DEFENCE}"] += (deal.petit_au_bout == ATTACK) == attack
    rate = lambda m, t: math.floor(Fraction(100 * m, t) + Fraction(1, 2)) if t else None  # noqa: E731
    return {
        "contracts": [
            {
                "code": code,
                "label": label,
                "takes": takes[code],
                "made": made[code],
                "rate": rate(made[code], takes[code]),
            }
            for code, label in Deal.CONTRACTS
        ],
        "takes": sum(takes.values()),
        "made": sum(made.values()),
        "rate": rate(sum(made.values()), sum(takes.values())),
        **{key: stats[key] for key in ("called", "called_made", "defended", "defended_failed", "chelems")},
        "petit_attack": stats["petit_attack"],
        "petit_defence": stats["petit_defence"],
        "poignees": [  # « 2 simples, 1 double »
            f"{poignees[size]} {label}{'s' if poignees[size] > 1 else ''}"
            for size, label in POIGNEE_LABELS.items()
            if poignees[size]
        ],
        "poignees_total": sum(poignees.values()),
        "miseres": stats["miseres"],
    }


def reference_history(player):
    """(season, rank, tied, points, rounds) of each season, from standings computed afresh."""
    rows = []
    for season in Season.objects.order_by("-start_date"):
        standings = compute_standings(season, default_as_of(season), load_season(season))
        row, unranked = standings.row_of(player), standings.unranked_of(player)
        if row is not None:
            rows.append((season.name, row.rank, row.tied, row.points, row.rounds))
        elif unranked is not None:
            rows.append((season.name, None, False, unranked.points, unranked.rounds))
    return rows


def history(player):
    return [
        (
            item.season.name,
            item.row and item.row.rank,
            bool(item.row and item.row.tied),
            item.points,
            item.rounds,
        )
        for item in player_page(player).history
    ]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_it_counts_the_statistics_of_a_random_federation_as_every_deal_counted_at_once(
    transactional_db, seed
):
    call_command(
        "generate_federation",
        *["--players", "9", "--seasons", "2", "--rounds", "5", "--deals", "6", "--seed", str(seed)],
        stdout=io.StringIO(),
    )
    cache.clear()
    players = list(Player.objects.order_by("pk"))
    expected = {p.pk: (reference_statistics(p), reference_history(p)) for p in players}
    assert any(stats["takes"] and stats["defended"] for stats, _history in expected.values())
    for _read in ("computed", "from the cache"):
        with read_snapshot():  # where the pieces are stored
            for p in players:
                assert player_statistics(p) == expected[p.pk][0], p.name
                assert history(p) == expected[p.pk][1], p.name


def test_it_reads_no_deal_once_the_pieces_are_cached(transactional_db, client):
    counts = page_queries(client, PAGES["player"](build(3, 4)[-1]))
    assert counts[1] < counts[0]
    # and the cached read asks nothing of the deals or the standings: the player, the current
    # season (twice: the page and the layout), the seasons he played, the tokens of the past
    # seasons and of the current one, read together
    assert counts[1] == 5


def test_it_reads_the_cached_page_without_touching_the_deals(transactional_db, season, client):
    make_round(season, status=Round.HOMOLOGATED)
    url = f"/joueurs/{player('Alice').pk}/"
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    assert not [q for q in captured.captured_queries if "championship_deal" in q["sql"]]


def test_one_players_page_computes_the_season_for_every_player(transactional_db, season, client):
    make_round(season, status=Round.HOMOLOGATED)
    cache.clear()
    client.get(f"/joueurs/{player('Alice').pk}/")
    with CaptureQueriesContext(connection) as captured:
        html = client.get(f"/joueurs/{player('Bruno').pk}/").content.decode()
    # no deal, seat, line or round read: only which seasons Bruno played
    read = [q["sql"] for q in captured.captured_queries if 'FROM "championship_' in q["sql"]]
    assert [sql for sql in read if 'FROM "championship_figuretoken"' not in sql] == []
    assert "Bruno" in html


def pages(client):
    return {
        p.name: without_random_tokens(client.get(f"/joueurs/{p.pk}/").content.decode())
        for p in Player.objects.order_by("pk")
    }


@pytest.mark.parametrize("write", [w for w in WRITES if w not in ("create_round", "delete_draft")])
def test_it_shows_a_write_on_the_players_pages_at_once(transactional_db, season, client, write):
    rounds_every_write_can_touch(season)
    before = pages(client)
    assert pages(client) == before  # now from the cache

    WRITES[write](Season.objects.get(pk=season.pk))

    after = pages(client)
    assert after != before, "the write changes no player's page: the test proves nothing"
    cache.clear()
    assert after == pages(client)  # what a page computed afresh shows


def test_the_success_rate_is_rounded_half_up_and_the_page_says_so(client, season):
    """5 contracts made out of 8 takes is 62.5 %: the page writes 63 % (not Python's 62) and
    states its rounding once."""
    dealers = ["Alice", "Bruno", "Chloé", "David", "Émile"]
    deals = [
        dict(
            dealer=dealers[number % 5],
            taker="Bruno",
            contract="garde",
            called="coeur",
            partner="David",
            bouts=2,
            points=Decimal("60") if number < 5 else Decimal("30"),
        )
        for number in range(8)
    ]
    make_round(season, deals=deals, status=Round.HOMOLOGATED)
    bruno = Player.objects.get(name="Bruno")
    assert player_statistics(bruno)["rate"] == 63
    html = client.get(reverse("championship:player", args=[bruno.pk])).content.decode()
    assert "63\u00a0%" in html and "62\u00a0%" not in html
    assert html.count("la moitié vers le haut") == 1
    english = client.get(reverse("championship:player", args=[bruno.pk]), HTTP_ACCEPT_LANGUAGE="en").content
    assert "63%" in english.decode() and "halves rounded up" in english.decode()
    # the partner's count after a label, right whatever the number (no « 1 contrats réussis »)
    david = reverse("championship:player", args=[Player.objects.get(name="David").pk])
    assert "8 fois (contrats réussis\u00a0: 5)" in client.get(david).content.decode()
    assert "8 (contracts made: 5)" in client.get(david, HTTP_ACCEPT_LANGUAGE="en").content.decode()
