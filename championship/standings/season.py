"""Season standings read from stored data (docs/regles.md §5), in a constant number of queries.

Stored: seat totals and ranks, and the championship lines of homologated regular rounds
(`championship.services`). Computed here, as of a date: the final ranking with its trend since
the previous round (counting the late-report malus of `championship.standings.lateness`) and the
awards. A player's pages are `championship.standings.players`, his points chart
`championship.standings.player_charts`.
`load_season` reads a season with five queries whatever its number of rounds; everything else
works on what it read.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from django.db.models import Sum

from championship.lib.summaries import cached, cached_many
from championship.models import ChampionshipLine, Deal, Report, Round, Seat
from championship.standings.lateness import default_as_of, late_reports
from federation.models import Player
from scoring.awards import PlayerStats, compute_awards
from scoring.ranking import TIEBREAKS, PlayerSeason, Standing, final_ranking, shown_tiebreaks
from scoring.vocabulary import ATTACK

COUNTING = {"status": Round.HOMOLOGATED, "stage": Round.REGULAR}


# --- reading a season ---------------------------------------------------------------------------


@dataclass
class SeasonData:
    """What the standings need of a season, read once (see `load_season`)."""

    season: object
    rounds: list  # homologated regular rounds, by date then number
    pending: int  # regular rounds not homologated yet, drafts and submitted (not counted)
    players: dict  # player id -> Player
    seats: dict  # round id -> seats in position order
    points: dict  # (player id, round id) -> stored championship points
    reports: dict  # round id -> Report
    deals: list  # played deals (dicts) of the counted rounds that kept their deals
    round_takes: dict | None = None  # round id -> Counter of takers, once the deals are let go
    submitted: int = 0  # of the `pending` rounds, those submitted: awaiting homologation

    def takes(self, round_id):
        if self.round_takes is not None:
            return self.round_takes.get(round_id, Counter())
        return Counter(deal["taker_id"] for deal in self.deals if deal["round_id"] == round_id)

    def without_deals(self):
        """The same data with, instead of the deals, who took how often in each round: what is
        left to read once the standings are computed (smaller to keep in the cache)."""
        takes = defaultdict(Counter)
        for deal in self.deals:
            takes[deal["round_id"]][deal["taker_id"]] += 1
        return replace(self, deals=[], round_takes=dict(takes))


def load_season(season):
    """Five queries: rounds, seats, summed championship lines, reports, played deals."""
    return load_seasons([season])[season.pk]


def load_seasons(seasons, *, deals=True):
    """`{season id: SeasonData}` of several seasons, in the same five queries as one (four
    without the played `deals`, which only the awards read)."""
    seasons = {season.pk: season for season in seasons}
    rounds = defaultdict(list)
    for round_ in Round.objects.filter(season__in=list(seasons)).order_by("date", "number"):
        round_.season = seasons[round_.season_id]  # as `season.rounds` would: no query to read it
        rounds[round_.season_id].append(round_)
    season_of = {}
    counted = {}
    pending, submitted = {}, {}
    for pk in seasons:
        counted[pk] = [r for r in rounds[pk] if r.stage == Round.REGULAR and r.status == Round.HOMOLOGATED]
        pending[pk] = sum(1 for r in rounds[pk] if r.stage == Round.REGULAR and r.status != Round.HOMOLOGATED)
        submitted[pk] = sum(1 for r in rounds[pk] if r.stage == Round.REGULAR and r.status == Round.SUBMITTED)
        season_of.update({r.pk: pk for r in counted[pk]})
    in_season = {f"round__{key}": value for key, value in COUNTING.items()}
    in_season["round__season__in"] = list(seasons)

    players = defaultdict(dict)
    seats = defaultdict(lambda: defaultdict(list))
    for seat in Seat.objects.filter(**in_season).select_related("player"):
        pk = season_of[seat.round_id]
        players[pk][seat.player_id] = seat.player
        seats[pk][seat.round_id].append(seat)
    for season_seats in seats.values():
        for round_seats in season_seats.values():
            round_seats.sort(key=lambda seat: seat.position)

    points = defaultdict(dict)
    lines = (
        ChampionshipLine.objects.filter(**in_season)
        .values("player_id", "player__name", "round_id")
        .annotate(total=Sum("points"))
        .order_by()
    )
    for line in lines:
        pk = season_of[line["round_id"]]
        points[pk][(line["player_id"], line["round_id"])] = line["total"]
        players[pk].setdefault(line["player_id"], Player(pk=line["player_id"], name=line["player__name"]))

    reports = defaultdict(dict)
    for report in Report.objects.filter(**in_season).select_related("author").defer("text"):
        pk = season_of[report.round_id]
        reports[pk][report.round_id] = report
        players[pk].setdefault(report.author_id, report.author)

    played = defaultdict(list)
    if deals:
        for deal in (
            Deal.objects.filter(round__totals_only=False, kind=Deal.PLAYED, **in_season)
            .values("round_id", "number", "taker_id", "partner_id", "contract", "made", "chelem_made_by")
            .order_by("round_id", "number")
        ):
            played[season_of[deal["round_id"]]].append(deal)
    return {
        pk: SeasonData(
            season,
            counted[pk],
            pending[pk],
            players[pk],
            dict(seats[pk]),
            points[pk],
            reports[pk],
            played[pk],
            submitted=submitted[pk],
        )
        for pk, season in seasons.items()
    }


# --- the final ranking ---------------------------------------------------------------------------


def player_seasons(data, late, without_round=None):
    """A `PlayerSeason` per player (by name), optionally leaving one round out."""
    skip = without_round.pk if without_round is not None else None
    points = defaultdict(int)
    results = defaultdict(list)
    for (player_id, round_id), round_points in data.points.items():
        if round_id != skip:
            points[player_id] += round_points
    for malus in late:
        if malus.round.pk != skip:
            points[malus.player.pk] += malus.item.points
    for round_id, seats in data.seats.items():
        if round_id != skip:
            for seat in seats:
                points.setdefault(seat.player_id, 0)
                results[seat.player_id].append((seat.rank, seat.total))
    return {
        data.players[player_id].name: PlayerSeason.of_rounds(
            data.players[player_id].name, total, results[player_id]
        )
        for player_id, total in points.items()
    }


@dataclass(frozen=True)
class Trend:
    code: str  # "up", "down", "same", "new"
    change: int = 0

    @property
    def label(self):
        if self.code == "up":
            return f"▲{self.change}"
        if self.code == "down":
            return f"▼{self.change}"
        return "=" if self.code == "same" else "nouveau"

    @property
    def text(self):
        if self.code == "up":
            return f"gagne {self.change} place{'s' if self.change > 1 else ''} depuis la manche précédente"
        if self.code == "down":
            return f"perd {self.change} place{'s' if self.change > 1 else ''} depuis la manche précédente"
        if self.code == "same":
            return "même rang qu'avant la dernière manche"
        return "entre au classement avec la dernière manche"


@dataclass(frozen=True)
class Row:
    """A ranked player: his `Standing`, his Player, his trend since the previous round and the
    figures of the season's tie-breaks that have a column (`Standings.columns`), in that order."""

    standing: Standing
    player: object
    trend: Trend | None
    figures: tuple = ()  # (Tiebreak, figure)

    rank = property(lambda self: self.standing.rank)
    tied = property(lambda self: self.standing.tied)
    points = property(lambda self: self.standing.season.points)
    rounds = property(lambda self: self.standing.season.rounds)


