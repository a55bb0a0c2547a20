"""Comptes-rendus (docs/regles.md §6): who writes them, by when, whether they came in, and their text.

Who writes a report, by when, and where it stands on a date is ``championship.standings.lateness``: the
author is the round winner, the deadline the round's date plus the season's
``reports.deadline_days``; a report filed on the deadline is on time; after it, it is late by
started weeks (1–7 days: 1 week, 8–14: 2…), and a missing one keeps getting later as the days
pass. The sheet export imports ``round_late_report_line`` from here for now.

The narrative is Markdown written by players: ``render_markdown`` turns it into HTML and cleans
it with nh3, so that no script, raw HTML, event handler or ``javascript:``/``data:`` link ever
reaches a page or a PDF. Its length is bounded (``REPORT_TEXT_MAX_LENGTH``, checked by
``validate_report_text`` wherever a report is written), so that any text renders in a few seconds.
"""

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass

import nh3
from django.db.models import Prefetch
from django.utils.safestring import mark_safe
from markdown_it import MarkdownIt

from championship import services
from championship.cup.state import cup_state
from championship.lib.charts import ChartFrame, Plot
from championship.lib.summaries import cached
from championship.models import ChampionshipLine, Deal, Report, Round, Seat
from championship.rounds.display import round_display
from championship.standings.lateness import (
    ReportStatus,
    author_of,
    default_as_of,
    designated_author,
    late_report_line,
    report_author,
    report_of,
    report_status,
    season_author,
)
from championship.standings.season import season_standings
from scoring.french import num, of_name, signed
from scoring.vocabulary import ATTACK, DEFENCE

# CommonMark with tables and strikethrough; a line break in the text is a line break on the page.
# markdown-it works in time linear in the text's length and caps nesting (quotes in lists in
# quotes…) at 20 levels: no input, however hostile, makes it slow or recursive.
MARKDOWN = MarkdownIt("commonmark", {"breaks": True, "html": True}).enable(["table", "strikethrough"])
# Every link becomes a link, whatever its scheme: nh3 then drops the unsafe targets (the text of a
# `javascript:` link stays, without its target, instead of showing the raw Markdown).
MARKDOWN.validateLink = lambda url: True
ALLOWED_TAGS = {
    "p", "br", "strong", "em", "b", "i", "u", "s", "del", "blockquote", "ul", "ol", "li",
    "h1", "h2", "h3", "h4", "h5", "h6", "code", "pre", "hr", "a",
    "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}}
ALLOWED_URL_SCHEMES = {"http", "https", "mailto"}
# Dropped with everything inside them, not only their tags.
DROPPED_WITH_CONTENT = {"script", "style", "iframe", "object", "embed", "noscript", "template", "svg", "math"}


REPORT_TEXT_MAX_LENGTH = Report.TEXT_MAX_LENGTH


def validate_report_text(text):
    """Raise a ValidationError naming the field (« Récit : … ») if ``text`` is too long for a report."""
    Report._meta.get_field("text").run_validators(text)


def render_markdown(text):
    """Sanitized HTML of a Markdown narrative, safe to put in a page or a PDF."""
    html = MARKDOWN.render(text or "")
    cleaned = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        clean_content_tags=DROPPED_WITH_CONTENT,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=ALLOWED_URL_SCHEMES,
        link_rel="nofollow noopener noreferrer",
        strip_comments=True,
    )
    return mark_safe(cleaned)  # nh3 leaves only the tags and attributes listed above


def rounds_needing_reports(season):
    """Rounds that call for a report: every round past the draft stage."""
    return (
        Round.objects.filter(season=season)
        .exclude(status=Round.DRAFT)
        .select_related("season", "report", "report__author")
        .order_by("date", "stage", "table", "number")
    )


@dataclass(frozen=True)
class DueReport:
    round: Round
    author: object  # Player, or None when the round has no winner yet
    deadline: datetime.date
    status: ReportStatus


def reports_due(season, as_of=None):
    """Reports not filed yet for ``season``, due or late as of ``as_of``, latest deadline last."""
    if season is None:
        return []
    as_of = as_of or default_as_of(season)
    return cached("reports-due", season, as_of, lambda: _reports_due(season, as_of))


def _reports_due(season, as_of):
    """`reports_due` in three queries whatever the number of rounds: the rounds with their
    reports, their seats, and who took in the rounds without a report."""
    rounds = [
        round_
        for round_ in rounds_needing_reports(season).prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        if (report_of(round_) is None or report_of(round_).filed_on is None)
    ]
    takes = defaultdict(Counter)
    taken = Deal.objects.filter(round__in=[r for r in rounds if report_of(r) is None], kind=Deal.PLAYED)
    for round_id, taker_id in taken.values_list("round_id", "taker_id"):
        takes[round_id][taker_id] += 1
    due = []
    for round_ in rounds:
        round_.season = season  # one rulebook read for all
        report = report_of(round_)
        status = report_status(round_, report, as_of)
        if report is not None:
            author = report.author
        else:
            seats = list(round_.seats.all())
            winner = designated_author(seats, takes[round_.pk])
            author = next((seat.player for seat in seats if seat.player_id == winner), None)
        due.append(DueReport(round_, author, status.deadline, status))
    return sorted(due, key=lambda item: (item.deadline, item.round.number))


