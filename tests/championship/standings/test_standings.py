"""Season standings from stored data: every bonus and malus, ties, late reports, awards, the
rulebook change, the cup's champion and the `standings` command."""

import csv
import datetime
import io
import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from championship.cup.outlook import cup_champion
from championship.models import Adjustment, ChampionshipLine, Report, Round
from championship.services import homologate_round, rescore_round, update_season_rulebook
from championship.standings.lateness import report_author
from championship.standings.players import player_season_detail
from championship.standings.season import season_standings
from scoring.rulebook import RulebookError
from tests.factories import make_round

ROUND_DATE = datetime.date(2010, 11, 19)
BEFORE_ANY_DEADLINE = datetime.date(2010, 11, 20)
FILLERS = ["Xavier", "Yann", "Zoé"]


def play(
    season, totals, *, date=ROUND_DATE, deals=None, adjustments=(), stage=Round.REGULAR, homologate=True
):
    """A homologated round: `totals` {name: total} (seat order) for a totals-only round, or the
    seat names with `deals` (dicts as in tests.factories)."""
    names = list(totals)
    if deals is None:
        round_ = make_round(
            season, names, totals=dict(totals), date=date, stage=stage, adjustments=adjustments
        )
    else:
        round_ = make_round(season, names, deals, date=date, stage=stage, adjustments=adjustments)
    if homologate:
        homologate_round(round_)
    return round_


def table(order, totals=(200, 100, 0, -100, -200)):
    """Totals by finishing order: `table(["Paul", "Quentin"])` puts Paul first, Quentin second,
    then the fillers."""
    names = list(order) + [name for name in FILLERS + ["Walter"] if name not in order][: 5 - len(order)]
    return dict(zip(names, totals, strict=True))


def lines_of(round_, name):
    return [
        (line.code, line.points)
        for line in ChampionshipLine.objects.filter(round=round_, player__name=name).order_by("order")
    ]


def points(standings):
    rows = standings.ranked + standings.unranked
    return {row.player.name: row.points for row in rows}


def command_json(*args):
    out = io.StringIO()
    call_command("standings", *args, "--format", "json", stdout=out)
    return json.loads(out.getvalue())


# --- the docs/feuille.md example -------------------------------------------------------------------


