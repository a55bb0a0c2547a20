from decimal import Decimal

import pytest
from hypothesis import given

from scoring.deal import DealInput, Poignee
from scoring.errors import ScoringError
from scoring.round import check_rotation, next_dealer, score_round, totals_only_round
from tests.scoring.engine_helpers import FIVE, FOUR, rounds, rulebook_with

ALICE, BRUNO, CHLOE, DAVID, EMILE = FIVE
DEFAULT = rulebook_with()

# The example sheet of docs/feuille.md.
SHEET_DEALS = (
    DealInput(
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
    ),
    DealInput(dealer=BRUNO, kind="passed"),
    DealInput(dealer=CHLOE, kind="misdeal"),
    DealInput(
        dealer=CHLOE,
        taker=ALICE,
        contract="garde_sans",
        called="pique",
        partner=None,
        bouts=1,
        points=Decimal("44.5"),
    ),
)
SHEET_TOTALS = {ALICE: -650, BRUNO: 380, CHLOE: 50, DAVID: 220, EMILE: 0}


def made(dealer, taker=BRUNO, **fields):
    """A Prise made by 2 (U = 27 -> 30 with the default rulebook)."""
    return DealInput(dealer=dealer, taker=taker, contract="prise", bouts=1, points=Decimal(53), **fields)


def failed(dealer, taker=BRUNO, **fields):
    """A Prise failed by 3 (U = -28 -> -30 with the default rulebook)."""
    return DealInput(dealer=dealer, taker=taker, contract="prise", bouts=1, points=Decimal(48), **fields)


@pytest.fixture(scope="module")
def sheet():
    return score_round(FIVE, SHEET_DEALS, DEFAULT)


@pytest.mark.parametrize(("player", "total"), SHEET_TOTALS.items())
def test_it_totals_the_example_sheet(sheet, player, total):
    assert sheet.totals[player] == total


@pytest.mark.parametrize(
    ("number", "shares"),
    [
        (1, {ALICE: -120, BRUNO: 210, CHLOE: -70, DAVID: 100, EMILE: -120}),
        (2, dict.fromkeys(FIVE, 0)),
        (3, dict.fromkeys(FIVE, 0)),
        (4, {ALICE: -520, BRUNO: 130, CHLOE: 130, DAVID: 130, EMILE: 130}),
    ],
)
def test_it_shares_each_deal_of_the_example_sheet(sheet, number, shares):
    assert sheet.deals[number - 1].result.shares == shares


def test_it_runs_the_pot_of_the_example_sheet(sheet):
    pots = [(deal.pot_before, deal.pot_after) for deal in sheet.deals]
    assert pots == [(0, 0), (0, 50), (50, 70), (70, 80)]
    first, passed, misdeal, last = sheet.deals
    assert first.antes == dict.fromkeys(FIVE, 10)
    assert first.pot_won == {**dict.fromkeys(FIVE, 0), BRUNO: 50}
    assert passed.antes == dict.fromkeys(FIVE, 10)
    assert misdeal.antes == {**dict.fromkeys(FIVE, 0), CHLOE: 10}
    assert misdeal.penalty == {**dict.fromkeys(FIVE, 0), CHLOE: 10}
    assert last.antes == {**dict.fromkeys(FIVE, 0), CHLOE: 10}
    assert last.pot_won == dict.fromkeys(FIVE, 0)
    assert sheet.pot_refund == {ALICE: 10, BRUNO: 10, CHLOE: 40, DAVID: 10, EMILE: 10}
    assert sheet.warnings == ()
    assert sheet.players == FIVE
    assert [deal.number for deal in sheet.deals] == [1, 2, 3, 4]
    assert [deal.deal for deal in sheet.deals] == list(SHEET_DEALS)


def test_it_grows_the_pot_over_consecutive_failed_contracts():
    deals = [failed(ALICE), failed(BRUNO), failed(CHLOE), made(DAVID, taker=EMILE)]
    result = score_round(FIVE, deals, DEFAULT)
    assert [deal.pot_after for deal in result.deals] == [50, 60, 70, 0]
    assert result.deals[3].pot_won[EMILE] == 80
    assert result.pot_refund == dict.fromkeys(FIVE, 0)
    # Bruno failed three Prises alone (−4 × 30 each), defended the fourth, anted twice.
    assert result.totals[BRUNO] == -360 - 30 - 10 - 10
    # Émile defended three (+30 each), made the fourth (+4 × 30), took the pot, anted once.
    assert result.totals[EMILE] == 90 + 120 + 80 - 10


