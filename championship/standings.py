"""Season standings read from stored data (docs/regles.md §5), in a constant number of queries.

Stored: seat totals and ranks, and the championship lines of homologated regular rounds
(`championship.services`). Computed here, as of a date: the final ranking with its trend since
the previous round (counting the late-report malus of `championship.lateness`), the awards, and
each player's explanation.
`load_season` reads a season with five queries whatever its number of rounds; everything else
works on what it read.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Sum

from championship.charts import ChartFrame, Plot
from championship.lateness import default_as_of, late_reports
from championship.models import ChampionshipLine, Deal, Report, Round, Seat
from championship.services import update_season_rulebook  # noqa: F401  (kept importable from here)
from federation.models import Player, Season
from scoring.awards import PlayerStats, compute_awards
from scoring.french import num, signed
from scoring.ranking import TIEBREAKS, PlayerSeason, Standing, final_ranking, shown_tiebreaks
from scoring.vocabulary import ATTACK, DEFENCE, POIGNEE_LABELS

COUNTING = {"status": Round.HOMOLOGATED, "stage": Round.REGULAR}


# --- reading a season ---------------------------------------------------------------------------


@dataclass
class SeasonData:
    """What the standings need of a season, read once (see `load_season`)."""

    season: object
    rounds: list  # homologated regular rounds, by date then number
    pending: int  # regular rounds not homologated yet (not counted)
    players: dict  # player id -> Player
    seats: dict  # round id -> seats in position order
    points: dict  # (player id, round id) -> stored championship points
    reports: dict  # round id -> Report
    deals: list  # played deals (dicts) of the counted rounds that kept their deals

    def takes(self, round_id):
        return Counter(deal["taker_id"] for deal in self.deals if deal["round_id"] == round_id)


def load_season(season):
    """Five queries: rounds, seats, summed championship lines, reports, played deals."""
    rounds = list(season.rounds.order_by("date", "number"))
    counted = [r for r in rounds if r.stage == Round.REGULAR and r.status == Round.HOMOLOGATED]
    pending = sum(1 for r in rounds if r.stage == Round.REGULAR and r.status != Round.HOMOLOGATED)
    in_season = {f"round__{key}": value for key, value in COUNTING.items()}

    players = {}
    seats = defaultdict(list)
    for seat in Seat.objects.filter(round__season=season, **in_season).select_related("player"):
        players[seat.player_id] = seat.player
        seats[seat.round_id].append(seat)
    for round_seats in seats.values():
        round_seats.sort(key=lambda seat: seat.position)

    points = {}
    lines = (
        ChampionshipLine.objects.filter(season=season, **in_season)
        .values("player_id", "player__name", "round_id")
        .annotate(total=Sum("points"))
        .order_by()
    )
    for line in lines:
        points[(line["player_id"], line["round_id"])] = line["total"]
        players.setdefault(line["player_id"], Player(pk=line["player_id"], name=line["player__name"]))

    reports = {}
    for report in (
        Report.objects.filter(round__season=season, **in_season).select_related("author").defer("text")
    ):
        reports[report.round_id] = report
        players.setdefault(report.author_id, report.author)

    deals = list(
        Deal.objects.filter(round__season=season, round__totals_only=False, kind=Deal.PLAYED, **in_season)
        .values("round_id", "number", "taker_id", "partner_id", "contract", "made", "chelem_made_by")
        .order_by("round_id", "number")
    )
    return SeasonData(season, counted, pending, players, dict(seats), points, reports, deals)


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
    def pending(self):
        return self.data.pending

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
    """The season's final ranking as of a date (default `default_as_of`), with trend and awards."""
    as_of = as_of or default_as_of(season)
    data = data or load_season(season)
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
    return Standings(season, as_of, data, late, rows, apart, awards, latest, by_name)


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


# --- one player's season, line by line -----------------------------------------------------------


@dataclass(frozen=True)
class RoundLines:
    round: object
    seat: object | None
    lines: list  # ChampionshipLine or LineItem-like dicts
    subtotal: int


@dataclass(frozen=True)
class PlayerSeasonDetail:
    standings: Standings
    player: object
    rounds: list  # RoundLines, by date then number
    total: int

    @property
    def row(self):
        return self.standings.row_of(self.player)

    @property
    def unranked_row(self):
        return self.standings.unranked_of(self.player)


def player_season_detail(season, player, as_of=None):
    """Every point of a player's season: stored lines and late-report maluses, per round."""
    standings = season_standings(season, as_of)
    lines = defaultdict(list)
    stored = ChampionshipLine.objects.filter(
        season=season, player=player, **{f"round__{k}": v for k, v in COUNTING.items()}
    ).order_by("round_id", "order")
    for line in stored:
        lines[line.round_id].append(
            {"code": line.code, "label": line.label, "points": line.points, "deal_number": line.deal_number}
        )
    for malus in standings.late:
        if malus.player.pk == player.pk:
            item = malus.item
            lines[malus.round.pk].append(
                {"code": item.code, "label": item.label, "points": item.points, "deal_number": None}
            )
    detail = []
    for round_ in standings.rounds:
        round_lines = lines.get(round_.pk)
        seat = next((s for s in standings.data.seats.get(round_.pk, []) if s.player_id == player.pk), None)
        if round_lines or seat is not None:
            round_lines = round_lines or []
            detail.append(RoundLines(round_, seat, round_lines, sum(line["points"] for line in round_lines)))
    return PlayerSeasonDetail(standings, player, detail, sum(r.subtotal for r in detail))


