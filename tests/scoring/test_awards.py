import pytest

from scoring.awards import AWARDS, Award, PlayerStats, Reason, compute_awards
from scoring.ranking import PlayerSeason, final_ranking
from scoring.rulebook import load_default_rulebook

RULEBOOK = load_default_rulebook()


def variant(**changes):
    championship = RULEBOOK.championship.model_copy(update=changes)
    return RULEBOOK.model_copy(update={"championship": championship})


def stats(player, rounds=5, best_total=100, takes=0, made=0, defended_failed=0, chelems=0):
    return PlayerStats(player, rounds, best_total, takes, made, defended_failed, chelems)


def award(code, players, rulebook=RULEBOOK, ranked=()):
    return AWARDS[code](players, list(ranked), rulebook)


def winners(result):
    return (result.players, result.value)


def test_it_keeps_the_registry_and_the_rulebook_keys_together():
    assert list(RULEBOOK.championship.awards) == list(AWARDS)
    assert all(code == rule.code for code, rule in AWARDS.items())


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ({"Alice": 630, "Bruno": 380, "Chloé": None}, (("Alice",), 630)),
        ({"Alice": 630, "Bruno": 630, "Chloé": 20}, (("Alice", "Bruno"), 630)),
        ({"Alice": -40, "Bruno": -60}, (("Alice",), -40)),
        ({"Alice": None, "Bruno": None}, ((), None)),
        ({}, ((), None)),
    ],
)
def test_it_gives_the_record_trophy(totals, expected):
    result = award("record", [stats(p, best_total=t) for p, t in totals.items()])

    assert winners(result) == expected
    assert result.label == "Trophée du record"


def test_it_explains_the_record_and_says_when_nobody_earns_it():
    assert award("record", [stats("Alice", best_total=630)]).explanation == (
        "Plus haut total d'une manche de la saison : 630"
    )
    assert award("record", []) == Award("record", "Trophée du record", (), None, Reason("nobody"))


def ranking(*entries):
    seasons = [PlayerSeason(name, points, rounds, 0, 0, 0) for name, points, rounds in entries]
    return final_ranking(seasons, RULEBOOK)[0]


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        ([("Alice", 40, 5), ("Bruno", 12, 5), ("Chloé", 3, 2)], (("Bruno",), 12)),
        ([("Alice", 40, 5), ("Bruno", 12, 5), ("David", 12, 5)], (("Bruno", "David"), 12)),
        ([("Alice", -4, 3)], (("Alice",), -4)),
        ([("Chloé", 3, 2)], ((), None)),
    ],
)
def test_it_gives_the_wooden_spoon_to_the_last_ranked(entries, expected):
    result = award("wooden_spoon", [], ranked=ranking(*entries))

    assert winners(result) == expected


def test_it_explains_the_wooden_spoon():
    result = award("wooden_spoon", [], ranked=ranking(("A", 40, 5), ("B", 12, 5), ("C", 12, 5)))

    assert result.label == "Cuillère de bois"
    assert result.explanation == "Dernière place du classement final (2e ex æquo), 12 points"


@pytest.mark.parametrize(
    ("takers", "expected"),
    [
        # (player, takes, made)
        ([("Alice", 20, 12), ("Bruno", 11, 11)], (("Alice",), 12)),
        ([("Alice", 20, 12), ("Bruno", 15, 12)], (("Bruno",), 12)),  # tie: success rate
        ([("Alice", 20, 12), ("Bruno", 20, 12)], (("Alice", "Bruno"), 12)),  # still tied
        ([("Alice", 9, 9), ("Bruno", 10, 5)], (("Bruno",), 5)),  # 9 takes: not eligible
        ([("Alice", 9, 9), ("Bruno", 3, 3)], ((), None)),  # nobody eligible
        ([("Alice", 12, 0)], ((), None)),  # no contract made
    ],
)
def test_it_gives_the_best_taker_award(takers, expected):
    players = [stats(name, takes=takes, made=made) for name, takes, made in takers]

    assert winners(award("best_taker", players)) == expected


def test_it_explains_the_best_taker_tie_broken_by_success_rate():
    players = [stats("Alice", takes=20, made=12), stats("Bruno", takes=15, made=12)]

    assert award("best_taker", players).explanation == (
        "12 contrats réussis sur 15 prises (80\u00a0%), minimum 10 prises ; "
        "égalité de contrats réussis départagée au taux de réussite"
    )
    assert award("best_taker", []).explanation == "Non attribué (minimum 10 prises)"


def test_the_best_takers_rate_is_rounded_half_up():
    players = [stats("Alice", takes=8, made=5)]

    assert award("best_taker", players, variant(best_taker_min_takes=8)).explanation.startswith(
        "5 contrats réussis sur 8 prises (63\u00a0%)"
    )


def test_it_follows_the_season_minimum_of_takes():
    players = [stats("Alice", takes=4, made=4), stats("Bruno", takes=12, made=3)]

    assert winners(award("best_taker", players, variant(best_taker_min_takes=3))) == (
        ("Alice",),
        4,
    )


@pytest.mark.parametrize(
    ("code", "field", "values", "expected", "explanation"),
    [
        ("wall", "defended_failed", (7, 3, 7), (("Alice", "Chloé"), 7), "7 contrats mis en échec"),
        ("wall", "defended_failed", (0, 0, 0), ((), None), "Non attribué"),
        ("most_rounds", "rounds", (12, 14, 3), (("Bruno",), 14), "14 manches jouées"),
        ("most_rounds", "rounds", (0, 0, 0), ((), None), "Non attribué"),
        ("most_chelems", "chelems", (0, 1, 0), (("Bruno",), 1), "1 chelem réussi"),
        ("most_chelems", "chelems", (2, 2, 2), (("Alice", "Bruno", "Chloé"), 2), "2 chelems"),
        ("most_chelems", "chelems", (0, 0, 0), ((), None), "Non attribué"),
    ],
)
def test_it_gives_the_most_awards_to_every_tied_player(code, field, values, expected, explanation):
    players = [stats(name, **{field: v}) for name, v in zip(("Chloé", "Bruno", "Alice"), values, strict=True)]
    result = award(code, players)

    assert winners(result) == expected
    assert result.explanation.startswith(explanation)


def test_it_lists_every_award_of_the_rulebook_in_its_order():
    players = [stats("Alice", best_total=300, chelems=1), stats("Bruno", best_total=200)]
    ranked = ranking(("Alice", 30, 5), ("Bruno", 20, 5))
    result = compute_awards(players, ranked, RULEBOOK)

    assert [(a.code, a.label, a.players, a.value) for a in result] == [
        ("record", "Trophée du record", ("Alice",), 300),
        ("wooden_spoon", "Cuillère de bois", ("Bruno",), 20),
        ("best_taker", "Meilleur preneur", (), None),
        ("wall", "Mur de la défense", (), None),
        ("most_rounds", "Le plus assidu", ("Alice", "Bruno"), 5),
        ("most_chelems", "Roi du chelem", ("Alice",), 1),
    ]


def test_it_gives_only_the_awards_the_season_chose():
    rulebook = variant(awards=["most_chelems", "record"])
    result = compute_awards([stats("Alice")], [], rulebook)

    assert [a.code for a in result] == ["most_chelems", "record"]