def test_it_gives_the_standings_json_of_the_sheet_format_example(season):
    round_ = make_round(season, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")])
    homologate_round(round_)
    Report.objects.create(
        round=round_,
        author=round_.seats.get(player__name="Bruno").player,
        filed_on=datetime.date(2010, 11, 24),
    )
    assert command_json("2010-2011", "--as-of", "2011-06-30") == {
        "season": "2010-2011",
        "ranking": [],
        "unranked": [
            {"player": "Bruno", "points": 11, "rounds": 1},
            {"player": "David", "points": 8, "rounds": 1},
            {"player": "Chloé", "points": 6, "rounds": 1},
            {"player": "Émile", "points": 3, "rounds": 1},
            {"player": "Alice", "points": 1, "rounds": 1},
        ],
        "awards": [
            {"code": "record", "players": ["Bruno"], "value": 380},
            {"code": "wooden_spoon", "players": [], "value": None},
            {"code": "best_taker", "players": [], "value": None},
            {"code": "wall", "players": ["Bruno", "Chloé", "David", "Émile"], "value": 1},
            {"code": "most_rounds", "players": ["Alice", "Bruno", "Chloé", "David", "Émile"], "value": 1},
            {"code": "most_chelems", "players": [], "value": None},
        ],
    }


def test_it_ranks_the_example_once_three_rounds_are_played(season):
    for day in (19, 20, 21):
        round_ = make_round(season, date=datetime.date(2010, 11, day))
        homologate_round(round_)
    data = command_json("2010-2011", "--as-of", "2010-11-20")
    assert [(r["rank"], r["player"], r["points"]) for r in data["ranking"]] == [
        (1, "Bruno", 33),
        (2, "David", 24),
        (3, "Chloé", 18),
        (4, "Émile", 12),
        (5, "Alice", 3),
    ]
    bruno = data["ranking"][0]
    assert bruno == {
        "rank": 1,
        "player": "Bruno",
        "points": 33,
        "rounds": 3,
        "wins": 3,
        "seconds": 0,
        "sum_totals": 1140,
    }
    assert all(type(value) is int for row in data["ranking"] for key, value in row.items() if key != "player")
    assert data["unranked"] == []
    assert {"code": "wooden_spoon", "players": ["Alice"], "value": 3} in data["awards"]


# --- each bonus and malus, through the database --------------------------------------------------


@pytest.mark.parametrize(("second", "big_win"), [(50, True), (51, False)])
def test_it_gives_the_big_win_bonus_from_a_lead_of_exactly_250(season, second, big_win):
    totals = {"Alice": 300, "Bruno": second, "Chloé": 0, "David": -100, "Émile": 0}
    totals["Émile"] = -sum(totals.values())
    round_ = play(season, totals)
    expected = [("rank", 10), ("big_win", 1)] if big_win else [("rank", 10)]
    assert lines_of(round_, "Alice") == expected
    expected = 11 if big_win else 10
    assert points(season_standings(season, BEFORE_ANY_DEADLINE))["Alice"] == expected


def test_it_gives_no_big_win_to_a_shared_first_place(season):
    round_ = play(season, {"Alice": 400, "Bruno": 400, "Chloé": -200, "David": -300, "Émile": -300})
    assert lines_of(round_, "Alice") == [("rank", 10)]
    assert lines_of(round_, "Bruno") == [("rank", 10)]
    assert lines_of(round_, "Chloé") == [("rank", 5)]
    assert lines_of(round_, "David") == [("rank", 3), ("close_loss", 1)]
    assert lines_of(round_, "Émile") == [("rank", 3), ("close_loss", 1)]


@pytest.mark.parametrize(("gap", "close_loss"), [(100, True), (101, False)])
def test_it_gives_the_close_loss_bonus_within_exactly_100(season, gap, close_loss):
    totals = {"Alice": 250, "Bruno": 150, "Chloé": 0, "David": -200, "Émile": -200 - gap}
    totals["Alice"] -= sum(totals.values())
    round_ = play(season, totals)
    expected = [("rank", 1), ("close_loss", 1)] if close_loss else [("rank", 1)]
    assert lines_of(round_, "Émile") == expected
    assert points(season_standings(season, BEFORE_ANY_DEADLINE))["Émile"] == len(expected)


PRESTIGE_AND_CHELEM = [
    dict(
        dealer="Alice",
        taker="Bruno",
        contract="garde_sans",
        called="coeur",
        partner="David",
        bouts=2,
        points=Decimal(50),
    ),
    dict(
        dealer="Bruno",
        taker="Chloé",
        contract="garde",
        called="pique",
        partner="Émile",
        bouts=3,
        points=Decimal(91),
        chelem_made_by="attack",
    ),
    dict(
        dealer="Chloé",
        taker="Alice",
        contract="garde_contre",
        called="trefle",
        partner="Bruno",
        bouts=1,
        points=Decimal(40),
    ),
]


def test_it_gives_prestige_chelem_and_wall_bonuses_from_the_deals(season):
    names = ["Alice", "Bruno", "Chloé", "David", "Émile"]
    round_ = play(season, dict.fromkeys(names), deals=PRESTIGE_AND_CHELEM)
    assert ("prestige", 1) in lines_of(round_, "Bruno")
    assert ("chelem", 2) in lines_of(round_, "Chloé")
    assert ("prestige", 1) not in lines_of(round_, "Chloé")
    # Alice's Garde contre fails: each defender (not her partner Bruno) builds the wall.
    for name in ("Chloé", "David", "Émile"):
        assert ("wall", 1) in lines_of(round_, name)
    assert ("wall", 1) not in lines_of(round_, "Bruno")
    assert ("wall", 1) not in lines_of(round_, "Alice")
    line = ChampionshipLine.objects.get(round=round_, code="chelem")
    assert line.deal_number == 2
    standings = season_standings(season, BEFORE_ANY_DEADLINE)
    stored = {name: sum(p for _c, p in lines_of(round_, name)) for name in names}
    assert points(standings) == stored


def test_it_counts_catalogue_adjustments(season):
    totals = table(["Alice", "Bruno", "Chloé", "David", "Émile"])
    round_ = play(
        season, totals, adjustments=[("Chloé", "hote", 1, ""), ("David", "biere_renversee", -1, "")]
    )
    assert lines_of(round_, "Chloé") == [("rank", 5), ("hote", 1)]
    assert points(season_standings(season, BEFORE_ANY_DEADLINE))["David"] == 3 - 1


def test_it_gives_a_totals_only_round_no_deal_based_bonus_nor_statistics(season):
    round_ = play(season, {"Alice": 500, "Bruno": 100, "Chloé": 0, "David": -280, "Émile": -320})
    codes = set(ChampionshipLine.objects.filter(round=round_).values_list("code", flat=True))
    assert codes == {"rank", "big_win", "close_loss"}
    awards = {a.code: a for a in season_standings(season, BEFORE_ANY_DEADLINE).awards}
    assert awards["record"].players == ("Alice",) and awards["record"].value == 500
    assert awards["wall"].players == () and awards["wall"].value is None
    assert awards["most_chelems"].value is None


def test_it_counts_only_homologated_regular_rounds(season):
    play(season, table(["Alice"]))
    play(season, table(["Bruno"]), homologate=False)
    submitted = table(["Chloé"])
    make_round(season, list(submitted), totals=submitted, status=Round.SUBMITTED)
    play(season, table(["David"]), stage=Round.FINAL)
    standings = season_standings(season, BEFORE_ANY_DEADLINE)
    assert standings.awaiting == 1  # submitted: awaiting homologation
    assert standings.drafts == 1  # still being entered: not awaiting anything yet
    assert standings.unhomologated == 2  # both may still change the ranking
    assert len(standings.rounds) == 1
    assert points(standings)["Alice"] == 10
    assert "David" not in points(standings)


# --- ties in a round and in the final ranking ---------------------------------------------------


def test_it_shares_the_better_rank_in_a_round_and_counts_a_win_for_each(season):
    for day in (19, 20, 21):
        play(
            season,
            {"Alice": 300, "Bruno": 300, "Chloé": -100, "David": -200, "Émile": -300},
            date=datetime.date(2010, 11, day),
        )
    standings = season_standings(season, BEFORE_ANY_DEADLINE)
    alice, bruno = standings.ranked[0], standings.ranked[1]
    assert (
        alice.player.name,
        alice.rank,
        alice.tied,
        alice.points,
        alice.standing.season.wins,
        alice.standing.season.seconds,
    ) == (
        "Alice",
        1,
        True,
        30,
        3,
        0,
    )
    assert (bruno.player.name, bruno.rank, bruno.tied) == ("Bruno", 1, True)
    assert [row.rank for row in standings.ranked] == [1, 1, 3, 4, 5]
    label = ChampionshipLine.objects.filter(player__name="Bruno", code="rank").first().label
    assert "1re place ex æquo" in label


def tiebreak_rounds(season, level):
    """Rounds where Paul and Quentin end level on points; Paul wins on `level`."""
    if level == "wins":
        rounds = [
            play(season, table(["Paul", "Quentin"]), date=ROUND_DATE + datetime.timedelta(days=d))
            for d in (0, 1)
        ]
        rounds.append(play(season, table(["Quentin", "Paul"]), date=ROUND_DATE + datetime.timedelta(days=2)))
        equalize = ("Quentin", 3)
    elif level == "seconds":
        rounds = [
            play(season, table(["Xavier", "Paul", "Quentin"]), date=ROUND_DATE + datetime.timedelta(days=d))
            for d in (0, 1)
        ]
        rounds.append(
            play(season, table(["Xavier", "Quentin", "Paul"]), date=ROUND_DATE + datetime.timedelta(days=2))
        )
        equalize = ("Quentin", 2)
    elif level == "sum_totals":
        rounds = [
            play(season, table(["Paul", "Xavier", "Quentin"], (300, 100, 0, -150, -250)), date=ROUND_DATE),
            play(season, table(["Quentin", "Xavier", "Paul"]), date=ROUND_DATE + datetime.timedelta(days=1)),
            play(
                season,
                table(["Xavier", "Yann", "Paul", "Quentin"], (300, 100, 0, -100, -300)),
                date=ROUND_DATE + datetime.timedelta(days=2),
            ),
        ]
        equalize = ("Quentin", 2)
    else:  # fewer_rounds, or "shared" when Quentin plays no fourth round
        rounds = [
            play(season, table(["Paul", "Quentin"]), date=ROUND_DATE),
            play(season, table(["Quentin", "Paul"]), date=ROUND_DATE + datetime.timedelta(days=1)),
            play(
                season,
                table(["Xavier", "Yann", "Paul", "Quentin"], (200, 100, 0, 0, -300)),
                date=ROUND_DATE + datetime.timedelta(days=2),
            ),
        ]
        equalize = None
        if level == "fewer_rounds":
            rounds.append(
                play(
                    season,
                    table(["Xavier", "Yann", "Quentin", "Walter"], (200, 100, 0, -100, -200)),
                    date=ROUND_DATE + datetime.timedelta(days=3),
                )
            )
            equalize = ("Paul", 5)
    if equalize:
        name, amount = equalize
        last = next(r for r in reversed(rounds) if r.seats.filter(player__name=name).exists())
        Adjustment.objects.create(
            round=last, player=last.seats.get(player__name=name).player, code="hote", points=amount
        )
        rescore_round(last)


@pytest.mark.parametrize("level", ["wins", "seconds", "sum_totals", "fewer_rounds"])
def test_it_breaks_a_tie_on_points_at_every_level(season, level):
    tiebreak_rounds(season, level)
    standings = season_standings(season, BEFORE_ANY_DEADLINE)
    rows = {row.player.name: row for row in standings.ranked}
    paul, quentin = rows["Paul"], rows["Quentin"]
    assert paul.points == quentin.points
    assert quentin.rank == paul.rank + 1
    assert not paul.tied and not quentin.tied
    assert quentin.standing.decided_by == level


def test_it_shares_the_rank_when_every_tie_break_is_level(season):
    tiebreak_rounds(season, "shared")
    standings = season_standings(season, BEFORE_ANY_DEADLINE)
    rows = {row.player.name: row for row in standings.ranked}
    paul, quentin = rows["Paul"], rows["Quentin"]
    assert (
        paul.points,
        paul.rounds,
        paul.standing.season.wins,
        paul.standing.season.seconds,
        paul.standing.season.sum_totals,
    ) == (22, 3, 1, 1, 300)
    assert (
        quentin.points,
        quentin.rounds,
        quentin.standing.season.wins,
        quentin.standing.season.seconds,
        quentin.standing.season.sum_totals,
    ) == (
        22,
        3,
        1,
        1,
        300,
    )
    assert paul.rank == quentin.rank and paul.tied and quentin.tied
    names = [row.player.name for row in standings.ranked]
    assert names.index("Paul") < names.index("Quentin")


def test_it_lists_players_below_the_minimum_of_rounds_apart(season):
    for day in (19, 20):
        play(season, table(["Alice", "Bruno", "Chloé", "David", "Émile"]), date=datetime.date(2010, 11, day))
    play(season, table(["Fanny", "Bruno", "Chloé", "David", "Émile"]), date=datetime.date(2010, 11, 21))
    standings = season_standings(season, BEFORE_ANY_DEADLINE)
    assert [row.player.name for row in standings.ranked] == ["Bruno", "Chloé", "David", "Émile"]
    assert [(row.player.name, row.points, row.rounds) for row in standings.unranked] == [
        ("Alice", 20, 2),
        ("Fanny", 10, 1),
    ]


# --- the late-report malus -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filed", "as_of", "malus"),
    [
        (datetime.date(2010, 11, 26), None, None),  # on the deadline day
        (datetime.date(2010, 11, 29), None, -1),  # 3 days late
        (datetime.date(2010, 12, 3), None, -1),  # 7 days late
        (datetime.date(2010, 12, 4), None, -2),  # 8 days late
        (None, datetime.date(2010, 11, 26), None),  # missing, deadline not passed
        (None, datetime.date(2010, 11, 27), -1),  # missing, 1 day after the deadline
        (None, datetime.date(2010, 12, 11), -3),  # missing, 15 days after the deadline
        (datetime.date(2010, 12, 20), datetime.date(2010, 11, 30), -1),  # filed after the date asked
    ],
)
def test_it_computes_the_late_report_malus_as_of_a_date(season, filed, as_of, malus):
    round_ = play(season, table(["Alice", "Bruno"]))
    Report.objects.create(round=round_, author=round_.seats.get(player__name="Bruno").player, filed_on=filed)
    standings = season_standings(season, as_of or datetime.date(2011, 6, 30))
    late = [(m.player.name, m.item.code, m.item.points) for m in standings.late]
    assert late == ([("Bruno", "late_report", malus)] if malus else [])
    assert points(standings)["Bruno"] == 7 + (malus or 0)
    assert not ChampionshipLine.objects.filter(code="late_report").exists()


