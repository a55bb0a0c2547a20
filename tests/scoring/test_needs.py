"""What each player needs for the play-offs (`scoring.needs`): hand-computed examples, every
outcome of small seasons enumerated (the brute force), and the play-off race agreeing with it."""

from dataclasses import replace
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.needs import ASSURED, FINAL, HELP, OUT, SECURE, french, needs
from scoring.playoff_race import (
    ELIMINATED,
    IN_CONTENTION,
    QUALIFIED,
    playoff_race,
    playoff_status,
    round_bounds,
)
from scoring.ranking import PlayerSeason
from scoring.rulebook import load_default_rulebook


def season(name, points, rounds=3):
    return PlayerSeason(name, points, rounds, 0, 0, 0)


# --- by hand --------------------------------------------------------------------------------------

# 3 rounds left, each worth −5 to +10, 2 places, 3 rounds to be ranked.
FIELD = [
    season("Alice", 80),
    season("Bruno", 60),
    season("Chloé", 55),
    season("David", 30),
    season("Émile", 0, rounds=0),
    season("Fanny", 50, rounds=1),
]
BOUNDS = {"places": 2, "minimum_rounds": 3, "loss": -5, "gain": 10}


def test_by_hand():
    """The others' highest after 3 rounds at +10: Alice 110, Bruno 90, Chloé 85, Fanny 80 (she
    can still play the 2 rounds she lacks), David 60, Émile 30. With 2 places, each must end above
    the 2nd highest of the others; reachable if fewer than 2 ranked others stay above his best
    even at their lowest (Alice 65, Bruno 45, Chloé 40, David 15).

    - Alice: above Chloé's 85 (Bruno 90 is first): 86, 6 more.
    - Bruno: above 85 (Alice 110 first): 86, 26 more.
    - Chloé: above Bruno's 90: 91, 36 more, beyond her +30; at best 85, nobody stays above her.
    - David: 91, 61 more; at best 60, only Alice (65) stays above him: still reachable.
    - Fanny (2 more rounds to play): 91, 41 more; at best 80: reachable.
    - Émile (all 3 to play): 91; at best 30, Alice and Bruno stay above: out.
    """
    got = needs(FIELD, 3, **BOUNDS)
    assert {name: (need.code, need.needed, need.to_play) for name, need in got.items()} == {
        "Alice": (SECURE, 6, 0),
        "Bruno": (SECURE, 26, 0),
        "Chloé": (HELP, 36, 0),
        "David": (HELP, 61, 0),
        "Émile": (OUT, 91, 3),
        "Fanny": (HELP, 41, 2),
    }
    assert french(got["Alice"]) == "Alice : place assurée avec 6 points de plus en 3 manches"
    assert french(got["Fanny"]) == (
        "Fanny : une place reste possible, à condition d'en jouer au moins 2, mais pas certaine même au "
        "mieux : il faudrait 41 points en 3 manches pour qu'elle soit assurée, 30 au plus"
    )
    assert french(got["Émile"]) == "Émile : plus aucune place à sa portée, même avec 30 points en 3 manches"
    one_more = needs([*FIELD[:5], season("Fanny", 70, rounds=1)], 3, **BOUNDS)["Fanny"]
    assert (one_more.code, one_more.needed) == (SECURE, 21)
    assert french(one_more) == (
        "Fanny : place assurée avec 21 points de plus en 3 manches, à condition d'en jouer au moins 2"
    )


def test_a_player_far_ahead_needs_nothing_and_one_ahead_may_lose_some():
    field = [season("Alice", 200), season("Bruno", 90), season("Chloé", 60)]
    got = needs(field, 2, places=2, minimum_rounds=3, loss=-10, gain=10)
    assert got["Alice"].code == ASSURED and got["Alice"].needed == -20  # never below the least
    assert french(got["Alice"]) == "Alice : place assurée quoi qu'il arrive"
    # Bruno must beat Chloé's 80 at most: 81, he may lose 9 of his 90.
    assert (got["Bruno"].code, got["Bruno"].needed) == (SECURE, -9)
    assert french(got["Bruno"]) == "Bruno : place assurée en ne perdant pas plus de 9 points en 2 manches"