@dataclass(frozen=True)
class UnrankedRow:
    season: PlayerSeason
    player: object

    points = property(lambda self: self.season.points)
    rounds = property(lambda self: self.season.rounds)


@dataclass
class Standings:
    season: object
    as_of: datetime.date
    data: SeasonData
    late: list
    ranked: list  # Row
    unranked: list  # UnrankedRow
    awards: list  # scoring.awards.Award
    latest_round: object | None
    by_name: dict = field(default_factory=dict)  # player name -> Player

    @property
    def rounds(self):
        return self.data.rounds

    @property
    def unhomologated(self):
        """Regular rounds entered but not homologated yet, drafts and submitted: not counted,
        they may still change the ranking (the cup's bound counts them)."""
        return self.data.pending

    @property
    def awaiting(self):
        """Regular rounds submitted, awaiting homologation (what the public pages count)."""
        return self.data.submitted

    @property
    def drafts(self):
        """Regular rounds still being entered (drafts): shown, as drafts, to those who enter rounds."""
        return self.data.pending - self.data.submitted

    @property
    def minimum_rounds(self):
        return self.season.rulebook.championship.minimum_rounds

    @property
    def columns(self):
        """The season's tie-breaks that have a column of their own, in the rulebook's order."""
        return shown_tiebreaks(self.season.rulebook)

    @property
    def tiebreaks(self):
        """The season's tie-breaks, in the rulebook's order (`scoring.ranking.Tiebreak`)."""
        return [TIEBREAKS[key] for key in self.season.rulebook.championship.tiebreaks]

    def row_of(self, player):
        return next((row for row in self.ranked if row.player.pk == player.pk), None)

    def unranked_of(self, player):
        return next((row for row in self.unranked if row.player.pk == player.pk), None)

    def podium(self):
        return [row for row in self.ranked if row.rank <= 3]


