"""Rounds, the public pages: a season's rounds and a round's page.

Anyone reads a homologated round; the secretary and the board also read the others (and their
links to the entry desk, `championship.views.desk`; the board's acts are `views.board`).
"""

from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse

from championship.lib.summaries import cached_html
from championship.models import Round
from championship.rounds.display import round_display
from championship.rounds.pot_chart import PHONE_POT_CHART, pot_chart
from championship.rounds.signoffs import table_signoffs
from championship.rounds.tables import RankingTable, RoundListTable
from championship.views.access import get_readable_round, readable_signoffs
from federation.models import Season
from federation.roles import can_enter_rounds, is_board


def _export_url(round_):
    return reverse("championship:round_export", args=[round_.pk])


# --- public pages --------------------------------------------------------------------------------


def round_list_html(request, season, can_enter):
    """The table of a season's rounds, rendered once per state of the season: for those who
    enter rounds (drafts too, with their links) and for the others."""
    rounds = season.rounds.prefetch_related("seats__player").order_by("stage", "table", "number")
    if not can_enter:
        rounds = rounds.filter(status=Round.HOMOLOGATED)

    def render_table():
        return RoundListTable(list(rounds), can_enter=can_enter).as_html(request)

    return cached_html(f"rounds:{int(can_enter)}", season, None, render_table)


def round_list(request, season_name):
    season = get_object_or_404(Season, name=season_name)
    can_enter = can_enter_rounds(request.user, season)
    table_html = round_list_html(request, season, can_enter)
    return render(
        request,
        "championship/rounds/list.html",
        {"season": season, "table_html": table_html, "can_enter": can_enter},
    )


def round_detail(request, pk):
    round_ = get_readable_round(request, pk)
    display = round_display(round_, history=True)
    board = is_board(request.user, round_.season)
    can_edit = can_enter_rounds(request.user, round_.season) and (not round_.is_homologated or board)
    track = display.pot_track
    drawn = any(pot for _number, pot in track)
    return render(
        request,
        "championship/rounds/detail.html",
        {
            "round": round_,
            "display": display,
            "pot_chart": pot_chart(track) if drawn else None,
            "phone_pot_chart": pot_chart(track, *PHONE_POT_CHART) if drawn else None,
            "can_edit": can_edit,
            "can_homologate": board and not round_.is_homologated,
            "export_url": _export_url(round_),
            "ranking": RankingTable(display.ranking, championship=display.has_championship_points),
            # the table's sign-off, for the officials (the secretary and the board)
            "signoffs": (
                readable_signoffs(request.user, round_, table_signoffs(round_))
                if can_enter_rounds(request.user, round_.season)
                else None
            ),
        },
    )


# --- entry ---------------------------------------------------------------------------------------


# --- lifecycle -----------------------------------------------------------------------------------


urlpatterns = [
    path("saisons/<str:season_name>/manches/", round_list, name="round_list"),
    path("manches/<int:pk>/", round_detail, name="round"),
]
