"""The home page: the current season at a glance, as published.

A visitor sees homologated rounds and the figures they give, nothing else. Those who enter the
season's rounds (secretary, board) also see their work queue: the rounds not homologated yet and
the reports those rounds wait for; a round's designated writer sees the report he owes.
"""

from django.shortcuts import render

from championship.cup import cup_state
from championship.lateness import default_as_of
from championship.models import Round
from championship.reports import reports_due
from championship.standings import season_standings
from federation.context_processors import current_season
from federation.models import Official, Season
from federation.roles import can_enter_rounds, player_of

LEADERS = 5
LATEST_ROUNDS = 5


def visible_reports_due(user, season, as_of=None):
    """The reports due that ``user`` may read (see ``championship.views.reports``): those of
    homologated rounds, plus, for those who enter rounds, every other one, and for a player,
    the one he is to write."""
    due = reports_due(season, as_of)
    if can_enter_rounds(user, season):
        return due
    player = player_of(user)

    def owed_by_viewer(item):
        return player is not None and item.author is not None and item.author.pk == player.pk

    return [item for item in due if item.round.is_homologated or owed_by_viewer(item)]


def home(request):
    season = current_season(request)
    context = {"season": season, "board": [], "leaders": [], "latest_rounds": [], "reports_due": []}
    if season is not None:
        role_order = [code for code, _label in Official.ROLES]
        context["board"] = sorted(
            season.officials.select_related("player"), key=lambda official: role_order.index(official.role)
        )
        standings = season_standings(season)
        context["standings"] = standings
        context["leaders"] = standings.ranked[:LEADERS]
        context["latest_rounds"] = (
            season.rounds.filter(status=Round.HOMOLOGATED)
            .order_by("-date", "-number")
            .prefetch_related("seats__player")[:LATEST_ROUNDS]
        )
        context["reports_due"] = visible_reports_due(request.user, season, default_as_of(season))
        context["can_enter_rounds"] = can_enter_rounds(request.user, season)
        if context["can_enter_rounds"]:
            context["pending_rounds"] = season.rounds.exclude(status=Round.HOMOLOGATED).order_by(
                "date", "stage", "table", "number"
            )
    past = Season.objects.exclude(pk=getattr(season, "pk", None)).order_by("-start_date").first()
    if past is not None:
        context["past_season"] = past
        context["past_champion"] = cup_state(past).champion
    return render(request, "federation/home.html", context)
