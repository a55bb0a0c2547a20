"""The outlook (`scoring.outlook`, docs/regles.md §6.4): the worked example of the docs, its
sentences, the end of the season, what the input may not say, and the usual calendar's shortcuts
against the general program."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.outlook import greedy, solver
from scoring.outlook.french import in_places, need_text, place_range, sentence, status_text
from scoring.outlook.season import (
    ELIMINATED,
    IN_CONTENTION,
    QUALIFIED,
    ComingRound,
    Contender,
    Need,
    Places,
    Rules,
    prospects,
    scales,
)
from scoring.outlook.season import _field as field_of
from scoring.rulebook import load_default_rulebook

DEFAULT = Rules.of(load_default_rulebook())


def rules(places=3, minimum=3):
    return Rules(DEFAULT.rank_points, DEFAULT.floor, DEFAULT.cap, places, minimum)


def players(*entries):
    return [Contender(name, points, rounds) for name, points, rounds in entries]


# --- the docs' example (regles.md §6.4) ------------------------------------------------------------

SIX = players(
    ("Alice", 40, 4), ("Bruno", 35, 4), ("Chloé", 33, 4), ("David", 31, 4), ("Émile", 25, 4), ("Fanny", 20, 4)
)


def test_the_rulebook_gives_the_rules():
    assert DEFAULT.rank_points == {5: (10, 7, 5, 3, 1), 4: (10, 6, 3, 1)}
    assert (DEFAULT.floor, DEFAULT.cap, DEFAULT.places, DEFAULT.minimum_rounds) == (-30, 30, 10, 3)
    assert DEFAULT.bonus == (None, None)  # the Direction may give any bonus or malus


def test_one_round_of_five_for_six_players():
    got = prospects(SIX, [ComingRound(5)], rules())
    table = {name: (p.table.best, p.table.worst, p.need.needed, p.need.example) for name, p in got.items()}
    assert table == {
        "Alice": (1, 4, 2, ((4, 5),)),
        "Bruno": (1, 5, 6, ((2, 5),)),
        "Chloé": (1, 5, 8, ((1, 5),)),
        "David": (1, 5, 11, None),
        "Émile": (2, 6, 11, None),
        "Fanny": (5, 6, 11, None),
    }
    assert {(p.certain.best, p.certain.worst, p.certain.status) for p in got.values()} == {
        (1, 6, IN_CONTENTION)
    }
    assert need_text(got["Alice"].need) == "2 points : par exemple une 4e place"
    assert need_text(got["David"].need) == (
        "même en gagnant toutes les manches qu'il peut jouer (10 points), sa place ne serait pas "
        "assurée (il en faudrait 11)"
    )
    assert sentence(got["Chloé"]) == (
        "Chloé : en course, entre la 1re et la 6e place quoi qu'il arrive ; au jeu de la table, "
        "entre la 1re et la 5e place ; 8 points : par exemple une victoire"
    )


def test_far_ahead_she_is_qualified_and_far_behind_he_is_eliminated():
    season = [Contender("Alice", 100, 4), *SIX[1:]]
    got = prospects(season, [ComingRound(5)], rules())
    assert (got["Alice"].certain.worst, got["Alice"].certain.status) == (1, QUALIFIED)
    assert got["Alice"].need.needed is None
    assert need_text(got["Alice"].need) == "place assurée au jeu de la table, quelles que soient ses places"
    far = [Contender("Alice", 100, 4), Contender("Bruno", 95, 4), *SIX[2:], Contender("Gilles", 0, 4)]
    got = prospects(far, [ComingRound(5)], rules(places=2))
    # Gilles ends at 30 at most, Alice at 70 and Bruno at 65 at least.
    assert (got["Gilles"].certain.best, got["Gilles"].certain.status) == (3, ELIMINATED)


def test_the_late_malus_falls_only_on_a_winner():
    """Alice ends at 70 at least without the malus, above Bruno's 69 at most; with a malus of −2
    on the round's winner, she can win it, end at 68, and Bruno pass her."""
    season = players(
        ("Alice", 100, 4), ("Bruno", 39, 4), ("Chloé", 10, 4), ("David", 10, 4), ("Émile", 10, 4)
    )
    no_malus = prospects(season, [ComingRound(5)], rules(places=1))["Alice"]
    malus = prospects(season, [ComingRound(5, late=-2)], rules(places=1))["Alice"]
    assert (no_malus.certain.worst, malus.certain.worst) == (1, 2)
    assert (no_malus.certain.status, malus.certain.status) == (QUALIFIED, IN_CONTENTION)


