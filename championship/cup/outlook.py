"""The play-off outlook of a season still running (docs/regles.md §6.4): where each player can
still finish, certainly and at the table's play, what he needs, and the assumption it rests on.

What is stored is read here — the standings, the reports' authors and dates, the rounds entered
but not homologated with their seats, the calendar's coming rounds with who may sit
(`championship.lib.calendar`) — and handed as plain data to the exact solver
(`scoring.outlook.season.prospects`), once per state of the season (`season_race`)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace

from django.conf import settings

from championship.cup.state import cup_state
from championship.lib import calendar
from championship.lib.summaries import cached
from championship.models import Report, Round, Seat
from championship.standings.lateness import default_as_of, report_deadline, season_author
from championship.standings.season import season_standings
from federation.models import Player
from scoring.cup_reasons import Reason
from scoring.french import num
from scoring.outlook.season import ComingRound, Contender, Prospect, Rules, prospects
from scoring.playoff_race import late_malus, report_risk, round_bounds
from scoring.ranking import TIEBREAKS, PlayerSeason, name_key
from scoring.vocabulary import TABLE_SIZES


@dataclass(frozen=True)
class Status:
    """A player's play-off status, and the outlook it is read from."""

    code: str  # scoring.outlook.season: QUALIFIED, ELIMINATED or IN_CONTENTION
    prospect: Prospect


@dataclass(frozen=True)
class StatusRow:
    player: Player
    season: PlayerSeason
    row: object | None  # standings Row when ranked
    status: Status

    @property
    def prospect(self):
        return self.status.prospect


def remaining_rounds(season, standings):
    """Regular rounds that may still change the ranking: those still on the calendar plus those
    entered but not homologated yet."""
    return len(calendar.coming_rounds(season)) + standings.unhomologated


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
    """What may still change the season points until the season's end: the rounds still to
    count (``coming``, as the solver reads them), the round limits and the late-report malus."""

    as_of: datetime.date  # the standings' date: today, or the season's end once it is over
    end: datetime.date  # the season's end: the late-report malus is counted up to it
    scheduled: int  # regular rounds still on the calendar, played from `as_of` on
    pending: int  # regular rounds entered but not homologated yet
    loss: int  # the least one round can give a player (≤ 0): the rulebook's floor
    gain: int  # the most one round can give a player (≥ 0): the rulebook's cap
    round_late: tuple  # for each round still to count, the malus its report may reach (≤ 0)
    late: dict  # player name -> what his missing reports may still add to his malus (≤ 0)
    per_week: int  # the late-report malus per started week (≤ 0)
    coming: tuple = ()  # scoring.outlook.season.ComingRound of each round still to count

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
            late.append(f"jusqu'à {num(self.coming_late)} pour le vainqueur de chaque manche restante")
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


def season_outlook(season, standings, scheduled=None):
    """The `Outlook` of a season as of its standings' date (docs/regles.md §6.4).

    The late-report malus: each counted round's report, missing (or filed after that date),
    may still grow until the season's end, for its author (the Report's, else the round
    winner, as the standings count it); each round entered but not homologated may reach, by
    the season's end, the malus of its own deadline, on its winner; each round on the calendar
    is taken as played on that date at the earliest. The rounds still to count: those entered
    but not homologated, seating their seats, then the calendar's
    (`championship.lib.calendar.coming_rounds`), each at a full table unless its night's answers
    say otherwise, open to every active player unless its night's answers name its players
    (``scheduled``: those calendar rounds, when already read).
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
    coming = []
    if standings.unhomologated:
        pending = season.rounds.filter(stage=Round.REGULAR).exclude(status=Round.HOMOLOGATED)
        for round_ in pending.select_related("report").prefetch_related("seats__player"):
            try:
                filed = round_.report.filed_on
            except Report.DoesNotExist:
                filed = None
            names = frozenset(seat.player.name for seat in round_.seats.all())
            malus = late_malus(report_deadline(round_, rulebook), filed, end, rulebook)
            coming.append(ComingRound(len(names), names, malus, ("round", round_.pk)))
    earliest = as_of + datetime.timedelta(days=rulebook.reports.deadline_days)
    if scheduled is None:
        scheduled = calendar.coming_rounds(season)
    malus = late_malus(earliest, None, end, rulebook)
    known = {pk for r in scheduled for pk in (r.seats or ())}
    names = dict(Player.objects.filter(pk__in=known).values_list("pk", "name")) if known else {}
    for r in scheduled:
        seats = None if r.seats is None else frozenset(names[pk] for pk in r.seats)
        night = None if r.night is None else ("night", r.night)
        coming.append(ComingRound(r.size or max(TABLE_SIZES), seats, malus, night))
    loss, gain = round_bounds(rulebook)
    return Outlook(
        as_of=as_of,
        end=end,
        scheduled=len(scheduled),
        pending=standings.unhomologated,
        loss=loss,
        gain=gain,
        round_late=tuple(r.late for r in coming),
        late=late,
        per_week=rulebook.reports.late_malus_per_week,
        coming=tuple(coming),
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
    calendar: str = ""  # the digest of the calendar's rounds it was computed on


def season_race(season, standings=None, outlook=None):
    """Each player's play-off status and outlook (`scoring.outlook.season.prospects`), cached
    under the season's token, the standings' date (`default_as_of` when `standings` is not
    given: a warm read loads no standings) and what the calendar knows of the rounds to come
    (`championship.lib.calendar.digest`: an answer to a night changes no figure of the season)."""
    as_of = standings.as_of if standings is not None else default_as_of(season)
    scheduled = calendar.coming_rounds(season)
    digest = calendar.digest(scheduled)
    return cached(
        f"cup:race:{digest}", season, as_of, lambda: _race(season, standings, outlook, scheduled, digest)
    )


def contenders(season, standings, outlook):
    """``([Contender], {name: Player})``: every player who may still play (`status_players`),
    in ranking order, as the solver reads him."""
    current, by_name = status_players(season, standings)
    keys = season.rulebook.championship.tiebreaks
    return [
        Contender(
            name=entry.player,
            points=entry.points,
            rounds=entry.rounds,
            active=by_name[entry.player].active,
            late=outlook.late.get(entry.player, 0),
            tiebreaks=tuple(TIEBREAKS[key](entry) for key in keys),
        )
        for entry in current
    ], (current, by_name)


def playable(coming, players):
    """The rounds still to count as the active players can seat them: a round open to all of
    them is a table of 5, of 4 when only four are active, and none under four (no table)."""
    active = sum(player.active for player in players)
    found = []
    for round_ in coming:
        if round_.seats is None and active < round_.size:
            if active < min(TABLE_SIZES):
                continue
            round_ = replace(round_, size=active)
        found.append(round_)
    return found


def _race(season, standings, outlook, scheduled=None, digest=""):
    standings = standings or season_standings(season)
    outlook = outlook or season_outlook(season, standings, scheduled)
    players, (current, by_name) = contenders(season, standings, outlook)
    found = prospects(
        players,
        playable(outlook.coming, players),
        Rules.of(season.rulebook),
        need_seconds=settings.OUTLOOK_NEED_SECONDS,
    )
    rows = {row.player.name: row for row in standings.ranked}
    return Race(
        outlook,
        [
            StatusRow(
                by_name[entry.player],
                entry,
                rows.get(entry.player),
                Status(found[entry.player].certain.status, found[entry.player]),
            )
            for entry in current
        ],
        digest,
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
