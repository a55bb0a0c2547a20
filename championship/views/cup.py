"""The Coupe du Monde pages: the bracket of a season (seeds, play-off tables, final, champion)
and, during the season, each player's status for the play-offs. Both are public."""

import logging

from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from championship.cup.outlook import season_race, status_assumption
from championship.cup.prospects import STATUS_CODES, detail, prospect_json, status_label
from championship.cup.state import cup_state
from championship.cup.tables import CupStatusTable
from championship.lib.summaries import cached_html
from championship.views.access import get_season
from championship.views.stats import json_response, wants_json
from federation.roles import can_enter_rounds, player_of
from scoring.outlook.linear import SolverError

logger = logging.getLogger("championship.figures")


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
    """Where each player can still finish and what he needs (docs/regles.md §6.4): the reader's
    own line first when he is identified, then everyone in one compact table, then a « détail »
    per player; ``?format=json`` gives both answers of every player."""
    season = get_season(name)
    try:
        race = season_race(season)  # computed once per state of the season, date and calendar
    except SolverError:  # a runaway search (docs/regles.md §6.4): said, never a server error
        logger.exception("course aux play-offs de %s : calcul abandonné", season.name)
        response = render(request, "championship/cup/status_unavailable.html", {"season": season}, status=503)
        response["Retry-After"] = "600"
        return response
    if wants_json(request):
        return json_response(
            {
                "season": season.name,
                "remaining": race.outlook.rounds,
                "places": season.rulebook.cup.playoff_players,
                "players": [prospect_json(row) for row in race.rows],
            }
        )
    me = player_of(request.user)
    mine = next((row for row in race.rows if me is not None and row.player.pk == me.pk), None)
    context = {
        "season": season,
        "table_html": cup_status_html(request, season, race),
        "assumption": status_assumption(season, None, race.outlook),
        "counts": [(code, status_label(code), count) for code, count in _counts(race.rows).items()],
        "mine": mine,
        "my_detail": detail(mine.prospect) if mine else [],
        "details": [(row, detail(row.prospect)) for row in race.rows],
    }
    return render(request, "championship/cup/status.html", context)


def cup_status_html(request, season, race):
    """The table of the play-off statuses, rendered once per state of the season, date and
    calendar (`championship.cup.outlook.season_race`)."""

    def render_table():
        table = CupStatusTable(race.rows, season)
        RequestConfig(request, paginate=False).configure(table)
        return table.as_html(request)

    return cached_html(f"cup-status:{race.calendar}", season, race.outlook.as_of, render_table)


def _counts(rows):
    counts = dict.fromkeys(STATUS_CODES, 0)
    for row in rows:
        counts[row.status.code] += 1
    return counts


urlpatterns = [
    path("saisons/<str:name>/coupe/", cup, name="cup"),
    path("saisons/<str:name>/coupe/qualifications/", cup_status, name="cup_status"),
]