def test_it_charges_a_missing_report_to_the_round_winner(season):
    play(season, table(["Alice", "Bruno"]))
    standings = season_standings(season, datetime.date(2010, 12, 4))
    assert [(m.player.name, m.weeks, m.item.points) for m in standings.late] == [("Alice", 2, -2)]
    assert points(standings)["Alice"] == 10 - 2


def test_it_names_the_author_of_a_shared_first_place_by_takes_then_seat(season):
    by_seat = play(season, {"Alice": 100, "Bruno": 300, "Chloé": 300, "David": -300, "Émile": -400})
    assert report_author(by_seat).name == "Bruno"
    tied_deals = [
        dict(
            dealer="Alice",
            taker="Alice",
            contract="garde",
            called="coeur",
            partner=None,
            bouts=2,
            points=Decimal(35),
        ),
        dict(
            dealer="Bruno",
            taker="Chloé",
            contract="garde",
            called="coeur",
            partner="Bruno",
            bouts=2,
            points=Decimal(49),
        ),
        dict(
            dealer="Chloé",
            taker="Alice",
            contract="garde",
            called="coeur",
            partner="Bruno",
            bouts=2,
            points=Decimal(49),
        ),
    ]
    by_takes = play(
        season,
        dict.fromkeys(["Alice", "Bruno", "Chloé", "David", "Émile"]),
        deals=tied_deals,
        date=ROUND_DATE,
    )
    firsts = set(by_takes.seats.filter(rank=1).values_list("player__name", flat=True))
    assert firsts == {"Bruno", "Chloé"}
    assert report_author(by_takes).name == "Chloé"
    Report.objects.create(round=by_takes, author=by_takes.seats.get(player__name="David").player)
    assert report_author(by_takes).name == "David"


