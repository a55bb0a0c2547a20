from datetime import date, timedelta
from decimal import Decimal

import pytest

from scoring.championship import (
    AUTOMATIC_BONUSES,
    ITEM_ORDER,
    DealFacts,
    LineItem,
    RoundFacts,
    adjustment_item,
    late_report_item,
    late_report_weeks,
    round_facts,
    round_line_items,
    round_ranks,
)
from scoring.deal import DealInput, Poignee
from scoring.errors import ScoringError
from scoring.round import score_round
from scoring.rulebook import RulebookError, load_default_rulebook, load_rulebook_data

RULEBOOK = load_default_rulebook()
FIVE = ("Alice", "Bruno", "Chloé", "David", "Émile")


def variant(**changes):
    championship = RULEBOOK.championship.model_copy(update=changes)
    return RULEBOOK.model_copy(update={"championship": championship})


def seated(*totals):
    return dict(zip(FIVE, totals, strict=False))


def points(items):
    """Total championship points per player."""
    result = {}
    for item in items:
        result[item.player] = result.get(item.player, 0) + item.points
    return result


def codes(items, player):
    return [(item.code, item.points) for item in items if item.player == player]


def deal(taker, contract, made, partner=None, chelem=False, number=None, players=FIVE):
    defenders = tuple(p for p in players if p not in (taker, partner))
    return DealFacts(taker, partner, defenders, contract, made, chelem, number)


SHEET_DEALS = (
    deal("Bruno", "garde", True, partner="David", number=1),
    deal("Alice", "garde_sans", False, number=4),
)
SHEET_TOTALS = {"Alice": -650, "Bruno": 380, "Chloé": 50, "David": 220, "Émile": 0}


def test_it_scores_the_sheet_format_example():
    items = round_line_items(RoundFacts(SHEET_TOTALS, SHEET_DEALS), RULEBOOK)
    items.append(adjustment_item("Émile", "retard", RULEBOOK, note="arrivé à 21h30"))

    assert codes(items, "Bruno") == [("rank", 10), ("wall", 1)]
    assert codes(items, "David") == [("rank", 7), ("wall", 1)]
    assert codes(items, "Chloé") == [("rank", 5), ("wall", 1)]
    assert codes(items, "Émile") == [("rank", 3), ("wall", 1), ("retard", -1)]
    assert codes(items, "Alice") == [("rank", 1)]
    assert points(items) == {"Alice": 1, "Bruno": 11, "Chloé": 6, "David": 8, "Émile": 3}


def test_it_explains_every_item_of_the_sheet_format_example():
    items = round_line_items(RoundFacts(SHEET_TOTALS, SHEET_DEALS), RULEBOOK)

    assert [(item.player, item.label, item.deal) for item in items] == [
        ("Alice", "5e place sur 5 (total −650)", None),
        ("Bruno", "1re place sur 5 (total 380)", None),
        ("Bruno", "Garde sans d'Alice mise en échec en défense (donne 4)", 4),
        ("Chloé", "3e place sur 5 (total 50)", None),
        ("Chloé", "Garde sans d'Alice mise en échec en défense (donne 4)", 4),
        ("David", "2e place sur 5 (total 220)", None),
        ("David", "Garde sans d'Alice mise en échec en défense (donne 4)", 4),
        ("Émile", "4e place sur 5 (total 0)", None),
        ("Émile", "Garde sans d'Alice mise en échec en défense (donne 4)", 4),
    ]


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ((300, 100, 0, -100, -300), [10, 7, 5, 3, 1]),
        ((300, 100, -100, -300), [10, 6, 3, 1]),
        ((100, 100, 0, -100, -100), [10, 10, 5, 3, 3]),
        ((100, 100, -100, -100), [10, 10, 3, 3]),
        ((0, 0, 0, 0, 0), [10, 10, 10, 10, 10]),
        ((50, 50, 50, -150), [10, 10, 10, 1]),
    ],
)
def test_it_gives_rank_points_with_ties_sharing_the_better_rank(totals, expected):
    items = round_line_items(RoundFacts(seated(*totals)), RULEBOOK)

    assert [item.points for item in items if item.code == "rank"] == expected


