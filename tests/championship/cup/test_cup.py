"""The Coupe du Monde read from the database: seeding, play-offs, final, champion, statuses during
the season, the `cup` command and the demo cup."""

import datetime
import io
import json
import random
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from championship.cup.outlook import remaining_rounds, season_statuses
from championship.cup.state import cup_json, cup_state
from championship.demo.cup import play_demo_cup, random_deal_specs
from championship.models import Round
from championship.services import create_round, homologate_round
from championship.standings.season import season_standings
from federation.models import Player
from scoring.cup_reasons import french
from scoring.deal import DealInput, Poignee
from scoring.outlook.season import ELIMINATED, IN_CONTENTION, QUALIFIED
from scoring.round import score_round
from scoring.rulebook import load_default_rulebook
from tests.championship.cup.cup_helpers import (
    leaders_and_trailers,
    names,
    play_final,
    play_table,
    play_totals,
    ranked_season,
    seed_names,
)

# --- seeding ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "tables", "direct_final", "left_out"),
    [
        (4, {}, names(1, 2, 3, 4), []),
        (5, {}, names(1, 2, 3, 4, 5), []),
        (9, {}, names(1, 2, 3, 4, 5), names(6, 7, 8, 9)),
        (10, {"A": names(1, 4, 5, 8, 9), "B": names(2, 3, 6, 7, 10)}, [], []),
        (12, {"A": names(1, 4, 5, 8, 9), "B": names(2, 3, 6, 7, 10)}, [], names(11, 12)),
    ],
)
def test_it_seeds_the_cup_from_the_final_ranking(season, count, tables, direct_final, left_out):
    ranked_season(season, count)

    state = cup_state(season)

    seeds = direct_final or names(*range(1, 11))
    assert [seed.player.name for seed in state.seeds] == seeds
    assert [seed.number for seed in state.seeds] == list(range(1, len(seeds) + 1))
    assert {table: list(players) for table, players in state.plan.tables.items()} == tables
    assert [table.name for table in state.tables] == list(tables)
    assert [[player.name for player in table.players] for table in state.tables] == list(tables.values())
    assert list(state.plan.direct_final) == direct_final
    assert [str(player) for player, _reason in state.exclusions] == left_out
    assert state.kind == ("playoffs" if tables else "direct")


def test_it_explains_why_a_player_is_not_seeded(season):
    ranked_season(season, 12)
    play_totals(season, ["U1", "U2", "U3", "U4"])

    reasons = dict((str(player), french(reason)) for player, reason in cup_state(season).exclusions)

    assert reasons["S11"] == "11e du classement final : hors des 10 qualifiés pour les play-offs"
    assert reasons["U1"] == "hors classement : moins de 3 manches (1 manche jouée)"


def test_it_has_no_cup_with_fewer_than_four_ranked_players(season):
    ranked_season(season, 3)

    state = cup_state(season)

    assert state.kind == "none"
    assert state.seeds == []
    assert cup_json(season) == {"seeds": [], "tables": {}, "finalists": [], "champion": None}
    reasons = dict((str(player), french(reason)) for player, reason in state.exclusions)
    assert reasons["S01"] == "pas de Coupe du Monde : 3 joueurs classés, il en faut au moins 4"


def test_it_sends_the_top_five_to_a_direct_final_with_fewer_than_ten_ranked(season):
    ranked_season(season, 9)

    state = cup_state(season)

    assert state.tables == []
    assert state.qualification.complete
    assert [player.name for player in state.finalists] == names(1, 2, 3, 4, 5)
    assert cup_json(season)["finalists"] == names(1, 2, 3, 4, 5)
    assert cup_json(season)["tables"] == {}

    play_final(season, {"S04": 300, "S01": 100, "S02": 0, "S03": -100, "S05": -300})

    assert cup_state(season).champion.name == "S04"


# --- play-offs and final -------------------------------------------------------------------------

TABLE_A = {"S01": 200, "S04": 50, "S05": 50, "S08": -100, "S09": -200}
TABLE_B = {"S02": 300, "S03": 100, "S06": 50, "S07": -150, "S10": -300}


def test_it_qualifies_two_per_table_and_the_best_third_breaking_ties_by_seed(season):
    ranked_season(season, 10)
    play_table(season, "A", TABLE_A)
    play_table(season, "B", TABLE_B)

    state = cup_state(season)

    assert state.qualification.complete
    # S04 and S05 tie at 50 at table A: S04, the better seed, is second; S05 is third.
    # S05 and S06, the thirds, tie at 50: S05, the better seed, is the best third.
    assert [player.name for player in state.finalists] == names(1, 2, 3, 4, 5)
    assert [(table, line.player.name) for table, line in state.best_thirds] == [("A", "S05")]
    table_a = state.tables[0]
    assert [line.player.name for line in table_a.lines] == names(1, 4, 5, 8, 9)
    assert [line.outcome for line in table_a.lines] == ["final", "final", "best_third", "out", "out"]
    reasons = dict((str(player), french(reason)) for player, reason in state.exclusion_reasons)
    assert set(reasons) == set(names(6, 7, 8, 9, 10))
    assert reasons["S06"] == (
        "3e de la table B (total 50) : derrière S05, 3e de la table A (total 50, "
        "égalité départagée par la tête de série (5 contre 6))"
    )
    assert reasons["S08"].startswith("4e de la table A (total −100) : seuls les 2 premiers")
    assert cup_json(season)["finalists"] == names(1, 2, 3, 4, 5)


