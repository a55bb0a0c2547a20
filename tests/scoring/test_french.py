"""The French formatter (scoring.french): worked examples of every function."""

import json
from decimal import Decimal

import pytest

from scoring.french import (
    agree,
    elide,
    num,
    of_name,
    ordinal,
    percent,
    plural,
    rounded,
    rounded_percent,
    signed,
)

MINUS = "\N{MINUS SIGN}"
NBSP = "\N{NO-BREAK SPACE}"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0, "0"),
        (49, "49"),
        (-7, f"{MINUS}7"),
        (-650, f"{MINUS}650"),
        (1000000, "1000000"),
        (-1000000, f"{MINUS}1000000"),
        (Decimal("44.5"), "44,5"),
        (Decimal("-0.5"), f"{MINUS}0,5"),
        (Decimal("49.0"), "49"),
        (Decimal("-0"), "0"),
        (Decimal("-0.0"), "0"),
        (-0.0, "0"),
        (44.5, "44,5"),
        (91.0, "91"),
        (None, ""),
    ],
)
def test_it_writes_a_number_with_a_true_minus_sign_and_a_decimal_comma(value, shown):
    assert num(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (0, "0"),
        (999, "999"),
        (1000, f"1{NBSP}000"),
        (10000, f"10{NBSP}000"),
        (-1000000, f"{MINUS}1{NBSP}000{NBSP}000"),
        (123456789, f"123{NBSP}456{NBSP}789"),
        (Decimal("-1234.5"), f"{MINUS}1{NBSP}234,5"),
    ],
)
def test_it_groups_thousands_with_a_no_break_space_when_asked(value, shown):
    assert num(value, group=True) == shown


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (3, "+3"),
        (-2, f"{MINUS}2"),
        (0, "0"),
        (Decimal("-0"), "0"),
        (Decimal("2.5"), "+2,5"),
        (None, ""),
    ],
)
def test_it_signs_a_gain_or_a_loss(value, shown):
    assert signed(value) == shown


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [
        (-1 / 34, 1, "0.0"),  # a career's average margin: −0.029…
        (-0.04, 1, "0.0"),
        (-0.05000001, 1, "-0.1"),
        (-0.0, 1, "0.0"),
        (0.0, 1, "0.0"),
        (-0.634 - 3 * 3.150, 1, "-10.1"),  # a rating's low bound, from the unrounded μ and σ
        (-0.634 + 3 * 3.150, 1, "8.8"),
        (-0.004, 2, "0.0"),
        (-0.006, 2, "-0.01"),
        (7, 1, "7.0"),
        (-7, 1, "-7.0"),
    ],
)
def test_a_rounded_figure_is_never_a_negative_zero(value, digits, shown):
    """What a JSON page prints of it (`json.dumps`): never « -0.0 »."""
    assert json.dumps(rounded(value, digits)) == shown


def test_it_signs_a_large_gain_with_grouped_thousands():
    assert signed(1500, group=True) == f"+1{NBSP}500"


@pytest.mark.parametrize(
    ("n", "feminine", "shown"),
    [
        (1, False, "1er"),
        (1, True, "1re"),
        (2, False, "2e"),
        (2, True, "2e"),
        (11, False, "11e"),
        (21, True, "21e"),
    ],
)
def test_it_abbreviates_ordinals_as_french_does(n, feminine, shown):
    assert ordinal(n, feminine=feminine) == shown


@pytest.mark.parametrize(
    ("n", "singular", "plural_form", "shown"),
    [
        (0, "manche", None, "0 manche"),
        (1, "manche", None, "1 manche"),
        (2, "manche", None, "2 manches"),
        (1, "cheval", "chevaux", "1 cheval"),
        (3, "cheval", "chevaux", "3 chevaux"),
        (-1, "point", None, f"{MINUS}1 point"),
        (-2, "point", None, f"{MINUS}2 points"),
    ],
)
def test_it_agrees_a_count_with_its_noun(n, singular, plural_form, shown):
    assert plural(n, singular, plural_form) == shown


def test_it_agrees_an_adjective_alone():
    assert [agree(n, "jouée") for n in (0, 1, 2)] == ["jouée", "jouée", "jouées"]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Bruno", "de Bruno"),
        ("Igor", "d'Igor"),
        ("Alice", "d'Alice"),
        ("Émile", "d'Émile"),
        ("Hélène", "d'Hélène"),
        ("Hugo", "d'Hugo"),
        ("Œdipe", "d'Œdipe"),
        ("ursule", "d'ursule"),
        ("Yves", "d'Yves"),
        ("Yann", "de Yann"),
        ("Chloé", "de Chloé"),
        ("", "de "),
    ],
)
def test_it_elides_de_before_a_vowel_or_a_mute_h(name, shown):
    assert of_name(name) == shown


def test_it_makes_the_story_of_a_player():
    assert f"le récit {of_name('Igor')}" == "le récit d'Igor"


@pytest.mark.parametrize(
    ("article", "word", "shown"),
    [
        ("le", "arbitre", "l'arbitre"),
        ("la", "attaque", "l'attaque"),
        ("la", "défense", "la défense"),
        ("que", "Igor", "qu'Igor"),
        ("jusque", "ici", "jusqu'ici"),
        ("à", "Igor", "à Igor"),
    ],
)
def test_it_elides_other_articles(article, word, shown):
    assert elide(article, word) == shown


@pytest.mark.parametrize(
    ("part", "whole", "rounded"),
    [
        (5, 8, 63),  # 62.5: a half goes up
        (1, 8, 13),  # 12.5
        (3, 8, 38),  # 37.5
        (7, 8, 88),  # 87.5
        (1, 3, 33),
        (2, 3, 67),
        (1, 200, 1),  # 0.5
        (1, 201, 0),
        (0, 5, 0),
        (5, 5, 100),
    ],
)
def test_a_percentage_is_rounded_to_the_whole_percent_half_up(part, whole, rounded):
    assert rounded_percent(part, whole) == rounded


def test_a_percentage_of_nothing_is_none():
    assert rounded_percent(0, 0) is None
    assert percent(0, 0) == ""


def test_a_percentage_is_written_with_a_no_break_space():
    assert percent(5, 8) == f"63{NBSP}%"
