"""The play-off statuses of the outlook (docs/regles.md §6.4), checked against rounds scored by
the real engine.

A status shown during the season (qualified, eliminated) must hold whatever the remaining rounds
bring: here they are tables of the season's players playing random deals scored by
``scoring.round``, their championship line items by ``scoring.championship`` (every bonus per
deal), catalogue bonuses and maluses (the Direction's fixed points included) on the seated
players, and the late-report malus as it grows until the season's end, on each round's winner,
who writes its report.
"""

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

from hypothesis import given, settings, target
from hypothesis import strategies as st

from scoring.championship import (
    RoundFacts,
    adjustment_item,
    round_facts,
    round_limit_items,
    round_line_items,
)
from scoring.deal import DealInput, Poignee
from scoring.outlook.season import (
    ELIMINATED,
    IN_CONTENTION,
    QUALIFIED,
    ComingRound,
    Contender,
    Rules,
    prospects,
)
from scoring.playoff_race import late_malus, report_risk
from scoring.ranking import TIEBREAKS, PlayerSeason, final_ranking
from scoring.round import score_round
from scoring.rulebook import load_default_rulebook

RULEBOOK = load_default_rulebook()
ONE_PLACE = RULEBOOK.model_copy(update={"cup": RULEBOOK.cup.model_copy(update={"playoff_players": 1})})


def played(dealer, taker, contract, partner, bouts, points, **more):
    return DealInput(
        dealer=dealer,
        taker=taker,
        contract=contract,
        called="coeur",
        partner=partner,
        bouts=bouts,
        points=Decimal(points),
        **more,
    )


SEATS = ("Chloé", "P1", "P2", "P3", "P4")
# Chloé: a Garde sans made (prestige), a chelem as taker, two prestige contracts failed while she
# defends (two walls), and a round won by far (big win).
SIXTEEN_POINT_DEALS = [
    played("Chloé", "Chloé", "garde_sans", "P1", 2, 60),
    played("P1", "Chloé", "garde", "P2", 3, 91, chelem_made_by="attack"),
    played("P2", "P3", "garde_contre", "P4", 1, 30),
    played("P3", "P4", "garde_sans", "P3", 1, 30),
]


def sixteen_point_round():
    """Chloé's line items in a round of the default rules worth 16 points to her."""
    result = score_round(SEATS, SIXTEEN_POINT_DEALS, RULEBOOK)
    return round_line_items(round_facts(SIXTEEN_POINT_DEALS, result), RULEBOOK)


def test_it_knows_a_round_of_the_default_rules_can_give_sixteen_points():
    items = [item for item in sixteen_point_round() if item.player == "Chloé"]

    assert [(item.code, item.points) for item in items] == [
        ("rank", 10),
        ("big_win", 1),
        ("prestige", 1),
        ("chelem", 2),
        ("wall", 1),
        ("wall", 1),
    ]
    assert sum(item.points for item in items) == 16


def test_it_calls_no_one_qualified_whom_a_sixteen_point_round_can_catch():
    # One round left, one place. Léo leads Chloé by 22 points: +15 for her and −6 for him would
    # leave him 1 point ahead, but the rules let her take 16 at that table while he, seated there
    # too, gets a late arrival, an unexcused absence and an ethics malus (−6).
    current = [
        PlayerSeason("Léo", 100, 5, 1, 0, 0),
        PlayerSeason("Chloé", 78, 5, 3, 0, 0),
        *(PlayerSeason(f"P{n}", 0, 5, 0, 0, 0) for n in range(1, 4)),
    ]
    shown = statuses(current, [ComingRound(5)], {}, ONE_PLACE)

    chloe = sum(item.points for item in sixteen_point_round() if item.player == "Chloé")
    maluses = [adjustment_item("Léo", code, RULEBOOK) for code in ("retard", "absence", "ethique")]
    leo = sum(item.points for item in maluses)
    end = [
        PlayerSeason("Léo", 100 + leo, 5, 1, 0, 0),
        PlayerSeason("Chloé", 78 + chloe, 6, 4, 0, 0),
    ]
    ranked, _ = final_ranking(end, ONE_PLACE)

    assert (leo, chloe) == (-6, 16)
    assert ranked[0].player == "Chloé"  # 94 each, Chloé ahead on round wins
    assert shown["Léo"] != QUALIFIED