def test_the_late_report_malus_still_to_come_counts_against_him():
    field = [season("Alice", 50), season("Bruno", 40), season("Chloé", 20)]
    plain = needs(field, 1, places=1, minimum_rounds=3, loss=-5, gain=10)
    late = needs(field, 1, places=1, minimum_rounds=3, loss=-5, gain=10, round_late=(-2,), late={"Alice": -1})
    assert plain["Alice"].needed == 1  # Bruno reaches 50 at most
    assert late["Alice"].needed == 4  # his malus may still cost him 2 + 1
    assert late["Bruno"].needed == 23  # Alice up to 60: 61 − 40, and his own malus 2 more


def test_no_round_left_leaves_it_to_the_final_ranking():
    got = needs(FIELD, 0, **BOUNDS)
    assert {need.code for need in got.values()} == {FINAL}
    assert french(got["Alice"]) == "Alice : plus aucune manche régulière, le classement final décide"


def test_it_refuses_bounds_that_exclude_zero():
    with pytest.raises(ValueError):
        needs(FIELD, 1, places=2, minimum_rounds=3, loss=1, gain=10)
    with pytest.raises(ValueError):
        needs(FIELD, -1, **BOUNDS)


# --- every outcome --------------------------------------------------------------------------------


def outcomes(player, remaining, loss, gain, malus):
    """Every (points the rounds bring, rounds played, late malus) of one player: each round sat
    out (0, not played) or played for any whole number of points from loss to gain; any malus
    from his bound to 0."""
    per_round = [None, *range(loss, gain + 1)]
    seen = set()
    for rounds in product(per_round, repeat=remaining):
        played = [points for points in rounds if points is not None]
        for late in range(malus, 1):
            seen.add((sum(played), len(played), late))
    return sorted(seen)


def brute_force(current, remaining, *, places, minimum_rounds, loss, gain, round_late=(), late=None):
    """`{player: (needed or None, reachable)}` by enumerating every joint outcome.

    needed: the least X such that in every outcome where his rounds bring him X and he is ranked,
    fewer than `places` other ranked players end on his points or more (a tie may go against
    him); None if no X from `loss × remaining` to `gain × remaining` does. reachable: some outcome
    has him ranked with fewer than `places` ranked players strictly ahead (a tie may go his way).
    """
    late = late or {}
    coming = sum(round_late)
    options = [outcomes(p.player, remaining, loss, gain, coming + late.get(p.player, 0)) for p in current]
    answers = {}
    for index, me in enumerate(current):
        certain, possible = {}, False
        for joint in product(*options):
            finals = [
                (p.points + brought + malus, p.rounds + played >= minimum_rounds)
                for p, (brought, played, malus) in zip(current, joint, strict=True)
            ]
            mine, ranked = finals[index]
            if not ranked:
                continue
            others = [points for j, (points, in_ranking) in enumerate(finals) if j != index and in_ranking]
            brought = joint[index][0]
            sure = sum(points >= mine for points in others) < places
            certain[brought] = certain.get(brought, True) and sure
            possible = possible or sum(points > mine for points in others) < places
        secured = sorted(x for x, holds in certain.items() if holds)
        answers[me.player] = (secured[0] if secured else None, possible, certain)
    return answers


@st.composite
def small_seasons(draw):
    players = draw(st.integers(3, 4))
    remaining = draw(st.integers(1, 2 if players == 3 else 1))
    minimum_rounds = draw(st.integers(1, 3))
    current = [
        PlayerSeason(f"J{n}", draw(st.integers(0, 8)), draw(st.integers(0, 3)), 0, 0, 0)
        for n in range(players)
    ]
    bounds = {
        "places": draw(st.integers(1, players - 1)),
        "minimum_rounds": minimum_rounds,
        "loss": draw(st.integers(-2, 0)),
        "gain": draw(st.integers(0, 3)),
        "round_late": tuple(draw(st.lists(st.integers(-1, 0), max_size=remaining))),
        "late": {p.player: draw(st.integers(-1, 0)) for p in current},
    }
    return current, remaining, bounds