def test_it_antes_again_from_everyone_once_the_pot_is_won():
    deals = [made(ALICE), made(BRUNO, taker=CHLOE), DealInput(dealer=CHLOE, kind="petit_sec")]
    result = score_round(FIVE, deals, DEFAULT)
    assert all(deal.antes == dict.fromkeys(FIVE, 10) for deal in result.deals)
    assert result.pot_refund == dict.fromkeys(FIVE, 10)


def test_it_refunds_a_misdeal_penalty_just_before_the_last_deal_to_its_dealer():
    deals = [
        made(ALICE),
        failed(BRUNO),
        DealInput(dealer=CHLOE, kind="misdeal"),
        failed(CHLOE, taker=DAVID),
    ]
    result = score_round(FIVE, deals, DEFAULT)
    # Deal 1 empties the pot: everyone antes at deal 2, then Chloé 10 + 10 and 10 again.
    assert [deal.pot_after for deal in result.deals] == [0, 50, 70, 80]
    assert result.deals[2].penalty[CHLOE] == 10
    assert result.pot_refund == {ALICE: 10, BRUNO: 10, CHLOE: 40, DAVID: 10, EMILE: 10}
    paid = sum(deal.antes[CHLOE] + deal.penalty[CHLOE] for deal in result.deals[1:])
    assert paid == result.pot_refund[CHLOE]


def test_it_scores_a_four_player_round():
    deals = [made(ALICE), failed(BRUNO, taker=CHLOE), DealInput(dealer=CHLOE, kind="passed")]
    result = score_round(FOUR, deals, DEFAULT)
    # Bruno takes 3 × 30 and the pot of 40; Chloé alone loses 3 × 30 at deal 2.
    assert result.deals[0].result.shares == {ALICE: -30, BRUNO: 90, CHLOE: -30, DAVID: -30}
    assert result.deals[0].pot_won[BRUNO] == 40
    assert result.deals[1].result.shares == {ALICE: 30, BRUNO: 30, CHLOE: -90, DAVID: 30}
    assert result.pot_refund == {ALICE: 10, BRUNO: 10, CHLOE: 20, DAVID: 10}
    assert result.totals == {
        ALICE: -30 + 30 - 10 - 10 + 10,
        BRUNO: 90 + 40 + 30 - 10 - 10 + 10,
        CHLOE: -30 - 90 - 10 - 10 - 10 + 20,
        DAVID: -30 + 30 - 10 - 10 + 10,
    }
    assert sum(result.totals.values()) == 0


def test_it_follows_the_seasons_pot_rules():
    rulebook = rulebook_with(pot__ante=50, pot__misdeal_penalty=100)
    deals = [DealInput(dealer=ALICE, kind="misdeal"), made(ALICE)]
    result = score_round(FIVE, deals, rulebook)
    assert result.deals[0].pot_after == 5 * 50 + 100
    assert result.deals[1].pot_won[BRUNO] == 5 * 50 + 100 + 50


def test_it_scores_an_empty_round_as_zero():
    result = score_round(FIVE, [], DEFAULT)
    assert result.totals == dict.fromkeys(FIVE, 0)
    assert result.deals == ()


def test_it_names_the_deal_of_an_error():
    deals = [made(ALICE), DealInput(dealer=BRUNO, taker="Zoé", contract="garde")]
    with pytest.raises(ScoringError) as caught:
        score_round(FIVE, deals, DEFAULT)
    assert (caught.value.deal_number, caught.value.field) == (2, "taker")
    assert str(caught.value) == "donne 2, champ « taker » : Zoé n'est pas à cette table"


def test_it_refuses_a_table_of_three():
    with pytest.raises(ScoringError) as caught:
        score_round(FIVE[:3], [], DEFAULT)
    assert caught.value.field == "players"
    assert caught.value.deal_number is None