def test_it_labels_a_shared_rank():
    items = round_line_items(RoundFacts(seated(100, 100, 0, -100, -100)), RULEBOOK)

    labels = [item.label for item in items if item.code == "rank"]
    assert labels[0] == "1re place ex æquo sur 5 (total 100)"
    assert labels[-1] == "4e place ex æquo sur 5 (total −100)"


def test_it_refuses_a_table_size_without_rank_points():
    with pytest.raises(ScoringError, match="table de 3 joueurs"):
        round_line_items(RoundFacts(seated(10, 0, -10)), RULEBOOK)


def test_it_ranks_round_totals_explicitly():
    assert round_ranks({"A": 50, "B": 120, "C": 50, "D": -220}) == {
        "A": (2, True),
        "B": (1, False),
        "C": (2, True),
        "D": (4, False),
    }


@pytest.mark.parametrize(
    ("totals", "winner"),
    [
        ((250, 0, -50, -100, -100), "Alice"),  # ahead by exactly 250
        ((249, 0, -50, -99, -100), None),  # ahead by 249
        ((-100, 600, 100, -300, -300), "Bruno"),
        ((300, 300, -200, -200, -200), None),  # shared first place
        ((400, 150, -250, -300), "Alice"),  # 4 players
    ],
)
def test_it_gives_the_big_win_bonus_from_a_margin_of_250(totals, winner):
    items = round_line_items(RoundFacts(seated(*totals)), RULEBOOK)

    big_wins = [item for item in items if item.code == "big_win"]
    assert [item.player for item in big_wins] == ([winner] if winner else [])
    assert all(item.points == 1 for item in big_wins)


def test_it_explains_the_big_win():
    items = round_line_items(RoundFacts(seated(250, 0, -50, -100, -100)), RULEBOOK)

    (big_win,) = [item for item in items if item.code == "big_win"]
    assert big_win.label == "Large victoire : 250 contre 0 (écart 250 ≥ 250)"


@pytest.mark.parametrize(
    ("totals", "losers"),
    [
        ((300, 0, 0, 0, -100), ["Émile"]),  # exactly 100 behind
        ((300, 0, 0, 1, -101), []),  # 101 behind
        ((200, 0, 0, -100, -100), ["David", "Émile"]),  # shared last, exactly 100
        ((300, 0, -100, -100, -100), ["Chloé", "David", "Émile"]),
        ((300, 100, 0, -200, -200), []),  # shared last, 200 behind
        ((300, 0, -50, -99, -101), ["Émile"]),  # compared with the lowest total above
        ((100, 0, 0, 0, 0), ["Bruno", "Chloé", "David", "Émile"]),
        ((0, 0, 0, 0, 0), []),  # all tied: nothing
        ((250, -50, -80, -120), ["David"]),  # 4 players, 40 behind
    ],
)
def test_it_gives_the_close_loss_bonus_within_100(totals, losers):
    items = round_line_items(RoundFacts(seated(*totals)), RULEBOOK)

    assert [item.player for item in items if item.code == "close_loss"] == losers


def test_it_explains_the_close_loss():
    items = round_line_items(RoundFacts(seated(300, 0, 0, 0, -100)), RULEBOOK)

    (close_loss,) = [item for item in items if item.code == "close_loss"]
    assert close_loss.label == "Défaite honorable : −100 contre 0 (écart 100 ≤ 100)"


ZERO_ROUND = seated(100, 50, 0, -50, -100)


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        (deal("Alice", "garde_sans", True), [("Alice", "prestige", 1)]),
        (deal("Alice", "garde_contre", True, partner="Bruno"), [("Alice", "prestige", 1)]),
        (deal("Alice", "garde", True, partner="Bruno"), []),
        (deal("Alice", "prise", False, partner="Bruno"), []),
        (deal("Alice", "garde", False, partner="Bruno"), []),
        (
            deal("Alice", "garde_sans", True, chelem=True),
            [("Alice", "prestige", 1), ("Alice", "chelem", 2)],
        ),
        (deal("Chloé", "prise", True, partner="Alice", chelem=True), [("Chloé", "chelem", 2)]),
        (
            deal("Alice", "garde_contre", False, partner="Bruno"),
            [("Chloé", "wall", 1), ("David", "wall", 1), ("Émile", "wall", 1)],
        ),
        (
            deal("Alice", "garde_sans", False),
            [("Bruno", "wall", 1), ("Chloé", "wall", 1), ("David", "wall", 1), ("Émile", "wall", 1)],
        ),
    ],
)
def test_it_gives_the_deal_bonuses(facts, expected):
    items = round_line_items(RoundFacts(ZERO_ROUND, (facts,)), RULEBOOK)

    got = [(i.player, i.code, i.points) for i in items if i.code not in ("rank", "close_loss")]
    assert got == expected
    assert all(i.deal == 1 for i in items if i.code not in ("rank", "close_loss"))


