"""The season bulletin: the rounds' summaries, the winners and the late reports, for its page and its PDF."""

import datetime
from dataclasses import dataclass

from championship.cup.state import cup_state
from championship.models import Round
from championship.standings.lateness import (
    ReportStatus,
    default_as_of,
    report_status,
    season_author,
)
from championship.standings.season import season_standings


def bulletin_filename(season):
    return f"bulletin-{season.name}.pdf"


@dataclass(frozen=True)
class RoundSummary:
    round: Round
    winners: tuple  # names of the players ranked first
    author: object  # Player or None
    status: ReportStatus


# A season bulletin stays a handful of pages whatever the size of the federation (README,
# « Comptes-rendus »): the ranking in full up to BULLETIN_DETAILED_ROWS rows, then compact (rank,
# name, points, BULLETIN_COMPACT_COLUMNS to a line) up to BULLETIN_RANKED_MAX players; the
# unranked by name up to BULLETIN_UNRANKED_NAMES; the latest BULLETIN_LATEST_ROUNDS rounds in full
# and the others summed up; the late reports one by one up to BULLETIN_LATE_LINES, else by author.
BULLETIN_DETAILED_ROWS = 20


BULLETIN_COMPACT_COLUMNS = 4


BULLETIN_RANKED_MAX = 200


BULLETIN_UNRANKED_NAMES = 30


BULLETIN_LATEST_ROUNDS = 10


BULLETIN_WINNERS = 10


BULLETIN_LATE_LINES = 10


BULLETIN_LATE_AUTHORS = 15


@dataclass(frozen=True)
class RoundsSummary:
    """The season's counted rounds summed up: how many, when, where, and their reports."""

    count: int
    first: datetime.date | None
    last: datetime.date | None
    places: int
    on_time: int  # reports filed on time
    filed_late: int
    missing: int  # not filed, late or not yet due
    winners: tuple  # (name, rounds won), most wins first, at most BULLETIN_WINNERS


@dataclass(frozen=True)
class LateByAuthor:
    player: object
    count: int
    points: int


def bulletin_context(season, as_of=None):
    """The season's standings bulletin: ranking, awards, the cup, the rounds summed up (the latest
    in full) and the late reports, sized to stay a few pages (see ``BULLETIN_DETAILED_ROWS``)."""
    as_of = as_of or default_as_of(season)
    standings = season_standings(season, as_of)
    data = standings.data
    rounds = []
    wins = {}
    for round_ in standings.rounds:
        seats = data.seats.get(round_.pk, [])
        report = data.reports.get(round_.pk)
        author_id, _filed = season_author(data, round_)
        winners = tuple(seat.player.name for seat in seats if seat.rank == 1)
        for name in winners:
            wins[name] = wins.get(name, 0) + 1
        rounds.append(
            RoundSummary(round_, winners, data.players.get(author_id), report_status(round_, report, as_of))
        )
    ranked = standings.ranked[:BULLETIN_RANKED_MAX]
    compact = ranked[BULLETIN_DETAILED_ROWS:]
    width = BULLETIN_COMPACT_COLUMNS
    by_author = _late_by_author(standings.late) if len(standings.late) > BULLETIN_LATE_LINES else []
    return {
        "season": season,
        "standings": standings,
        "detailed": ranked[:BULLETIN_DETAILED_ROWS],
        # by columns: the first column reads down the first ranks, then the second…
        "compact_lines": _in_columns(compact, width),
        "compact_columns": width,
        "ranked_left_out": len(standings.ranked) - len(ranked),
        "unranked_names": len(standings.unranked) <= BULLETIN_UNRANKED_NAMES,
        "rounds": rounds,
        "latest_rounds": rounds[-BULLETIN_LATEST_ROUNDS:],
        "summary": _rounds_summary(rounds, wins),
        "late_by_author": by_author[:BULLETIN_LATE_AUTHORS],
        "late_authors_left_out": by_author[BULLETIN_LATE_AUTHORS:],
        "cup": cup_state(season, standings),
        "as_of": as_of,
    }


def _in_columns(rows, width):
    """``rows`` as lines of ``width`` cells, read down each column (None pads the last ones)."""
    if not rows:
        return []
    height = -(-len(rows) // width)
    columns = [rows[index * height : (index + 1) * height] for index in range(width)]
    return [[column[line] if line < len(column) else None for column in columns] for line in range(height)]


def _rounds_summary(rounds, wins):
    states = [item.status for item in rounds]
    dates = [item.round.date for item in rounds]
    winners = sorted(wins.items(), key=lambda pair: (-pair[1], pair[0]))[:BULLETIN_WINNERS]
    return RoundsSummary(
        count=len(rounds),
        first=min(dates, default=None),
        last=max(dates, default=None),
        places=len({item.round.place for item in rounds if item.round.place}),
        on_time=sum(status.is_filed and not status.is_late for status in states),
        filed_late=sum(status.is_filed and status.is_late for status in states),
        missing=sum(not status.is_filed for status in states),
        winners=tuple(winners),
    )


def _late_by_author(late):
    by_author = {}
    for malus in late:
        count, points = by_author.get(malus.player, (0, 0))
        by_author[malus.player] = (count + 1, points + malus.item.points)
    lines = [LateByAuthor(player, count, points) for player, (count, points) in by_author.items()]
    return sorted(lines, key=lambda line: (line.points, -line.count, line.player.name))