def check_against_brute_force(current, remaining, bounds):
    exact = needs(current, remaining, **bounds)
    counted = brute_force(current, remaining, **bounds)
    for player, need in exact.items():
        needed, reachable, certain = counted[player]
        assert need.reachable == reachable, (player, need)
        if need.to_play > remaining:  # he cannot be ranked: no outcome counts
            assert (needed, reachable) == (None, False)
            continue
        if need.needed <= need.most:
            assert needed == need.needed, (player, need, needed)
            # and every X above it is certain too
            assert all(certain[x] for x in certain if x >= need.needed)
        else:
            assert needed is None, (player, need, needed)


@settings(max_examples=150, deadline=None)
@given(small_seasons())
def test_needs_are_what_every_outcome_gives(case):
    check_against_brute_force(*case)


@pytest.mark.parametrize(
    ("current", "remaining", "bounds"),
    [
        (
            [season("A", 5, 2), season("B", 4, 1), season("C", 4, 3), season("D", 0, 0)],
            1,
            {"places": 2, "minimum_rounds": 3, "loss": -2, "gain": 3},
        ),
        (
            [season("A", 6, 3), season("B", 6, 3), season("C", 1, 2)],
            2,
            {"places": 1, "minimum_rounds": 3, "loss": -1, "gain": 2, "round_late": (-1,)},
        ),
        (
            [season("A", 0, 0), season("B", 3, 1), season("C", 2, 2)],
            2,
            {"places": 2, "minimum_rounds": 2, "loss": 0, "gain": 2, "late": {"B": -1}},
        ),
    ],
)
def test_needs_of_chosen_small_seasons_against_every_outcome(current, remaining, bounds):
    check_against_brute_force(current, remaining, bounds)


# --- the play-off race says the same ---------------------------------------------------------------


@st.composite
def race_seasons(draw):
    """Seasons of up to 12 players, any round limits and late-report malus still to come (the
    rulebook copied with other limits, as `tests.scoring.test_cup` does)."""
    default = load_default_rulebook()
    places = draw(st.integers(1, 5))
    limits = {"round_points_cap": draw(st.integers(-2, 16)), "round_points_floor": draw(st.integers(-8, 2))}
    rulebook = default.model_copy(
        update={
            "championship": default.championship.model_copy(update=limits),
            "cup": default.cup.model_copy(update={"playoff_players": places}),
        }
    )
    current = [
        PlayerSeason(f"J{n:02d}", draw(st.integers(0, 60)), draw(st.integers(0, 6)), 0, 0, 0)
        for n in range(draw(st.integers(places + 1, 12)))
    ]
    remaining = draw(st.integers(1, 4))
    round_late = tuple(draw(st.lists(st.integers(-3, 0), max_size=remaining)))
    late = {p.player: draw(st.integers(-2, 0)) for p in current}
    return rulebook, current, remaining, round_late, late


@settings(max_examples=300, deadline=None)
@given(race_seasons())
def test_the_play_off_race_agrees_with_what_each_player_needs(case):
    rulebook, current, remaining, round_late, late = case
    statuses = playoff_status(current, remaining, rulebook, round_late=round_late, late=late)
    loss, gain = round_bounds(rulebook)
    got = needs(
        current,
        remaining,
        places=rulebook.cup.playoff_players,
        minimum_rounds=rulebook.championship.minimum_rounds,
        loss=loss,
        gain=gain,
        round_late=round_late,
        late=late,
    )
    for player, status in statuses.items():
        need = got[player]
        assert (status.code == QUALIFIED) == (need.code == ASSURED), (player, status, need)
        assert (status.code == ELIMINATED) == (need.code == OUT), (player, status, need)
        if status.code == IN_CONTENTION:
            assert need.code in (SECURE, HELP)
        if status.reason.code == "open":
            assert status.reason.params["needed"] == need.needed
            assert status.reason.params["most"] == need.most