@pytest.mark.parametrize(
    ("dealers", "warnings"),
    [
        ([ALICE, BRUNO, CHLOE, DAVID, EMILE, ALICE], ()),
        ([CHLOE, DAVID, EMILE, ALICE], ()),
        ([ALICE, BRUNO, CHLOE, EMILE], ("donne 4 : donneur attendu David, inscrit Émile",)),
        ([ALICE, CHLOE, DAVID], ("donne 2 : donneur attendu Bruno, inscrit Chloé",)),
        ([ALICE, ALICE], ("donne 2 : donneur attendu Bruno, inscrit Alice",)),
    ],
)
def test_it_checks_the_dealers_rotation(dealers, warnings):
    deals = [DealInput(dealer=dealer, kind="passed") for dealer in dealers]
    assert check_rotation(FIVE, deals) == warnings
    assert score_round(FIVE, deals, DEFAULT).warnings == warnings


def test_it_lets_the_misdealer_deal_again():
    deals = [DealInput(dealer=CHLOE, kind="misdeal"), DealInput(dealer=CHLOE, kind="passed")]
    assert check_rotation(FIVE, deals) == ()
    moved_on = [DealInput(dealer=CHLOE, kind="misdeal"), DealInput(dealer=DAVID, kind="passed")]
    assert check_rotation(FIVE, moved_on) == ("donne 2 : donneur attendu Chloé, inscrit David",)


def test_it_keeps_a_totals_only_round():
    totals = {BRUNO: 380, ALICE: -655, CHLOE: 55, DAVID: 220, EMILE: 0}
    result = totals_only_round(FIVE, totals)
    assert list(result.totals) == list(FIVE)
    assert result.totals == totals
    assert result.deals == ()
    assert result.pot_refund == dict.fromkeys(FIVE, 0)


@pytest.mark.parametrize(
    ("totals", "message"),
    [
        ({ALICE: 10, BRUNO: -10, CHLOE: 0, DAVID: 0, EMILE: 5}, "leur somme fait 5"),
        ({ALICE: 10, BRUNO: -10, CHLOE: 0, DAVID: 0}, "il manque le total d"),
        ({ALICE: 10, BRUNO: -10, CHLOE: 0, DAVID: 0, EMILE: 0, "Zoé": 0}, "Zoé n'est pas à cette table"),
        ({ALICE: 10, BRUNO: -10, CHLOE: 0, DAVID: 0, EMILE: 0.0}, "nombre entier"),
        ([10, -10, 0, 0, 0], "un total par joueur"),
    ],
)
def test_it_refuses_inconsistent_totals(totals, message):
    with pytest.raises(ScoringError) as caught:
        totals_only_round(FIVE, totals)
    assert caught.value.field == "totals"
    assert message in caught.value.message


@given(rounds())
def test_it_always_sums_a_round_to_zero_and_balances_the_pot(table_and_deals):
    seats, deals = table_and_deals
    result = score_round(seats, deals, DEFAULT)
    assert sum(result.totals.values()) == 0
    assert result.warnings == ()
    assert all(chips >= 0 for chips in result.pot_refund.values())
    final_pot = result.deals[-1].pot_after if result.deals else 0
    assert sum(result.pot_refund.values()) == final_pot
    for outcome in result.deals:
        put_in = sum(outcome.antes.values()) + sum(outcome.penalty.values())
        taken = sum(outcome.pot_won.values())
        assert outcome.pot_after == outcome.pot_before + put_in - taken
        assert (outcome.pot_before == 0) == (sum(outcome.antes.values()) == 10 * len(seats))
        assert sum(outcome.result.shares.values()) == 0


@pytest.mark.parametrize(
    "missing, message",
    [("Émile", "il manque le total d'Émile"), ("Bruno", "il manque le total de Bruno")],
)
def test_it_names_a_missing_total_with_the_right_elision(missing, message):
    totals = {name: 0 for name in ["Alice", "Bruno", "Chloé", "David", "Émile"] if name != missing}
    with pytest.raises(ScoringError, match=message):
        totals_only_round(["Alice", "Bruno", "Chloé", "David", "Émile"], totals)


def test_the_next_dealer_is_the_right_hand_neighbour_and_the_same_after_a_misdeal():
    seats = ("Alice", "Bruno", "Chloé", "David", "Émile")
    assert next_dealer(seats, "Bruno", "played") == "Chloé"
    assert next_dealer(seats, "Émile", "passed") == "Alice"  # round the table
    assert next_dealer(seats, "Chloé", "misdeal") == "Chloé"
    assert next_dealer(seats, "Zoé", "played") == "Zoé"  # not at the table: no rotation to follow
