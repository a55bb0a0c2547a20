"""The statistics pages (issue 25, docs/statistiques.md): a player's game for a season or his
career and the deals behind each figure, a season's partners and rivals, two players head to
head, the federation's palmarès, and the rating apart from the championship. Each page answers
``?format=json`` with the same figures for scripts. All are public."""

from __future__ import annotations

from types import SimpleNamespace

from django.core.paginator import Paginator
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_GET

from championship import labels
from championship.rounds.display import round_title
from championship.stats import pages
from championship.stats import palmares as palmares_pages
from championship.stats.charts import PHONE_BARS, bar_chart
from championship.stats.links import all_seasons
from championship.stats.pieces import (
    body_kind,
    cached_body,
    rendered_once,
    season_players,
    stale_player_pages,
)
from championship.stats.rating import season_rating
from federation.models import Player, Season
from scoring.stats.game import figure_key

DEALS_PER_PAGE = 200  # the deals of a figure on one page (all in its JSON)
CHART_BARS = 12  # bars at most in a chart: the phone's stays under a screen's height


def wants_json(request):
    return request.GET.get("format") == "json"


def json_response(data):
    """A stats page's figures for scripts: UTF-8, integers as JSON integers, dates ISO."""
    return JsonResponse(
        data, encoder=DjangoJSONEncoder, json_dumps_params={"ensure_ascii": False, "indent": 1}
    )


def _season_param(request):
    """The `?saison=NOM` of a player's page: a Season, None (his career), or 404."""
    name = request.GET.get("saison", "").strip()
    if not name:
        return None
    return get_object_or_404(Season, name=name)


def _round_title(row):
    """« Manche 3 », « Play-off, table A — manche 1 » of a row with its round's stage, table, number."""
    return round_title(SimpleNamespace(stage=row["stage"], table=row["table"], number=row["round"]))


def _bars(items):
    """The wide and the phone's drawing of `[(label, value)]`."""
    return bar_chart(items), bar_chart(items, *PHONE_BARS)


def _net_items(rows, key="net"):
    """The biggest net flows of `rows` (by size), highest first: at most `CHART_BARS`."""
    shown = sorted((row for row in rows if row[key]), key=lambda row: (-abs(row[key]), row["player"]))
    return sorted(((row["player"], row[key]) for row in shown[:CHART_BARS]), key=lambda item: -item[1])


def _body(kind, seasons, template, context, *, player=None):
    """The page's body (`template` rendered with `context()`), cached under the tokens of the
    `seasons` it reads (and under `player`'s pieces for a page read from his alone), in the active
    language (`championship.stats.pieces.cached_body`)."""
    return cached_body(
        kind, seasons, lambda: render_to_string(f"championship/stats/{template}", context()), player=player
    )


def _chosen(season):
    """The seasons a player's page reads: one, or every season for his career."""
    return [season] if season is not None else all_seasons()


@require_GET
def player_stats(request, pk):
    player = get_object_or_404(Player, pk=pk)
    season = _season_param(request)
    if wants_json(request):
        return json_response(pages.player_stats(player, season))
    context = {
        "player": player,
        "season": season,
        "seasons": pages.player_seasons(player),
        "body": player_body(player, season),
    }
    return render(request, "championship/stats/player.html", context)


def _player_body_kind(player, season):
    return f"player{player.pk}:{season.pk if season else 'career'}"


def player_body(player, season):
    """The body of `player`'s page of `season` (None: his career), in the active language."""
    kind = _player_body_kind(player, season)
    return _body(
        kind, _chosen(season), "_player_body.html", lambda: _player_context(player, season), player=player
    )


def refresh_player_pages(season):
    """After a write to `season`, the players' pages (careers and pages of this season) that were
    read and whose pieces it changed, computed again: their figures where they were read (the
    JSON), their bodies where they were read in the active language; most often those of the
    players of the written table (the warming calls it, `championship.views.warming`)."""
    players = Player.objects.filter(pk__in=season_players(season))
    for chosen, one in ((all_seasons(), None), ([season], season)):
        figures = {player: pages.player_kind(player, one) for player in players}
        for player in stale_player_pages(figures, chosen):
            pages.player_stats(player, one)
        bodies = {player: body_kind(_player_body_kind(player, one)) for player in players}
        for player in stale_player_pages(bodies, chosen):
            player_body(player, one)


def _player_context(player, season):
    data = pages.player_stats(player, season)
    for row in data["taker"]["contracts"]:
        row["label"] = labels.contract(row["code"])
    for row in data["other"]["poignees"]:
        row["label"] = labels.POIGNEE_SIZES.get(row["size"], row["size"])
    items = _net_items(data["opponents"])
    wide, phone = _bars(items) if items else (None, None)
    return {
        "player": player,
        "season": season,
        "stats": data,
        "chart": wide,
        "phone_chart": phone,
        "chart_items": items,
    }


FIGURE_TITLES = {
    "take": gettext_noop("Ses prises"),
    "take_made": gettext_noop("Ses contrats réussis"),
    "take_failed": gettext_noop("Ses contrats chutés"),
    "takes": gettext_noop("Ses prises en %(contract)s"),
    "made": gettext_noop("Ses %(contract)s réussies"),
    "take_petit": gettext_noop("Ses petits au bout comme preneur"),
    "take_petit_lost": gettext_noop("Les petits au bout de la défense quand il prenait"),
    "take_poignee": gettext_noop("Ses poignées montrées comme preneur"),
    "chelems": gettext_noop("Ses chelems réussis comme preneur"),
    "called": gettext_noop("Les donnes où il était appelé"),
    "called_made": gettext_noop("Les donnes où il était appelé et le contrat réussi"),
    "called_by": gettext_noop("Appelé par %(player)s"),
    "called_by_made": gettext_noop("Appelé par %(player)s, contrat réussi"),
    "defended": gettext_noop("Les contrats qu'il a défendus"),
    "defended_failed": gettext_noop("Les contrats qu'il a fait chuter"),
    "petit_attack": gettext_noop("Ses petits au bout gagnés en attaque"),
    "petit_defence": gettext_noop("Ses petits au bout gagnés en défense"),
    "poignee": gettext_noop("Ses poignées %(size)s"),
    "miseres": gettext_noop("Ses misères"),
}