def season_standings(season, as_of=None, data=None):
    """The season's final ranking as of a date (default `default_as_of`), with trend and awards;
    cached until the season's next write (`championship.lib.summaries`) unless `data` is given."""
    as_of = as_of or default_as_of(season)
    if data is not None:
        return compute_standings(season, as_of, data)
    return cached("standings", season, as_of, lambda: compute_standings(season, as_of, load_season(season)))


def seasons_standings(seasons, as_of=None):
    """`{season id: Standings}` of several seasons (see `season_standings`), those not cached
    read together in five queries."""

    def compute(missing):
        data = load_seasons(missing)
        return [
            compute_standings(season, as_of or default_as_of(season), data[season.pk]) for season in missing
        ]

    return cached_many("standings", seasons, lambda season: as_of or default_as_of(season), compute)


def season_points(season, as_of=None):
    """Player name -> season points (ranked and unranked) as the standings count them, without
    their ranking, trend and awards: no deal read, nothing cached (a command comparing the
    points before and after a change)."""
    data = load_seasons([season], deals=False)[season.pk]
    late = late_reports(data, as_of or default_as_of(season))
    return {name: standing.points for name, standing in player_seasons(data, late).items()}


def compute_standings(season, as_of, data):
    """The season's final ranking as of `as_of` from the data `load_season` read."""
    rulebook = season.rulebook
    late = late_reports(data, as_of)
    by_name = {player.name: player for player in data.players.values()}
    ranked, unranked = final_ranking(player_seasons(data, late).values(), rulebook)

    latest = data.rounds[-1] if data.rounds else None
    before = {}
    if latest is not None:
        previous, _ = final_ranking(player_seasons(data, late, without_round=latest).values(), rulebook)
        before = {standing.player: standing.rank for standing in previous}

    columns = shown_tiebreaks(rulebook)
    rows = [
        Row(
            standing,
            by_name[standing.player],
            _trend(standing, before, latest),
            tuple((tiebreak, tiebreak.figure(standing.season)) for tiebreak in columns),
        )
        for standing in ranked
    ]
    apart = [UnrankedRow(season_, by_name[season_.player]) for season_ in unranked]
    awards = compute_awards(player_stats(data), ranked, rulebook)
    return Standings(season, as_of, data.without_deals(), late, rows, apart, awards, latest, by_name)


def _trend(standing, before, latest):
    if latest is None:
        return None
    if standing.player not in before:
        return Trend("new")
    change = before[standing.player] - standing.rank
    if change > 0:
        return Trend("up", change)
    if change < 0:
        return Trend("down", -change)
    return Trend("same")


# --- awards --------------------------------------------------------------------------------------


def player_stats(data):
    """`PlayerStats` of every player of the season, from stored seats and deals."""
    rounds = Counter()
    best = {}
    seated = {}
    for round_id, seats in data.seats.items():
        seated[round_id] = [seat.player_id for seat in seats]
        for seat in seats:
            rounds[seat.player_id] += 1
            if seat.total is not None:
                best[seat.player_id] = max(seat.total, best.get(seat.player_id, seat.total))
    takes, made, failed, chelems = Counter(), Counter(), Counter(), Counter()
    for deal in data.deals:
        taker = deal["taker_id"]
        takes[taker] += 1
        made[taker] += deal["made"] is True
        chelems[taker] += deal["chelem_made_by"] == ATTACK
        if deal["made"] is False:
            for player_id in seated.get(deal["round_id"], []):
                if player_id not in (taker, deal["partner_id"]):
                    failed[player_id] += 1
    return [
        PlayerStats(
            player=player.name,
            rounds=rounds[player_id],
            best_total=best.get(player_id),
            takes=takes[player_id],
            made=made[player_id],
            defended_failed=failed[player_id],
            chelems=chelems[player_id],
        )
        for player_id, player in data.players.items()
    ]
