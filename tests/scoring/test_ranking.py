import pytest

from scoring.ranking import TIEBREAKS, PlayerSeason, Standing, final_ranking, name_key
from scoring.rulebook import load_default_rulebook

RULEBOOK = load_default_rulebook()


def variant(**changes):
    championship = RULEBOOK.championship.model_copy(update=changes)
    return RULEBOOK.model_copy(update={"championship": championship})


def season(player, points=20, rounds=4, wins=1, seconds=1, sum_totals=0):
    return PlayerSeason(player, points, rounds, wins, seconds, sum_totals)


def summary(ranked):
    return [(s.player, s.rank, s.tied, s.decided_by) for s in ranked]


def test_it_keeps_the_registry_and_the_rulebook_keys_together():
    assert list(RULEBOOK.championship.tiebreaks) == list(TIEBREAKS)
    assert all(key == tiebreak.key for key, tiebreak in TIEBREAKS.items())


def test_it_ranks_the_docstring_example():
    players = [
        season("Alice", 31, 4, 1, 1, 900),
        season("Émile", 20, 4, 0, 1, -50),
        season("Fanny", 50, 2, 2, 0, 500),
        season("Bruno", 31, 4, 1, 2, 100),
        season("David", 20, 4, 0, 1, -50),
        season("Chloé", 40, 5, 2, 1, 300),
    ]
    ranked, unranked = final_ranking(players, RULEBOOK)

    assert summary(ranked) == [
        ("Chloé", 1, False, None),
        ("Bruno", 2, False, "points"),
        ("Alice", 3, False, "seconds"),
        ("David", 4, True, "points"),
        ("Émile", 4, True, None),
    ]
    assert [p.player for p in unranked] == ["Fanny"]


@pytest.mark.parametrize(
    ("better", "worse", "key"),
    [
        (season("B", points=21), season("A", points=20), "points"),
        (season("B", wins=2), season("A", wins=1), "wins"),
        (season("B", seconds=3), season("A", seconds=2), "seconds"),
        (season("B", sum_totals=10), season("A", sum_totals=0), "sum_totals"),
        (season("B", rounds=4), season("A", rounds=5), "fewer_rounds"),
        # an earlier criterion wins over every later one
        (season("B", wins=2, seconds=0, sum_totals=-900), season("A", wins=1, seconds=5), "wins"),
        (season("B", seconds=2, sum_totals=-500, rounds=9), season("A", seconds=1), "seconds"),
        (season("B", sum_totals=1, rounds=9), season("A", sum_totals=0, rounds=3), "sum_totals"),
    ],
)
def test_it_breaks_ties_in_the_rulebook_order(better, worse, key):
    ranked, _ = final_ranking([worse, better], RULEBOOK)

    assert summary(ranked) == [("B", 1, False, None), ("A", 2, False, key)]


def test_it_shares_the_rank_on_full_equality_and_shows_tied_players_by_name():
    players = [season("Zoé"), season("Émile"), season("alice"), season("David", points=30)]
    ranked, _ = final_ranking(players, RULEBOOK)

    assert summary(ranked) == [
        ("David", 1, False, None),
        ("alice", 2, True, "points"),
        ("Émile", 2, True, None),
        ("Zoé", 2, True, None),
    ]


def test_it_never_uses_the_input_order():
    players = [season("Chloé"), season("Bruno"), season("Alice", points=5)]
    forward, _ = final_ranking(players, RULEBOOK)
    backward, _ = final_ranking(reversed(players), RULEBOOK)

    assert forward == backward
    assert [s.player for s in forward] == ["Bruno", "Chloé", "Alice"]


def test_it_skips_the_rank_after_a_shared_one():
    players = [season("A", 30), season("B", 20), season("C", 20), season("D", 10)]
    ranked, _ = final_ranking(players, RULEBOOK)

    assert [(s.player, s.rank) for s in ranked] == [("A", 1), ("B", 2), ("C", 2), ("D", 4)]


@pytest.mark.parametrize(("rounds", "is_ranked"), [(0, False), (2, False), (3, True), (9, True)])
def test_it_ranks_only_players_with_the_minimum_rounds(rounds, is_ranked):
    ranked, unranked = final_ranking([season("Alice", rounds=rounds)], RULEBOOK)

    assert [s.player for s in ranked] == (["Alice"] if is_ranked else [])
    assert [p.player for p in unranked] == ([] if is_ranked else ["Alice"])


def test_it_lists_unranked_players_by_points_then_name():
    players = [
        season("Bruno", 5, rounds=1),
        season("Émile", 12, rounds=2),
        season("Alice", 5, rounds=2),
        season("David", 40, rounds=3),
    ]
    ranked, unranked = final_ranking(players, RULEBOOK)

    assert [s.player for s in ranked] == ["David"]
    assert [p.player for p in unranked] == ["Émile", "Alice", "Bruno"]


def test_it_follows_the_season_tiebreaks_and_minimum():
    rulebook = variant(tiebreaks=["sum_totals"], minimum_rounds=1)
    players = [season("A", wins=5, sum_totals=0, rounds=1), season("B", wins=0, sum_totals=10)]
    ranked, unranked = final_ranking(players, rulebook)

    assert summary(ranked) == [("B", 1, False, None), ("A", 2, False, "sum_totals")]
    assert unranked == []


def test_it_shares_a_rank_when_no_tiebreak_is_configured():
    ranked, _ = final_ranking([season("B", wins=3), season("A", wins=0)], variant(tiebreaks=[]))

    assert summary(ranked) == [("A", 1, True, None), ("B", 1, True, None)]


def test_it_exposes_the_standing():
    (standing,), _ = final_ranking([season("Alice")], RULEBOOK)

    assert standing == Standing(1, False, season("Alice"), None)
    assert standing.player == "Alice"


def test_it_refuses_a_player_listed_twice():
    with pytest.raises(ValueError, match="deux fois dans le classement : Alice"):
        final_ranking([season("Alice"), season("Alice", points=3)], RULEBOOK)


def test_it_sorts_names_as_a_french_reader_does():
    names = ["Fanny", "émile", "Zoé", "David", "Élodie", "bruno"]

    assert sorted(names, key=name_key) == ["bruno", "David", "Élodie", "émile", "Fanny", "Zoé"]
