"""Standings pages: the season's ranking, each player's points explained, awards, seasons, the
player's history, and the board's rulebook page (a change recomputes the season)."""

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from championship.cup.outlook import cup_champion
from championship.cup.state import cup_rounds_of
from championship.forms import RulebookForm, refused
from championship.labels import english_ordinal, french_active, of_player
from championship.lib.summaries import cached_html, cached_many
from championship.services import update_season_rulebook
from championship.standings.lateness import default_as_of
from championship.standings.player_charts import PHONE_CHART, points_chart
from championship.standings.players import player_page, player_season_detail
from championship.standings.season import season_standings, seasons_standings
from championship.standings.tables import StandingsTable, UnrankedTable
from championship.views.access import get_season
from federation.models import Player, Season
from federation.roles import can_enter_rounds, is_board
from scoring.awards import AWARDS
from scoring.french import num, ordinal, signed
from scoring.rulebook import RulebookError


def _get_season_for_board(request, name):
    season = get_season(name)
    if not is_board(request.user, season):
        raise PermissionDenied(gettext("Seule la Direction de la saison peut modifier son règlement."))
    return season


def _as_of(request):
    """The `?as_of=YYYY-MM-DD` date of the late-report malus: (date or None, error or None)."""
    raw = request.GET.get("as_of", "").strip()
    if not raw:
        return None, None
    try:
        return datetime.date.fromisoformat(raw), None
    except ValueError:
        return None, f"Date « as_of » invalide : « {raw} » (format attendu AAAA-MM-JJ) ; calcul au jour même."


def _round_url(round_pk, deal_number=None):
    url = reverse("championship:round", args=[round_pk])
    return f"{url}#donne-{deal_number}" if deal_number else url


def _place(row):
    if row is None:
        return ""
    place = ordinal(row.rank) if french_active() else english_ordinal(row.rank)
    return place + (" " + gettext("ex æquo") if row.tied else "")


def _season_summaries(seasons):
    standings = seasons_standings(seasons)
    cup_rounds = cup_rounds_of(seasons)
    return [
        {
            "podium": standings[season.pk].podium(),
            "champion": cup_champion(season, standings[season.pk], cup_rounds[season.pk]),
            "rounds": len(standings[season.pk].rounds),
        }
        for season in seasons
    ]


def season_summaries(seasons):
    """`{season pk: summary}` of the seasons list (podium, champion, rounds), cached."""
    return cached_many("summary", seasons, default_as_of, _season_summaries)


def standings_table_html(request, season, standings):
    """The ranked table of the standings page, rendered once per state of the season and date:
    200 rows cost django-tables2 tens of milliseconds."""

    def render_table():
        table = StandingsTable(standings.ranked, season)
        RequestConfig(request, paginate=False).configure(table)
        return table.as_html(request)

    return cached_html("standings", season, standings.as_of, render_table)


@require_GET
def seasons(request):
    seasons = list(Season.objects.order_by("-start_date"))
    summaries = season_summaries(seasons)
    rows = [{"season": season, **summaries[season.pk]} for season in seasons]
    return render(request, "championship/standings/seasons.html", {"rows": rows})


@require_GET
def season(request, name):
    season = get_season(name)
    as_of, as_of_error = _as_of(request)
    standings = season_standings(season, as_of)
    if request.GET.get("_export") == "csv":
        table = StandingsTable(standings.ranked, season)
        return TableExport("csv", table).response(filename=f"classement-{season.name}.csv")
    unranked = UnrankedTable(standings.unranked, season)
    RequestConfig(request, paginate=False).configure(unranked)
    context = {
        "season": season,
        "standings": standings,
        "table_html": standings_table_html(request, season, standings),
        "unranked_table": unranked,
        "as_of_error": as_of_error,
        "as_of_query": f"as_of={as_of.isoformat()}" if as_of else "",
        "can_edit_rulebook": is_board(request.user, season),
        # drafts are shown, as drafts, only to those who enter rounds (as the round list)
        "can_enter_rounds": can_enter_rounds(request.user, season),
        "late": [{**vars(malus), "shown": num(malus.item.points)} for malus in standings.late],
    }
    return render(request, "championship/standings/season.html", context)


@require_GET
def player_season(request, name, pk):
    season = get_season(name)
    player = get_object_or_404(Player, pk=pk)
    as_of, as_of_error = _as_of(request)
    detail = player_season_detail(season, player, as_of)
    blocks = []
    for block in detail.rounds:
        lines = [
            {
                **line,
                "url": _round_url(block.round.pk, line["deal_number"]) if line["deal_number"] else None,
                "shown": signed(line["points"]),
            }
            for line in block.lines
        ]
        blocks.append(
            {
                **vars(block),
                "lines": lines,
                "url": _round_url(block.round.pk),
                "shown": num(block.subtotal),
                "total_shown": num(block.seat.total) if block.seat and block.seat.total is not None else "",
            }
        )
    context = {
        "season": season,
        "player": player,
        "detail": detail,
        "blocks": blocks,
        "place": _place(detail.row),
        "of_player": of_player(player.name, english="of"),
        "total": num(detail.total),
        "as_of_error": as_of_error,
    }
    return render(request, "championship/standings/player_season.html", context)


@require_GET
def awards(request, name):
    season = get_season(name)
    as_of, as_of_error = _as_of(request)
    standings = season_standings(season, as_of)
    awards = [
        (
            award,
            [standings.by_name[name] for name in award.players],
            AWARDS[award.code].shown(award),
        )
        for award in standings.awards
    ]
    context = {"season": season, "standings": standings, "awards": awards, "as_of_error": as_of_error}
    return render(request, "championship/standings/awards.html", context)


@require_GET
def player(request, pk):
    player = get_object_or_404(Player, pk=pk)
    page = player_page(player)
    context = {
        "player": player,
        "history": page.history,
        "current": page.current,
        "chart": points_chart(page.series) if page.scored else None,
        "phone_chart": points_chart(page.series, *PHONE_CHART) if page.scored else None,
        "series": page.series,
        "stats": page.stats,
    }
    return render(request, "championship/standings/player.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def season_rulebook(request, name):
    season = _get_season_for_board(request, name)
    form = RulebookForm(request.POST or None, initial={"rulebook_text": season.rulebook_text})
    if request.method == "POST" and form.is_valid():
        try:
            update_season_rulebook(
                season, form.cleaned_data["rulebook_text"], request.user, form.cleaned_data["reason"]
            )
        except RulebookError as error:
            form.add_error("rulebook_text", refused(error))
        else:
            messages.success(
                request,
                gettext("Règlement de la saison %(name)s enregistré ; classement recalculé.")
                % {"name": season.name},
            )
            return redirect("championship:season", season.name)
    return render(request, "championship/standings/rulebook.html", {"season": season, "form": form})


urlpatterns = [
    path("saisons/", seasons, name="seasons"),
    path("saisons/<str:name>/", season, name="season"),
    path("saisons/<str:name>/accessits/", awards, name="awards"),
    path("saisons/<str:name>/joueurs/<int:pk>/", player_season, name="player_season"),
    path("saisons/<str:name>/reglement/", season_rulebook, name="season_rulebook"),
    path("joueurs/<int:pk>/", player, name="player"),
]
