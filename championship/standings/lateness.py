"""Report lateness (docs/regles.md §5.5, §6), read from stored data: the one place that says who
writes a round's compte-rendu, by when, where it stands on a date, and the malus it costs.

The rule itself is pure and lives in `scoring.championship` (`late_report_weeks`,
`late_report_item`) and `scoring.cup` (its bound by the season's end). The standings, the cup's
outlook, the report pages, the bulletin and the sheet export all ask this module:

- `report_author`, `designated_author`, `season_author`: who writes it (the Report's author, else
  the round winner; on a shared first place the one who took most contracts, then seat order);
- `report_deadline`: the round's date plus the season's `reports.deadline_days`;
- `report_status`: on time, late, due or missing as of a date (a report filed after that date was
  still missing on it), with its started weeks of lateness;
- `round_late_report_line`: the `late_report` line of one round as the standings count it (what
  a page or an exported sheet shows), `late_reports`: every malus of a season read once.
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext, ngettext

from championship.models import Deal, Report
from championship.rounds.data import counts_for_championship
from scoring.championship import LineItem, late_report_item, late_report_weeks

ON_TIME, LATE, DUE, MISSING = "on_time", "late", "due", "missing"


def default_as_of(season):
    """Today, but no later than the season's end: a finished season's ranking stays put."""
    return min(timezone.localdate(), season.end_date)


def report_deadline(round_, rulebook=None):
    """The day a round's report is due (filed on that day, it is on time)."""
    rulebook = rulebook or round_.season.rulebook
    return round_.date + datetime.timedelta(days=rulebook.reports.deadline_days)


# --- who writes it ---------------------------------------------------------------------------------


def designated_author(seats, takes):
    """The player id of the round winner (seat rank 1); on a shared first place the one who took
    most contracts (`takes`: player id -> count), then the first by seat position."""
    firsts = [seat for seat in seats if seat.rank == 1]
    if not firsts:
        return None
    return min(firsts, key=lambda seat: (-takes.get(seat.player_id, 0), seat.position)).player_id


def report_author(round_):
    """Who writes the compte-rendu of a round: its Report's author, else the round winner
    (docs/regles.md §6; a shared first place goes to the one who took most contracts, then to the
    first by seat position). None for a round without ranked seats."""
    report = Report.objects.filter(round=round_).select_related("author").first()
    if report is not None:
        return report.author
    seats = list(round_.seats.select_related("player").order_by("position"))
    takes = Counter(round_.deals.filter(kind=Deal.PLAYED).values_list("taker_id", flat=True))
    author = designated_author(seats, takes)
    return next((seat.player for seat in seats if seat.player_id == author), None)


def season_author(data, round_):
    """`(author id, filed on)` of a counted round of a season read by
    `championship.standings.season.load_season`, without a query; `(None, None)` without a winner."""
    report = data.reports.get(round_.pk)
    if report is not None:
        return report.author_id, report.filed_on
    return designated_author(data.seats.get(round_.pk, []), data.takes(round_.pk)), None


def report_of(round_):
    """The round's Report, or None."""
    try:
        return round_.report
    except Report.DoesNotExist:
        return None


def author_of(round_, report):
    """The report's author or, while there is no report, the round's designated writer."""
    return report.author if report is not None else report_author(round_)


# --- where it stands on a date ----------------------------------------------------------------------


@dataclass(frozen=True)
class ReportStatus:
    """Where a report stands as of a date: ``state`` is on_time, late, due or missing."""

    state: str
    deadline: datetime.date
    filed_on: datetime.date | None
    weeks_late: int

    @property
    def is_filed(self):
        return self.filed_on is not None

    @property
    def is_late(self):
        return self.weeks_late > 0

    @property
    def label(self):
        """In the active language (French on the PDFs and the sheets, which are written in French)."""
        weeks = self.weeks_late
        started = ngettext("%(counter)s semaine entamée", "%(counter)s semaines entamées", weeks) % {
            "counter": weeks
        }
        if self.state == ON_TIME:
            return gettext("rendu à temps")
        if self.state == LATE:
            return gettext("rendu en retard (%(started)s)") % {"started": started}
        if self.state == DUE:
            return gettext("à rendre")
        return gettext("manquant, en retard de %(started)s") % {"started": started}


_UNKNOWN = object()


def report_status(round_, report=_UNKNOWN, as_of=None):
    """The status of the report of ``round_`` (``None``: there is none) as of ``as_of`` (today, or
    the season's end if earlier); a report filed after ``as_of`` was still missing on that date."""
    as_of = as_of or default_as_of(round_.season)
    if report is _UNKNOWN:
        report = report_of(round_)
    deadline = report_deadline(round_)
    filed_on = report.filed_on if report is not None else None
    if filed_on is not None and filed_on > as_of:
        filed_on = None
    weeks = late_report_weeks(deadline, filed_on, as_of)
    if filed_on is not None:
        return ReportStatus(LATE if weeks else ON_TIME, deadline, filed_on, weeks)
    return ReportStatus(MISSING if weeks else DUE, deadline, None, weeks)


# --- the malus ---------------------------------------------------------------------------------------


def late_report_line(round_, author, status):
    """The automatic malus of a late or missing report, when the round counts for the standings."""
    if author is None or not counts_for_championship(round_):
        return None
    return late_report_item(author.name, status.weeks_late, round_.season.rulebook)


def round_late_report_line(round_, as_of=None):
    """The `late_report` line of one round as of a date (default: as the standings count it,
    `default_as_of`), or None: what a round's page, its report and its exported sheet show."""
    report = report_of(round_)
    author = author_of(round_, report)
    status = report_status(round_, report, as_of or default_as_of(round_.season))
    return late_report_line(round_, author, status)


@dataclass(frozen=True)
class LateReport:
    round: object
    player: object
    deadline: datetime.date
    filed: datetime.date | None  # as known on the `as_of` date
    weeks: int
    item: LineItem


def late_reports(data, as_of):
    """The late-report maluses of the counted rounds of a season read by
    `championship.standings.season.load_season`, as of a date (a report filed after `as_of` was still
    missing on that date)."""
    rulebook = data.season.rulebook
    late = []
    for round_ in data.rounds:
        author, filed = season_author(data, round_)
        if author is None:
            continue
        if filed is not None and filed > as_of:
            filed = None
        deadline = report_deadline(round_, rulebook)
        weeks = late_report_weeks(deadline, filed, as_of)
        player = data.players[author]
        item = late_report_item(player.name, weeks, rulebook)
        if item is not None:
            late.append(LateReport(round_, player, deadline, filed, weeks, item))
    return late
