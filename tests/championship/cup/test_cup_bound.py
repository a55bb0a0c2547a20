"""The bound of the play-off statuses in the database: the round limits applied when a round is
stored (and shown where they cut), the late-report malus still to come, and what the status page
and the `cup` command say the statuses rest on."""

import datetime
import io
import json
from decimal import Decimal

from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from championship.cup.outlook import season_outlook, season_statuses, status_rows
from championship.models import ChampionshipLine, Report, Round
from championship.services import update_season_rulebook
from championship.standings.season import season_standings
from federation.models import Player, Season
from scoring.outlook.season import ELIMINATED, IN_CONTENTION, QUALIFIED
from tests.championship.cup.cup_helpers import play_totals, round_limits
from tests.factories import make_round

SEATS = ["Chloé", "P1", "P2", "P3", "P4"]
# Worth 16 points to Chloé by the default rules: rank 10, big win 1, a Garde sans made 1, a chelem
# 2, two prestige contracts failed while she defends 1 + 1.
SIXTEEN_POINT_DEALS = [
    dict(
        dealer="Chloé", taker="Chloé", contract="garde_sans", called="coeur", partner="P1", bouts=2, points=60
    ),
    dict(
        dealer="P1",
        taker="Chloé",
        contract="garde",
        called="coeur",
        partner="P2",
        bouts=3,
        points=Decimal(91),
        chelem_made_by="attack",
    ),
    dict(dealer="P2", taker="P3", contract="garde_contre", called="coeur", partner="P4", bouts=1, points=30),
    dict(dealer="P3", taker="P4", contract="garde_sans", called="coeur", partner="P3", bouts=1, points=30),
]


def lines_of(round_, name):
    return [
        (line.code, line.points)
        for line in ChampionshipLine.objects.filter(round=round_, player__name=name).order_by("order")
    ]


def run_cup(*args):
    out = io.StringIO()
    call_command("cup", *args, stdout=out)
    return out.getvalue()


def with_rulebook(season, old, new):
    update_season_rulebook(season, season.rulebook_text.replace(old, new), reason="nouveau plafond")


# --- the round limits, applied by the scoring ------------------------------------------------------


def test_it_keeps_a_sixteen_point_round_whole_under_the_default_rules(season):
    round_ = make_round(season, SEATS, SIXTEEN_POINT_DEALS, status=Round.HOMOLOGATED)

    assert lines_of(round_, "Chloé") == [
        ("rank", 10),
        ("big_win", 1),
        ("prestige", 1),
        ("chelem", 2),
        ("wall", 1),
        ("wall", 1),
    ]


def test_it_brings_a_round_back_to_the_season_cap_and_says_so(client, season):
    round_limits(season, cap=12, floor=-5)
    round_ = make_round(
        season,
        SEATS,
        SIXTEEN_POINT_DEALS,
        status=Round.HOMOLOGATED,
        adjustments=[("P4", "ethique", -9, "récidive")],  # P4: 3 points for his place, −9
    )

    assert lines_of(round_, "Chloé")[-1] == ("round_cap", -4)
    assert sum(points for _, points in lines_of(round_, "Chloé")) == 12
    assert lines_of(round_, "P4")[-2:] == [("ethique", -9), ("round_floor", 1)]
    assert sum(points for _, points in lines_of(round_, "P4")) == -5
    chloe = Player.objects.get(name="Chloé")
    html = client.get(reverse("championship:player_season", args=[season.name, chloe.pk])).content.decode()
    assert (
        "Plafond de la manche : 16 points ramenés à 12 (au plus +12 points par manche selon le "
        "règlement de la saison)"
    ) in html
    out = io.StringIO()
    call_command("export_round", season.name, str(round_.number), stdout=out)
    exported = json.loads(out.getvalue())["results"]["championship"]
    assert exported["Chloé"][-1] == {"code": "round_cap", "points": -4}
    assert exported["P4"][-1] == {"code": "round_floor", "points": 1}


def test_it_applies_a_new_cap_to_the_rounds_already_homologated(season):
    round_ = make_round(season, SEATS, SIXTEEN_POINT_DEALS, status=Round.HOMOLOGATED)

    round_limits(season, cap=15)

    assert lines_of(round_, "Chloé")[-1] == ("round_cap", -1)
    points = {row.player.name: row.points for row in season_standings(season, round_.date).unranked}
    assert points["Chloé"] == 15


# --- what the statuses rest on -----------------------------------------------------------------------