def save_report(round_, text, **options):
    """`championship.services.save_report`, a first report written by the designated author
    (``report_author``) unless ``author`` is given."""
    if options.get("author") is None and not Report.objects.filter(round=round_).exists():
        options["author"] = report_author(round_)
    return services.save_report(round_, text, **options)


# --- what a report shows -------------------------------------------------------------------------

# Line colours of the chart, matching the chip colours of site.css (white chips: a grey line).
CHIP_COLOURS = {
    "blanc": "#8d8d8d",
    "jaune": "#e0b400",
    "rouge": "#d33333",
    "bleu": "#2a62c9",
    "vert": "#2f9a4b",
}
SPARE_COLOURS = ["#7b3fa0", "#c2571a", "#1a8c8c", "#555555", "#b0306a"]


@dataclass(frozen=True)
class Highlight:
    title: str
    text: str
    deal_number: int | None = None


@dataclass(frozen=True)
class ChartLine:
    name: str
    colour: str  # the chip colour code ("rouge") or ""
    stroke: str
    dashed: bool
    points: str  # "x,y x,y …" for <polyline points>
    last_x: float
    last_y: float
    total: int


@dataclass(frozen=True)
class ChartLabel:
    name: str
    total: int
    x: float
    y: float


@dataclass(frozen=True)
class TotalsChart(ChartFrame):
    """Running totals of each player through the evening, as SVG geometry (drawn by a template)."""

    lines: tuple  # ChartLine per seat
    labels: tuple  # ChartLabel at the end of each line, spread so that they do not overlap
    has_end: bool  # a last point « fin » after the pot was paid back
    font: int = 10  # size of its text, in units of its canvas


@dataclass(frozen=True)
class BonusLine:
    player: str
    label: str
    points: int
    deal_number: int | None = None


@dataclass(frozen=True)
class ReportDisplay:
    round: object  # presenters.RoundDisplay
    report: Report | None
    author: object  # Player or None
    status: ReportStatus
    late_malus: object  # scoring LineItem or None
    narrative: str  # sanitized HTML
    highlights: tuple
    chart: TotalsChart | None
    bonuses: tuple  # BonusLine: bonuses and maluses with their reasons (rank points left out)
    as_of: datetime.date
    truncated: bool = False  # a text stored before the limit, longer than it: only its start is shown
    phone_chart: TotalsChart | None = None  # the chart drawn for a phone's screen (PHONE_CHART)

    @property
    def text_limit(self):
        return Report.TEXT_MAX_LABEL

    @property
    def is_filed(self):
        return self.status.is_filed

    @property
    def pot_refunds(self):
        """(name, chips) of the players who got something back from the pot at the end."""
        seats, refunds = self.round.seats, self.round.pot_refund
        return [(seat.name, amount) for seat, amount in zip(seats, refunds, strict=False) if amount]


def report_display(round_, as_of=None):
    """Everything a compte-rendu shows (docs/regles.md §6), for the page and the PDF alike."""
    as_of = as_of or default_as_of(round_.season)
    report = report_of(round_)
    author = author_of(round_, report)
    status = report_status(round_, report, as_of)
    late = late_report_line(round_, author, status)
    shown = round_display(round_)
    text = report.text if report is not None else ""
    return ReportDisplay(
        round=shown,
        report=report,
        author=author,
        status=status,
        late_malus=late,
        narrative=render_markdown(text[:REPORT_TEXT_MAX_LENGTH]),
        highlights=tuple(highlights(round_, shown)),
        chart=totals_chart(shown),
        phone_chart=totals_chart(shown, **PHONE_CHART),
        bonuses=tuple(bonus_lines(round_, shown)),
        as_of=as_of,
        truncated=len(text) > REPORT_TEXT_MAX_LENGTH,
    )


def bonus_lines(round_, shown):
    """Bonuses and maluses with their reasons: the stored championship lines once homologated,
    else the adjustments entered so far."""
    lines = ChampionshipLine.objects.filter(round=round_).exclude(code="rank").select_related("player")
    if shown.has_championship_points:
        return [BonusLine(line.player.name, line.label, line.points, line.deal_number) for line in lines]
    return [
        BonusLine(row.player, f"{row.label} — {row.note}" if row.note else row.label, row.points)
        for row in shown.adjustments
    ]


