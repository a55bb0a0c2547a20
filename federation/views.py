from django.shortcuts import render

from championship.cup import cup_state
from championship.models import Round
from championship.reports import reports_due
from championship.standings import default_as_of, season_standings
from federation.models import Official, Season
from federation.roles import can_enter_rounds

LEADERS = 5
LATEST_ROUNDS = 5


def home(request):
    season = Season.objects.current()
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
        context["reports_due"] = reports_due(season, default_as_of(season))
        context["can_enter_rounds"] = can_enter_rounds(request.user, season)
    past = Season.objects.exclude(pk=getattr(season, "pk", None)).order_by("-start_date").first()
    if past is not None:
        context["past_season"] = past
        context["past_champion"] = cup_state(past).champion
    return render(request, "federation/home.html", context)
