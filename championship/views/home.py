"""The home page: the current season at a glance, as published; for an identified member, it
starts with him (« Moi », `championship.views.me`).

A visitor sees homologated rounds and the figures they give, nothing else. Those who enter the
season's rounds (secretary, board) also see their work queue: the rounds not homologated yet and
the reports those rounds wait for; a round's designated writer sees the report he owes.
"""

from types import SimpleNamespace

from django.conf import settings
from django.shortcuts import render
from django.urls import path

from championship.cup.state import cup_state
from championship.lib.summaries import cached
from championship.models import Round
from championship.reports.access import may_read_report
from championship.reports.due import reports_due
from championship.standings.lateness import default_as_of
from championship.views.me import me_block, ranking_of
from federation.context_processors import current_season
from federation.models import Official, Season
from federation.roles import can_enter_rounds, is_board, player_of

LEADERS = 5
LATEST_ROUNDS = 5


def visible_reports_due(user, season, as_of=None):
    """The reports due that ``user`` may read (see ``championship.views.reports``): those of
    homologated rounds, plus, for those who enter rounds, every other one, and for a player,
    the one he is to write."""
    due = reports_due(season, as_of)
    return [item for item in due if may_read_report(user, item.round, item.author, season=season)]


def leaders_of(season, as_of, ranking=None):
    """The season's first ranked players, from the ranking cached as plain values
    (`me.ranking_of`): reading the whole cached standings back costs more than the rest of the
    page."""
    ranked, _unranked = ranking or ranking_of(season, as_of)
    return [
        SimpleNamespace(
            rank=line.rank,
            player=SimpleNamespace(pk=line.pk, name=line.name),
            points=line.points,
            rounds=line.rounds,
        )
        for line in ranked[:LEADERS]
    ]


def champion_of(season):
    """The season's Champion du Monde (pk and name) or None, cached as plain values."""

    def compute():
        champion = cup_state(season).champion
        return None if champion is None else (champion.pk, champion.name)

    found = cached("home-champion", season, None, compute)
    return None if found is None else SimpleNamespace(pk=found[0], name=found[1])


def home(request):
    season = current_season(request)
    context = {"season": season, "board": [], "leaders": [], "latest_rounds": [], "reports_due": []}
    if season is not None:
        role_order = [code for code, _label in Official.ROLES]
        context["board"] = sorted(
            season.officials.select_related("player"), key=lambda official: role_order.index(official.role)
        )
        ranking = ranking_of(season, default_as_of(season))
        context["leaders"] = leaders_of(season, default_as_of(season), ranking)
        context["minimum_rounds"] = season.rulebook.championship.minimum_rounds
        context["latest_rounds"] = (
            season.rounds.filter(status=Round.HOMOLOGATED)
            .order_by("-date", "-number")
            .prefetch_related("seats__player")[:LATEST_ROUNDS]
        )
        context["reports_due"] = visible_reports_due(request.user, season, default_as_of(season))
        me = player_of(request.user)
        if me is not None:
            context["moi"] = me_block(me, season, ranking, context["reports_due"])
            context["push_key"] = settings.VAPID_PUBLIC_KEY  # « Recevoir les nouvelles… » when set
        context["can_enter_rounds"] = can_enter_rounds(request.user, season)
        if context["can_enter_rounds"]:
            unpublished = list(
                season.rounds.exclude(status=Round.HOMOLOGATED).order_by("date", "stage", "table", "number")
            )
            context["draft_rounds"] = [round_ for round_ in unpublished if round_.status == Round.DRAFT]
            if not is_board(request.user, season):  # the board's are in « Manches à homologuer »
                context["pending_rounds"] = [r for r in unpublished if r.status == Round.SUBMITTED]
    past = Season.objects.exclude(pk=getattr(season, "pk", None)).order_by("-start_date").first()
    if past is not None:
        context["past_season"] = past
        context["past_champion"] = champion_of(past)
    return render(request, "federation/home.html", context)


urlpatterns = [path("", home, name="home")]
