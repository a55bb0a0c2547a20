"""The one running total of a round (`scoring.round.running_totals`): what the entry page's grid,
its score cards and the preview of the next deal all show."""

from hypothesis import given

from scoring.round import running_totals, score_round
from tests.scoring.engine_helpers import FIVE, rounds, rulebook_with
from tests.scoring.test_round import SHEET_DEALS

ALICE, BRUNO, CHLOE, DAVID, EMILE = FIVE
DEFAULT = rulebook_with()


def test_it_runs_the_example_sheet_deal_by_deal_with_the_pot_still_in_play():
    result = score_round(FIVE, SHEET_DEALS, DEFAULT)
    running = [tuple(after[name] for name in FIVE) for after in running_totals(result)]
    assert running == [
        (-130, 250, -80, 90, -130),  # shares, everyone's ante, Bruno wins the pot of 50
        (-140, 240, -90, 80, -140),  # passed: everyone antes
        (-140, 240, -110, 80, -140),  # misdeal: Chloé's ante and penalty
        (-660, 370, 10, 210, -10),  # Alice's Garde sans fails; Chloé antes
    ]


def test_it_ends_on_the_round_totals_once_the_pot_is_paid_back():
    result = score_round(FIVE, SHEET_DEALS, DEFAULT)
    last = running_totals(result)[-1]
    assert {name: last[name] + result.pot_refund[name] for name in FIVE} == result.totals


def test_it_has_no_running_total_before_the_first_deal():
    assert running_totals(score_round(FIVE, (), DEFAULT)) == ()


@given(rounds())
def test_the_running_totals_and_the_pot_always_sum_to_zero(table_and_deals):
    seats, deals = table_and_deals
    result = score_round(seats, deals, DEFAULT)
    for outcome, after in zip(result.deals, running_totals(result), strict=True):
        assert sum(after.values()) + outcome.pot_after == 0
