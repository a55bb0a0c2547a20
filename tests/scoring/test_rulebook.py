import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from scoring import rulebook as rulebook_module
from scoring.rulebook import (
    MAX_RULEBOOK_CHARS,
    Rulebook,
    RulebookError,
    default_rulebook_text,
    load_default_rulebook,
    load_rulebook,
    load_rulebook_data,
)
from tests.scoring.engine_helpers import rulebook_data
from tests.spies import recorded_calls

POSITIVE = [
    "deal.chip_unit",
    "deal.multipliers.prise",
    "deal.multipliers.garde",
    "deal.multipliers.garde_sans",
    "deal.multipliers.garde_contre",
    "deal.poignee_thresholds.5.simple",
    "deal.poignee_thresholds.4.triple",
    "cup.final_players",
    "cup.minimum_players",
    "championship.round_points_cap",
]
NATURAL = [
    "deal.base",
    "deal.targets.0",
    "deal.targets.3",
    "deal.petit_au_bout",
    "deal.poignee_values.simple",
    "deal.poignee_values.triple",
    "deal.chelem.announced_made",
    "deal.chelem.unannounced_made",
    "deal.misere",
    "pot.ante",
    "pot.misdeal_penalty",
    "championship.rank_points.5.0",
    "championship.rank_points.4.3",
    "championship.big_win_margin",
    "championship.big_win_points",
    "championship.prestige_points",
    "championship.chelem_points",
    "championship.close_loss_margin",
    "championship.close_loss_points",
    "championship.wall_points",
    "championship.minimum_rounds",
    "championship.best_taker_min_takes",
    "reports.deadline_days",
    "cup.playoff_players",
    "cup.qualifiers_per_table",
    "cup.best_thirds",
]
NEGATIVE = [
    "deal.chelem.announced_failed",
    "deal.chelem.defence_made",
    "reports.late_malus_per_week",
    "championship.round_points_floor",
]
SIGNED = ["championship.catalogue.0.points", "championship.catalogue.6.points"]

NOT_AN_INT = st.sampled_from([None, "10", "dix", 1.5, 10.0, True, [10], {"a": 1}])


def _set(data, path: str, value) -> None:
    *parents, last = path.split(".")
    for part in parents:
        data = data[int(part)] if isinstance(data, list) else data[part]
    if isinstance(data, list):
        data[int(last)] = value
    else:
        data[last] = value


def _refused(data) -> RulebookError:
    with pytest.raises(RulebookError) as caught:
        load_rulebook_data(data)
    return caught.value


def test_it_loads_the_shipped_default():
    assert load_default_rulebook() == Rulebook()
    assert load_rulebook(default_rulebook_text()) == Rulebook()


