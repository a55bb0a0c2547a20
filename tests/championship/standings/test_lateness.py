"""Report lateness is computed once (`championship.standings.lateness`): the standings, the round's report
page, the bulletin and the sheet export read the same malus for a round on a date."""

import datetime

import pytest

from championship.models import Report
from championship.reports.bulletin import bulletin_context
from championship.reports.display import report_display
from championship.standings.lateness import round_late_report_line, season_author
from championship.standings.season import load_season, season_standings
from federation.models import Player
from tests.championship.standings.test_standings import ROUND_DATE, play, table


@pytest.mark.parametrize(
    ("filed", "as_of", "points"),
    [
        (None, datetime.date(2010, 11, 26), None),  # due, not late yet
        (None, datetime.date(2010, 12, 10), -2),  # missing, 2 started weeks
        (datetime.date(2010, 11, 29), datetime.date(2010, 12, 10), -1),  # filed 3 days late
        (datetime.date(2010, 12, 20), datetime.date(2010, 12, 10), -2),  # filed after the date asked
    ],
)
def test_every_reader_sees_the_same_late_report_malus(season, filed, as_of, points):
    round_ = play(season, table(["Bruno", "Alice"]), date=ROUND_DATE)
    if filed is not None:
        Report.objects.create(round=round_, author=Player.objects.get(name="Bruno"), filed_on=filed)
    line = round_late_report_line(round_, as_of)
    standings = season_standings(season, as_of)
    display = report_display(round_, as_of)
    bulletin = bulletin_context(season, as_of)
    if points is None:
        assert line is None and standings.late == [] and display.late_malus is None
    else:
        assert (line.player, line.code, line.points) == ("Bruno", "late_report", points)
        assert [malus.item for malus in standings.late] == [line]
        assert display.late_malus == line
    assert [summary.author.name for summary in bulletin["rounds"]] == ["Bruno"]
    assert season_author(load_season(season), round_) == (Player.objects.get(name="Bruno").pk, filed)
