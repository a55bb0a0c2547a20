from decimal import Decimal

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scoring.deal import (
    CONTRACTS,
    KINDS,
    SUITS,
    DealInput,
    Poignee,
    Term,
    round_card_points,
    round_to_unit,
    score_deal,
)
from scoring.errors import ScoringError
from scoring.vocabulary import KIND_LABELS, SUIT_LABELS, contract_label
from tests.scoring.engine_helpers import FIVE, FOUR, played_deals, rulebook_with, tables

ALICE, BRUNO, CHLOE, DAVID, EMILE = FIVE
DEFAULT = rulebook_with()
UNIT_ONE = rulebook_with(deal__chip_unit=1)


def played(**fields) -> DealInput:
    fields.setdefault("dealer", ALICE)
    fields.setdefault("taker", BRUNO)
    fields.setdefault("contract", "garde")
    return DealInput(**fields)


def term_values(result, code):
    return [term.value for term in result.terms if term.code == code]


# docs/regles.md §1, worked examples: taker Bruno; partner David unless the taker plays alone.
WORKED_EXAMPLES = [
    pytest.param(
        played(contract="garde", partner=DAVID, bouts=2, points=Decimal(49)),
        66, 70, id="garde-49-2-bouts",
    ),
    pytest.param(
        played(contract="garde_sans", partner=DAVID, bouts=1, points=Decimal("44.5")),
        -128, -130, id="garde-sans-44.5-1-bout",
    ),
    pytest.param(
        played(contract="garde", bouts=2, points=Decimal(47),
               poignees=(Poignee(BRUNO, "simple"),)),
        82, 80, id="own-king-garde-47-poignee",
    ),
    pytest.param(
        played(contract="prise", partner=DAVID, bouts=1, points=Decimal(53),
               petit_au_bout="defence", poignees=(Poignee(CHLOE, "simple"),)),
        37, 40, id="prise-53-defence-petit-and-poignee",
    ),
    pytest.param(
        played(contract="prise", partner=DAVID, bouts=1, points=Decimal(48),
               petit_au_bout="defence", poignees=(Poignee(BRUNO, "simple"),)),
        -58, -60, id="prise-48-failed-taker-poignee",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("deal", "unit_one", "unit_ten"), WORKED_EXAMPLES)
@pytest.mark.parametrize("chip_unit", [1, 10])
def test_it_scores_the_worked_examples_of_the_reglement(deal, unit_one, unit_ten, chip_unit):
    rulebook = UNIT_ONE if chip_unit == 1 else DEFAULT
    unit = unit_one if chip_unit == 1 else unit_ten
    result = score_deal(deal, FIVE, rulebook)
    assert result.unit == unit
    defenders = [name for name in FIVE if name not in (BRUNO, deal.partner)]
    if deal.partner:
        assert result.shares[BRUNO] == 2 * unit
        assert result.shares[DAVID] == unit
    else:
        assert result.shares[BRUNO] == 4 * unit
    assert all(result.shares[name] == -unit for name in defenders)
    assert term_values(result, "unit_raw") == [unit_one]


def test_it_explains_the_first_deal_of_the_example_sheet():
    deal = DealInput(
        dealer=ALICE,
        taker=BRUNO,
        contract="garde",
        called="coeur",
        partner=DAVID,
        bouts=2,
        points=Decimal(49),
        poignees=(Poignee(BRUNO, "simple"),),
        miseres=(CHLOE,),
        petit_au_bout="attack",
    )
    result = score_deal(deal, FIVE, DEFAULT)
    assert result.terms == (
        Term("target", "Objectif (2 bouts)", 41),
        Term("points_rounded", "Points de l'attaque", 49),
        Term("diff", "Écart", 8),
        Term("base", "Base (25 + 8) × 2", 66),
        Term("petit_au_bout", "Petit au bout (attaque)", 20),
        Term("poignee", "Poignée simple (Bruno)", 20),
        Term("unit_raw", "Total de la donne", 106),
        Term("unit", "Arrondi à 10", 110),
        Term("taker", "Preneur Bruno (2 × U)", 220),
        Term("partner", "Appelé David (U)", 110),
        Term("defender", "Défenseur Alice (−U)", -110),
        Term("defender", "Défenseur Chloé (−U)", -110),
        Term("defender", "Défenseur Émile (−U)", -110),
        Term("misere", "Misère de Chloé (10 × 4)", 40),
    )
    assert (result.kind, result.made, result.diff, result.unit) == ("played", True, 8, 110)
    assert result.card_shares == {ALICE: -110, BRUNO: 220, CHLOE: -110, DAVID: 110, EMILE: -110}
    assert result.misere_shares == {ALICE: -10, BRUNO: -10, CHLOE: 40, DAVID: -10, EMILE: -10}
    assert result.shares == {ALICE: -120, BRUNO: 210, CHLOE: -70, DAVID: 100, EMILE: -120}
    assert result.attack == (BRUNO, DAVID)
    assert result.defence == (ALICE, CHLOE, EMILE)


@pytest.mark.parametrize(
    ("points", "target", "rounded"),
    [
        ("44.5", 51, 44),
        ("40.5", 41, 40),
        ("41.5", 41, 42),
        ("50.5", 51, 50),
        ("51.5", 51, 52),
        ("55.5", 56, 55),
        ("56.5", 56, 57),
        ("35.5", 36, 35),
        ("36.5", 36, 37),
        ("49", 41, 49),
        ("0.5", 56, 0),
        ("90.5", 36, 91),
    ],
)
def test_it_gives_half_points_to_the_winning_side(points, target, rounded):
    assert round_card_points(Decimal(points), target) == rounded


@pytest.mark.parametrize(
    ("points", "bouts", "diff", "made"),
    [("40.5", 2, -1, False), ("41.5", 2, 1, True), ("50.5", 1, -1, False), ("44.5", 1, -7, False)],
)
def test_it_decides_the_contract_on_the_rounded_points(points, bouts, diff, made):
    result = score_deal(played(bouts=bouts, points=Decimal(points)), FIVE, DEFAULT)
    assert (result.diff, result.made) == (diff, made)


@pytest.mark.parametrize(
    ("value", "unit", "rounded"),
    [
        (105, 10, 110),
        (-105, 10, -110),
        (-128, 10, -130),
        (106, 10, 110),
        (66, 10, 70),
        (64, 10, 60),
        (-64, 10, -60),
        (-65, 10, -70),
        (5, 10, 10),
        (4, 10, 0),
        (0, 10, 0),
        (37, 10, 40),
        (82, 10, 80),
        (-58, 10, -60),
        (125, 50, 150),
        (-37, 1, -37),
    ],
)
def test_it_rounds_the_deal_to_the_chip_unit_half_away_from_zero(value, unit, rounded):
    assert round_to_unit(value, unit) == rounded


def test_it_scores_a_contract_made_exactly_juste_fait():
    result = score_deal(played(contract="prise", bouts=1, points=Decimal(51)), FIVE, UNIT_ONE)
    assert (result.made, result.diff, result.unit) == (True, 0, 25)
    assert Term("diff", "Écart (juste fait)", 0) in result.terms
    assert result.shares[BRUNO] == 100


def test_it_rounds_a_half_point_below_the_target_down_and_fails():
    result = score_deal(played(partner=DAVID, bouts=2, points=Decimal("40.5")), FIVE, UNIT_ONE)
    assert result.made is False
    assert Term("points_rounded", "Points de l'attaque (40,5 arrondis)", 40) in result.terms
    assert Term("base", "Base −(25 + 1) × 2", -52) in result.terms
    assert result.unit == -52


@pytest.mark.parametrize(
    ("announced", "made_by", "points", "bouts", "chelem_terms", "unit"),
    [
        # Garde made by 55 (3 bouts, 91 points): base (25 + 55) × 2 = 160.
        (True, "attack", "91", 3, [400], 560),
        (False, "attack", "91", 3, [200], 360),
        # Garde made by 44 (80 points, 3 bouts) but the announced chelem failed: 138 − 200.
        (True, None, "80", 3, [-200], -62),
        # Garde failed by 56 (0 points): base −162; a defence chelem costs 200 more…
        (False, "defence", "0", 0, [-200], -362),
        # … and 400 when the attack had announced it.
        (True, "defence", "0", 0, [-200, -200], -562),
    ],
)
def test_it_scores_the_chelems(announced, made_by, points, bouts, chelem_terms, unit):
    deal = played(bouts=bouts, points=Decimal(points), chelem_announced=announced, chelem_made_by=made_by)
    result = score_deal(deal, FIVE, UNIT_ONE)
    assert term_values(result, "chelem") == chelem_terms
    assert result.unit == unit


def test_it_labels_the_chelems_in_french():
    deal = played(bouts=0, points=Decimal(0), chelem_announced=True, chelem_made_by="defence")
    labels = [term.label for term in score_deal(deal, FIVE, DEFAULT).terms]
    assert "Chelem annoncé et chuté" in labels
    assert "Chelem de la défense" in labels


@pytest.mark.parametrize(("points", "sign"), [("60", 1), ("30", -1)])
def test_it_credits_every_poignee_to_the_side_that_wins(points, sign):
    deal = played(
        partner=DAVID,
        bouts=2,
        points=Decimal(points),
        poignees=(Poignee(BRUNO, "simple"), Poignee(CHLOE, "double"), Poignee(EMILE, "triple")),
    )
    result = score_deal(deal, FIVE, UNIT_ONE)
    assert term_values(result, "poignee") == [sign * 20, sign * 30, sign * 40]
    assert [term.label for term in result.terms if term.code == "poignee"] == [
        "Poignée simple (Bruno)",
        "Poignée double (Chloé)",
        "Poignée triple (Émile)",
    ]


def test_it_pays_a_misere_at_five_from_each_other_player():
    deal = played(partner=DAVID, bouts=2, points=Decimal(41), miseres=(EMILE,))
    result = score_deal(deal, FIVE, DEFAULT)
    assert result.misere_shares == {ALICE: -10, BRUNO: -10, CHLOE: -10, DAVID: -10, EMILE: 40}
    assert result.shares[EMILE] == result.card_shares[EMILE] + 40


def test_it_pays_a_misere_at_four_and_adds_up_two_of_them():
    deal = played(taker=ALICE, bouts=2, points=Decimal(30), miseres=(BRUNO, DAVID))
    result = score_deal(deal, FOUR, DEFAULT)
    assert result.misere_shares == {ALICE: -20, BRUNO: 20, CHLOE: -20, DAVID: 20}
    assert term_values(result, "misere") == [30, 30]


def test_it_scores_a_four_player_deal_with_the_taker_against_three():
    result = score_deal(played(contract="prise", bouts=1, points=Decimal(53)), FOUR, UNIT_ONE)
    assert result.unit == 27
    assert result.shares == {ALICE: -27, BRUNO: 81, CHLOE: -27, DAVID: -27}
    assert result.defence == (ALICE, CHLOE, DAVID)
    assert Term("taker", "Preneur Bruno (3 × U)", 81) in result.terms


def test_it_accepts_petite_as_prise():
    deal = played(contract="petite", bouts=1, points=Decimal(53))
    assert deal.contract == "prise"
    assert score_deal(deal, FIVE, DEFAULT).unit == 30


def test_it_scores_differently_under_another_seasons_rulebook():
    other = rulebook_with(
        deal__chip_unit=1,
        deal__poignee_values={"simple": 20, "double": 40, "triple": 60},
        deal__multipliers={"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 5},
    )
    deal = played(contract="garde_contre", bouts=2, points=Decimal(60), poignees=(Poignee(BRUNO, "double"),))
    # Default: (25 + 19) × 6 + 30 = 294 -> 290. This season: (25 + 19) × 5 + 40 = 260.
    assert score_deal(deal, FOUR, DEFAULT).shares[BRUNO] == 3 * 290
    assert score_deal(deal, FOUR, other).shares[BRUNO] == 3 * 260


def test_it_scores_nothing_for_a_deal_not_played():
    for kind in ("passed", "petit_sec", "misdeal"):
        result = score_deal(DealInput(dealer=CHLOE, kind=kind), FIVE, DEFAULT)
        assert result.shares == dict.fromkeys(FIVE, 0)
        assert (result.made, result.diff, result.unit, result.terms) == (None, None, 0, ())


@pytest.mark.parametrize(
    ("players", "deal", "field", "message"),
    [
        (FIVE[:3], played(), "players", "4 ou 5 joueurs"),
        (FIVE + ("Fanny",), played(), "players", "4 ou 5 joueurs"),
        ((ALICE, BRUNO, CHLOE, ALICE), played(), "players", "Alice est deux fois à la table"),
        ((ALICE, BRUNO, CHLOE, ""), played(), "players", "nom"),
        (FIVE, played(kind="redeal"), "kind", "type de donne inconnu"),
        (FIVE, played(dealer="Zoé"), "dealer", "Zoé n'est pas à cette table"),
        (FIVE, played(taker=None), "taker", "obligatoire"),
        (FIVE, played(taker="Zoé"), "taker", "pas à cette table"),
        (FIVE, played(contract=None), "contract", "obligatoire"),
        (FIVE, played(contract="chouette"), "contract", "contrat inconnu « chouette »"),
        (FIVE, played(partner=BRUNO, bouts=1, points=Decimal(50)), "partner", "propre appelé"),
        (FIVE, played(partner="Zoé"), "partner", "pas à cette table"),
        (FOUR, played(partner=DAVID), "partner", "pas d'appelé à 4 joueurs"),
        (FOUR, played(called="coeur"), "called", "pas de roi appelé à 4 joueurs"),
        (FIVE, played(called="rose"), "called", "couleur inconnu"),
        (FIVE, played(called_rank="valet"), "called_rank", "rang inconnu"),
        (FIVE, played(points=Decimal(50)), "bouts", "de 0 à 3"),
        (FIVE, played(bouts=4, points=Decimal(50)), "bouts", "de 0 à 3"),
        (FIVE, played(bouts=True, points=Decimal(50)), "bouts", "de 0 à 3"),
        (FIVE, played(bouts=1), "points", "obligatoires"),
        (FIVE, played(bouts=1, points="beaucoup"), "points", "obligatoires"),
        (FIVE, played(bouts=1, points=Decimal("50.3")), "points", "multiple de 0,5"),
        (FIVE, played(bouts=1, points=Decimal("91.5")), "points", "entre 0 et 91"),
        (FIVE, played(bouts=0, points=Decimal(-1)), "points", "entre 0 et 91"),
        (FIVE, played(bouts=2, points=Decimal(8)), "points", "entre 9 et 86,5 points"),
        (FIVE, played(bouts=0, points=Decimal(78)), "points", "entre 0 et 77,5 points"),
        (FIVE, played(bouts=3, points=Decimal(13)), "points", "entre 13,5 et 91 points"),
        (FIVE, played(bouts=1, points=Decimal(50), poignees=(Poignee("Zoé", "simple"),)),
         "poignees", "Zoé n'est pas à cette table"),
        (FIVE, played(bouts=1, points=Decimal(50), poignees=(Poignee(ALICE, "quadruple"),)),
         "poignees", "taille de poignée inconnu « quadruple »"),
        (FIVE, played(bouts=1, points=Decimal(50),
                      poignees=(Poignee(ALICE, "simple"), Poignee(ALICE, "double"))),
         "poignees", "Alice ne peut montrer qu'une poignée"),
        (FIVE, played(bouts=1, points=Decimal(50), poignees=("Alice",)),
         "poignees", "un joueur et une taille"),
        (FIVE, played(bouts=1, points=Decimal(50), miseres=("Zoé",)), "miseres", "pas à cette table"),
        (FIVE, played(bouts=1, points=Decimal(50), miseres=(ALICE, ALICE)),
         "miseres", "Alice ne peut annoncer qu'une misère"),
        (FIVE, played(bouts=1, points=Decimal(50), petit_au_bout="partner"),
         "petit_au_bout", "camp inconnu"),
        (FIVE, played(bouts=1, points=Decimal(50), chelem_announced="oui"),
         "chelem_announced", "vrai ou faux"),
        (FIVE, played(bouts=1, points=Decimal(50), chelem_made_by="both"),
         "chelem_made_by", "camp inconnu"),
        (FIVE, played(bouts=3, points=Decimal(86), chelem_made_by="attack"),
         "chelem_made_by", "au moins 86,5 points"),
        (FIVE, played(bouts=1, points=Decimal(5), chelem_made_by="defence"),
         "chelem_made_by", "au plus 4,5 points"),
        (FIVE, DealInput(dealer=ALICE, kind="passed", taker=BRUNO), "taker",
         "sans objet pour une donne passée"),
        (FIVE, DealInput(dealer=ALICE, kind="misdeal", points=Decimal(40)), "points",
         "sans objet pour une fausse donne"),
        (FIVE, DealInput(dealer=ALICE, kind="petit_sec", miseres=(BRUNO,)), "miseres",
         "sans objet pour un petit sec"),
        (FIVE, DealInput(dealer=ALICE, kind="passed", chelem_announced=True),
         "chelem_announced", "sans objet"),
    ],
)  # fmt: skip
def test_it_refuses_an_invalid_deal_naming_the_field(players, deal, field, message):
    with pytest.raises(ScoringError) as caught:
        score_deal(deal, players, DEFAULT, deal_number=3)
    assert caught.value.field == field
    assert message in caught.value.message
    assert caught.value.deal_number == 3
    assert str(caught.value).startswith(f"donne 3, champ « {field} » : ")


def test_it_refuses_a_misere_when_the_season_has_none():
    rulebook = rulebook_with(deal__misere=0)
    deal = played(bouts=1, points=Decimal(50), miseres=(ALICE,))
    with pytest.raises(ScoringError, match="la misère n'est pas jouée cette saison"):
        score_deal(deal, FIVE, rulebook)


def test_it_formats_an_error_without_a_deal_number():
    error = ScoringError("points", "les points doivent être un multiple de 0,5 entre 0 et 91")
    assert str(error) == ("champ « points » : les points doivent être un multiple de 0,5 entre 0 et 91")
    assert isinstance(error, ValueError)
    assert str(error.in_deal(2)).startswith("donne 2, champ « points »")


def test_it_names_contracts_kinds_and_suits_in_french():
    assert [contract_label(code) for code in CONTRACTS] == [
        "Prise",
        "Garde",
        "Garde sans",
        "Garde contre",
    ]
    assert contract_label("petite") == "Prise"
    assert set(KIND_LABELS) == set(KINDS)
    assert KIND_LABELS["misdeal"] == "fausse donne"
    assert set(SUIT_LABELS) == set(SUITS)
    assert SUIT_LABELS["coeur"] == "cœur"


@given(tables.flatmap(lambda seats: st.tuples(st.just(seats), played_deals(seats))))
def test_it_always_sums_a_deal_to_zero(table_and_deal):
    seats, deal = table_and_deal
    result = score_deal(deal, seats, DEFAULT)
    assert sum(result.card_shares.values()) == 0
    assert sum(result.misere_shares.values()) == 0
    assert sum(result.shares.values()) == 0
    assert result.unit % 10 == 0


@given(tables.flatmap(lambda seats: st.tuples(st.just(seats), played_deals(seats))))
def test_it_always_gives_the_taker_a_fixed_multiple_of_a_defenders_loss(table_and_deal):
    seats, deal = table_and_deal
    result = score_deal(deal, seats, UNIT_ONE)
    factor = 3 if len(seats) == 4 else (2 if deal.partner else 4)
    assert result.card_shares[deal.taker] == factor * result.unit
    for defender in result.defence:
        assert result.card_shares[defender] == -result.unit
    if deal.partner:
        assert result.card_shares[deal.partner] == result.unit


@given(tables.flatmap(lambda seats: st.tuples(st.just(seats), played_deals(seats))))
def test_it_negates_the_petit_au_bout_when_the_other_side_wins_it(table_and_deal):
    seats, deal = table_and_deal
    assume(deal.petit_au_bout is not None)
    other = "defence" if deal.petit_au_bout == "attack" else "attack"
    swapped = DealInput(**{**deal.__dict__, "petit_au_bout": other})
    first = term_values(score_deal(deal, seats, UNIT_ONE), "petit_au_bout")
    second = term_values(score_deal(swapped, seats, UNIT_ONE), "petit_au_bout")
    assert first == [-value for value in second]


def test_a_misere_names_its_player_with_the_elision_french_wants():
    deal = played(partner=DAVID, bouts=2, points=Decimal(41), miseres=(EMILE, CHLOE))
    labels = [term.label for term in score_deal(deal, FIVE, DEFAULT).terms if term.code == "misere"]
    assert labels == ["Misère d'Émile (10 × 4)", "Misère de Chloé (10 × 4)"]
