"""Every statistics figure on the 3-round season of `conftest` (each deal's shares in its
docstring), computed by hand."""

from fractions import Fraction

from championship.models import Deal
from championship.standings.season import season_standings
from championship.stats import pages, palmares
from championship.stats.pieces import season_game
from championship.stats.rating import season_rating
from federation.models import Player


def named(name):
    return Player.objects.get(name=name)


def deal_address(round_, number):
    return f"/manches/{round_.pk}/#donne-{number}"


def test_alice_as_taker_partner_and_defender(three_rounds):
    """Alice takes twice: round 1's Garde sans alone, failed (44.5 points with 1 bout: 44 against
    51, −7), round 3's Garde with Bruno, made (49 with 2 bouts against 41, +8), petit au bout and
    poignée; she is never called; she defends the 4 other played deals (rounds 1 and 2's first,
    rounds 2 and 3's fourth), the last two failed."""
    stats = pages.player_stats(named("Alice"))
    taker = stats["taker"]
    assert (taker["takes"]["value"], taker["made"]["value"], taker["made"]["rate"]) == (2, 1, 50)
    assert taker["failed"]["value"] == 1
    by_contract = {row["code"]: (row["takes"]["value"], row["made"]["value"]) for row in taker["contracts"]}
    assert by_contract == {"prise": (0, 0), "garde": (1, 1), "garde_sans": (1, 0), "garde_contre": (0, 0)}
    assert taker["average_margin"] == 0.5  # (−7 + 8) / 2
    assert (taker["petit"]["value"], taker["petit_lost"]["value"], taker["poignees"]["value"]) == (1, 0, 1)
    assert taker["chelems"] == {"value": 0, "url": None}
    assert stats["partner"]["called"]["value"] == 0 and stats["partner"]["by"] == []
    defender = stats["defender"]
    assert (defender["defended"]["value"], defender["failed"]["value"], defender["failed"]["rate"]) == (
        4,
        2,
        50,
    )
    other = stats["other"]
    assert (other["miseres"]["value"], other["petit_attack"]["value"], other["petit_defence"]["value"]) == (
        0,
        1,
        0,
    )
    assert [(row["size"], row["value"]) for row in other["poignees"]] == [
        ("simple", 1),
        ("double", 0),
        ("triple", 0),
    ]


def test_bruno_called_by_alice(three_rounds):
    stats = pages.player_stats(named("Bruno"))
    partner = stats["partner"]
    assert (partner["called"]["value"], partner["made"]["value"]) == (1, 1)
    assert [(row["player"], row["called"]["value"], row["made"]["rate"]) for row in partner["by"]] == [
        ("Alice", 1, 100)
    ]
    assert stats["other"]["miseres"]["value"] == 0
    assert pages.player_stats(named("Chloé"))["other"]["miseres"]["value"] == 1  # round 1


def test_each_figure_lists_its_deals(three_rounds):
    first, second, third = three_rounds
    alice, bruno = named("Alice"), named("Bruno")
    assert [row["url"] for row in pages.figure_deals(alice, "take")] == [
        deal_address(first, 4),
        deal_address(third, 1),
    ]
    assert [row["url"] for row in pages.figure_deals(alice, "defended_failed")] == [
        deal_address(second, 4),
        deal_address(third, 4),
    ]
    called = pages.figure_deals(bruno, ("called_by", alice.pk))
    assert [(row["url"], row["taker"], row["share"], row["made"]) for row in called] == [
        (deal_address(third, 1), "Alice", 100, True)
    ]
    # every figure's count is the number of its deals
    stats = pages.player_stats(alice)
    assert stats["taker"]["takes"]["url"] == f"/joueurs/{alice.pk}/statistiques/take/"
    for key, figure in (("take", stats["taker"]["takes"]), ("defended", stats["defender"]["defended"])):
        assert len(pages.figure_deals(alice, key)) == figure["value"]


def test_the_point_flow_by_hand(three_rounds):
    """What Alice and each other took from the other (losers pay winners pro rata, 310 the
    winners' shares of each deal 1): Bruno took 120 × 210/310 (round 1, deal 1) + 130 (round 1,
    deal 4) from her, she 130 from him (round 2, deal 4): −81 net; David 120 × 100/310 + 130,
    she 120 × 210/310 + 130 (round 3): +43; Chloé 120 × 210/310 (round 2) + 130, she
    120 × 210/310 (round 3): −130, her bête noire; Émile 120 × 100/310 + 130, she 70 × 210/310:
    −121."""
    stats = pages.player_stats(named("Alice"))
    rows = {row["player"]: row for row in stats["opponents"]}
    assert {name: (row["took_from"], row["gave_to"], row["net"]) for name, row in rows.items()} == {
        "Bruno": (130, 211, -81),
        "Chloé": (81, 211, -130),
        "David": (211, 169, 43),
        "Émile": (47, 169, -121),
    }
    assert stats["bete_noire"]["player"] == "Chloé" and stats["bete_noire"]["net"] == 130
    assert stats["best_partner"] == {
        "player": "Bruno",
        "player_url": f"/joueurs/{named('Bruno').pk}/statistiques/",
        "deals": 1,
        "made": 1,
        "rate": 100,
        "points": 310,
    }
    # Rounds together, who finished ahead: round 1 −650 below Bruno's 380, round 2 0 above −650,
    # round 3 380 above 220.
    assert (rows["Bruno"]["rounds"], rows["Bruno"]["ahead"], rows["Bruno"]["behind"]) == (3, 2, 1)
    assert (rows["Chloé"]["ahead"], rows["Chloé"]["behind"]) == (1, 2)