def test_it_calls_no_one_qualified_whom_a_sixteen_point_round_can_catch(season):
    # One place, one round left. Léo leads Chloé by 22 points: under the +15 / −6 once assumed he
    # was qualified, yet the round that follows gives her 16 while he, absent, gets −6.
    with_rulebook(season, "playoff_players = 10", "playoff_players = 1")
    seated = ["Chloé", "Léo", "P1", "P2", "P3"]
    for bonus in (17, 17, 0):
        adjustments = [("Léo", "hote", bonus, "")] if bonus else []
        play_totals(season, seated, [300, 0, -100, -100, -100], adjustments=adjustments)
    season.remaining_rounds = 1
    season.save()
    points = {row.player.name: row.points for row in season_standings(season).ranked}
    assert (points["Léo"], points["Chloé"]) == (55, 33)

    before = {player.name: status for player, status in season_statuses(season).items()}

    last = make_round(
        season,
        SEATS,
        SIXTEEN_POINT_DEALS,
        status=Round.HOMOLOGATED,
        date=datetime.date(2010, 12, 1),
        adjustments=[("Léo", "retard", -1, ""), ("Léo", "absence", -2, ""), ("Léo", "ethique", -3, "")],
    )
    Report.objects.create(round=last, author=Player.objects.get(name="Chloé"), filed_on=last.date)
    season.remaining_rounds = 0
    season.save()
    after = {player.name: status for player, status in season_statuses(season).items()}
    points = {row.player.name: row.points for row in season_standings(season).ranked}

    assert (points["Léo"], points["Chloé"]) == (49, 49)  # Chloé first on round wins
    assert (after["Chloé"].code, after["Léo"].code) == (QUALIFIED, ELIMINATED)
    assert (before["Léo"].code, before["Chloé"].code) == (IN_CONTENTION, IN_CONTENTION)


def late_season(today, remaining=0):
    """A season under way, ending 60 days after ``today``, with one place in the play-offs: Alice
    (38 points) won the last round, three weeks ago, and has not filed its report (2 weeks late,
    11 by the season's end); Bruno has 34."""
    season = Season.objects.create(
        name="2099-2100",
        start_date=today - datetime.timedelta(days=200),
        end_date=today + datetime.timedelta(days=60),
        remaining_rounds=remaining,
    )
    with_rulebook(season, "playoff_players = 10", "playoff_players = 1")
    seated = ["Alice", "Bruno", "Chloé", "David"]
    for days in (100, 90, 80):
        play_totals(season, seated, [150, 50, -50, -150], date=today - datetime.timedelta(days=days))
    make_round(
        season,
        seated,
        totals=dict(zip(seated, [150, 50, -50, -150], strict=True)),
        status=Round.HOMOLOGATED,
        date=today - datetime.timedelta(days=21),
        adjustments=[("Bruno", "hote", 10, "")],
    )
    return season


def test_it_leaves_in_contention_a_leader_whose_missing_report_may_still_cost_him(db):
    season = late_season(timezone.localdate())
    standings = season_standings(season)
    points = {row.player.name: row.points for row in standings.ranked}
    assert (points["Alice"], points["Bruno"]) == (38, 34)

    outlook = season_outlook(season, standings)
    statuses = {row.player.name: row.status for row in status_rows(season, standings, outlook)}

    assert (outlook.rounds, outlook.late) == (0, {"Alice": -9})
    assert statuses["Alice"].code == IN_CONTENTION  # she may fall to 29
    certain = statuses["Alice"].prospect.certain
    assert (certain.best, certain.worst) == (1, 2)
    table = statuses["Alice"].prospect.table  # rank points only: the malus to come counts as zero
    assert (table.best, table.worst) == (1, 1)
    assert statuses["Bruno"].code == IN_CONTENTION
    assert statuses["Chloé"].code == ELIMINATED
    assert statuses["Chloé"].prospect.certain.best == 3


def test_it_qualifies_a_leader_whom_no_malus_to_come_can_catch(db):
    season = late_season(timezone.localdate())
    Report.objects.create(
        round=season.rounds.order_by("-date").first(),
        author=Player.objects.get(name="Alice"),
        filed_on=timezone.localdate(),
    )

    statuses = {player.name: status for player, status in season_statuses(season).items()}

    assert statuses["Alice"].code == QUALIFIED
    assert (statuses["Alice"].prospect.certain.best, statuses["Alice"].prospect.certain.worst) == (1, 1)


def test_it_says_which_bound_the_statuses_rest_on(client, db):
    season = late_season(timezone.localdate(), remaining=2)

    html = client.get(reverse("championship:cup_status", args=[season.name])).content.decode()
    text = run_cup(season.name, "--format", "text")

    assert "une manche donne à un joueur au plus +30 et au moins −30 points" in html
    # A round played a week from now at the earliest: its report 8 started weeks late at most,
    # on its winner, who writes it.
    assert "jusqu'à −8 au vainqueur de chacune des manches restantes" in html
    assert "Alice −9" in html
    assert "Qualification pour les play-offs, selon cette borne : au plus +30 points par manche" in text
    assert "jusqu'à −8 pour le vainqueur de chaque manche restante, Alice −9" in text
    assert "  Alice : en course, entre la 1re et la 4e place quoi qu'il arrive" in text


def test_it_keeps_the_cup_json_free_of_the_statuses(db):
    season = late_season(timezone.localdate(), remaining=2)

    assert list(json.loads(run_cup(season.name))) == ["seeds", "tables", "finalists", "champion"]


def test_it_states_no_bound_once_nothing_can_change(season):
    play_totals(season, ["Alice", "Bruno", "Chloé", "David"])

    assert "Qualification pour les play-offs" not in run_cup(season.name, "--format", "text")
    assert {s.code for s in season_statuses(season).values()} <= {QUALIFIED, ELIMINATED}
