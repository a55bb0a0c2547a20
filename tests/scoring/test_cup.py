import pytest

from scoring.cup import CupPlan, champion, qualify_for_final, seed_cup, snake_tables
from scoring.cup_reasons import french, french_pairs
from scoring.ranking import PlayerSeason, final_ranking
from scoring.rulebook import load_default_rulebook

RULEBOOK = load_default_rulebook()


def limits_variant(rulebook, cap, floor):
    """``rulebook`` with these round limits (``round_points_cap``, ``round_points_floor``)."""
    limits = {"round_points_cap": cap, "round_points_floor": floor}
    return rulebook.model_copy(update={"championship": rulebook.championship.model_copy(update=limits)})


def cup_variant(**changes):
    """The default rulebook with these cup settings and round limits of +15 / −6 (the figures of
    the status examples below)."""
    rulebook = RULEBOOK.model_copy(update={"cup": RULEBOOK.cup.model_copy(update=changes)})
    return limits_variant(rulebook, 15, -6)


def season(player, points, rounds=5, wins=0, seconds=0, sum_totals=0):
    return PlayerSeason(player, points, rounds, wins, seconds, sum_totals)


def ranked_players(count):
    """S01 … Snn, ranked in that order (S01 best)."""
    players = [season(f"S{n:02d}", 100 - n) for n in range(1, count + 1)]
    return final_ranking(players, RULEBOOK)[0]


def names(*numbers):
    return tuple(f"S{n:02d}" for n in numbers)


# --- seeding ---------------------------------------------------------------------------------


def test_it_seeds_ten_players_in_snake_order():
    plan = seed_cup(ranked_players(10), RULEBOOK)

    assert plan.seeds == names(*range(1, 11))
    assert plan.tables == {"A": names(1, 4, 5, 8, 9), "B": names(2, 3, 6, 7, 10)}
    assert plan.direct_final == ()
    assert french_pairs(plan.exclusions) == []


def test_it_leaves_out_the_players_below_the_ten_seeds():
    plan = seed_cup(ranked_players(12), RULEBOOK)

    assert plan.seeds == names(*range(1, 11))
    assert plan.tables == {"A": names(1, 4, 5, 8, 9), "B": names(2, 3, 6, 7, 10)}
    assert french_pairs(plan.exclusions) == [
        ("S11", "11e du classement final : hors des 10 qualifiés pour les play-offs"),
        ("S12", "12e du classement final : hors des 10 qualifiés pour les play-offs"),
    ]


@pytest.mark.parametrize(
    ("count", "final", "left_out"),
    [(9, names(1, 2, 3, 4, 5), names(6, 7, 8, 9)), (5, names(1, 2, 3, 4, 5), ()), (4, names(1, 2, 3, 4), ())],
)
def test_it_sends_the_top_players_to_a_direct_final_without_play_offs(count, final, left_out):
    plan = seed_cup(ranked_players(count), RULEBOOK)

    assert plan.tables == {}
    assert plan.direct_final == final
    assert plan.seeds == final
    assert [player for player, _ in plan.exclusions] == list(left_out)


def test_it_explains_a_direct_final_exclusion():
    plan = seed_cup(ranked_players(9), RULEBOOK)

    assert french_pairs(plan.exclusions)[0] == (
        "S06",
        "6e du classement final : hors des 5 qualifiés pour la finale directe "
        "(moins de 10 classés : pas de play-offs)",
    )


@pytest.mark.parametrize("count", [0, 1, 3])
def test_it_holds_no_cup_below_four_ranked_players(count):
    plan = seed_cup(ranked_players(count), RULEBOOK)

    assert (plan.seeds, plan.tables, plan.direct_final) == ((), {}, ())
    assert len(plan.exclusions) == count
    if count == 3:
        assert french_pairs(plan.exclusions)[0] == (
            "S01",
            "pas de Coupe du Monde : 3 joueurs classés, il en faut au moins 4",
        )


