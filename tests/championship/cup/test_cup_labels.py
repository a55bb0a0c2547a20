"""The cup's reasons in the page's language: the engine's French, or English from the same figures."""

import pytest
from django.utils import translation

from championship.cup.labels import ENGLISH, reason_text
from scoring.cup import seed_cup
from scoring.cup_reasons import FRENCH, Reason, french
from scoring.ranking import PlayerSeason, final_ranking
from scoring.rulebook import load_default_rulebook

# One reason of every code, with figures that exercise its plurals and ties.
SAMPLES = [
    Reason("unranked", {"minimum": 3, "rounds": 2}),
    Reason("no_cup", {"count": 3, "minimum": 4}),
    Reason("outside_playoffs", {"place": 11, "tied_with": None, "size": 10}),
    Reason("outside_playoffs", {"place": 10, "tied_with": "Xavier", "size": 10}),
    Reason("outside_direct_final", {"place": 6, "tied_with": None, "size": 5, "playoff_players": 10}),
    Reason(
        "table_cut",
        {
            "position": 4,
            "table": "A",
            "total": 60,
            "tied_with": "S05",
            "seed_above": 5,
            "seed": 8,
            "qualifiers": 2,
            "best_thirds": 1,
        },
    ),
    Reason(
        "table_cut",
        {
            "position": 3,
            "table": "B",
            "total": -10,
            "tied_with": None,
            "seed_above": 2,
            "seed": 3,
            "qualifiers": 1,
            "best_thirds": 0,
        },
    ),
    Reason(
        "third_cut",
        {
            "position": 3,
            "table": "B",
            "total": -220,
            "kept": "Chloé",
            "kept_table": "A",
            "kept_total": -160,
            "tied": False,
            "seed_above": 5,
            "seed": 2,
        },
    ),
    Reason("table_qualifier", {"position": 1, "table": "A"}),
    Reason("best_third", {"position": 3, "total": -160}),
    Reason("final_winner", {"total": 950, "tied": (), "seed": "5", "tied_seeds": ()}),
    Reason("final_winner", {"total": 40, "tied": ("S03",), "seed": "2", "tied_seeds": ("3",)}),
    Reason("cannot_rank", {"rounds": 0, "remaining": 2, "needed": 3}),
    Reason("safe", {"worst": 88, "loss": -6, "remaining": 2, "malus": -3, "threats": 1, "places": 2}),
    Reason("safe", {"worst": 120, "loss": 0, "remaining": 1, "malus": 0, "threats": 0, "places": 10}),
    Reason("out_of_reach", {"best": 50, "gain": 15, "remaining": 1, "ahead": 2, "places": 2}),
    Reason("out_of_reach", {"best": 50, "gain": 15, "remaining": 2, "ahead": 1, "places": 1}),
    Reason("not_ranked_yet", {"rounds": 1, "needed": 3}),
    Reason("open", {"threats": 11, "ahead": 0, "places": 10, "needed": 61, "most": 90, "remaining": 3}),
    Reason("open", {"threats": 1, "ahead": 0, "places": 1, "needed": 1, "most": 30, "remaining": 1}),
    Reason("open", {"threats": 3, "ahead": 1, "places": 2, "needed": 35, "most": 30, "remaining": 1}),
    Reason("open", {"threats": 3, "ahead": 0, "places": 2, "needed": 0, "most": 30, "remaining": 2}),
    Reason("open", {"threats": 3, "ahead": 0, "places": 2, "needed": -5, "most": 60, "remaining": 2}),
    Reason("final_tie", {"rank": 10, "places": 10}),
    Reason("final_in", {"place": 1, "places": 10}),
    Reason("final_out", {"place": 11, "places": 10}),
    Reason("final_unranked", {"needed": 3}),
    Reason("late_in", {"place": 2, "places": 10}),
    Reason("late_out", {"place": 3, "places": 1}),
    Reason("late_between", {"high": 1, "low": 2, "places": 1}),
    Reason("rounds_scheduled", {"count": 0}),
    Reason("rounds_pending", {"count": 2}),
    Reason("playoffs_without_plan"),
    Reason("several_playoff_rounds", {"table": "A", "number": 2}),
    Reason("wrong_playoff_players", {"table": "A", "players": ("S01", "S02"), "expected": ("S01", "S04")}),
    Reason("several_finals", {"number": 2}),
    Reason("wrong_finalists", {"players": ("S01",), "expected": ("S02",)}),
]
FRENCH_WORDS = (" de la ", " du ", "manche", "Qualifié", "Éliminé", "En course", "classé", "joueur", " et ")


def test_every_code_has_a_sample_and_an_english_sentence():
    assert set(ENGLISH) == set(FRENCH)
    assert {reason.code for reason in SAMPLES} == set(FRENCH)


@pytest.mark.parametrize("reason", SAMPLES, ids=lambda reason: reason.code)
def test_a_french_page_shows_the_engine_sentence(reason):
    with translation.override("fr"):
        assert reason_text(reason) == french(reason)


