"""The Coupe du Monde of a season read from the database (docs/regles.md §6).

The pure rules live in `scoring.cup`; this module feeds them with what is stored: the final
ranking of the regular season (`championship.standings`), the play-off rounds of tables A and B
and the final round (`Round.stage`), whose seat totals are stored when they are scored. Only
homologated play-off and final rounds count. Ties at a table or in the final are broken by the
better regular-season seed, i.e. the order of the final ranking.

`cup_state` gathers the whole cup in one object for the bracket page and the `cup` command;
`season_statuses` answers, during the season, who is qualified, eliminated or in contention for
the play-offs — decided only when it is mathematically certain (`scoring.cup.playoff_status`),
on the bound that `season_outlook` reads from the season: its round limits, the rounds still to
count and what the late-report malus may still add by the season's end.

Every reason and warning is a `scoring.cup_reasons.Reason` (a code and its figures): the `cup`
command writes it in French (`scoring.cup_reasons.french`), a page in its visitor's language
(`championship.cup_labels`).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Prefetch

from championship.lateness import report_deadline, season_author
from championship.models import Report, Round, Seat
from championship.standings import season_standings
from federation.models import Player
from gamenights.schedule import remaining_regular_rounds
from scoring.cup import (
    CupPlan,
    Qualification,
    Status,
    champion,
    late_malus,
    playoff_status,
    qualify_for_final,
    report_risk,
    round_bounds,
    seed_cup,
)
from scoring.cup_reasons import Reason
from scoring.french import num
from scoring.ranking import PlayerSeason, name_key

NO_CUP, DIRECT_FINAL, PLAYOFFS = "none", "direct", "playoffs"

# Outcome of a player at a play-off table.
TO_FINAL, BEST_THIRD, OUT, PENDING = "final", "best_third", "out", "pending"


@dataclass(frozen=True)
class Seed:
    number: int  # 1-based
    player: Player
    row: object  # championship.standings.Row
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


@dataclass(frozen=True)
class StatusRow:
    player: Player
    season: PlayerSeason
    row: object | None  # standings Row when ranked
    status: Status


def scheduled_rounds(season):
    """Regular rounds still on the calendar: its nights to come without their round
    (`gamenights.schedule`; a season without any night keeps `Season.remaining_rounds`)."""
    return remaining_regular_rounds(season)


def remaining_rounds(season, standings):
    """Regular rounds that may still change the ranking: those still on the calendar
    (`scheduled_rounds`) plus those entered but not homologated yet."""
    return scheduled_rounds(season) + standings.unhomologated


def status_players(season, standings):
    """A `PlayerSeason` for every player who may still play a regular round of the season.

    The players of the counted rounds (ranked or not), then, with 0 rounds, the active players
    and those seated in a regular round not homologated yet.
    """
    current = [row.standing.season for row in standings.ranked] + [row.season for row in standings.unranked]
    by_name = dict(standings.by_name)
    others = {p.name: p for p in Player.objects.filter(active=True).exclude(name__in=by_name)}
    pending = Seat.objects.filter(round__season=season, round__stage=Round.REGULAR).exclude(
        round__status=Round.HOMOLOGATED
    )
    for seat in pending.select_related("player"):
        if seat.player.name not in by_name:
            others.setdefault(seat.player.name, seat.player)
    for name in sorted(others, key=name_key):
        current.append(PlayerSeason(name, 0, 0, 0, 0, 0))
        by_name[name] = others[name]
    return current, by_name


@dataclass(frozen=True)
class Outlook:
    """What may still change the season points until the season's end: the bound the statuses
    rest on (`scoring.cup.playoff_status`)."""

    as_of: datetime.date  # the standings' date: today, or the season's end once it is over
    end: datetime.date  # the season's end: the late-report malus is counted up to it
    scheduled: int  # regular rounds still on the calendar, played from `as_of` on
    pending: int  # regular rounds entered but not homologated yet
    loss: int  # the least one round can give a player (≤ 0): the rulebook's floor
    gain: int  # the most one round can give a player (≥ 0): the rulebook's cap
    round_late: tuple  # for each round still to count, the malus its report may reach (≤ 0)
    late: dict  # player name -> what his missing reports may still add to his malus (≤ 0)
    per_week: int  # the late-report malus per started week (≤ 0)

    @property
    def rounds(self):
        return self.scheduled + self.pending

    @property
    def coming_late(self):
        """The most a report of a round still to count may cost its author (≤ 0)."""
        return min(self.round_late, default=0)

    @property
    def late_by_player(self):
        """``[(name, malus)]`` of the missing reports' authors, by name."""
        return sorted(self.late.items(), key=lambda item: name_key(item[0]))

    @property
    def bound(self):
        """The bound in French, as the page and the `cup` command state it."""
        if self.rounds:
            text = (
                f"au plus +{self.gain} points par manche selon le règlement de la saison, "
                f"au moins {num(self.loss)}"
            )
        else:
            text = "plus aucune manche régulière : le classement final"
        late = []
        if self.coming_late:
            late.append(f"jusqu'à {num(self.coming_late)} pour l'auteur de chaque manche restante")
        late += [f"{name} {num(points)}" for name, points in self.late_by_player]
        if late:
            text += (
                f" ; en plus, le malus de compte-rendu en retard à venir d'ici la fin de la saison "
                f"({self.end:%d/%m/%Y}) : {', '.join(late)}"
            )
        return text