def test_it_lists_unranked_players_among_the_exclusions():
    players = [season(f"S{n:02d}", 100 - n) for n in range(1, 6)] + [season("Zoé", 90, rounds=2)]
    ranked, unranked = final_ranking(players, RULEBOOK)
    plan = seed_cup(ranked, RULEBOOK, unranked)

    assert "Zoé" not in plan.seeds
    assert french_pairs(plan.exclusions) == [
        ("Zoé", "hors classement : moins de 3 manches (2 manches jouées)")
    ]


def test_it_breaks_a_tie_at_the_seeding_cut_as_the_ranking_does():
    players = [season(f"S{n:02d}", 100 - n) for n in range(1, 10)]
    players += [season("Yves", 50), season("Xavier", 50)]  # fully tied for the 10th place
    ranked, _ = final_ranking(players, RULEBOOK)
    plan = seed_cup(ranked, RULEBOOK)

    assert plan.seeds[-1] == "Xavier"
    assert french_pairs(plan.exclusions) == [
        (
            "Yves",
            "10e ex æquo du classement final avec Xavier, l'ordre alphabétique les départage : "
            "hors des 10 qualifiés pour les play-offs",
        )
    ]


def test_it_snakes_across_three_tables():
    assert snake_tables(list("123456789"), ["A", "B", "C"]) == {
        "A": ("1", "6", "7"),
        "B": ("2", "5", "8"),
        "C": ("3", "4", "9"),
    }


# --- qualification for the final -----------------------------------------------------------

PLAN = seed_cup(ranked_players(10), RULEBOOK)


def playoffs(a, b):
    return {
        "A": dict(zip(names(1, 4, 5, 8, 9), a, strict=True)),
        "B": dict(zip(names(2, 3, 6, 7, 10), b, strict=True)),
    }


def test_it_qualifies_the_docstring_example():
    totals = playoffs((200, 50, 50, -100, -200), (300, 100, 40, -140, -300))
    result = qualify_for_final(PLAN, totals, RULEBOOK)

    assert result.complete
    assert result.finalists == names(1, 2, 3, 4, 5)
    assert {player: french(reason) for player, reason in result.reasons.items()} == {
        "S06": "3e de la table B (total 40) : derrière S05, 3e de la table A (total 50)",
        "S07": "4e de la table B (total −140) : seuls les 2 premiers de chaque table et le "
        "meilleur 3e vont en finale",
        "S08": "4e de la table A (total −100) : seuls les 2 premiers de chaque table et le "
        "meilleur 3e vont en finale",
        "S09": "5e de la table A (total −200) : seuls les 2 premiers de chaque table et le "
        "meilleur 3e vont en finale",
        "S10": "5e de la table B (total −300) : seuls les 2 premiers de chaque table et le "
        "meilleur 3e vont en finale",
    }


def test_it_breaks_a_tie_at_the_table_cut_by_the_better_seed():
    # S05 and S08 tie for 2nd place of table A: S05 goes through on seed, S08 as best third
    totals = playoffs((200, -50, 60, 60, -270), (300, 100, 0, -140, -260))
    result = qualify_for_final(PLAN, totals, RULEBOOK)

    assert result.finalists == names(1, 2, 3, 5, 8)  # S08 is the best third (60 > 0)
    totals = playoffs((200, 60, 60, 60, -380), (300, 100, 70, -140, -330))
    result = qualify_for_final(PLAN, totals, RULEBOOK)

    assert result.finalists == names(1, 2, 3, 4, 6)
    assert french(result.reasons["S05"]) == (
        "3e de la table A (total 60) : derrière S06, 3e de la table B (total 70)"
    )
    assert french(result.reasons["S08"]) == (
        "4e de la table A (total 60, à égalité avec S05, égalité départagée par la tête de "
        "série (5 contre 8)) : seuls les 2 premiers de chaque table et le meilleur 3e vont "
        "en finale"
    )