def test_it_breaks_a_tie_at_the_cut_of_a_table_by_seed(season):
    ranked_season(season, 10)
    play_table(season, "A", {"S01": 100, "S04": 100, "S05": 100, "S08": -100, "S09": -200})
    play_table(season, "B", {"S02": 300, "S03": 100, "S06": 150, "S07": -250, "S10": -300})

    state = cup_state(season)

    # Three tied at 100 at table A: seeds 1 and 4 go through, S05 is third. B's third is S03 (100),
    # tied with S05: S03, the better seed, is the best third.
    assert [line.player.name for line in state.tables[0].lines[:3]] == names(1, 4, 5)
    assert [player.name for player in state.finalists] == names(1, 2, 3, 4, 6)
    reasons = dict((str(player), french(reason)) for player, reason in state.exclusion_reasons)
    assert "derrière S03, 3e de la table" in reasons["S05"]


def test_it_waits_for_every_table_to_be_homologated(season):
    ranked_season(season, 10)
    play_table(season, "A", TABLE_A)
    draft = play_table(season, "B", TABLE_B, status=Round.DRAFT)

    state = cup_state(season)

    assert not state.qualification.complete
    assert state.finalists == []
    assert cup_json(season)["finalists"] == []
    assert [line.outcome for line in state.tables[1].lines] == ["pending"] * 5
    assert state.tables[1].shown_round == draft
    assert state.tables[1].counted is None

    homologate_round(draft)

    assert cup_json(season)["finalists"] == names(1, 2, 3, 4, 5)


def test_it_crowns_the_better_seed_when_the_final_is_tied(season):
    ranked_season(season, 10)
    play_table(season, "A", TABLE_A)
    play_table(season, "B", TABLE_B)
    final = play_final(
        season, {"S03": 200, "S02": 200, "S01": -100, "S04": -100, "S05": -200}, status=Round.SUBMITTED
    )

    assert cup_state(season).champion is None
    assert cup_json(season)["champion"] is None

    homologate_round(final)
    state = cup_state(season)

    assert state.champion.name == "S02"
    assert [line.player.name for line in state.final_lines] == names(2, 3, 1, 4, 5)
    assert state.final_lines[0].outcome == "champion"
    assert "départagée par la tête de série, 2 contre 3" in french(state.final_lines[0].reason)
    assert cup_json(season)["champion"] == "S02"


def test_it_warns_when_a_play_off_table_does_not_seat_the_seeds(season):
    ranked_season(season, 10)
    play_table(season, "A", {"S01": 200, "S04": 50, "S05": 50, "S08": -100, "S10": -200})
    play_table(season, "B", TABLE_B)

    state = cup_state(season)

    assert not state.qualification.complete
    assert any("table A" in warning and "ne compte pas" in warning for warning in map(french, state.warnings))


# --- statuses during the season ------------------------------------------------------------------


def statuses_by_name(season):
    return {player.name: status for player, status in season_statuses(season).items()}


def test_it_tells_who_is_qualified_or_eliminated_for_certain(season, member):
    # 90 points or more against −60 or less: far more apart than one round can change (+30 / −30).
    leaders_and_trailers(season, 10, 1)
    Player.objects.create(name="Ancien", active=False)
    season.remaining_rounds = 1
    season.save()

    statuses = statuses_by_name(season)

    assert {name for name, s in statuses.items() if s.code == QUALIFIED} == set(names(*range(1, 11)))
    assert statuses["S11"].code == ELIMINATED
    assert statuses["S11"].prospect.certain.best == 11  # at best 11th, one place beyond the 10
    assert statuses["S01"].prospect.certain.worst <= 10
    # An active player without a round is listed and cannot reach 3 rounds; the inactive one is not.
    assert statuses["Membre"].code == ELIMINATED
    assert statuses["Membre"].prospect.certain.best is None  # never ranked
    assert "Ancien" not in statuses


def test_it_leaves_everyone_in_contention_while_many_rounds_remain(season, member):
    ranked_season(season, 11)
    season.remaining_rounds = 200
    season.save()

    statuses = statuses_by_name(season)

    assert {status.code for status in statuses.values()} == {IN_CONTENTION}
    assert statuses["Membre"].prospect.certain.best == 1  # 0 rounds played, every place still open


