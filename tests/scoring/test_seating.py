"""Tables for a night: sizes of 4 and 5, everyone seated once, the fewest repeated pairs."""

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from scoring.seating import _splits, propose_tables, split_cost, table_sizes


def test_table_sizes_seat_as_many_as_tables_of_4_and_5_can():
    assert [table_sizes(n)[1] for n in range(3, 16)] == [0, 4, 5, 5, 5, 8, 9, 10, 10, 12, 13, 14, 15]
    assert table_sizes(9) == ([5, 4], 9)


def test_two_tables_keep_apart_who_always_played_together():
    met = {frozenset(pair): 5 for pair in combinations("ABCD", 2)} | {
        frozenset(pair): 5 for pair in combinations("EFGH", 2)
    }
    tables, out = propose_tables("ABCDEFGH", met)
    assert out == [] and split_cost(tables, met) == 4 * 5  # a pair of each group at each table
    assert all(len(set(table) & set("ABCD")) == 2 for table in tables)


@st.composite
def nights(draw):
    count = draw(st.integers(min_value=0, max_value=16))
    players = list(range(count))
    pairs = list(combinations(players, 2))
    met = {frozenset(pair): draw(st.integers(0, 4)) for pair in pairs if draw(st.booleans())}
    return players, met


@given(nights())
def test_every_comer_is_seated_once_at_a_table_of_4_or_5_or_sits_out_last(night):
    players, met = night
    tables, out = propose_tables(players, met)
    seated = [p for table in tables for p in table]
    assert sorted(seated + out) == players
    assert all(len(table) in (4, 5) for table in tables)
    assert len(seated) == table_sizes(len(players))[1]
    assert out == players[len(seated) :]  # the latest to answer sit out


@given(nights())
def test_no_split_repeats_fewer_pairs(night):
    players, met = night
    tables, _out = propose_tables(players, met)
    sizes, seated = table_sizes(len(players))
    playing = players[:seated]
    if len(sizes) > 1 and seated <= 10:
        assert split_cost(tables, met) == min(split_cost(split, met) for split in _splits(playing, sizes))
    elif len(sizes) > 1:  # the local search: never worse than the tables in answer order
        in_order, start = [], 0
        for size in sizes:
            in_order.append(playing[start : start + size])
            start += size
        assert split_cost(tables, met) <= split_cost(in_order, met)