def test_unranked_and_inactive_players():
    season = [
        Contender("Alice", 30, 4),
        Contender("Bruno", 29, 1),  # 2 rounds to play, 2 left
        Contender("Chloé", 28, 0),  # 3 rounds to play, 2 left: can no longer be ranked
        Contender("David", 50, 4, active=False),  # stays where he is
        *players(("Émile", 5, 4), ("Fanny", 0, 4)),
    ]
    got = prospects(season, [ComingRound(4), ComingRound(4)], rules(places=2))
    assert got["Chloé"].certain == Places(None, None, 2)
    assert got["Chloé"].certain.status == ELIMINATED
    assert place_range(got["Chloé"].certain) == "jamais classé"
    assert got["Bruno"].certain.worst is None  # he may not get his 2 rounds
    assert place_range(got["Bruno"].table).endswith("et hors du classement")
    assert got["David"].table.best == 1 and got["David"].need.most == 0


def test_no_round_left_the_tiebreaks_decide():
    season = [
        Contender("Alice", 40, 5, tiebreaks=(2, 1)),
        Contender("Bruno", 40, 5, tiebreaks=(1, 3)),
        Contender("Chloé", 40, 5, tiebreaks=(1, 3)),
        Contender("David", 30, 5, late=-1),
    ]
    got = prospects(season, [], rules(places=2))
    assert got["Alice"].table == Places(1, 1, 2)
    assert (got["Bruno"].table.best, got["Bruno"].table.worst) == (2, 3)  # fully tied with Chloé
    assert got["Bruno"].table.status == IN_CONTENTION
    assert got["David"].certain.status == ELIMINATED


def test_places_in_french():
    assert in_places(((1, 5), (1, 5), (3, 5))) == "deux victoires et une 3e place"
    assert in_places(((3, 5), (3, 5))) == "deux 3es places"
    assert in_places(((1, 4), (2, 5))) == "une victoire à une table de 4 et une 2e place à une table de 5"
    assert place_range(Places(3, 3, 10)) == "à la 3e place"
    assert status_text(Places(1, 4, 10)) == "qualifié"
    assert (
        need_text(Need(12, 0, 30, ((1, 5), (4, 5)))) == "12 points : par exemple une victoire et une 4e place"
    )


@pytest.mark.parametrize(
    "season, coming, message",
    [
        (SIX + SIX[:1], [ComingRound(5)], "deux fois"),
        (SIX, [ComingRound(5, late=1)], "négatif ou nul"),
        (SIX, [ComingRound(3)], "table de 3"),
        (SIX, [ComingRound(5, frozenset({"Alice", "Bruno"}))], "moins de joueurs"),
        (SIX[:4], [ComingRound(5)], "actifs"),
    ],
)
def test_what_the_input_may_not_say(season, coming, message):
    with pytest.raises(ValueError, match=message):
        prospects(season, coming, rules())


# --- the usual calendar's shortcuts against the general program ---------------------------------


@st.composite
def usual_seasons(draw):
    count = draw(st.integers(7, 10))
    names = [f"J{k}" for k in range(count)]
    season = [
        Contender(name, draw(st.integers(0, 60)), draw(st.integers(0, 5)), draw(st.booleans()) or k < 6)
        for k, name in enumerate(names)
    ]
    coming = [ComingRound(draw(st.sampled_from([4, 5])), late=-1) for _ in range(draw(st.integers(1, 5)))]
    for _known in range(draw(st.integers(0, 2))):
        size = draw(st.sampled_from([4, 5]))
        answers = size + draw(st.sampled_from([0, 0, 1, 2]))  # a known seating, or more answers
        seats = draw(st.lists(st.sampled_from(names), min_size=answers, max_size=answers, unique=True))
        coming.append(ComingRound(size, frozenset(seats)))
    return (
        season,
        coming,
        Rules(DEFAULT.rank_points, -3, 12, draw(st.integers(2, 5)), draw(st.integers(1, 4))),
    )


def every_total(values_per_seat):
    """Every total of one value per seat, as the definition says it: a set, seat after seat."""
    totals = {0}
    for values in values_per_seat:
        totals = {total + value for total in totals for value in values}
    return totals