def figure_title(key):
    head = key[0] if isinstance(key, tuple) else key
    values = {}
    if isinstance(key, tuple):
        if head in ("takes", "made"):
            values["contract"] = labels.contract(key[1])
        elif head in ("called_by", "called_by_made"):
            other = Player.objects.filter(pk=key[1]).values_list("name", flat=True).first()
            if other is None:
                raise Http404("Joueur inconnu")
            values["player"] = other
        elif head == "poignee":
            values["size"] = labels.POIGNEE_SIZES.get(key[1], key[1])
    return gettext(FIGURE_TITLES[head]) % values


@require_GET
def player_figure_deals(request, pk, figure):
    player = get_object_or_404(Player, pk=pk)
    season = _season_param(request)
    try:
        key = figure_key(figure)
    except ValueError:
        raise Http404("Chiffre inconnu") from None
    title = figure_title(key)
    deals = pages.figure_deals(player, key, season)
    if wants_json(request):
        return json_response(
            {
                "player": player.name,
                "season": season.name if season else None,
                "figure": figure,
                "deals": deals,
            }
        )
    listed = Paginator(deals, DEALS_PER_PAGE).get_page(request.GET.get("page"))

    def context():
        shown = [dict(deal) for deal in listed.object_list]
        dates = {}  # each date written once: a round's deals share it
        for deal in shown:
            deal["contract_label"] = labels.contract(deal["contract"]) if deal["contract"] else ""
            deal["round_title"] = _round_title(deal)
            if deal["date"] not in dates:
                dates[deal["date"]] = labels.written_date(deal["date"])
            deal["date_text"] = dates[deal["date"]]
        return {
            "player": player,
            "season": season,
            "title": title,
            "figure": figure,
            "deals": shown,
            "listed": listed,
            "season_query": f"saison={season.name}&" if season else "",
        }

    # all that the body shows: rendered again only when one of its deals changed
    shown = (player.pk, player.name, season.name if season else None, title, figure, listed.number)
    shown += (listed.paginator.count, listed.object_list)
    body = rendered_once(
        "deals", shown, lambda: render_to_string("championship/stats/_figure_deals_body.html", context())
    )
    return render(
        request,
        "championship/stats/figure_deals.html",
        {"player": player, "season": season, "title": title, "body": body},
    )


@require_GET
def season_partners(request, name):
    season = get_object_or_404(Season, name=name)
    if wants_json(request):
        return json_response(pages.season_partners(season))
    return render(
        request, "championship/stats/partners.html", {"season": season, "body": partners_body(season)}
    )


def partners_body(season):
    def context():
        data = pages.season_partners(season)
        items = _net_items(data["players"])
        wide, phone = _bars(items) if items else (None, None)
        return {
            "season": season,
            "data": data,
            "matrix_rows": list(zip(data["matrix"]["takers"], data["matrix"]["cells"], strict=True)),
            "chart": wide,
            "phone_chart": phone,
            "chart_items": items,
        }

    return _body("partners", [season], "_partners_body.html", context)


@require_GET
def head_to_head(request, a, b):
    if a == b:
        raise Http404("Un joueur face à lui-même")
    first = get_object_or_404(Player, pk=a)
    second = get_object_or_404(Player, pk=b)
    if wants_json(request):
        return json_response(pages.head_to_head(first, second))

    data = pages.head_to_head(first, second)

    def context():
        for row in data["list"]:
            row["round_title"] = _round_title(row)
        return {"a": first, "b": second, "data": data}

    # all that the body shows: rendered again only when their figures changed
    shown = (first.pk, first.name, second.pk, second.name, data)
    body = rendered_once(
        "h2h", shown, lambda: render_to_string("championship/stats/_head_to_head_body.html", context())
    )
    return render(request, "championship/stats/head_to_head.html", {"a": first, "b": second, "body": body})


@require_GET
def palmares(request):
    data = palmares_pages.palmares()
    if wants_json(request):
        return json_response(data)
    return render(request, "championship/stats/palmares.html", {"data": data})


@require_GET
def rating(request, name):
    season = get_object_or_404(Season, name=name)
    if wants_json(request):
        return json_response(season_rating(season))
    return render(request, "championship/stats/rating.html", {"season": season, "body": rating_body(season)})


def rating_body(season):
    context = lambda: {"season": season, "data": season_rating(season)}  # noqa: E731
    return _body("rating", [season], "_rating_body.html", context)


def season_bodies(season):
    """The bodies of a season's partners and rating pages in the active language, rendered and
    stored (the warming after a write calls it, `championship.views.warming`)."""
    partners_body(season)
    rating_body(season)


urlpatterns = [
    path("joueurs/<int:pk>/statistiques/", player_stats, name="player_stats"),
    path("joueurs/<int:pk>/statistiques/<str:figure>/", player_figure_deals, name="player_figure_deals"),
    path("joueurs/<int:a>/face-a-face/<int:b>/", head_to_head, name="head_to_head"),
    path("saisons/<str:name>/partenaires/", season_partners, name="season_partners"),
    path("saisons/<str:name>/cote/", rating, name="season_rating"),
    path("palmares/", palmares, name="palmares"),
]