def test_the_flow_sums_to_the_deals_shares(three_rounds):
    """Exact fractions: what each player took minus what he gave is the sum of his shares."""
    game = season_game(three_rounds[0].season)
    shares = {}
    for deal in Deal.objects.filter(round__in=three_rounds):
        for pk, share in deal.shares.items():
            shares[int(pk)] = shares.get(int(pk), 0) + share
    for pk, total in shares.items():
        won = sum((v for (_l, w), v in game.taken.items() if w == pk), Fraction(0))
        lost = sum((v for (loser, _w), v in game.taken.items() if loser == pk), Fraction(0))
        assert won - lost == total
    alice = named("Alice").pk
    assert shares[alice] == -290  # −640 + 10 + 340
    partners = pages.season_partners(three_rounds[0].season)
    row = next(row for row in partners["players"] if row["player"] == "Alice")
    assert (row["won"], row["lost"], row["net"]) == (470, 760, -290)


def test_the_partnerships_of_the_season(three_rounds):
    data = pages.season_partners(three_rounds[0].season)
    assert [(p["taker"], p["partner"], p["deals"], p["made"], p["points"]) for p in data["pairs"]] == [
        ("Alice", "Bruno", 1, 1, 310),
        ("Bruno", "David", 1, 1, 310),
        ("Chloé", "Émile", 1, 1, 310),
    ]
    assert data["matrix"]["takers"] == ["Alice", "Bruno", "Chloé"]
    assert data["matrix"]["partners"] == ["Bruno", "David", "Émile"]
    assert data["matrix"]["cells"][0] == [(1, 1), None, None]
    assert (data["rounds"], data["deals"]) == (3, 6)
    bests = {row["player"]: row["best_partner"] for row in data["players"]}
    assert bests["Bruno"] == "Alice"  # 310 with Alice and with David: the name decides
    assert data["flows"][0]["points"] > 0


def test_head_to_head(three_rounds):
    data = pages.head_to_head(named("Alice"), named("Bruno"))
    assert (data["rounds"], data["a_ahead"], data["b_ahead"], data["level"]) == (3, 2, 1, 0)
    assert (data["a_took"], data["b_took"], data["net"]) == (130, 211, -81)
    assert (data["a_called_b"], data["a_called_b_made"], data["b_called_a"]) == (1, 1, 0)
    assert [(row["a_total"], row["b_total"], row["ahead"]) for row in data["list"]] == [
        (-650, 380, -1),
        (0, -650, 1),
        (380, 220, 1),
    ]


def test_the_palmares(three_rounds):
    """Each round won by its 380 (Bruno, Chloé, Alice, in that order), lost by its −650 (Alice,
    Bruno, David): one win each, no streak longer than one round."""
    data = palmares.palmares()
    assert [(row["player"], row["total"]) for row in data["record_rounds"][:3]] == [
        ("Bruno", 380),
        ("Chloé", 380),
        ("Alice", 380),
    ]
    assert len(data["record_rounds"]) == 12  # the 10 best, and every 0 tied with the 10th
    assert [(row["player"], row["wins"]) for row in data["most_wins"]] == [
        ("Alice", 1),
        ("Bruno", 1),
        ("Chloé", 1),
    ]
    assert data["winning_streaks"] == [] and data["losing_streaks"] == []
    assert data["titles"] == []  # the season is still open
    mine = palmares.player_palmares(named("Alice"))
    assert (mine["rounds"], mine["wins"], mine["lasts"]) == (3, 1, 1)
    assert mine["best_round"]["total"] == 380 and mine["best_round"]["round"] == 3
    # one round won is no streak (two or more, as the federation's list); the season under way
    # is her best so far (issue 35)
    assert mine["winning_streak"] is None and mine["best_season"]["current"] is True


def test_a_closed_season_gives_its_podium(three_rounds):
    season = three_rounds[0].season
    season.is_open = False
    season.save()
    ranked = season_standings(season).ranked
    data = palmares.palmares()
    assert [(row["rank"], row["player"], row["points"]) for row in data["titles"][0]["podium"]] == [
        (row.rank, row.player.name, row.points) for row in ranked if row.rank <= 3
    ]
    assert data["titles"][0]["champion"] is None  # no cup played
    assert data["best_seasons"][0]["points"] == ranked[0].points


def test_the_rating(three_rounds):
    data = season_rating(three_rounds[0].season)
    assert sorted(row["player"] for row in data["players"]) == ["Alice", "Bruno", "Chloé", "David", "Émile"]
    assert all(row["deals"] == 6 for row in data["players"])
    # deal 1 of each round won by its taker and partner (Bruno and David, Chloé and Émile, Alice
    # and Bruno), deal 4 by all but its taker alone (Alice, Bruno, David)
    wins = {row["player"]: row["won"] for row in data["players"]}
    assert wins == {"Alice": 3, "Bruno": 4, "Chloé": 4, "David": 3, "Émile": 4}
    ratings = [row["rating"] for row in data["players"]]
    assert ratings == sorted(ratings, reverse=True)
    assert all(row["low"] == row["rating"] for row in data["players"])  # both mu − 3 sigma, rounded once
    assert all(row["low"] < row["mu"] < row["high"] for row in data["players"])


def test_a_point_flow_is_rounded_to_the_point_a_half_away_from_zero():
    points = pages.points
    assert [points(Fraction(n, 2)) for n in (-5, -3, -1, 0, 1, 3, 5)] == [-3, -2, -1, 0, 1, 2, 3]
    assert [points(Fraction(n, 3)) for n in (-5, -4, -2, -1, 1, 2, 4, 5)] == [-2, -1, -1, 0, 0, 1, 1, 2]
    assert points(Fraction(81 * 31 + 9, 31)) == 81 and points(-Fraction(38 * 31 + 22, 31)) == -39
    assert points(120) == 120 and points(-7) == -7
