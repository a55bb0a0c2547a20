"""A player's pages: every point of his season line by line, his ranking in each season he
played, and what he did in the deals of every homologated round."""

from __future__ import annotations

import pickle
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q

from championship.labels import poignee_count
from championship.lib.figure_tokens import read_tokens
from championship.lib.summaries import cached_many
from championship.models import ChampionshipLine, Deal, Round, Seat
from championship.standings.lateness import default_as_of
from championship.standings.player_charts import cumulative_points
from championship.standings.season import COUNTING, Standings, season_standings, seasons_standings
from federation.models import Season
from scoring.french import rounded_percent
from scoring.stats.game import DEAL_FIELDS, deal_figures
from scoring.vocabulary import POIGNEE_LABELS

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


# --- a player across seasons --------------------------------------------------------------------
#
# The player's page reads, for each season he played (and the current one, for its chart), one
# small piece cached under that season's generation (`championship.lib.summaries`): his place in the
# final ranking, his cumulative points round after round, and what he did in the season's deals.
# Any write to a season drops exactly that season's pieces; the page reads them all with one
# `cache.get_many`, and computes only the missing ones (their standings together, their deals in
# one query).


@dataclass(frozen=True)
class Place:
    """A player's line in a season's final ranking (rank and tie only when ranked)."""

    rank: int | None
    tied: bool
    points: int
    rounds: int


@dataclass(frozen=True)
class HistoryRow:
    season: object
    row: Place | None
    unranked: Place | None

    @property
    def points(self):
        return (self.row or self.unranked).points

    @property
    def rounds(self):
        return (self.row or self.unranked).rounds


@dataclass(frozen=True)
class PlayerSeasonPiece:
    """What the player's page shows of one season, as cached."""

    row: Place | None
    unranked: Place | None
    series: list | None  # (round number, points of the round, cumulative points), counted rounds;
    # None but in the current season (the chart's)
    scored: bool  # stored championship points in one of the counted rounds at least
    counts: Counter  # `deal_counts` of the season's homologated rounds


@dataclass(frozen=True)
class PlayerPage:
    history: list  # HistoryRow, latest season first
    current: object | None  # the current season
    series: list | None  # the current season's `PlayerSeasonPiece.series`
    scored: bool
    stats: dict  # `statistics`


def _place(row, ranked):
    if row is None:
        return None
    return Place(row.rank if ranked else None, row.tied if ranked else False, row.points, row.rounds)


def _pieces(player, seasons, current):
    """`{season pk: PlayerSeasonPiece}` of the player in `seasons`.

    A season's pieces are computed for every player at once (its standings, its deals in one
    query) and cached together under the season's generation, each piece pickled on its own:
    a page unpickles the outer table of each season (cheap: bytes) and its player's piece only.
    Only the `current` season's pieces keep the round-by-round series of the chart (the bulk of
    a piece), under a key of their own. The seasons' tokens are read once for both.
    """

    past = [season for season in seasons if season != current]
    tokens = read_tokens([season.pk for season in seasons])
    packed = packed_pieces(past, current=False, tokens=tokens)
    if current in seasons:
        packed.update(packed_pieces([current], current=True, tokens=tokens))
    return {pk: pickle.loads(every.get(player.pk, every[None])) for pk, every in packed.items()}


def packed_pieces(seasons, *, current, tokens=None):
    """`{season pk: {player pk: pickled PlayerSeasonPiece}}` of `seasons`, cached (see
    `_pieces`); the chart's series only for the `current` season. `tokens`: the seasons' tokens
    already read (`championship.lib.summaries.cached_many`)."""

    def compute(missing):
        standings = seasons_standings(missing)
        counts = defaultdict(lambda: defaultdict(Counter))
        seated = defaultdict(list)
        in_missing = {"round__season__in": missing, "round__status": Round.HOMOLOGATED}
        for round_id, player_id in Seat.objects.filter(**in_missing).values_list("round_id", "player_id"):
            seated[round_id].append(player_id)
        fields = ("round_id", "round__season_id", *DEAL_STATISTICS_FIELDS)
        for deal in Deal.objects.filter(**in_missing).values(*fields):
            season_counts = counts[deal["round__season_id"]]
            for member in seated[deal["round_id"]]:
                add_deal_counts(season_counts[member], deal, member)
        return [
            {
                member: pickle.dumps(piece)
                for member, piece in season_pieces(standings[pk], counts[pk], current)
            }
            for pk in (season.pk for season in missing)
        ]

    kind = "players:current" if current else "players"
    return cached_many(kind, seasons, default_as_of, compute, tokens)


