"""The shared entry rules (federation.validators): texts, names, bounds, and the CSV cell escape;
the Player model applies them, so the administration refuses what the forms and imports refuse."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse

from championship import bounds
from federation import validators
from federation.models import Player

# --- the rules themselves ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("Alice", None),
        ("Émile-Louis d'Aubigné", None),
        ("Zoé = 3 + 1 @ bière", None),
        ("Al\x00ice", "caractère de contrôle U+0000 interdit"),
        ("Al\tice", "caractère de contrôle U+0009 interdit"),
        ("Alice\r", "caractère de contrôle U+000D interdit"),
        ("Al\x9fice", "caractère de contrôle U+009F interdit"),
        ("Al\u202aice", "caractère de direction du texte U+202A interdit"),
        ("Al\u2068ice", "caractère de direction du texte U+2068 interdit"),
        ("=1+1", "ne doit pas commencer par « = » (formule de tableur)"),
        ("+1", "ne doit pas commencer par « + » (formule de tableur)"),
        ("-1", "ne doit pas commencer par « - » (formule de tableur)"),
        ("@A1", "ne doit pas commencer par « @ » (formule de tableur)"),
    ],
)
def test_a_name_problem_is_named_in_french(value, problem):
    assert validators.name_problem(value) == problem


def test_a_multiline_text_keeps_newlines_and_tabs_but_no_other_control():
    assert validators.text_problem("a\r\nb\tc", multiline=True) is None
    assert validators.text_problem("a\u202eb", multiline=True) is None
    assert validators.text_problem("a\x00b", multiline=True) == "caractère de contrôle U+0000 interdit"
    assert validators.text_problem("a\nb") == "caractère de contrôle U+000A interdit"


@pytest.mark.parametrize(
    ("value", "bounds", "problem"),
    [
        (999, bounds.ROUND_NUMBER, None),
        (1000, bounds.ROUND_NUMBER, "1000 n'est pas entre 1 et 999"),
        (-(10**30), bounds.ROUND_TOTAL, f"{-(10**30)} n'est pas entre -1000000 et 1000000"),
        (-100, bounds.ADJUSTMENT_POINTS, None),
    ],
)
def test_a_number_out_of_its_bounds_is_named_in_french(value, bounds, problem):
    assert validators.bounds_problem(value, bounds) == problem


def test_every_bound_fits_a_postgresql_integer():
    for declared in (bounds.ROUND_NUMBER, bounds.DEAL_NUMBER, bounds.ROUND_TOTAL):
        assert -(2**31) <= declared.low <= declared.high < 2**31
    assert bounds.ROUND_NUMBER.high < 2**15 and bounds.DEAL_NUMBER.high < 2**15


@pytest.mark.parametrize(
    ("cell", "escaped"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@A1", "'@A1"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("Alice", "Alice"),
        ("", ""),
        (-800, -800),
        (12, 12),
        (None, None),
    ],
)
def test_a_spreadsheet_cell_is_escaped_only_when_it_is_text_starting_a_formula(cell, escaped):
    assert validators.spreadsheet_cell(cell) == escaped


# --- the Player model and the administration ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ('=HYPERLINK("http://x")', "Nom : ne doit pas commencer par « = » (formule de tableur)."),
        ("Ali\u202ece", "Nom : caractère de direction du texte U+202E interdit."),
        ("Ali\x00ce", "Nom : caractère de contrôle U+0000 interdit."),
    ],
)
def test_the_player_model_refuses_a_bad_name(db, name, message):
    with pytest.raises(ValidationError) as info:
        Player(name=name).full_clean()
    assert info.value.message_dict["name"] == [message]


def test_the_player_model_refuses_a_bad_nickname(db):
    with pytest.raises(ValidationError) as info:
        Player(name="Alice", nickname="-la reine").full_clean()
    assert info.value.message_dict["nickname"] == [
        "Surnom : ne doit pas commencer par « - » (formule de tableur)."
    ]


def test_the_administration_refuses_a_formula_name(client, db):
    admin = get_user_model().objects.create_superuser("admin", "admin@example.org", "x")
    client.force_login(admin)
    response = client.post(
        reverse("admin:federation_player_add"), {"name": "=cmd|' /C calc'!A0", "nickname": "", "active": "on"}
    )
    assert response.status_code == 200
    assert "Nom : ne doit pas commencer par « = » (formule de tableur)." in response.content.decode()
    assert not Player.objects.exists()
    response = client.post(reverse("admin:federation_player_add"), {"name": "Alice", "active": "on"})
    assert response.status_code == 302
    assert Player.objects.get().name == "Alice"