def test_it_breaks_a_tie_between_thirds_by_the_better_seed():
    totals = playoffs((200, 100, 50, -150, -200), (300, 100, 50, -200, -250))
    result = qualify_for_final(PLAN, totals, RULEBOOK)

    assert result.finalists == names(1, 2, 3, 4, 5)
    assert french(result.reasons["S06"]) == (
        "3e de la table B (total 50) : derrière S05, 3e de la table A (total 50, égalité "
        "départagée par la tête de série (5 contre 6))"
    )


def test_it_gives_a_reason_to_every_player_left_out():
    plan = seed_cup(ranked_players(12), RULEBOOK)
    totals = playoffs((200, 50, 50, -100, -200), (300, 100, 40, -140, -300))
    result = qualify_for_final(plan, totals, RULEBOOK)

    assert set(result.reasons) | set(result.finalists) == set(names(*range(1, 13)))
    assert not set(result.reasons) & set(result.finalists)


@pytest.mark.parametrize("missing", ["A", "B"])
def test_it_has_no_finalists_until_every_table_has_played(missing):
    totals = playoffs((200, 50, 50, -100, -200), (300, 100, 40, -140, -300))
    del totals[missing]
    result = qualify_for_final(PLAN, totals, RULEBOOK)

    assert (result.finalists, result.complete) == ((), False)


def test_it_refuses_play_off_results_for_other_players():
    totals = playoffs((200, 50, 50, -100, -200), (300, 100, 40, -140, -300))
    totals["A"]["Zoé"] = totals["A"].pop("S09")

    with pytest.raises(ValueError, match="Table de play-off A"):
        qualify_for_final(PLAN, totals, RULEBOOK)


def test_it_follows_the_season_cup_rules():
    rulebook = cup_variant(qualifiers_per_table=1, best_thirds=2)
    totals = playoffs((200, 50, 40, -100, -190), (300, 100, 45, -140, -305))
    result = qualify_for_final(PLAN, totals, rulebook)

    assert result.finalists == names(1, 2, 3, 4)
    assert french(result.reasons["S05"]).endswith(
        "seul le premier de chaque table et les 2 meilleurs 2es vont en finale"
    )

    alone = qualify_for_final(PLAN, totals, cup_variant(qualifiers_per_table=1, best_thirds=0))
    assert french(alone.reasons["S03"]).endswith("seul le premier de chaque table va en finale")


def test_it_sends_the_direct_final_when_there_are_no_play_offs():
    plan = seed_cup(ranked_players(7), RULEBOOK)
    result = qualify_for_final(plan, {}, RULEBOOK)

    assert result.complete
    assert result.finalists == names(1, 2, 3, 4, 5)
    assert set(result.reasons) == set(names(6, 7))


# --- the final -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "winner"),
    [
        ({"S01": -100, "S02": 300, "S03": 0, "S04": -100, "S05": -100}, "S02"),
        ({"S01": 100, "S02": 200, "S03": 200, "S04": -250, "S05": -250}, "S02"),
        ({"S01": -50, "S02": -50, "S03": 200, "S04": 200, "S05": -300}, "S03"),
        (None, None),
        ({}, None),
    ],
)
def test_it_crowns_the_winner_of_the_final_ties_going_to_the_better_seed(totals, winner):
    assert champion(names(1, 2, 3, 4, 5), totals) == winner


def test_it_uses_the_seed_order_not_the_name_order():
    assert champion(("Zoé", "Alice"), {"Alice": 100, "Zoé": 100}) == "Zoé"


def test_it_refuses_a_final_total_for_a_player_not_qualified():
    with pytest.raises(ValueError, match="Zoé"):
        champion(names(1, 2, 3, 4), {"S01": 0, "Zoé": 0})


def test_it_builds_a_plan_by_hand():
    plan = CupPlan(("A", "B", "C", "D"), {}, ("A", "B", "C", "D"))

    assert qualify_for_final(plan, {}, RULEBOOK).finalists == ("A", "B", "C", "D")