def test_it_counts_each_prestige_contract_and_names_its_deal():
    deals = (
        deal("Alice", "garde_sans", True, number=2),
        deal("Bruno", "garde", True, partner="Alice", number=3),
        deal("Alice", "garde_contre", True, partner="Chloé", number=7),
    )
    items = round_line_items(RoundFacts(ZERO_ROUND, deals), RULEBOOK)

    prestige = [item for item in items if item.code == "prestige"]
    assert [(item.deal, item.label) for item in prestige] == [
        (2, "Garde sans réussie (donne 2)"),
        (7, "Garde contre réussie (donne 7)"),
    ]


def test_it_numbers_deals_by_position_when_no_number_is_given():
    deals = (deal("Bruno", "garde", True, partner="Alice"), deal("Alice", "garde_sans", True))
    items = round_line_items(RoundFacts(ZERO_ROUND, deals), RULEBOOK)

    assert [(item.code, item.deal) for item in items if item.code == "prestige"] == [("prestige", 2)]


def test_it_gives_only_score_based_items_for_a_totals_only_round():
    totals = seated(400, 100, -100, -200, -200)
    items = round_line_items(RoundFacts(totals, None), RULEBOOK)

    assert {item.code for item in items} == {"rank", "big_win", "close_loss"}
    assert points(items) == {"Alice": 11, "Bruno": 7, "Chloé": 5, "David": 4, "Émile": 4}


def test_it_refuses_a_deal_player_not_seated():
    facts = RoundFacts(ZERO_ROUND, (deal("Zoé", "garde", True, number=3),))

    with pytest.raises(ScoringError, match="Zoé") as error:
        round_line_items(facts, RULEBOOK)
    assert error.value.deal_number == 3


def test_it_follows_the_season_rulebook():
    rulebook = variant(big_win_margin=100, big_win_points=2, wall_points=0, prestige_points=3)
    deals = (deal("Alice", "garde_sans", True), deal("Bruno", "garde_sans", False))
    items = round_line_items(RoundFacts(seated(200, 50, 0, -100, -150), deals), rulebook)

    assert codes(items, "Alice") == [("rank", 10), ("big_win", 2), ("prestige", 3)]
    assert not [item for item in items if item.code == "wall"]


DEADLINE = date(2010, 11, 26)


@pytest.mark.parametrize(
    ("days_late", "weeks"),
    [(-3, 0), (0, 0), (1, 1), (7, 1), (8, 2), (14, 2), (15, 3), (30, 5)],
)
def test_it_counts_started_weeks_of_lateness(days_late, weeks):
    filed = DEADLINE + timedelta(days=days_late)

    assert late_report_weeks(DEADLINE, filed, as_of=date(2011, 6, 1)) == weeks


@pytest.mark.parametrize(
    ("as_of", "weeks"),
    [
        (date(2010, 11, 20), 0),
        (date(2010, 11, 26), 0),
        (date(2010, 11, 27), 1),
        (date(2010, 12, 3), 1),
        (date(2010, 12, 4), 2),
        (date(2010, 12, 11), 3),
    ],
)
def test_it_counts_a_missing_report_as_of_a_date(as_of, weeks):
    assert late_report_weeks(DEADLINE, None, as_of) == weeks


@pytest.mark.parametrize(("weeks", "expected"), [(0, None), (1, -1), (2, -2), (5, -5)])
def test_it_turns_weeks_into_the_late_report_malus(weeks, expected):
    item = late_report_item("Bruno", weeks, RULEBOOK)

    assert (item.points if item else None) == expected


def test_it_explains_the_late_report_malus():
    item = late_report_item("Bruno", 2, RULEBOOK)

    assert item == LineItem(
        "Bruno",
        "late_report",
        -2,
        "Compte-rendu en retard : 2 semaines entamées après l'échéance (−1 par semaine)",
    )