def test_it_counts_the_rounds_not_homologated_yet_as_remaining(season):
    leaders_and_trailers(season, 10, 1)
    play_totals(season, names(1, 2, 3, 11), status=Round.SUBMITTED)

    standings = season_standings(season)

    assert remaining_rounds(season, standings) == 1
    statuses = statuses_by_name(season)
    assert statuses["S11"].code == ELIMINATED  # 10 ranked players stay too far ahead
    # the round entered is still to count: S11 sits at it, and may still win it
    assert statuses["S11"].prospect.need.most == 10


def test_a_draft_counts_as_remaining_too_though_it_does_not_await_homologation(season):
    """A draft is no round awaiting homologation (the standings page does not count it as one),
    but it may still change the ranking: the statuses count it among the rounds left."""
    leaders_and_trailers(season, 10, 1)
    play_totals(season, names(1, 2, 3, 11), status=Round.SUBMITTED)
    play_totals(season, names(4, 5, 6, 11), status=Round.DRAFT)

    standings = season_standings(season)

    assert (standings.awaiting, standings.drafts) == (1, 1)
    assert remaining_rounds(season, standings) == 2


def test_it_follows_the_final_ranking_once_the_regular_season_is_over(season):
    ranked_season(season, 11)

    statuses = statuses_by_name(season)

    assert statuses["S10"].code == QUALIFIED
    assert (statuses["S10"].prospect.certain.best, statuses["S10"].prospect.certain.worst) == (10, 10)
    assert statuses["S11"].code == ELIMINATED
    assert (statuses["S11"].prospect.certain.best, statuses["S11"].prospect.certain.worst) == (11, 11)


# --- the cup command -----------------------------------------------------------------------------


def run_cup(*args):
    out = io.StringIO()
    call_command("cup", *args, stdout=out)
    return out.getvalue()


def test_it_prints_the_cup_as_json_exactly_as_documented(season):
    ranked_season(season, 10)
    play_table(season, "A", TABLE_A)
    play_table(season, "B", TABLE_B)
    play_final(season, {"S03": 200, "S02": 200, "S01": -100, "S04": -100, "S05": -200})

    data = json.loads(run_cup(season.name, "--format", "json"))

    assert list(data) == ["seeds", "tables", "finalists", "champion"]
    assert data == {
        "seeds": names(*range(1, 11)),
        "tables": {"A": names(1, 4, 5, 8, 9), "B": names(2, 3, 6, 7, 10)},
        "finalists": names(1, 2, 3, 4, 5),
        "champion": "S02",
    }
    assert all(isinstance(name, str) for name in data["seeds"] + data["finalists"])


def test_it_prints_an_empty_cup_and_a_readable_summary(season):
    ranked_season(season, 3)

    assert json.loads(run_cup(season.name)) == {"seeds": [], "tables": {}, "finalists": [], "champion": None}
    assert "Pas de Coupe du Monde" in run_cup(season.name, "--format", "text")


def test_it_refuses_an_unknown_season(db):
    with pytest.raises(CommandError, match="Saison inconnue"):
        run_cup("1999-2000")


# --- the demo cup and its deal generator ---------------------------------------------------------


def as_input(spec):
    spec = dict(spec)
    spec["poignees"] = tuple(Poignee(player, size) for player, size in spec.get("poignees", ()))
    spec["miseres"] = tuple(spec.get("miseres", ()))
    return DealInput(**spec)


@pytest.mark.parametrize("seated", [seed_names(5), seed_names(4)])
@pytest.mark.parametrize("seed", range(20))
def test_it_generates_deals_the_engine_accepts(seated, seed):
    rng = random.Random(seed)
    specs = random_deal_specs(seated, rng, 40)

    result = score_round(seated, [as_input(spec) for spec in specs], load_default_rulebook())

    assert len(result.deals) == 40
    assert result.warnings == ()  # the dealer rotation is respected
    assert sum(result.totals.values()) == 0
    assert all((spec.get("points", Decimal(0)) * 2) % 1 == 0 for spec in specs)


def test_it_plays_a_whole_demo_cup_to_a_champion(season):
    rng = random.Random(3)
    players = [Player.objects.create(name=name) for name in seed_names(11)]
    for number in range(1, 8):
        seated = [players[(5 * number + k) % 11] for k in range(5)]
        round_ = create_round(
            season,
            seated,
            random_deal_specs(seated, rng, 12),
            number=number,
            date=datetime.date(2010, 10, number),
            place="Chez Steph",
        )
        homologate_round(round_)

    state = play_demo_cup(season, rng)

    assert state.champion is not None
    assert len(state.finalists) == 5
    assert state.champion in state.finalists
    cup_rounds = season.rounds.exclude(stage=Round.REGULAR)
    assert sorted((r.stage, r.table, r.status) for r in cup_rounds) == [
        ("final", "", "homologated"),
        ("playoff", "A", "homologated"),
        ("playoff", "B", "homologated"),
    ]
    assert all(r.date > datetime.date(2010, 10, 7) for r in cup_rounds)

    again = play_demo_cup(season, random.Random(99))

    assert season.rounds.exclude(stage=Round.REGULAR).count() == 3
    assert again.champion == state.champion