def test_it_ships_the_values_of_the_reglement(rulebook):
    assert rulebook.deal.chip_unit == 10
    assert rulebook.deal.targets == {0: 56, 1: 51, 2: 41, 3: 36}
    assert rulebook.deal.multipliers == {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
    assert rulebook.deal.poignee_thresholds == {
        5: {"simple": 8, "double": 10, "triple": 13},
        4: {"simple": 10, "double": 13, "triple": 15},
    }
    assert rulebook.deal.poignee_values == {"simple": 20, "double": 30, "triple": 40}
    assert rulebook.deal.chelem.defence_made == -200
    assert (rulebook.pot.ante, rulebook.pot.misdeal_penalty) == (10, 10)
    assert rulebook.championship.rank_points == {5: [10, 7, 5, 3, 1], 4: [10, 6, 3, 1]}
    assert rulebook.championship.tiebreaks == ["wins", "seconds", "sum_totals", "fewer_rounds"]
    assert rulebook.championship.awards == [
        "record",
        "wooden_spoon",
        "best_taker",
        "wall",
        "most_rounds",
        "most_chelems",
    ]
    assert rulebook.reports.late_malus_per_week == -1
    assert rulebook.cup.playoff_tables == ["A", "B"]
    assert (rulebook.championship.round_points_cap, rulebook.championship.round_points_floor) == (30, -30)


def test_it_ships_the_catalogue_of_bonuses_and_maluses(rulebook):
    championship = rulebook.championship
    codes = {entry.code: entry.points for entry in championship.catalogue}
    assert codes == {
        "hote": 1,
        "fair_play": 1,
        "compte_rendu_du_mois": 1,
        "retard": -1,
        "absence": -2,
        "biere_renversee": -1,
        "ethique": -3,
    }
    ethics = championship.catalogue_entry("ethique")
    assert ethics.board_only and ethics.label == "Manquement à l'éthique"
    assert not championship.catalogue_entry("retard").board_only
    with pytest.raises(KeyError):
        championship.catalogue_entry("inconnu")


def test_it_comments_every_setting_of_the_shipped_file_in_french():
    previous = ""
    in_catalogue = False
    for line in default_rulebook_text().splitlines():
        if line.startswith("["):
            in_catalogue = line == "[[championship.catalogue]]"
        elif re.match(r"^\w+ = ", line) and not in_catalogue:
            assert previous.startswith("#"), f"setting without a comment: {line}"
        if line.strip():
            previous = line
    assert "Multiplicateur de chaque contrat" in default_rulebook_text()


def test_it_fills_missing_sections_with_the_defaults():
    rulebook = load_rulebook("[pot]\nante = 20\n")
    assert rulebook.pot.ante == 20
    assert rulebook.pot.misdeal_penalty == 10
    assert rulebook.deal == Rulebook().deal


def test_it_is_frozen(rulebook):
    with pytest.raises(ValidationError):
        rulebook.deal.chip_unit = 1


def test_it_formats_the_error_with_the_field_first():
    error = RulebookError("deal.multipliers.garde", "doit être un entier positif")
    assert str(error) == "deal.multipliers.garde : doit être un entier positif"
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(
    ("toml", "field", "message"),
    [
        ("[deal.multipliers]\nprise = 1\ngarde = -2\ngarde_sans = 4\ngarde_contre = 6",
         "deal.multipliers.garde", "doit être un entier positif"),
        ('[deal]\nbase = "25"', "deal.base", "doit être un entier positif ou nul"),
        ("[deal]\nchip_unit = 0", "deal.chip_unit", "doit être un entier positif"),
        ("[deal]\nchip_unit = 2.5", "deal.chip_unit", "doit être un entier positif"),
        ("[deal]\nunite = 10", "deal.unite", "paramètre inconnu"),
        ("[tournoi]\nx = 1", "tournoi", "paramètre inconnu"),
        ("deal = 3", "deal", "doit être une table TOML"),
        ("[deal.targets]\n0 = 56\n1 = 51\n2 = 41", "deal.targets",
         "doit donner exactement les clés 0, 1, 2, 3"),
        ("[deal.targets]\n0 = 56\n1 = 51\n2 = 41\n3 = 36\n4 = 30", "deal.targets.4",
         "nombre de bouts de 0 à 3"),
        ("[deal.targets]\n0 = 56\n1 = 51\n2 = 41\n3 = -36", "deal.targets.3", "entre 0 et 91"),
        ("[deal.multipliers]\nprise = 1\ngarde = 2\ngarde_sans = 4", "deal.multipliers",
         "exactement les clés"),
        ("[deal.multipliers]\nprise = 1\ngarde = 2\ngarde_sans = 4\ngarde_contre = 6\nchouette = 8",
         "deal.multipliers.chouette", "doit être un contrat"),
        ("[deal.poignee_thresholds.4]\nsimple = 10\ndouble = 10\ntriple = 15\n"
         "[deal.poignee_thresholds.5]\nsimple = 8\ndouble = 10\ntriple = 13",
         "deal.poignee_thresholds.4", "croissants"),
        ("[deal.poignee_thresholds.5]\nsimple = 8\n"
         "[deal.poignee_thresholds.4]\nsimple = 10\ndouble = 13\ntriple = 15",
         "deal.poignee_thresholds.5", "exactement les clés simple, double, triple"),
        ("[deal.poignee_thresholds.6]\nsimple = 8\ndouble = 10\ntriple = 13",
         "deal.poignee_thresholds.6", "la clé doit être 4 ou 5"),
        ("[deal.chelem]\nannounced_failed = 200", "deal.chelem.announced_failed",
         "négatif ou nul"),
        ("[championship.rank_points]\n5 = [10, 7, 5, 3]\n4 = [10, 6, 3, 1]",
         "championship.rank_points.5", "doit donner 5 valeurs"),
        ("[championship.rank_points]\n5 = [10, 7, 5, 3, 1]\n4 = [10, 6, 6, 1]",
         "championship.rank_points.4", "strictement décroissants"),
        ("[championship.rank_points]\n5 = [1, 3, 5, 7, 10]\n4 = [10, 6, 3, 1]",
         "championship.rank_points.5", "strictement décroissants"),
        ("[championship.rank_points]\n5 = [10, 7, 5, 3, 1]", "championship.rank_points",
         "exactement les clés 4, 5"),
        ('[championship]\nrank_points = "10"', "championship.rank_points",
         "doit être une table TOML"),
        ('[championship]\ntiebreaks = ["wins", "goal_average"]', "championship.tiebreaks",
         "clé inconnue « goal_average »"),
        ('[championship]\ntiebreaks = ["wins", "wins"]', "championship.tiebreaks",
         "apparaît deux fois"),
        ('[championship]\nawards = ["record", "ballon_d_or"]', "championship.awards",
         "clé inconnue « ballon_d_or »"),
        ('[championship]\nawards = "record"', "championship.awards", "doit être une liste"),
        ('[championship]\nprestige_contracts = ["garde", "petite_garde"]',
         "championship.prestige_contracts.1", "doit être un contrat"),
        ('[[championship.catalogue]]\ncode = "hote"\nlabel = "Hôte"\npoints = 1\n'
         '[[championship.catalogue]]\ncode = "hote"\nlabel = "Hôte bis"\npoints = 2',
         "championship.catalogue.1.code", "apparaît deux fois"),
        ('[[championship.catalogue]]\ncode = "wall"\nlabel = "Mur"\npoints = 1',
         "championship.catalogue.0.code", "réservé"),
        ('[[championship.catalogue]]\ncode = "Hôte"\nlabel = "Hôte"\npoints = 1',
         "championship.catalogue.0.code", "code en minuscules"),
        ('[[championship.catalogue]]\ncode = "hote"\nlabel = ""\npoints = 1',
         "championship.catalogue.0.label", "texte non vide"),
        ('[[championship.catalogue]]\ncode = "hote"\nlabel = "Hôte"',
         "championship.catalogue.0.points", "paramètre manquant"),
        ('[[championship.catalogue]]\ncode = "hote"\nlabel = "Hôte"\npoints = 1\n'
         'board_only = "oui"', "championship.catalogue.0.board_only", "true ou false"),
        ('[reports]\nauthor_rule = "loser"', "reports.author_rule", "règle inconnue"),
        ("[reports]\nlate_malus_per_week = 1", "reports.late_malus_per_week", "négatif ou nul"),
        ("[championship]\nround_points_cap = 9", "championship.round_points_cap",
         "doit être au moins 10, les points de la 1re place (rank_points)"),
        ("[championship]\nround_points_cap = 20\n[championship.rank_points]\n"
         "5 = [25, 7, 5, 3, 1]\n4 = [10, 6, 3, 1]", "championship.round_points_cap",
         "doit être au moins 25"),
        ("[championship]\nround_points_floor = 5", "championship.round_points_floor", "négatif ou nul"),
        ("[cup]\nmax_round_points = 15", "cup.max_round_points",
         "paramètre supprimé : le plafond d'une manche se règle désormais dans "
         "championship.round_points_cap"),
        ("[cup]\nmin_round_points = -6", "cup.min_round_points",
         "paramètre supprimé : le plancher d'une manche se règle désormais dans "
         "championship.round_points_floor"),
        ("[cup]\nplayoff_tables = []", "cup.playoff_tables", "au moins une table"),
        ('[cup]\nplayoff_tables = ["A", "A"]', "cup.playoff_tables", "apparaît deux fois"),
        ("[deal\nchip_unit = 1", "rulebook", "fichier TOML illisible à la ligne 1"),
    ],
)  # fmt: skip
def test_it_refuses_a_malformed_rulebook(toml, field, message):
    with pytest.raises(RulebookError) as caught:
        load_rulebook(toml)
    assert caught.value.field == field
    assert message in caught.value.message
    assert str(caught.value).startswith(f"{field} : ")


def test_it_refuses_a_bad_value_even_when_built_in_python():
    with pytest.raises(ValidationError):
        Rulebook.model_validate({"deal": {"chip_unit": -1}})


@given(
    st.one_of(
        st.tuples(st.sampled_from(POSITIVE), NOT_AN_INT | st.integers(max_value=0)),
        st.tuples(st.sampled_from(NATURAL), NOT_AN_INT | st.integers(max_value=-1)),
        st.tuples(st.sampled_from(NEGATIVE), NOT_AN_INT | st.integers(min_value=1)),
        st.tuples(st.sampled_from(SIGNED), NOT_AN_INT),
    )
)
def test_it_always_refuses_a_malformed_number_naming_its_field(change):
    path, value = change
    data = rulebook_data()
    _set(data, path, value)
    error = _refused(data)
    assert error.field == path
    assert error.message.startswith("doit être")


@given(st.sampled_from(POSITIVE + NATURAL), st.integers(min_value=1, max_value=10**6))
def test_it_accepts_any_positive_number_where_one_is_expected(path, value):
    data = rulebook_data()
    _set(data, path, value)
    try:
        load_rulebook_data(data)
    except RulebookError as error:
        # A number may still break a consistency rule of its section (order of thresholds…).
        assert error.field != path or any(
            rule in error.message for rule in ("décroissants", "91", "points de la 1re place")
        )


@pytest.mark.parametrize(
    "toml",
    [
        "a = " + "[" * 5000 + "]" * 5000,
        "[deal]\nchip_unit = " + "{x = " * 3000 + "1" + "}" * 3000,
    ],
    ids=["nested arrays", "nested tables"],
)
def test_it_refuses_a_deeply_nested_rulebook_with_a_message(toml):
    with pytest.raises(RulebookError) as caught:
        load_rulebook(toml)
    assert caught.value.field == "rulebook"
    assert "imbrication" in caught.value.message


def test_it_refuses_a_rulebook_longer_than_any_real_one():
    toml = "# " + "x" * (MAX_RULEBOOK_CHARS) + "\n"
    with pytest.raises(RulebookError) as caught:
        load_rulebook(toml)
    assert caught.value.field == "rulebook"
    assert "trop long" in caught.value.message


def test_a_text_is_parsed_once_and_each_rulebook_has_containers_of_its_own(monkeypatch):
    """A page reads its season's rulebook at every request: the text is parsed once per process,
    and what a caller does to one rulebook's lists reaches no other."""
    parsed = recorded_calls(monkeypatch, rulebook_module.tomllib, "loads")
    text = default_rulebook_text() + "\n# parsed once\n"
    first = load_rulebook(text)
    first.championship.rank_points[5].append(999)
    second = load_rulebook(text)
    assert parsed == [text]
    assert second.championship.rank_points[5] == Rulebook().championship.rank_points[5]
    assert 999 not in second.championship.rank_points[5]