# --- any season: rounds scored by the engine --------------------------------------------------

NAMES = ("Alice", "Bruno", "Chloé", "David", "Émile", "Fanny", "Gaston")
SUITS = ("pique", "coeur", "carreau", "trefle")
# Prestige contracts and chelems far more often than at a real table, so that the bonuses per
# deal pile up and the round limits come into play.
CONTRACTS = ("prise", "garde", "garde_sans", "garde_sans", "garde_contre", "garde_contre")
TODAY = date(2011, 3, 1)


def random_deals(rng, seats, count):
    """``count`` deals a table could have played, dealt in turn (a misdeal's dealer deals again)."""
    dealer = rng.randrange(len(seats))
    deals = []
    for _ in range(count):
        name = seats[dealer]
        if rng.random() < 0.1:
            kind = rng.choice(["passed", "petit_sec", "misdeal"])
            deals.append(DealInput(dealer=name, kind=kind))
            if kind != "misdeal":
                dealer = (dealer + 1) % len(seats)
            continue
        taker = rng.choice(seats)
        spec = {"dealer": name, "taker": taker, "contract": rng.choice(CONTRACTS)}
        if len(seats) == 5:
            spec["called"] = rng.choice(SUITS)
            spec["partner"] = rng.choice([None, *(s for s in seats if s != taker)])
        if rng.random() < 0.2:
            spec.update(bouts=3, points=Decimal(91), chelem_made_by="attack")
            spec["chelem_announced"] = rng.random() < 0.5
        else:
            bouts = rng.randint(0, 3)
            spec.update(bouts=bouts, points=Decimal(rng.randint(9 * bouts, 182 - 9 * (3 - bouts))) / 2)
            if rng.random() < 0.1:
                spec["chelem_announced"] = True  # announced, and failed
        if rng.random() < 0.1:
            spec["petit_au_bout"] = rng.choice(["attack", "defence"])
        if rng.random() < 0.1:
            spec["poignees"] = (Poignee(rng.choice(seats), rng.choice(["simple", "double"])),)
        deals.append(DealInput(**spec))
        dealer = (dealer + 1) % len(seats)
    return deals


@st.composite
def rulebooks(draw):
    """The default rules, with round limits, places, minimum rounds and malus drawn."""
    championship = RULEBOOK.championship.model_copy(
        update={
            "round_points_cap": draw(st.sampled_from([10, 12, 16, 20, 30])),
            "round_points_floor": draw(st.sampled_from([-30, -8, -3, 0])),
            "minimum_rounds": draw(st.integers(1, 3)),
        }
    )
    cup = RULEBOOK.cup.model_copy(update={"playoff_players": draw(st.integers(1, 3))})
    reports = RULEBOOK.reports.model_copy(update={"late_malus_per_week": draw(st.integers(-2, 0))})
    return RULEBOOK.model_copy(update={"championship": championship, "cup": cup, "reports": reports})


