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
        assert reason_text(None) == ""


def test_the_engine_gives_its_reasons_as_codes_and_figures():
    players = [PlayerSeason(f"S{n:02d}", 100 - n, 5, 0, 0, 0) for n in range(1, 12)]
    players.append(PlayerSeason("Zoé", 90, 2, 0, 0, 0))
    ranked, unranked = final_ranking(players, load_default_rulebook())

    plan = seed_cup(ranked, load_default_rulebook(), unranked)

    assert plan.exclusions == [
        ("S11", Reason("outside_playoffs", {"place": 11, "tied_with": None, "size": 10})),
        ("Zoé", Reason("unranked", {"minimum": 3, "rounds": 2})),
    ]