# --- awards ---------------------------------------------------------------------------------------


def test_it_gives_awards_with_ties_and_leaves_them_unawarded_when_nobody_is_eligible(season):
    rulebook = season.rulebook_text.replace("best_taker_min_takes = 10", "best_taker_min_takes = 2")
    update_season_rulebook(season, rulebook, reason="meilleur preneur dès 2 prises")
    names = ["Alice", "Bruno", "Chloé", "David", "Émile"]
    for day in (19, 20, 21):
        play(season, dict.fromkeys(names), deals=PRESTIGE_AND_CHELEM, date=datetime.date(2010, 11, day))
    awards = {a.code: a for a in season_standings(season, BEFORE_ANY_DEADLINE).awards}
    # Bruno and Chloé each made 3 contracts out of 3 takes; Alice failed all of hers.
    assert (awards["best_taker"].players, awards["best_taker"].value) == (("Bruno", "Chloé"), 3)
    assert (awards["most_chelems"].players, awards["most_chelems"].value) == (("Chloé",), 3)
    assert (awards["wall"].players, awards["wall"].value) == (("Chloé", "David", "Émile"), 3)
    assert awards["most_rounds"].players == tuple(sorted(names)) and awards["most_rounds"].value == 3
    assert awards["wooden_spoon"].value is not None