@st.composite
def round_points(draw, rulebook, rng, racing, push, size):
    """A round of ``size`` seats scored by the engine: ``(seated, line items within the limits,
    totals)``.

    ``push(player)`` says where the bonuses and maluses of each ``racing`` player go: "up" (the
    Direction fixes him a bonus beyond the cap), "down" (a malus beyond the floor) or ``None``
    (nothing, a bonus or malus of the catalogue, or any fixed points, drawn); only a seated
    player gets one (docs/regles.md §5.5)."""
    first = [player for player in racing if push(player) == "down"][:1]
    chosen = first + draw(st.lists(st.sampled_from(racing), unique=True, max_size=size - len(first)))
    chosen = list(dict.fromkeys(chosen))
    seated = tuple(chosen + [name for name in racing if name not in chosen][: size - len(chosen)])
    if draw(st.booleans()):
        deals = random_deals(rng, seated, draw(st.integers(0, 30)))
        result = score_round(seated, deals, rulebook)
        facts = round_facts(deals, result)
    else:  # a round whose deals were not kept: only its totals
        values = [draw(st.integers(-40, 40)) * 10 for _ in seated[1:]]
        totals = dict(zip(seated, [-sum(values), *values], strict=True))
        facts = RoundFacts(totals, None)
    items = round_line_items(facts, rulebook)
    codes = [entry.code for entry in rulebook.championship.catalogue]
    for player in seated:
        choice = push(player) or draw(st.sampled_from(["none", "none", "catalogue", "fixed"]))
        if choice == "catalogue":
            items.append(adjustment_item(player, draw(st.sampled_from(codes)), rulebook))
        elif choice != "none":
            fixed = {"up": 60, "down": -60}.get(choice) or draw(st.integers(-60, 60))
            code = "hote" if fixed > 0 else "ethique"
            items.append(adjustment_item(player, code, rulebook, fixed))
    return seated, items + round_limit_items(items, rulebook), facts.totals


def after_round(season, seated, points, totals):
    """A player's ``PlayerSeason`` once this round counts."""
    if season.player not in seated:
        return replace(season, points=season.points + points)
    rank = 1 + sum(1 for total in totals.values() if total > totals[season.player])
    return PlayerSeason(
        season.player,
        season.points + points,
        season.rounds + 1,
        season.wins + (rank == 1),
        season.seconds + (rank == 2),
        season.sum_totals + totals[season.player],
    )


@st.composite
def seasons_and_futures(draw):
    """A season today, what the statuses are told of its future, and one end it can reach.

    Returns ``(rulebook, current, coming, late, shown, final)``: ``coming`` and ``late`` as the
    outlook takes them (the rounds to come, each a table with the malus its report may reach, and
    what the missing reports may still add), computed from the report deadlines; ``shown`` the
    statuses the outlook gives today (`statuses`, computed once: the adversary below reads them);
    ``final`` the players' seasons at the end, after rounds scored by the engine and the reports
    filed or not."""
    rulebook = draw(rulebooks())
    rng = draw(st.randoms(use_true_random=False))
    end = TODAY + timedelta(days=draw(st.integers(0, 120)))
    days = rulebook.reports.deadline_days
    count = draw(st.integers(5, len(NAMES)))  # enough for a table of 5
    racing = NAMES[:count]
    current = [
        PlayerSeason(
            name,
            draw(st.integers(-20, 100)),
            draw(st.integers(0, 3) | st.just(3)),
            draw(st.integers(0, 2)),
            draw(st.integers(0, 2)),
            draw(st.integers(-3, 3)) * 100,
        )
        for name in racing
    ]
    # Missing reports of counted rounds (their malus, counted as of today, grows until filed),
    # then the rounds to come: entered but not homologated (dated up to two weeks ago), or on
    # the calendar (today or later); the malus of their report counts from their own deadline.
    missing = [
        (draw(st.sampled_from(racing)), TODAY + timedelta(days=draw(st.integers(-60, 6))))
        for _ in range(draw(st.integers(0, 3)))
    ]
    late = {}
    for author, deadline in missing:
        late[author] = late.get(author, 0) + report_risk(deadline, None, TODAY, end, rulebook)
    coming, dates = [], []
    for _ in range(draw(st.integers(0, 3))):
        size = draw(st.sampled_from([4, 5]))
        if draw(st.booleans()):
            played_on = TODAY - timedelta(days=draw(st.integers(0, 14)))
            malus = late_malus(played_on + timedelta(days=days), None, end, rulebook)
        else:
            played_on = TODAY + timedelta(days=draw(st.integers(0, (end - TODAY).days)))
            malus = late_malus(TODAY + timedelta(days=days), None, end, rulebook)
        coming.append(ComingRound(size, late=malus))
        dates.append(played_on)

    # Either every future is drawn, or, knowing the statuses shown today, an adversary pushes a
    # player with a status one way and everyone else the other: the ends that come closest to
    # contradicting that status, all of them reachable under the rules.
    shown = statuses(current, coming, late, rulebook)
    decided = [name for name in racing if shown[name] != IN_CONTENTION]
    victim = draw(st.sampled_from(decided or racing))
    mode = draw(st.sampled_from(["down", "up", None]))
    if mode is not None and victim in decided:
        mode = "down" if shown[victim] == QUALIFIED else "up"

    def push(player):
        if mode is None:
            return None
        return mode if player == victim else {"down": "up", "up": "down"}[mode]

    def filed(author, earliest):
        """Never, or on a day from ``earliest`` on (a report is never dated back)."""
        if push(author):
            return None if push(author) == "down" else earliest
        return draw(st.none() | st.integers(0, 140).map(lambda n: earliest + timedelta(days=n)))

    final = {season.player: season for season in current}

    def add(player, points):
        final[player] = replace(final[player], points=final[player].points + points)

    for author, deadline in missing:
        grown = late_malus(deadline, filed(author, TODAY), end, rulebook)
        add(author, grown - late_malus(deadline, None, TODAY, rulebook))
    for coming_round, played_on in zip(coming, dates, strict=True):
        seated, items, totals = draw(round_points(rulebook, rng, racing, push, coming_round.size))
        for name in racing:
            points = sum(item.points for item in items if item.player == name)
            final[name] = after_round(final[name], seated, points, totals)
        best = max(totals.values())
        winners = [name for name in seated if totals[name] == best]  # its report's author (§6.1)
        downs = [name for name in winners if push(name) == "down"]
        author = downs[0] if downs else draw(st.sampled_from(winners))
        deadline = played_on + timedelta(days=days)
        add(author, late_malus(deadline, filed(author, max(TODAY, played_on)), end, rulebook))
    return rulebook, current, coming, late, shown, list(final.values())