def test_taking_what_he_needs_makes_the_race_call_him_qualified():
    """After his rounds bring him `needed` points (every other player still able to do anything),
    he is qualified with the rounds left; with one point less, not yet."""
    default = load_default_rulebook()
    rulebook = default.model_copy(
        update={
            "championship": default.championship.model_copy(
                update={"round_points_cap": 10, "round_points_floor": -5}
            ),
            "cup": default.cup.model_copy(update={"playoff_players": 2}),
        }
    )
    current = [season(name, points) for name, points in (("A", 80), ("B", 60), ("C", 55), ("D", 30))]
    need = needs(current, 3, places=2, minimum_rounds=3, loss=-5, gain=10)["B"]
    assert need.needed == 26
    # The same field with B's points `needed` higher and his rounds at the floor: qualified.
    for extra, expected in (
        (need.needed - need.least, QUALIFIED),
        (need.needed - need.least - 1, IN_CONTENTION),
    ):
        changed = [replace(p, points=p.points + extra) if p.player == "B" else p for p in current]
        assert playoff_status(changed, 3, rulebook)["B"].code == expected


# --- reachable: the status's word, whatever the season's state -------------------------------------


def test_in_a_finished_season_a_player_out_of_the_places_cannot_reach_one():
    """No round left: the final ranking decides (`playoff_status`), and what each player needs
    says the same of him. Alice 30 and Bruno 20 (ahead of Chloé on wins) take the 2 places;
    Chloé, 3rd, is out (« hors course »), David (2 rounds, not ranked) too."""
    default = load_default_rulebook()
    rulebook = default.model_copy(update={"cup": default.cup.model_copy(update={"playoff_players": 2})})
    current = [
        season("Alice", 30),
        PlayerSeason("Bruno", 20, 3, 1, 0, 0),
        season("Chloé", 20),
        season("David", 90, rounds=2),
    ]
    statuses, need = playoff_race(current, 0, rulebook)
    assert {name: status.code for name, status in statuses.items()} == {
        "Alice": QUALIFIED,
        "Bruno": QUALIFIED,
        "Chloé": ELIMINATED,
        "David": ELIMINATED,
    }
    assert {name: n.reachable for name, n in need.items()} == {
        "Alice": True,
        "Bruno": True,
        "Chloé": False,
        "David": False,
    }
    assert {n.code for n in need.values()} == {FINAL}


def test_in_a_finished_season_players_tied_at_the_cut_may_still_reach_a_place():
    default = load_default_rulebook()
    rulebook = default.model_copy(update={"cup": default.cup.model_copy(update={"playoff_players": 2})})
    current = [season("Alice", 30), season("Bruno", 20), season("Chloé", 20), season("D", 5)]
    statuses, need = playoff_race(current, 0, rulebook)
    assert statuses["Bruno"].code == statuses["Chloé"].code == IN_CONTENTION
    assert {name: n.reachable for name, n in need.items()} == {
        "Alice": True,
        "Bruno": True,
        "Chloé": True,
        "D": False,
    }


@settings(max_examples=300, deadline=None)
@given(race_seasons(), st.booleans(), st.booleans())
def test_a_place_is_reachable_exactly_when_the_status_is_not_eliminated(case, finished, late_to_come):
    """The qualification page shows the statuses, its JSON each player's `reachable`: they say
    the same, a season running or finished, late-report maluses still to come or not."""
    rulebook, current, remaining, round_late, late = case
    if finished:
        remaining, round_late = 0, ()
    if not late_to_come:
        late = {}
    statuses, need = playoff_race(current, remaining, rulebook, round_late=round_late, late=late)
    for player, status in statuses.items():
        assert need[player].reachable == (status.code != ELIMINATED), (player, status, need[player])
