"""The Coupe du Monde pages: the bracket of a season (seeds, play-off tables, final, champion)
and, during the season, each player's status for the play-offs. Both are public."""

from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from championship.cup.outlook import season_race, status_assumption
from championship.cup.state import cup_state
from championship.cup.tables import CupStatusTable
from championship.lib.summaries import cached_html
from championship.views.access import get_season
from championship.views.stats import needs_context, needs_json, wants_json
from federation.roles import can_enter_rounds


@require_GET
def cup(request, name):
    season = get_season(name)
    state = cup_state(season)
    context = {
        "season": season,
        "state": state,
        "rules": season.rulebook.cup,
        "ranked_count": len(state.standings.ranked),
        # Rounds not homologated yet are shown only to those who enter rounds (as the round page).
        "can_enter": can_enter_rounds(request.user, season),
    }
    return render(request, "championship/cup/bracket.html", context)


@require_GET
def cup_status(request, name):
    season = get_season(name)
    race = season_race(season)  # computed once per state of the season and date
    if wants_json(request):  # what each player needs (issue 25), for scripts
        return needs_json(season, race)
    context = {
        "season": season,
        "table_html": cup_status_html(request, season, race.outlook.as_of, race.rows),
        "assumption": status_assumption(season, None, race.outlook),
        "counts": _counts(race.rows),
        "needs": needs_context(race) if race.outlook.rounds else [],
    }
    return render(request, "championship/cup/status.html", context)


def cup_status_html(request, season, as_of, rows):
    """The table of the play-off statuses, rendered once per state of the season and date."""

    def render_table():
        table = CupStatusTable(rows, season)
        RequestConfig(request, paginate=False).configure(table)
        return table.as_html(request)

    return cached_html("cup-status", season, as_of, render_table)


def _counts(rows):
    counts = {"qualified": 0, "eliminated": 0, "in_contention": 0}
    for row in rows:
        counts[row.status.code] += 1
    return counts


urlpatterns = [
    path("saisons/<str:name>/coupe/", cup, name="cup"),
    path("saisons/<str:name>/coupe/qualifications/", cup_status, name="cup_status"),
]