def test_it_leaves_best_taker_unawarded_below_the_minimum_of_takes(season):
    names = ["Alice", "Bruno", "Chloé", "David", "Émile"]
    play(season, dict.fromkeys(names), deals=PRESTIGE_AND_CHELEM)
    awards = {a.code: a for a in season_standings(season, BEFORE_ANY_DEADLINE).awards}
    assert awards["best_taker"].players == () and awards["best_taker"].value is None
    assert awards["wooden_spoon"].players == ()


# --- the rulebook change --------------------------------------------------------------------------


def test_it_recomputes_lines_and_standings_when_the_rulebook_changes(season):
    for day in (19, 20, 21):
        play(season, table(["Alice", "Bruno", "Chloé", "David", "Émile"]), date=datetime.date(2010, 11, day))
    before = points(season_standings(season, BEFORE_ANY_DEADLINE))
    assert before == {"Alice": 30, "Bruno": 21, "Chloé": 15, "David": 9, "Émile": 6}
    text = season.rulebook_text.replace("5 = [10, 7, 5, 3, 1]", "5 = [12, 8, 5, 2, 0]")
    update_season_rulebook(season, text, reason="barème 2011")
    season.refresh_from_db()
    assert season.rulebook.championship.rank_points[5] == [12, 8, 5, 2, 0]
    assert set(
        ChampionshipLine.objects.filter(player__name="Alice", code="rank").values_list("points", flat=True)
    ) == {12}
    after = points(season_standings(season, BEFORE_ANY_DEADLINE))
    assert after == {"Alice": 36, "Bruno": 24, "Chloé": 15, "David": 6, "Émile": 3}
    assert season.history.first().history_change_reason == "barème 2011"


