"""The season's awards in the page's language: the engine's French sentence in French, a
sentence of the catalogue written from the same figures in English (championship.labels)."""

import pytest
from django.utils import translation

from championship.labels import AWARD_LABELS, award_label, award_reason
from scoring.awards import AWARDS, Award, Reason, french

SAMPLES = [
    (Reason("record", {"best": 1250}), "Highest round total of the season: 1250"),
    (
        Reason("wooden_spoon", {"rank": 11, "tied": True, "points": -4}),
        "Last place in the final ranking (11th tied), \u22124 points",
    ),
    (Reason("best_taker_nobody", {"minimum": 10}), "Not awarded (at least 10 takes)"),
    (
        Reason("best_taker", {"made": 12, "takes": 15, "rate": 80, "minimum": 10, "by_rate": True}),
        "12 contracts made out of 15 takes (80%), at least 10 takes; a tie on contracts made broken by "
        "the success rate",
    ),
    (Reason("wall", {"count": 1}), "1 contract defeated in defence"),
    (Reason("most_rounds", {"count": 14}), "14 rounds played"),
    (Reason("most_chelems", {"count": 2}), "2 slams made"),
    (Reason("nobody"), "Not awarded"),
]


@pytest.mark.parametrize(("reason", "english"), SAMPLES, ids=[reason.code for reason, _ in SAMPLES])
def test_it_writes_an_award_reason_in_the_pages_language(reason, english):
    with translation.override("fr"):
        assert award_reason(reason) == french(reason)
    with translation.override("en"):
        assert award_reason(reason) == english


def test_every_award_of_the_registry_has_a_title_in_both_languages():
    assert set(AWARD_LABELS) == set(AWARDS)
    for code, rule in AWARDS.items():
        award = Award(code, rule.label, (), None, Reason("nobody"))
        with translation.override("fr"):
            assert award_label(award) == rule.label
        with translation.override("en"):
            assert award_label(award) != rule.label