@pytest.mark.parametrize(
    ("code", "expected_points", "label"),
    [
        ("hote", 1, "Hôte de la soirée"),
        ("fair_play", 1, "Fair-play"),
        ("compte_rendu_du_mois", 1, "Compte-rendu du mois"),
        ("retard", -1, "Retard"),
        ("absence", -2, "Absence non excusée"),
        ("biere_renversee", -1, "Bière renversée sur les cartes"),
        ("ethique", -3, "Manquement à l'éthique"),
    ],
)
def test_it_takes_adjustments_from_the_catalogue(code, expected_points, label):
    item = adjustment_item("Chloé", code, RULEBOOK)

    assert item == LineItem("Chloé", code, expected_points, label)


def test_it_lets_an_official_override_the_points_with_a_note():
    item = adjustment_item("Chloé", "ethique", RULEBOOK, points=-5, note="récidive")

    assert item.points == -5
    assert item.label == "Manquement à l'éthique (points fixés à −5 au lieu de −3) — récidive"


def test_it_refuses_an_adjustment_code_outside_the_catalogue():
    with pytest.raises(ScoringError, match="« triche » n'est pas dans le catalogue"):
        adjustment_item("Chloé", "triche", RULEBOOK)


def test_it_scores_the_sheet_format_example_from_the_engine():
    deals = [
        DealInput(
            dealer="Alice",
            taker="Bruno",
            contract="garde",
            called="coeur",
            partner="David",
            bouts=2,
            points=Decimal(49),
            poignees=(Poignee("Bruno", "simple"),),
            miseres=("Chloé",),
            petit_au_bout="attack",
        ),
        DealInput(dealer="Bruno", kind="passed"),
        DealInput(dealer="Chloé", kind="misdeal"),
        DealInput(
            dealer="Chloé",
            taker="Alice",
            contract="garde_sans",
            called="pique",
            bouts=1,
            points=Decimal("44.5"),
        ),
    ]
    result = score_round(FIVE, deals, RULEBOOK)
    facts = round_facts(deals, result)

    assert facts.totals == SHEET_TOTALS
    assert [(d.taker, d.number, d.made) for d in facts.deals] == [
        ("Bruno", 1, True),
        ("Alice", 4, False),
    ]
    items = round_line_items(facts, RULEBOOK)
    assert points(items) == {"Alice": 1, "Bruno": 11, "Chloé": 6, "David": 8, "Émile": 4}


# --- the registry of automatic bonuses ------------------------------------------------------------

ALL_BONUSES = (
    deal("Bruno", "garde_sans", True, chelem=True, number=1),
    deal("Alice", "garde_contre", False, number=2),
)
ALL_BONUS_TOTALS = {"Alice": -500, "Bruno": 900, "Chloé": 300, "David": -440, "Émile": -260}


def test_it_orders_a_players_items_as_the_registry_lists_the_bonuses():
    assert (*AUTOMATIC_BONUSES, "late_report") == ITEM_ORDER
    assert all(code == bonus.code for code, bonus in AUTOMATIC_BONUSES.items())
    items = round_line_items(RoundFacts(ALL_BONUS_TOTALS, ALL_BONUSES), RULEBOOK)
    assert {item.code for item in items} == set(AUTOMATIC_BONUSES)
    bruno = [("rank", 10), ("big_win", 1), ("prestige", 1), ("chelem", 2), ("wall", 1)]
    assert codes(items, "Bruno") == bruno
    assert codes(items, "Alice") == [("rank", 1), ("close_loss", 1)]


@pytest.mark.parametrize("code", [*AUTOMATIC_BONUSES, "late_report", "round_cap", "round_floor"])
def test_it_reserves_every_automatic_code_in_the_catalogue(code):
    entry = {"code": code, "label": "Copie", "points": 1}
    with pytest.raises(RulebookError, match="réservé au calcul automatique"):
        load_rulebook_data({"championship": {"catalogue": [entry]}})


def test_it_gives_a_totals_only_round_only_the_bonuses_read_from_totals():
    items = round_line_items(RoundFacts(ALL_BONUS_TOTALS), RULEBOOK)
    by_deal = {code for code, bonus in AUTOMATIC_BONUSES.items() if bonus.by_deal}
    assert by_deal == {"prestige", "chelem", "wall"}
    assert {item.code for item in items} == set(AUTOMATIC_BONUSES) - by_deal
