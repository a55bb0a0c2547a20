"""The point flow (`scoring.stats.flow`): a deal's losers pay its winners pro rata, by hand and
as invariants (what a player gives and receives over a deal is his share, exactly)."""

from collections import defaultdict
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.stats.flow import (
    FlowTable,
    Partnership,
    best_partner,
    bete_noire,
    deal_flows,
    net_with,
    partnerships,
)

# The example sheet's first deal (docs/regles.md §4.3): Garde of Bruno called David, U = 110,
# Chloé's misère: Bruno +210, David +100, Chloé −70, Alice and Émile −120.
DEAL_1 = {"Alice": -120, "Bruno": 210, "Chloé": -70, "David": 100, "Émile": -120}
# Its fourth: Garde sans of Alice alone, failed, U = −130.
DEAL_4 = {"Alice": -520, "Bruno": 130, "Chloé": 130, "David": 130, "Émile": 130}


def test_each_loser_pays_the_winners_pro_rata_by_hand():
    """The winners' shares add up to 310: Alice's 120 go 210/310 to Bruno (81 9/31) and 100/310 to
    David (38 22/31); Chloé's 70 go 47 13/31 to Bruno and 22 18/31 to David."""
    flows = {(loser, winner): points for loser, winner, points in deal_flows(DEAL_1)}
    assert flows == {
        ("Alice", "Bruno"): Fraction(120 * 210, 310),
        ("Alice", "David"): Fraction(120 * 100, 310),
        ("Chloé", "Bruno"): Fraction(70 * 210, 310),
        ("Chloé", "David"): Fraction(70 * 100, 310),
        ("Émile", "Bruno"): Fraction(120 * 210, 310),
        ("Émile", "David"): Fraction(120 * 100, 310),
    }
    assert flows["Alice", "Bruno"] == Fraction(81 * 31 + 9, 31)
    # A failed contract alone: Alice pays each defender his 130.
    assert {winner: points for _l, winner, points in deal_flows(DEAL_4)} == dict.fromkeys(
        ("Bruno", "Chloé", "David", "Émile"), Fraction(130)
    )


def test_a_deal_with_nothing_won_moves_nothing():
    assert deal_flows({"A": 0, "B": 0, "C": 0}) == []
    table = FlowTable()
    table.add({"A": 0, "B": 0})
    assert table.taken() == {}


def test_the_table_sums_exactly_and_the_nets_add_up_to_the_shares():
    table = FlowTable()
    table.add(DEAL_1)
    table.add(DEAL_4)
    taken = table.taken()
    assert taken["Alice", "Bruno"] == Fraction(120 * 210, 310) + 130
    net = net_with(taken, "Alice")
    assert sum(net.values()) == DEAL_1["Alice"] + DEAL_4["Alice"]
    assert bete_noire(net) == "Bruno"  # 81 9/31 + 130, the most taken from her, net


shares = st.dictionaries(st.sampled_from("ABCDE"), st.integers(-2000, 2000), min_size=3, max_size=5)


@st.composite
def zero_sum_deals(draw):
    """A deal's shares: any whole numbers that add up to zero (docs/regles.md §1.3)."""
    deal = draw(shares)
    players = sorted(deal)
    deal[players[-1]] -= sum(deal.values())
    return deal


@settings(max_examples=200, deadline=None)
@given(st.lists(zero_sum_deals(), min_size=1, max_size=8))
def test_what_each_gives_and_receives_is_his_share(deals):
    """Over every deal, what a player receives minus what he gives is his share, exactly; the
    table summed over the deals says the same as the flows deal by deal."""
    table = FlowTable()
    summed = defaultdict(Fraction)
    for deal in deals:
        balance = defaultdict(Fraction)
        for loser, winner, points in deal_flows(deal):
            assert points > 0
            balance[winner] += points
            balance[loser] -= points
            summed[loser, winner] += points
        for player, share in deal.items():
            assert balance[player] == share
        table.add(deal)
    assert table.taken() == dict(summed)
    total = defaultdict(int)
    for deal in deals:
        for player, share in deal.items():
            total[player] += share
    for player in total:
        assert sum(net_with(table.taken(), player).values(), Fraction(0)) == total[player]


def test_partnerships_and_the_best_partner():
    deals = [
        {"kind": "played", "taker_id": 1, "partner_id": 2, "made": True, "shares": {"1": 140, "2": 70}},
        {"kind": "played", "taker_id": 2, "partner_id": 1, "made": False, "shares": {"2": -100, "1": -50}},
        {"kind": "played", "taker_id": 1, "partner_id": 3, "made": True, "shares": {"1": 60, "3": 30}},
        {"kind": "played", "taker_id": 1, "partner_id": None, "made": True, "shares": {"1": 400}},
        {"kind": "passed", "taker_id": None, "partner_id": None, "made": None, "shares": {}},
    ]
    pairs = partnerships(deals)
    assert pairs == {
        (1, 2): Partnership(1, 1, 210),
        (2, 1): Partnership(1, 0, -150),
        (1, 3): Partnership(1, 1, 90),
    }
    # with 2 (calling him or called): 210 − 150 = 60 in 2 deals; with 3: 90 in 1
    other, pair = best_partner(pairs, 1)
    assert (other, pair.deals, pair.points) == (3, 1, 90)
    assert best_partner(pairs, 4) is None
    assert best_partner({(1, 2): Partnership(1, 0, -10)}, 1) is None  # never won a point with one