def statuses(current, coming, late, rulebook):
    """``{name: status}`` of the outlook's certain answer (docs/regles.md §6.4) for these seasons,
    rounds to come and late-report malus still to come."""
    keys = rulebook.championship.tiebreaks
    players = [
        Contender(
            season.player,
            season.points,
            season.rounds,
            late=late.get(season.player, 0),
            tiebreaks=tuple(TIEBREAKS[key](season) for key in keys),
        )
        for season in current
    ]
    found = prospects(players, coming, Rules.of(rulebook))
    return {name: prospect.certain.status for name, prospect in found.items()}


@settings(max_examples=150, deadline=None)
@given(seasons_and_futures())
def test_it_never_takes_back_a_status_whatever_the_engine_scores(case):
    rulebook, current, coming, late, shown, final = case
    ranked, _ = final_ranking(final, rulebook)
    top = {standing.player for standing in ranked[: rulebook.cup.playoff_players]}

    for player, status in shown.items():
        if status == QUALIFIED:
            assert player in top, (player, status, ranked)
        elif status == ELIMINATED:
            assert player not in top, (player, status, ranked)
    # Steer the search towards the ends that come closest to contradicting a status.
    target(-_closest_call(shown, ranked, rulebook.cup.playoff_players))


def _closest_call(statuses, ranked, places):
    """How many points, at the closest, a decided and ranked player ends from the other side of
    the cut (1000 when none is)."""
    points = {standing.player: standing.season.points for standing in ranked}
    margins = [1000]
    for player, status in statuses.items():
        others = sorted((p for name, p in points.items() if name != player), reverse=True)
        if status == IN_CONTENTION or player not in points or len(others) < places:
            continue
        line = others[places - 1]  # he is out once this many others reach him
        margins.append(points[player] - line if status == QUALIFIED else line - points[player])
    return min(margins)