def highlights(round_, shown):
    """The largest deal (by the absolute value of U), the chelems and the petits au bout."""
    if shown.totals_only or not shown.deals:
        return []
    rows = {row.number: row for row in shown.deals}
    played = [row for row in shown.deals if row.kind == Deal.PLAYED]
    found = []
    if played:
        largest = max(abs(row.unit) for row in played)
        for row in played:
            if largest and abs(row.unit) == largest:
                text = f"{row.summary} : U = {signed(row.unit)}"
                found.append(Highlight("Plus grosse donne", text, row.number))
    names = {seat.player_id: seat.name for seat in shown.seats}
    deals = round_.deals.filter(kind=Deal.PLAYED).order_by("number")
    for deal in deals:
        row = rows[deal.number]
        if deal.chelem_made_by or deal.chelem_announced:
            found.append(Highlight("Chelem", f"{row.summary} — {_chelem_text(deal)}", deal.number))
    for deal in deals:
        if deal.petit_au_bout:
            if deal.petit_au_bout == ATTACK:
                text = f"mené au bout par l'attaque {of_name(names.get(deal.taker_id, '?'))}"
            else:
                text = f"mené au bout par la défense contre {names.get(deal.taker_id, '?')}"
            text += f" ({rows[deal.number].contract_label})"
            found.append(Highlight("Petit au bout", text, deal.number))
    return found


def _chelem_text(deal):
    if deal.chelem_made_by == ATTACK:
        return "chelem annoncé et réussi" if deal.chelem_announced else "chelem réussi sans annonce"
    if deal.chelem_made_by == DEFENCE:
        return "chelem de la défense" + (" sur un chelem annoncé" if deal.chelem_announced else "")
    return "chelem annoncé et chuté"


# The chart on a phone: 360 units wide, so that its 14-unit text stays at least 12 CSS pixels
# tall on a 390-pixel screen, with fewer numbered deals.
PHONE_CHART = {"width": 360, "height": 300, "most": 6, "font": 14}


def totals_chart(shown, width=640, height=240, *, most=16, font=10):
    """The chart of the running totals: 0 before deal 1, then after every deal, then the final
    totals once the pot is paid back (a last point « fin » when something was left in it); at
    most about `most` numbered deals on the axis, text `font` units tall."""
    if shown.totals_only or not shown.deals:
        return None
    series = [[0] + [row.running[index] for row in shown.deals] for index in range(len(shown.seats))]
    steps = ["0"] + [str(row.number) for row in shown.deals]
    if any(shown.pot_refund):
        for index, seat in enumerate(shown.seats):
            series[index].append(seat.total if seat.total is not None else series[index][-1])
        steps.append("fin")
    count = len(steps)
    plot = Plot.around(
        [value for line in series for value in line],
        count,
        left=round(4.6 * font),
        top=10,
        right=width - round(7.8 * font),
        bottom=height - 2 * font - 6,
        minimum_step=10,
    )
    x, y = plot.x, plot.y

    lines = []
    spare = iter(SPARE_COLOURS)
    for seat, line in zip(shown.seats, series, strict=True):
        stroke = CHIP_COLOURS.get(seat.colour) or next(spare, "#333333")
        lines.append(
            ChartLine(
                name=seat.name,
                colour=seat.colour,
                stroke=stroke,
                dashed=seat.colour == "blanc",
                points=plot.polyline(line),
                last_x=x(count - 1),
                last_y=y(line[-1]),
                total=line[-1],
            )
        )
    x_ticks = plot.index_ticks(steps, most=most)
    y_ticks = plot.value_ticks(num)
    labels = _spread_labels(lines, plot.right + 6, plot.top + 4, plot.bottom, gap=font + 2)
    has_end = steps[-1] == "fin"
    return TotalsChart(
        **ChartFrame.fields_of(plot, width, height, x_ticks, y_ticks),
        lines=tuple(lines),
        labels=labels,
        has_end=has_end,
        font=font,
    )


def _spread_labels(lines, x, top, bottom, gap):
    """End-of-line labels at their line's height, pushed apart by at least ``gap``."""
    order = sorted(lines, key=lambda line: line.last_y)
    ys = []
    for line in order:
        ys.append(max(line.last_y, ys[-1] + gap) if ys else max(line.last_y, top))
    overflow = ys[-1] - bottom if ys else 0
    if overflow > 0:
        ys = [value - overflow for value in ys]
        for index in range(len(ys) - 2, -1, -1):
            ys[index] = min(ys[index], ys[index + 1] - gap)
    return tuple(
        ChartLabel(line.name, line.total, x, round(value, 1)) for line, value in zip(order, ys, strict=True)
    )


# --- PDFs -----------------------------------------------------------------------------------------


def report_filename(round_):
    stage = {Round.PLAYOFF: f"play-off-{round_.table}-", Round.FINAL: "finale-"}.get(round_.stage, "")
    return f"compte-rendu-{round_.season.name}-{stage}manche-{round_.number}.pdf"


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
