"""« Moi »: what the home page tells an identified member about himself first (docs/utiliser.md,
« Moi »): his place in the season's ranking with the gap to the place above and to the last
place that qualifies for the Coupe (docs/regles.md §6.2), his next night and his answer, the
sheets that wait for his signature, the report he owes, and the links to his pages. Each item
only when it exists. Read in a few queries: the ranking as plain values, cached per state of the
season (`ranking_of`, which the home page's leaders read too), his next night with his answer,
his sheets to sign.
"""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef
from django.utils import timezone

from championship.lib import calendar
from championship.lib.summaries import cached
from championship.models import Round, Signoff
from championship.standings.season import season_standings


@dataclass(frozen=True)
class Line:
    """A row of the ranking as plain values (what the home page keeps in the cache)."""

    rank: int
    tied: bool
    pk: int
    name: str
    points: int
    rounds: int


def ranking_of(season, as_of):
    """`(ranked, unranked)`: the season's ranking as `Line`s, in order, then the players below
    the minimum of rounds (rank 0), cached as plain tuples per state of the season and date."""

    def compute():
        standings = season_standings(season, as_of)
        return (
            [(r.rank, r.tied, r.player.pk, r.player.name, r.points, r.rounds) for r in standings.ranked],
            [(0, False, r.player.pk, r.player.name, r.points, r.rounds) for r in standings.unranked],
        )

    ranked, unranked = cached("home-ranking", season, as_of, compute)
    return [Line(*row) for row in ranked], [Line(*row) for row in unranked]


@dataclass(frozen=True)
class Neighbour:
    place: int  # his place in the list (1 = first)
    name: str
    gap: int  # points between the member and him, never negative


@dataclass(frozen=True)
class Place:
    """The member's place: `line` is set when ranked and the season's ranking has a Coupe."""

    me: Line
    ranked: bool
    above: Neighbour | None = None  # the nearest player ranked strictly above him
    line: int | None = None  # the last qualifying place (10, or the final's places, regles.md §6.2)
    playoffs: bool = True  # the line is the play-offs' (else the final's, no play-offs)
    line_player: Neighbour | None = None  # who holds the line (or, when he does, the next one)
    ahead: bool = False  # he is above the line (or holds it)
    on_line: bool = False  # he holds the last qualifying place


def qualifying_line(count, cup):
    """`(last qualifying place, play-offs?)` of a ranking of `count` players, as the Coupe seeds
    them (`scoring.cup.seed_cup`): the play-offs' places, or without play-offs the final's; None
    below the Coupe's minimum of players."""
    if count >= cup.playoff_players:
        return cup.playoff_players, True
    if count >= cup.minimum_players:
        return min(cup.final_players, count), False
    return None, False


def place_of(player_pk, ranked, unranked, rulebook):
    """The member's `Place`, or None when he has no point in the season."""
    index = next((i for i, line in enumerate(ranked) if line.pk == player_pk), None)
    if index is None:
        me = next((line for line in unranked if line.pk == player_pk), None)
        return None if me is None else Place(me, ranked=False)
    me = ranked[index]
    above = next((i for i in range(index - 1, -1, -1) if ranked[i].rank < me.rank), None)
    neighbour = None
    if above is not None:
        neighbour = Neighbour(above + 1, ranked[above].name, ranked[above].points - me.points)
    line, playoffs = qualifying_line(len(ranked), rulebook.cup)
    if line is None:
        return Place(me, ranked=True, above=neighbour)
    place = index + 1
    on_line = place == line
    other = line if on_line else line - 1  # when he holds the line: the first one out, if any
    holder = None
    if other < len(ranked):
        holder = Neighbour(other + 1, ranked[other].name, abs(me.points - ranked[other].points))
    return Place(me, True, neighbour, line, playoffs, holder, ahead=place <= line, on_line=on_line)


def sheets_to_sign(player):
    """The rounds he sits at, not homologated, that have no word of his at their present
    version (a confirmation or a dispute given before a change no longer counts)."""
    given = Signoff.objects.filter(round=OuterRef("pk"), player=player, version=OuterRef("version"))
    return list(
        Round.objects.filter(seats__player=player)
        .exclude(status=Round.HOMOLOGATED)
        .exclude(Exists(given))
        .select_related("season")
        .order_by("date", "stage", "table", "number")
    )


@dataclass(frozen=True)
class Me:
    player: object
    place: Place | None
    night: object | None  # his next night (`championship.lib.calendar.next_night`)
    sheets: list
    reports: list  # DueReport he is to write
    playoff_players: int  # the rulebook's play-off places (named when the line is the final's)

    @property
    def nothing_pending(self):
        return self.night is None and not self.sheets and not self.reports

    @property
    def answer_label(self):
        """His answer to his next night, as the night page words it, or ""."""
        return getattr(self.night, "my_answer_label", "")

    @property
    def answers_open(self):
        """Whether he may answer his next night (an inactive player does not answer)."""
        return self.night is not None and self.player.active and self.night.answers_open()


def me_block(player, season, ranking, reports_due, today=None):
    """« Moi » for `player` in `season`: `ranking` is `ranking_of(...)`, `reports_due` the
    reports due the page shows (`home.visible_reports_due`)."""
    ranked, unranked = ranking
    today = today or timezone.localdate()
    return Me(
        player=player,
        place=place_of(player.pk, ranked, unranked, season.rulebook),
        night=calendar.next_night(season, player, today),
        sheets=sheets_to_sign(player),
        reports=[item for item in reports_due if item.author is not None and item.author.pk == player.pk],
        playoff_players=season.rulebook.cup.playoff_players,
    )