def season_pieces(standings, counts, with_series):
    """`(player pk, PlayerSeasonPiece)` of everyone in a season (ranked, unranked or in `counts`,
    `{player pk: deal counts}`), then `(None, the piece of a player who did not play)`; the
    round-by-round series only `with_series`."""
    late = defaultdict(Counter)
    for malus in standings.late:
        late[malus.player.pk][malus.round.pk] += malus.item.points
    rows = {row.player.pk: row for row in standings.ranked}
    unranked = {row.player.pk: row for row in standings.unranked}
    points = standings.data.points
    for member in [*{*rows, *unranked, *counts}, None]:
        series = cumulative_points(standings, member, late[member])
        yield (
            member,
            PlayerSeasonPiece(
                row=_place(rows.get(member), ranked=True),
                unranked=_place(unranked.get(member), ranked=False),
                series=[(round_.number, round_points, running) for round_, round_points, running in series]
                if with_series
                else None,
                scored=any(points.get((member, round_.pk)) is not None for round_, _p, _c in series),
                counts=counts.get(member, Counter()),
            ),
        )


def player_page(player):
    """Everything the player's page shows: his final ranking in each season he played a counted
    round (latest first), his cumulative points in the current season, what he did in the deals
    of every homologated round. Two queries and one cache read whatever the history."""
    current = Season.objects.current()
    played = list(
        Season.objects.filter(rounds__seats__player=player, rounds__status=Round.HOMOLOGATED)
        .annotate(counted=Count("rounds", filter=Q(rounds__stage=Round.REGULAR)))
        .order_by("-start_date")
    )
    seasons = played + ([current] if current is not None and current not in played else [])
    pieces = _pieces(player, seasons, current)
    history = [
        HistoryRow(season, pieces[season.pk].row, pieces[season.pk].unranked)
        for season in played
        if season.counted
    ]
    counts = sum((pieces[season.pk].counts for season in played), Counter())
    current_piece = pieces[current.pk] if current is not None else None
    return PlayerPage(
        history=history,
        current=current,
        series=current_piece.series if current_piece else None,
        scored=bool(current_piece and current_piece.scored),
        stats=statistics(counts),
    )


def player_history(player):
    """The player's final ranking in each season he played a counted round, latest first."""
    return player_page(player).history


def _rate(made, takes):
    return rounded_percent(made, takes)


DEAL_STATISTICS_FIELDS = DEAL_FIELDS


def add_deal_counts(counts, deal, me):
    """Add to the Counter `counts` what the player `me` (an id) did in `deal` (a dict of
    `DEAL_STATISTICS_FIELDS`): counts add up over deals and seasons (`statistics` reads them);
    the figures are `scoring.stats.game.deal_figures`, which the statistics pages count too."""
    counts.update(deal_figures(deal, me))


def statistics(counts):
    """The page's statistics from `deal_counts`."""
    contracts = [
        {
            "code": code,
            "label": label,
            "takes": counts["takes", code],
            "made": counts["made", code],
            "rate": _rate(counts["made", code], counts["takes", code]),
        }
        for code, label in Deal.CONTRACTS
    ]
    all_takes = sum(contract["takes"] for contract in contracts)
    all_made = sum(contract["made"] for contract in contracts)
    poignees = {size: counts["poignee", size] for size in POIGNEE_LABELS}
    return {
        "contracts": contracts,
        "takes": all_takes,
        "made": all_made,
        "rate": _rate(all_made, all_takes),
        "called": counts["called"],
        "called_made": counts["called_made"],
        "defended": counts["defended"],
        "defended_failed": counts["defended_failed"],
        "chelems": counts["chelems"],
        "petit_attack": counts["petit_attack"],
        "petit_defence": counts["petit_defence"],
        "poignees": [poignee_count(size, poignees[size]) for size in POIGNEE_LABELS if poignees[size]],
        "poignees_total": sum(n for key, n in counts.items() if key[0] == "poignee" and len(key) == 2),
        "miseres": counts["miseres"],
    }


def player_statistics(player):
    """What a player did in the deals of every homologated round (cached per season)."""
    return player_page(player).stats