def test_it_refuses_a_bad_rulebook_naming_the_field_and_saves_nothing(season):
    play(season, table(["Alice"]))
    original = season.rulebook_text
    lines = list(ChampionshipLine.objects.values_list("pk", "points"))
    bad = original.replace("5 = [10, 7, 5, 3, 1]", "5 = [10, 10, 5, 3, 1]")
    with pytest.raises(RulebookError) as error:
        update_season_rulebook(season, bad)
    assert str(error.value).startswith("championship.rank_points.5 :")
    season.refresh_from_db()
    assert season.rulebook_text == original
    assert list(ChampionshipLine.objects.values_list("pk", "points")) == lines


# --- the cup's champion ----------------------------------------------------------------------------


def test_it_has_no_cup_champion_before_a_homologated_final(season):
    play(season, table(["Alice"]))
    play(season, table(["Bruno"]), stage=Round.FINAL, homologate=False)
    assert cup_champion(season) is None


def test_it_names_the_cup_champion_breaking_a_final_tie_by_seed(season):
    for day in (19, 20, 21):
        play(season, table(["Alice", "Bruno", "Chloé", "David", "Émile"]), date=datetime.date(2010, 11, day))
    play(season, {"Émile": 300, "Bruno": 300, "Chloé": 0, "David": -300, "Alice": -300}, stage=Round.FINAL)
    assert cup_champion(season).name == "Bruno"
    Round.objects.filter(stage=Round.FINAL).delete()
    play(season, {"Émile": 310, "Bruno": 290, "Chloé": 0, "David": -300, "Alice": -300}, stage=Round.FINAL)
    assert cup_champion(season).name == "Émile"


# --- one player's season explained ---------------------------------------------------------------