@pytest.mark.parametrize("reason", SAMPLES, ids=lambda reason: reason.code)
def test_an_english_page_shows_no_french(reason):
    with translation.override("en"):
        text = reason_text(reason)
    assert text and text != french(reason)
    for word in FRENCH_WORDS:
        assert word not in text, text


def test_it_writes_english_sentences_from_the_figures():
    with translation.override("en"):
        assert reason_text(SAMPLES[0]) == "not ranked: fewer than 3 rounds (2 rounds played)"
        assert reason_text(SAMPLES[3]) == (
            "tied 10th in the final standings with Xavier, split by alphabetical order: "
            "outside the 10 qualifiers for the play-offs"
        )
        assert (
            reason_text(SAMPLES[6])
            == "3rd at table B (total −10): only the winner of each table goes to the final"
        )
        assert (
            reason_text(SAMPLES[7])
            == "3rd at table B (total −220): behind Chloé, 3rd at table A (total −160)"
        )
        assert reason_text(SAMPLES[13]) == (
            "Qualified: 2nd place at worst, within the 2 qualifying places — even at the lowest, on 88 "
            "points (−6 a round at most over the 2 remaining rounds and −3 of late-report penalty at "
            "most), only one other player can reach or tie them"
        )
        assert reason_text(SAMPLES[14]) == (
            "Qualified: 1st place whatever happens, within the 10 qualifying places — on 120 points, "
            "which can no longer go down, nobody can reach or tie them"
        )
        assert reason_text(SAMPLES[16]) == (
            "Eliminated: 2nd place at best, beyond the only qualifying place — even at the highest, on "
            "50 points (+15 a round at most over the 2 remaining rounds), 1 ranked player will stay ahead"
        )
        assert reason_text(SAMPLES[18]) == (
            "In contention: 1st place at best, 12th at worst, for 10 qualifying places; 61 more points "
            "in 3 rounds would make their place certain"
        )
        assert reason_text(SAMPLES[19]) == (
            "In contention: 1st place at best, 2nd at worst, for a single qualifying place; 1 more point "
            "in 1 round would make their place certain"
        )
        assert reason_text(SAMPLES[20]).endswith(
            "; even 30 points in 1 round, the most possible, would not make their place certain "
            "(it would take 35)"
        )
        assert reason_text(SAMPLES[21]).endswith(
            "; losing nothing in 2 rounds would make their place certain"
        )
        assert reason_text(SAMPLES[22]).endswith(
            "; losing no more than 5 points in 2 rounds would make their place certain"
        )
        assert (
            reason_text(SAMPLES[12])
            == "Eliminated: 0 rounds played and 2 rounds to play, 3 needed to be ranked"
        )
        assert reason_text(None) == ""


def test_the_french_sentences_of_the_race_say_the_places_and_what_is_lacking():
    assert french(SAMPLES[14]) == (
        "Qualification assurée : à la 1re place quoi qu'il arrive, dans les 10 places qualificatives — "
        "à 120 points, qui ne peuvent plus baisser, personne ne peut l'atteindre ni l'égaler"
    )
    assert french(SAMPLES[16]) == (
        "Hors course : au mieux à la 2e place, au-delà de la seule place qualificative — même au plus "
        "haut, à 50 points (+15 par manche au plus sur les 2 manches restantes), 1 joueur classé "
        "restera devant"
    )
    assert french(SAMPLES[18]) == (
        "En course : au mieux à la 1re place, au pire à la 12e, pour 10 places qualificatives ; 61 "
        "points de plus en 3 manches lui assureraient sa place"
    )
    assert french(SAMPLES[19]) == (
        "En course : au mieux à la 1re place, au pire à la 2e, pour une seule place qualificative ; "
        "1 point de plus en 1 manche lui assurerait sa place"
    )
    assert french(SAMPLES[20]) == (
        "En course : au mieux à la 2e place, au pire à la 4e, pour 2 places qualificatives ; même 30 "
        "points en 1 manche, le plus possible, ne lui assureraient pas sa place (il en faudrait 35)"
    )
    assert french(SAMPLES[21]).endswith("; ne rien perdre en 2 manches lui assurerait sa place")
    assert french(SAMPLES[22]).endswith(
        "; ne pas perdre plus de 5 points en 2 manches lui assurerait sa place"
    )


def test_the_engine_gives_its_reasons_as_codes_and_figures():
    players = [PlayerSeason(f"S{n:02d}", 100 - n, 5, 0, 0, 0) for n in range(1, 12)]
    players.append(PlayerSeason("Zoé", 90, 2, 0, 0, 0))
    ranked, unranked = final_ranking(players, load_default_rulebook())

    plan = seed_cup(ranked, load_default_rulebook(), unranked)

    assert plan.exclusions == [
        ("S11", Reason("outside_playoffs", {"place": 11, "tied_with": None, "size": 10})),
        ("Zoé", Reason("unranked", {"minimum": 3, "rounds": 2})),
    ]