# --- the cumulative points chart (server-side SVG geometry) ---------------------------------------


@dataclass(frozen=True)
class Chart(ChartFrame):
    """A player's cumulative points, drawn by a template as inline SVG."""

    line: str  # "x,y x,y …" for <polyline points>
    dots: list  # (x, y, title)


def cumulative_points(standings, player):
    """`(round, points of the round, cumulative points)` through the season's counted rounds."""
    late = Counter()
    for malus in standings.late:
        if malus.player.pk == player.pk:
            late[malus.round.pk] += malus.item.points
    series, running = [], 0
    for round_ in standings.rounds:
        points = standings.data.points.get((player.pk, round_.pk), 0) + late[round_.pk]
        running += points
        series.append((round_, points, running))
    return series


def points_chart(series, width=640, height=260):
    """The chart of `cumulative_points`: starts at 0, one point per counted round."""
    values = [0] + [running for _round, _points, running in series]
    plot = Plot.around(values, len(values), left=62, top=16, right=width - 16, bottom=height - 52)
    dots = [
        (plot.x(index), plot.y(running), f"Manche {round_.number} : {signed(points)} → {num(running)}")
        for index, (round_, points, running) in enumerate(series, start=1)
    ]
    x_ticks = plot.index_ticks(["0"] + [str(round_.number) for round_, _points, _running in series], most=12)
    y_ticks = plot.value_ticks(num)
    return Chart(
        **ChartFrame.fields_of(plot, width, height, x_ticks, y_ticks), line=plot.polyline(values), dots=dots
    )


# --- a player across seasons --------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    season: object
    row: Row | None
    unranked: UnrankedRow | None

    @property
    def points(self):
        return (self.row or self.unranked).points

    @property
    def rounds(self):
        return (self.row or self.unranked).rounds


def player_history(player, as_of=None):
    """The player's final ranking in each season he played a counted round, latest first."""
    seasons = (
        Season.objects.filter(
            rounds__seats__player=player, **{f"rounds__{k}": v for k, v in COUNTING.items()}
        )
        .distinct()
        .order_by("-start_date")
    )
    history = []
    for season in seasons:
        standings = season_standings(season, as_of)
        history.append(HistoryRow(season, standings.row_of(player), standings.unranked_of(player)))
    return history


def _rate(made, takes):
    return round(100 * made / takes) if takes else None


def player_statistics(player):
    """What a player did in the deals of every homologated round (one query)."""
    deals = Deal.objects.filter(round__status=Round.HOMOLOGATED, round__seats__player=player).values(
        "kind",
        "taker_id",
        "partner_id",
        "contract",
        "made",
        "petit_au_bout",
        "poignees",
        "miseres",
        "chelem_made_by",
    )
    me = player.pk
    takes, made = Counter(), Counter()
    stats = Counter()
    poignees = Counter()
    for deal in deals:
        stats["miseres"] += deal["miseres"].count(me)
        for poignee in deal["poignees"]:
            if poignee.get("player") == me:
                poignees[poignee.get("size")] += 1
        if deal["kind"] != Deal.PLAYED:
            continue
        attack = deal["taker_id"] == me or deal["partner_id"] == me
        if deal["taker_id"] == me:
            takes[deal["contract"]] += 1
            made[deal["contract"]] += deal["made"] is True
            stats["chelems"] += deal["chelem_made_by"] == ATTACK
        elif deal["partner_id"] == me:
            stats["called"] += 1
            stats["called_made"] += deal["made"] is True
        else:
            stats["defended"] += 1
            stats["defended_failed"] += deal["made"] is False
        if deal["petit_au_bout"]:
            won = (deal["petit_au_bout"] == ATTACK) == attack
            key = ATTACK if attack else DEFENCE
            stats[f"petit_{key}"] += won
    contracts = [
        {
            "code": code,
            "label": label,
            "takes": takes[code],
            "made": made[code],
            "rate": _rate(made[code], takes[code]),
        }
        for code, label in Deal.CONTRACTS
    ]
    all_takes, all_made = sum(takes.values()), sum(made.values())
    return {
        "contracts": contracts,
        "takes": all_takes,
        "made": all_made,
        "rate": _rate(all_made, all_takes),
        "called": stats["called"],
        "called_made": stats["called_made"],
        "defended": stats["defended"],
        "defended_failed": stats["defended_failed"],
        "chelems": stats["chelems"],
        "petit_attack": stats["petit_attack"],
        "petit_defence": stats["petit_defence"],
        "poignees": [f"{poignees[size]} {label}" for size, label in POIGNEE_LABELS.items() if poignees[size]],
        "poignees_total": sum(poignees.values()),
        "miseres": stats["miseres"],
    }



