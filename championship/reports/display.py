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
from dataclasses import dataclass

import nh3
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from markdown_it import MarkdownIt

from championship import labels
from championship.lib.charts import ChartFrame, Plot
from championship.models import Deal, Report, Round
from championship.rounds.display import round_display
from championship.standings.lateness import (
    ReportStatus,
    author_of,
    default_as_of,
    late_report_line,
    report_of,
    report_status,
)
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
class ReportDisplay:
    round: object  # presenters.RoundDisplay
    report: Report | None
    author: object  # Player or None
    status: ReportStatus
    late_malus: object  # scoring LineItem or None
    narrative: str  # sanitized HTML
    highlights: tuple
    chart: TotalsChart | None
    bonuses: tuple  # rounds.display.BonusLine: the round's own (its page shows the same)
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
        bonuses=shown.bonuses,
        as_of=as_of,
        truncated=len(text) > REPORT_TEXT_MAX_LENGTH,
    )


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
                text = f"{row.summary}{labels.colon()}U = {signed(row.unit)}"
                found.append(Highlight(gettext("Plus grosse donne"), text, row.number))
    names = {seat.player_id: seat.name for seat in shown.seats}
    deals = round_.deals.filter(kind=Deal.PLAYED).order_by("number")
    for deal in deals:
        row = rows[deal.number]
        if deal.chelem_made_by or deal.chelem_announced:
            found.append(Highlight(gettext("Chelem"), f"{row.summary} — {_chelem_text(deal)}", deal.number))
    for deal in deals:
        if deal.petit_au_bout:
            if deal.petit_au_bout == ATTACK:
                taker = names.get(deal.taker_id, "?")
                if labels.french_active():
                    text = f"mené au bout par l'attaque {of_name(taker)}"
                else:
                    text = gettext("mené au bout par l'attaque de %(taker)s") % {"taker": taker}
            else:
                text = gettext("mené au bout par la défense contre %(taker)s") % {
                    "taker": names.get(deal.taker_id, "?")
                }
            text += f" ({rows[deal.number].contract_label})"
            found.append(Highlight(gettext("Petit au bout"), text, deal.number))
    return found


def _chelem_text(deal):
    if deal.chelem_made_by == ATTACK:
        if deal.chelem_announced:
            return gettext("chelem annoncé et réussi")
        return gettext("chelem réussi sans annonce")
    if deal.chelem_made_by == DEFENCE:
        if deal.chelem_announced:
            return gettext("chelem de la défense sur un chelem annoncé")
        return gettext("chelem de la défense")
    return gettext("chelem annoncé et chuté")


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
        steps.append(gettext("fin"))
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
    has_end = steps[-1] == gettext("fin")
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