def cup_champion(season, standings=None, cup_rounds=None):
    """The Champion du Monde of the season (see `cup_state`), or None."""
    return cup_state(season, standings, cup_rounds).champion


def season_outlook(season, standings):
    """The `Outlook` of a season as of its standings' date (see `scoring.cup.round_bounds`).

    The late-report malus: each counted round's report, missing (or filed after that date),
    may still grow until the season's end, for its author (the Report's, else the round
    winner, as the standings count it); each round entered but not homologated may reach, by
    the season's end, the malus of its own deadline; each round on the calendar is taken as
    played on that date at the earliest.
    """
    rulebook = season.rulebook
    as_of, end = standings.as_of, season.end_date
    data = standings.data
    late = {}
    for round_ in data.rounds:
        author, filed = season_author(data, round_)
        if author is None:
            continue
        risk = report_risk(report_deadline(round_, rulebook), filed, as_of, end, rulebook)
        if risk:
            name = data.players[author].name
            late[name] = late.get(name, 0) + risk
    round_late = []
    if standings.unhomologated:
        pending = season.rounds.filter(stage=Round.REGULAR).exclude(status=Round.HOMOLOGATED)
        for round_ in pending.select_related("report"):
            try:
                filed = round_.report.filed_on
            except Report.DoesNotExist:
                filed = None
            round_late.append(late_malus(report_deadline(round_, rulebook), filed, end, rulebook))
    earliest = as_of + datetime.timedelta(days=rulebook.reports.deadline_days)
    scheduled = scheduled_rounds(season)
    round_late += [late_malus(earliest, None, end, rulebook)] * scheduled
    loss, gain = round_bounds(rulebook)
    return Outlook(
        as_of=as_of,
        end=end,
        scheduled=scheduled,
        pending=standings.unhomologated,
        loss=loss,
        gain=gain,
        round_late=tuple(round_late),
        late=late,
        per_week=rulebook.reports.late_malus_per_week,
    )


def season_statuses(season, standings=None):
    """`{Player: Status}` for the play-offs, in ranking order (ranked, unranked, then 0 rounds)."""
    return {row.player: row.status for row in status_rows(season, standings)}


def status_rows(season, standings=None, outlook=None):
    standings = standings or season_standings(season)
    outlook = outlook or season_outlook(season, standings)
    current, by_name = status_players(season, standings)
    statuses = playoff_status(
        current, outlook.rounds, season.rulebook, round_late=outlook.round_late, late=outlook.late
    )
    rows = {row.player.name: row for row in standings.ranked}
    return [
        StatusRow(by_name[entry.player], entry, rows.get(entry.player), statuses[entry.player])
        for entry in current
    ]


def status_assumption(season, standings, outlook=None):
    """The documented assumption of the statuses, with this season's figures (the rounds left as
    `Reason`s: ``rounds_scheduled``, then ``rounds_pending`` if any)."""
    rulebook = season.rulebook
    outlook = outlook or season_outlook(season, standings)
    parts = [Reason("rounds_scheduled", {"count": outlook.scheduled})]
    if outlook.pending:
        parts.append(Reason("rounds_pending", {"count": outlook.pending}))
    return {
        "left": outlook.rounds,
        "parts": parts,
        "places": rulebook.cup.playoff_players,
        "minimum_rounds": rulebook.championship.minimum_rounds,
        "high": outlook.gain,
        "low": outlook.loss,
        "end": outlook.end,
        "per_week": outlook.per_week,
        "coming_late": outlook.coming_late,
        "late": outlook.late_by_player,
        "bound": outlook.bound,
    }
