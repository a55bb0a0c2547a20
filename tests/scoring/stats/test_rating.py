"""The rating apart from the championship (`scoring.stats.rating`): openskill, team-aware."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.stats.rating import MODEL, deal_teams, ratings

SEATED = [1, 2, 3, 4, 5]


def deal(taker, partner, made, kind="played"):
    return {"kind": kind, "taker_id": taker, "partner_id": partner, "made": made}


def test_the_teams_of_a_deal():
    assert deal_teams(deal(1, 2, True), SEATED) == ([1, 2], [3, 4, 5])
    assert deal_teams(deal(1, None, False), SEATED) == ([1], [2, 3, 4, 5])
    assert deal_teams(deal(1, 1, True), SEATED) == ([1], [2, 3, 4, 5])  # called himself
    assert deal_teams(deal(None, None, None, "passed"), SEATED) is None


def test_a_taker_who_always_makes_rises_and_his_defenders_fall():
    games = [(deal(1, 2 + n % 4, True), SEATED) for n in range(20)]
    got = ratings(games)
    assert got[1].mu > MODEL.mu > got[3].mu - 5  # he rises; the others move less
    assert got[1].shown == got[1].mu - 3 * got[1].sigma
    assert got[1].sigma < MODEL.sigma  # more certain with every deal
    assert (got[1].deals, got[1].won) == (20, 20)
    assert all(got[p].deals == 20 for p in SEATED)
    ranked = sorted(got.values(), key=lambda r: -r.shown)
    assert ranked[0].player == 1


def test_the_same_deals_give_the_same_ratings():
    games = [(deal(1 + n % 5, 1 + (n + 2) % 5, n % 3 != 0), SEATED) for n in range(30)]
    assert ratings(games) == ratings(list(games))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SEATED), st.sampled_from(SEATED), st.booleans()), max_size=25))
def test_every_rated_player_played_and_won_at_most_what_he_played(deals):
    got = ratings((deal(t, p, made), SEATED) for t, p, made in deals)
    assert sum(r.deals for r in got.values()) == 5 * len(deals)
    for rating in got.values():
        assert 0 <= rating.won <= rating.deals and rating.sigma > 0