def test_it_explains_a_players_season_up_to_the_standings_figure(season):
    first = make_round(season, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")])
    homologate_round(first)
    play(season, table(["Émile", "Alice"]), date=datetime.date(2010, 11, 26))
    as_of = datetime.date(2010, 12, 4)
    detail = player_season_detail(season, first.seats.get(player__name="Émile").player, as_of)
    assert [block.subtotal for block in detail.rounds] == [3, 10 - 1]
    codes = [[line["code"] for line in block.lines] for block in detail.rounds]
    assert codes == [["rank", "wall", "retard"], ["rank", "late_report"]]
    assert detail.total == points(season_standings(season, as_of))["Émile"] == 12


def test_it_reads_a_season_in_five_queries_whatever_its_size(season, django_assert_num_queries):
    for day in range(6):
        play(
            season,
            dict.fromkeys(["Alice", "Bruno", "Chloé", "David", "Émile"]),
            deals=PRESTIGE_AND_CHELEM,
            date=ROUND_DATE + datetime.timedelta(days=day),
        )
    season = type(season).objects.get(pk=season.pk)
    with django_assert_num_queries(1 + 5):  # the figures' token, then the season in five queries
        standings = season_standings(season, BEFORE_ANY_DEADLINE)
    assert len(standings.rounds) == 6 and len(standings.ranked) == 5


# --- the command ----------------------------------------------------------------------------------


def test_it_prints_the_standings_as_csv(season):
    for day in (19, 20, 21, 22):
        play(season, table(["Alice", "Bruno", "Chloé", "David", "Émile"]), date=datetime.date(2010, 11, day))
    out = io.StringIO()
    call_command("standings", "2010-2011", "--format", "csv", "--as-of", "2010-11-20", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == [
        "Rang",
        "Ex æquo",
        "Joueur",
        "Points",
        "Manches",
        "Victoires",
        "2es places",
        "Somme des totaux",
        "Évolution",
    ]
    # the trend « = » alone would start a formula in a spreadsheet: escaped
    assert rows[1] == ["1", "", "Alice", "40", "4", "4", "0", "800", "'="]
    assert rows[5] == ["5", "", "Émile", "8", "4", "0", "0", "-800", "'="]


def test_it_takes_the_columns_from_the_seasons_tiebreaks(season):
    """The table and its CSV show the season's tie-breaks, in its rulebook's order; the JSON keeps
    its documented keys whatever the season uses (a script reads every season alike)."""
    text = season.rulebook_text.replace(
        'tiebreaks = ["wins", "seconds", "sum_totals", "fewer_rounds"]',
        'tiebreaks = ["sum_totals", "fewer_rounds", "wins"]',
    )
    assert text != season.rulebook_text
    update_season_rulebook(season, text, reason="départages 2011")
    for day in (19, 20, 21, 22):
        play(season, table(["Alice", "Bruno", "Chloé", "David", "Émile"]), date=datetime.date(2010, 11, day))
    out = io.StringIO()
    call_command("standings", "2010-2011", "--format", "csv", "--as-of", "2010-11-20", stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    header = ["Rang", "Ex æquo", "Joueur", "Points", "Manches", "Somme des totaux", "Victoires", "Évolution"]
    assert rows[0] == header
    assert rows[1] == ["1", "", "Alice", "40", "4", "800", "4", "'="]
    ranking = command_json("2010-2011", "--as-of", "2010-11-20")["ranking"]
    assert list(ranking[0]) == ["rank", "player", "points", "rounds", "wins", "seconds", "sum_totals"]
    emile = {"rank": 5, "player": "Émile", "points": 8, "rounds": 4}
    emile |= {"wins": 0, "seconds": 0, "sum_totals": -800}
    assert ranking[4] == emile


def test_it_refuses_an_unknown_season_or_a_bad_date(season):
    with pytest.raises(CommandError, match="Saison inconnue"):
        call_command("standings", "1999-2000", "--format", "json")
    with pytest.raises(CommandError, match="--as-of"):
        call_command("standings", "2010-2011", "--format", "json", "--as-of", "19/11/2010")


def test_it_shows_each_players_trend_since_the_previous_round(season):
    for day in (19, 20, 21):
        play(season, table(["Alice", "Bruno", "Chloé", "David", "Émile"]), date=datetime.date(2010, 11, day))
    standings = season_standings(season, BEFORE_ANY_DEADLINE)
    assert {row.trend.label for row in standings.ranked} == {"nouveau"}
    play(season, table(["Émile", "David", "Chloé", "Bruno", "Alice"]), date=datetime.date(2010, 11, 22))
    standings = season_standings(season, BEFORE_ANY_DEADLINE)
    trends = [(row.player.name, row.points, row.trend.label) for row in standings.ranked]
    assert trends == [
        ("Alice", 32, "="),
        ("Bruno", 24, "="),
        ("Chloé", 20, "="),
        ("Émile", 16, "▲1"),
        ("David", 16, "▼1"),
    ]
    assert standings.ranked[4].standing.decided_by == "wins"