@given(st.lists(st.lists(st.integers(-6, 16), max_size=5).map(tuple), max_size=8).map(tuple))
def test_the_totals_of_the_seats_are_every_total_of_one_value_per_seat(values_per_seat):
    assert greedy._sums(values_per_seat) == every_total(values_per_seat)


def test_many_seats_give_the_totals_the_definition_gives():
    """A long season's seats to come (tests/championship/cup/test_cup.py: 200 rounds), here 60
    tables of five and a malus: the same totals as the definition, the highest less one never."""
    seats = ((10, 7, 5, 3, 1),) * 60 + ((-2, 0),)
    totals = greedy._sums(seats)
    assert totals == every_total(seats)
    assert max(totals) == 600 and 599 not in totals and min(totals) == 58


@settings(max_examples=10, deadline=None)
@given(usual_seasons())
def test_the_shortcuts_agree_with_the_program(drawn):
    season, coming, chosen = drawn
    field = field_of(season, coming, chosen)
    certain, table = scales(chosen)
    for i in range(0, len(season), 3):
        for scale in (certain, table):
            fast = greedy.worst_count(field, i, scale)
            assert fast is ... or fast == solver.worst_count(field, i, scale)
        fast = greedy.seat_range(field, i, table)
        assert fast is ... or fast == solver.seat_range(field, i, table)
        bounds = greedy.unsafe_gain_bounds(field, i, table)
        if bounds is ...:  # too many seatings to try: the program alone answers
            continue
        exact, (low, high) = solver.unsafe_gain(field, i, table), bounds
        if exact is None:
            assert (low, high) == (None, None)
        else:
            assert low is None or low <= exact
            assert high is not None and exact <= high


def test_the_shortcuts_try_each_seating_of_a_night_with_more_answers():
    """Five answers for four seats: each seating tried, the same answers as the program's; a
    night of two tables is left to the program."""
    answered = ComingRound(4, frozenset({"Alice", "Bruno", "Chloé", "David", "Émile"}))
    field = field_of(SIX, [answered, ComingRound(5)], rules())
    certain, table = scales(rules())
    for i in range(len(SIX)):
        assert greedy.worst_count(field, i, table) == solver.worst_count(field, i, table)
        assert greedy.worst_count(field, i, certain) == solver.worst_count(field, i, certain)
        assert greedy.seat_range(field, i, table) == solver.seat_range(field, i, table)
    two_tables = field_of(SIX + SIX[:0], [ComingRound(4, night=1), ComingRound(4, night=1)], rules(minimum=1))
    assert greedy.worst_count(two_tables, 0, table) is ...
    assert greedy.unsafe_gain_bounds(two_tables, 0, table) is ...


# --- a search that runs out of time (issue 33) -------------------------------------------------------

SURPLUS = [  # two nights of 4 seats, 6 answers each, and a table open to all: no shortcut
    ComingRound(4, frozenset(player.name for player in SIX), night="a"),
    ComingRound(4, frozenset(player.name for player in SIX), night="b"),
    ComingRound(5),
]


@pytest.mark.parametrize("solved", [0, 1, 2])
def test_out_of_time_what_he_needs_is_enough_never_less(monkeypatch, solved):
    """Nights with answers in surplus take the general search (no shortcut). When its time
    runs out after ``solved`` programs, what a player is told he needs is still enough — never
    less than the exact answer — and is marked not exact."""
    exact = prospects(SIX, SURPLUS, rules())
    assert greedy.unsafe_gain_bounds(field_of(SIX, SURPLUS, rules()), 0, scales(rules())[1]) is ...
    real = solver.unsafe_gain
    calls = {"count": 0}

    def runs_out(*args, **kwargs):
        if kwargs.get("seconds") is not None:
            calls["count"] += 1
            if calls["count"] > solved:
                raise solver.OutOfTime("HiGHS : Time limit reached")
        return real(*args, **kwargs)

    monkeypatch.setattr(solver, "unsafe_gain", runs_out)
    rushed = prospects(SIX, SURPLUS, rules(), need_seconds=60)
    for name, prospect in rushed.items():
        told, truth = prospect.need, exact[name].need
        assert (prospect.certain, prospect.table) == (exact[name].certain, exact[name].table)
        if told.exact:
            assert told.needed == truth.needed
        else:
            assert truth.needed is not None and told.needed >= truth.needed
    assert any(not prospect.need.exact for prospect in rushed.values())
    assert all(prospect.need.exact for prospect in exact.values())
