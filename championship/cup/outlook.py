"""The play-off outlook of a season still running: each player's status (qualified, in the race,
out) and the assumption it rests on."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from championship.cup.state import cup_state, scheduled_rounds
from championship.lib.summaries import cached
from championship.models import Report, Round, Seat
from championship.standings.lateness import default_as_of, report_deadline, season_author
from championship.standings.season import season_standings
from federation.models import Player
from scoring.cup_reasons import Reason
from scoring.french import num
from scoring.playoff_race import Status, late_malus, playoff_race, report_risk, round_bounds
from scoring.ranking import PlayerSeason, name_key


@dataclass(frozen=True)
class StatusRow:
    player: Player
    season: PlayerSeason
    row: object | None  # standings Row when ranked
    status: Status


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
    rest on (`scoring.playoff_race.playoff_status`)."""

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
            text = "plus aucune manche régulière : le classement final"
        late = []
        if self.coming_late:
            late.append(f"jusqu'à {num(self.coming_late)} pour l'auteur de chaque manche restante")
        late += [f"{name} {num(points)}" for name, points in self.late_by_player]
        if late:
            text += (
                f" ; en plus, le malus de compte-rendu en retard à venir d'ici la fin de la saison "
                f"({self.end:%d/%m/%Y}) : {', '.join(late)}"
            )
        return text


def cup_champion(season, standings=None, cup_rounds=None):
    """The Champion du Monde of the season (see `cup_state`), or None."""
    return cup_state(season, standings, cup_rounds).champion


def season_outlook(season, standings):
    """The `Outlook` of a season as of its standings' date (see `scoring.playoff_race.round_bounds`).

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
    """`[StatusRow]` of every player who may still play, in ranking order (`season_race`)."""
    return season_race(season, standings, outlook).rows


@dataclass(frozen=True)
class Race:
    """The qualification page of a season as of a date, computed once per state of the season."""

    outlook: Outlook
    rows: list  # StatusRow of every player who may still play, in ranking order
    needs: list  # (Player, scoring.needs.Need) of the same players, in the same order


def season_race(season, standings=None, outlook=None):
    """The play-off statuses and what each player needs (one `scoring.needs` pass for both,
    `scoring.playoff_race.playoff_race`), cached under the season's token and the standings'
    date (`default_as_of` when `standings` is not given: a warm read loads no standings)."""
    as_of = standings.as_of if standings is not None else default_as_of(season)
    return cached("cup:race", season, as_of, lambda: _race(season, standings, outlook))


def _race(season, standings, outlook):
    standings = standings or season_standings(season)
    outlook = outlook or season_outlook(season, standings)
    current, by_name = status_players(season, standings)
    statuses, needs = playoff_race(
        current, outlook.rounds, season.rulebook, round_late=outlook.round_late, late=outlook.late
    )
    rows = {row.player.name: row for row in standings.ranked}
    return Race(
        outlook,
        [
            StatusRow(by_name[entry.player], entry, rows.get(entry.player), statuses[entry.player])
            for entry in current
        ],
        [(by_name[entry.player], needs[entry.player]) for entry in current],
    )


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
