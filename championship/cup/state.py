"""The Coupe du Monde of a season read from the database (docs/regles.md §6).

The pure rules live in `scoring.cup`; this module feeds them with what is stored: the final
ranking of the regular season (`championship.standings.season`), the play-off rounds of tables A and B
and the final round (`Round.stage`), whose seat totals are stored when they are scored. Only
homologated play-off and final rounds count. Ties at a table or in the final are broken by the
better regular-season seed, i.e. the order of the final ranking.

`cup_state` gathers the whole cup in one object for the bracket page and the `cup` command;
`season_statuses` answers, during the season, who is qualified, eliminated or in contention for
the play-offs — decided only when it is mathematically certain (`championship.cup.outlook`, the
outlook of docs/regles.md §6.4: the rounds still to count, who may sit at each, the round limits
and what the late-report malus may still add by the season's end).

Every reason and warning is a `scoring.cup_reasons.Reason` (a code and its figures): the `cup`
command writes it in French (`scoring.cup_reasons.french`), a page in its visitor's language
(`championship.cup.labels`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from championship.lib import calendar
from championship.models import Round, Seat
from championship.standings.season import season_standings
from federation.models import Player
from scoring.cup import CupPlan, Qualification, champion, qualify_for_final, seed_cup
from scoring.cup_reasons import Reason
from scoring.ranking import name_key

NO_CUP, DIRECT_FINAL, PLAYOFFS = "none", "direct", "playoffs"

# Outcome of a player at a play-off table.
TO_FINAL, BEST_THIRD, OUT, PENDING = "final", "best_third", "out", "pending"


@dataclass(frozen=True)
class Seed:
    number: int  # 1-based
    player: Player
    row: object  # championship.standings.season.Row
    table: str  # "A", "B" or "" (direct final)


@dataclass(frozen=True)
class CupLine:
    """One player at a play-off table or in the final, in result order once there are results."""

    player: Player
    seed: int | None
    total: int | None
    position: int | None  # place at the table by total, ties broken by seed
    outcome: str  # TO_FINAL, BEST_THIRD, OUT, PENDING; for the final "champion" or ""
    reason: Reason | None


@dataclass(frozen=True)
class CupTable:
    name: str
    players: list  # Player, in seed order
    rounds: list  # every play-off Round of this table, by number
    counted: Round | None  # the homologated round whose totals count
    lines: list  # CupLine

    @property
    def shown_round(self):
        return self.counted or (self.rounds[-1] if self.rounds else None)


@dataclass
class CupState:
    season: object
    standings: object
    plan: CupPlan
    kind: str  # NO_CUP, DIRECT_FINAL or PLAYOFFS
    seeds: list  # Seed
    exclusions: list  # (Player or name, Reason) of the seeding
    tables: list  # CupTable
    playoff_totals: dict  # table -> {name: total} of the homologated play-off rounds
    qualification: Qualification
    best_thirds: list  # (table, CupLine) of the thirds sent to the final
    finalists: list  # Player, seed order; empty until the play-offs are complete
    final_rounds: list  # every final Round, by number
    final: Round | None  # the homologated final (the last one if several)
    final_lines: list  # CupLine
    champion: Player | None
    warnings: list = field(default_factory=list)  # Reason
    players: dict = field(default_factory=dict)  # name -> Player

    @property
    def shown_final(self):
        return self.final or (self.final_rounds[-1] if self.final_rounds else None)

    @property
    def exclusion_reasons(self):
        """Every player left out of the final so far, with the reason: seeding then play-offs."""
        return [(self.players.get(name, name), reason) for name, reason in self.qualification.reasons.items()]

    def seed_of(self, player):
        return next((seed.number for seed in self.seeds if seed.player.pk == player.pk), None)

    @property
    def provisional(self):
        """Regular rounds remain (on the calendar or not homologated): the seeds may still change.
        Read when asked: the champion of a season (every season of a list) needs no calendar."""
        return self.standings.unhomologated > 0 or scheduled_rounds(self.season) > 0


def _latest_homologated(rounds):
    counted = [round_ for round_ in rounds if round_.status == Round.HOMOLOGATED]
    return counted[-1] if counted else None


def _totals(round_):
    if round_ is None:
        return {}
    return {seat.player.name: seat.total for seat in round_.seats.all() if seat.total is not None}


def cup_rounds_of(seasons):
    """`{season id: [play-off and final rounds, seats prefetched]}` of several seasons, in two
    queries whatever their number."""
    rounds = {season.pk: [] for season in seasons}
    for round_ in (
        Round.objects.filter(season__in=list(rounds))
        .exclude(stage=Round.REGULAR)
        .prefetch_related(_seats_prefetch())
        .order_by("stage", "table", "number")
    ):
        rounds[round_.season_id].append(round_)
    return rounds


def cup_state(season, standings=None, cup_rounds=None):
    """The whole cup of a season: seeds, play-off tables, qualification, final and champion;
    `cup_rounds`, the season's play-off and final rounds when the caller read them already
    (`cup_rounds_of`)."""
    standings = standings or season_standings(season)
    rulebook = season.rulebook
    players = dict(standings.by_name)
    ranked = [row.standing for row in standings.ranked]
    unranked = [row.season for row in standings.unranked]
    plan = seed_cup(ranked, rulebook, unranked)
    rows = {row.player.name: row for row in standings.ranked}
    table_of = {name: table for table, names in plan.tables.items() for name in names}
    seeds = [
        Seed(index, players[name], rows[name], table_of.get(name, ""))
        for index, name in enumerate(plan.seeds, start=1)
    ]
    seed_number = {seed.player.name: seed.number for seed in seeds}
    if not plan.seeds:
        kind = NO_CUP
    elif plan.tables:
        kind = PLAYOFFS
    else:
        kind = DIRECT_FINAL

    if cup_rounds is None:
        cup_rounds = cup_rounds_of([season])[season.pk]
    for round_ in cup_rounds:
        for seat in round_.seats.all():
            players.setdefault(seat.player.name, seat.player)
    warnings = []
    playoff_rounds = [r for r in cup_rounds if r.stage == Round.PLAYOFF]
    final_rounds = [r for r in cup_rounds if r.stage == Round.FINAL]
    if playoff_rounds and not plan.tables:
        warnings.append(Reason("playoffs_without_plan"))

    playoff_totals, counted_by_table = _playoff_results(plan, playoff_rounds, warnings)

    qualification = qualify_for_final(plan, playoff_totals, rulebook)
    finalists = [players[name] for name in qualification.finalists]
    tables, best_thirds = _tables(plan, counted_by_table, playoff_totals, qualification, players, rulebook)

    final = _latest_homologated(final_rounds)
    if len([r for r in final_rounds if r.status == Round.HOMOLOGATED]) > 1:
        warnings.append(Reason("several_finals", {"number": final.number}))
    final_totals = _totals(final)
    if final_totals and qualification.complete and set(final_totals) != set(qualification.finalists):
        warnings.append(
            Reason(
                "wrong_finalists",
                {"players": _names(final_totals), "expected": _names(qualification.finalists)},
            )
        )
    # The regular season's order breaks ties: ranked players, then the others.
    order = [row.player.name for row in standings.ranked] + [row.player.name for row in standings.unranked]
    order += sorted((name for name in final_totals if name not in order), key=name_key)
    winner = champion(order, final_totals)
    champion_player = players[winner] if winner else None
    final_lines = _final_lines(final, finalists, final_totals, seed_number, order, players, winner)

    return CupState(
        season=season,
        standings=standings,
        plan=plan,
        kind=kind,
        seeds=seeds,
        exclusions=[(players.get(name, name), reason) for name, reason in plan.exclusions],
        tables=tables,
        playoff_totals=playoff_totals,
        qualification=qualification,
        best_thirds=best_thirds,
        finalists=finalists,
        final_rounds=final_rounds,
        final=final,
        final_lines=final_lines,
        champion=champion_player,
        warnings=warnings,
        players=players,
    )


def _playoff_results(plan, playoff_rounds, warnings):
    """``({table: totals}, {table: (its rounds, the round counted or None)})`` of the play-off
    tables: the latest homologated round of each, when it seats the table's players; what
    does not fit is added to `warnings`."""
    playoff_totals = {}
    counted_by_table = {}
    for table, names in plan.tables.items():
        rounds = [r for r in playoff_rounds if r.table == table]
        counted = _latest_homologated(rounds)
        if len([r for r in rounds if r.status == Round.HOMOLOGATED]) > 1:
            warnings.append(Reason("several_playoff_rounds", {"table": table, "number": counted.number}))
        totals = _totals(counted)
        if totals and set(totals) != set(names):
            warnings.append(
                Reason(
                    "wrong_playoff_players",
                    {"table": table, "players": _names(totals), "expected": _names(names)},
                )
            )
            totals = {}
        counted_by_table[table] = (rounds, counted if totals else None)
        if totals:
            playoff_totals[table] = totals
    return playoff_totals, counted_by_table


def _seats_prefetch():
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))


def _names(names):
    return tuple(sorted(names, key=name_key))


def _tables(plan, counted_by_table, playoff_totals, qualification, players, rulebook):
    seed_index = {name: index for index, name in enumerate(plan.seeds)}
    finalists = set(qualification.finalists)
    qualifiers = rulebook.cup.qualifiers_per_table
    tables, best_thirds = [], []
    for table, names in plan.tables.items():
        rounds, counted = counted_by_table[table]
        totals = playoff_totals.get(table, {})
        order = list(names)
        if totals:
            order.sort(key=lambda n, t=totals: (-t[n], seed_index[n]))
        lines = []
        for position, name in enumerate(order, start=1):
            if not qualification.complete:
                outcome, reason = PENDING, None
            elif name in finalists and position <= qualifiers:
                outcome, reason = TO_FINAL, Reason("table_qualifier", {"position": position, "table": table})
            elif name in finalists:
                outcome = BEST_THIRD
                reason = Reason("best_third", {"position": position, "total": totals[name]})
            else:
                outcome, reason = OUT, qualification.reasons.get(name)
            line = CupLine(
                players[name],
                seed_index[name] + 1,
                totals.get(name),
                position if totals else None,
                outcome,
                reason,
            )
            lines.append(line)
            if outcome == BEST_THIRD:
                best_thirds.append((table, line))
        tables.append(CupTable(table, [players[n] for n in names], rounds, counted, lines))
    return tables, best_thirds


def _final_lines(final, finalists, totals, seed_number, order, players, winner):
    if final is not None and totals:
        rank = {name: index for index, name in enumerate(order)}
        names = sorted(totals, key=lambda n: (-totals[n], rank[n]))
        return [
            CupLine(
                players[name],
                seed_number.get(name),
                totals[name],
                position,
                "champion" if name == winner else "",
                _final_reason(name, names, totals, seed_number) if name == winner else None,
            )
            for position, name in enumerate(names, start=1)
        ]
    return [CupLine(player, seed_number.get(player.name), None, None, "", None) for player in finalists]


def _final_reason(name, names, totals, seed_number):
    tied = tuple(other for other in names if other != name and totals[other] == totals[name])
    return Reason(
        "final_winner",
        {
            "total": totals[name],
            "tied": tied,
            "seed": str(seed_number.get(name, "—")),
            "tied_seeds": tuple(str(seed_number.get(other, "—")) for other in tied),
        },
    )


def cup_json(season, state=None):
    """The stable JSON of `python manage.py cup SEASON --format json` (docs/feuille.md)."""
    state = state or cup_state(season)
    return {
        "seeds": list(state.plan.seeds),
        "tables": {table: list(names) for table, names in state.plan.tables.items()},
        "finalists": list(state.qualification.finalists),
        "champion": state.champion.name if state.champion else None,
    }


# --- during the season ---------------------------------------------------------------------------


def scheduled_rounds(season):
    """Regular rounds still on the calendar (`championship.lib.calendar.coming_rounds`: its nights
    to come without their round; a season without any night keeps `Season.remaining_rounds`)."""
    return len(calendar.coming_rounds(season))
