"""The comptes-rendus due: the rounds that wait for theirs, with their designated writer and deadline."""

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import Prefetch

from championship.lib.summaries import cached
from championship.models import Deal, Round, Seat
from championship.standings.lateness import (
    ReportStatus,
    default_as_of,
    designated_author,
    report_of,
    report_status,
)


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
