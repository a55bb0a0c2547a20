"""What each statistics page shows, put together from the cached season pieces (`pieces`).

Every function returns plain data (dicts, lists, numbers, names), the same for the HTML page and
its JSON (``?format=json``): a figure and the address of the deals or rounds it counts travel
together. Fractions of points (the point flow) are rounded to the point only here, a decimal
figure (the average margin) to the tenth by `scoring.french.rounded` (never a negative zero).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction

from championship.lib.summaries import cached_many
from championship.models import Deal, Round, Seat
from championship.stats.links import all_seasons, deals_url, h2h_url, player_url, round_url
from championship.stats.palmares import palmares_of
from championship.stats.pieces import cached_page, player_cached, player_games, season_game
from federation.models import Season
from scoring.french import rounded, rounded_percent
from scoring.ranking import name_key
from scoring.stats.flow import Partnership, best_partner, bete_noire, net_with
from scoring.stats.game import DEAL_FIELDS, deal_figures, figure_slug
from scoring.vocabulary import CONTRACTS, POIGNEE_SIZES


def points(value: Fraction) -> int:
    """A point flow rounded to the point, a half away from zero (in integers: ⌊|n|/d + ½⌋)."""
    value = Fraction(value)
    size = (2 * abs(value.numerator) + value.denominator) // (2 * value.denominator)
    return -size if value < 0 else size


def _figure(counts, key, player_pk, season, *, of=None):
    value = counts[key]
    figure = {"value": value, "url": deals_url(player_pk, key, season) if value else None}
    if of is not None:
        figure["rate"] = rounded_percent(value, counts[of])
    return figure


# --- a player's game -------------------------------------------------------------------------------


def player_stats(player, season=None):
    """A player's game for his career (`season` None) or one season: as taker, partner, defender,
    misères; partners and rivals; his palmarès. Each figure with the address of its deals.
    Cached under the tokens of the seasons it reads and under his pieces (`player_cached`)."""
    seasons = all_seasons()
    chosen = [season] if season is not None else seasons
    return player_cached(
        player_kind(player, season), player, chosen, lambda: _player_stats(player, season, chosen)
    )


def player_kind(player, season):
    """The name of `player_stats`'s figures in the cache (a career may be of one season)."""
    return f"stats:player{player.pk}:{'season' if season else 'career'}"


def _player_stats(player, season, chosen):
    games = player_games(player, chosen)
    counts, pairs, taken, together, names = (
        Counter(),
        defaultdict(Partnership),
        Counter(),
        defaultdict(list),
        {},
    )
    for game in games.values():
        counts.update(game.counts)
        for pair, partnership in game.pairs.items():
            summed = pairs[pair]
            summed.deals += partnership.deals
            summed.made += partnership.made
            summed.points += partnership.points
        for pair, value in game.taken.items():
            taken[pair] += value
        for other, rounds in game.together.items():
            together[other] += rounds
        names.update(game.names)
    me = player.pk
    f = lambda key, of=None: _figure(counts, key, me, season, of=of)  # noqa: E731
    margin = counts["margin"]
    taker = {
        "takes": f("take"),
        "made": f("take_made", of="take"),
        "failed": f("take_failed"),
        "contracts": [
            {"code": code, "takes": f(("takes", code)), "made": f(("made", code), of=("takes", code))}
            for code in CONTRACTS
        ],
        "average_margin": rounded(margin / counts["margin_takes"]) if counts["margin_takes"] else None,
        "petit": f("take_petit"),
        "petit_lost": f("take_petit_lost"),
        "poignees": f("take_poignee"),
        "chelems": f("chelems"),
    }
    callers = sorted(
        (key[1] for key in counts if isinstance(key, tuple) and key[0] == "called_by"),
        key=lambda pk: (-counts["called_by", pk], name_key(names.get(pk, ""))),
    )
    partner = {
        "called": f("called"),
        "made": f("called_made", of="called"),
        "by": [
            {
                "player": names.get(pk, ""),
                "player_pk": pk,
                "player_url": player_url(pk),
                "called": f(("called_by", pk)),
                "made": f(("called_by_made", pk), of=("called_by", pk)),
            }
            for pk in callers
        ],
    }
    defender = {"defended": f("defended"), "failed": f("defended_failed", of="defended")}
    others = {
        "miseres": f("miseres"),
        "petit_attack": f("petit_attack"),
        "petit_defence": f("petit_defence"),
        "poignees": [{"size": size, **f(("poignee", size))} for size in POIGNEE_SIZES],
    }
    rivals = _rivals(me, taken, together, names, pairs)
    return {
        "player": player.name,
        "season": season.name if season else None,
        "taker": taker,
        "partner": partner,
        "defender": defender,
        "other": others,
        **rivals,
        "palmares": palmares_of(player, chosen) if season is None else None,
    }


def _rivals(me, taken, together, names, pairs):
    net = net_with(taken, me)
    order = lambda pk: name_key(names.get(pk, ""))  # noqa: E731
    rows = []
    for other in sorted(set(net) | set(together), key=order):
        rounds = together.get(other, [])
        rows.append(
            {
                "player": names.get(other, ""),
                "player_pk": other,
                "player_url": player_url(other),
                "h2h_url": h2h_url(me, other),
                "took_from": points(taken.get((other, me), Fraction(0))),
                "gave_to": points(taken.get((me, other), Fraction(0))),
                "net": points(net.get(other, Fraction(0))),
                "rounds": len(rounds),
                "ahead": sum(1 for t in rounds if t.ahead > 0),
                "behind": sum(1 for t in rounds if t.ahead < 0),
            }
        )
    best = best_partner(pairs, me, order)
    worst = bete_noire(net, order)
    return {
        "opponents": rows,
        "best_partner": None
        if best is None
        else {
            "player": names.get(best[0], ""),
            "player_url": player_url(best[0]),
            "deals": best[1].deals,
            "made": best[1].made,
            "rate": rounded_percent(best[1].made, best[1].deals),
            "points": best[1].points,
        },
        "bete_noire": None
        if worst is None
        else {"player": names.get(worst, ""), "player_url": player_url(worst), "net": -points(net[worst])},
    }


def player_seasons(player):
    """The seasons in which the player has a homologated round (for the page's choice)."""
    return list(
        Season.objects.filter(rounds__seats__player=player, rounds__status=Round.HOMOLOGATED)
        .distinct()
        .order_by("-start_date")
    )


# --- the deals behind a figure -----------------------------------------------------------------------


def figure_deals(player, key, season=None):
    """The deals counted in the figure `key` of `player` (his career, or one season), in the order
    played, each with its round and what it brought him. A season's deals of the player are read
    once for all his figures and cached under its token (`player_deals_by_figure`): his other
    figures' pages read them from there, and after a write only the written season's are read
    again."""
    chosen = [season] if season is not None else all_seasons()
    by_season = cached_many(
        f"stats:deals{player.pk}",
        chosen,
        lambda _season: None,
        lambda missing: player_deals_by_figure(player, missing),
    )
    slug = figure_slug(key)
    return sorted(
        (deal for one in chosen for deal in by_season[one.pk].get(slug, ())),
        key=lambda deal: (deal["date"], deal["round"], deal["deal"]),
    )


def player_deals_by_figure(player, seasons):
    """`[{figure slug: [deal…]} of each season]`: every homologated deal of `player` in `seasons`,
    under each figure it counts in (`deal_figures`), read in three queries. A deal in several
    figures is one object in each list (kept once in the cache)."""
    rounds = Round.objects.filter(seats__player=player, status=Round.HOMOLOGATED, season__in=seasons)
    rounds = {r.pk: r for r in rounds.select_related("season")}
    names = dict(Seat.objects.filter(round__in=list(rounds)).values_list("player_id", "player__name"))
    found = {season.pk: defaultdict(list) for season in seasons}
    for deal in (
        Deal.objects.filter(round__in=list(rounds))
        .values("round_id", "number", "unit", "shares", *DEAL_FIELDS)
        .order_by("round__date", "round__number", "number")
    ):
        slugs = {figure_slug(key) for key in deal_figures(deal, player.pk)}
        if not slugs:
            continue
        round_ = rounds[deal["round_id"]]
        shown = {
            "season": round_.season.name,
            "round": round_.number,
            "stage": round_.stage,
            "table": round_.table,
            "date": round_.date,
            "deal": deal["number"],
            "url": round_url(round_.pk, deal["number"]),
            "contract": deal["contract"],
            "taker": names.get(deal["taker_id"], ""),
            "partner": names.get(deal["partner_id"], ""),
            "made": deal["made"],
            "share": deal["shares"].get(str(player.pk), 0),
        }
        for slug in slugs:
            found[round_.season_id][slug].append(shown)
    return [dict(found[season.pk]) for season in seasons]


# --- partners and rivals of a season ---------------------------------------------------------------

MATRIX_SIZE = 12  # takers (rows) and partners (columns) of the partnership matrix, at most
PAIRS_SHOWN = 30  # the most frequent pairs of the page (all in its JSON)


def _most(counts, size, order):
    """The `size` players of `counts` with the highest counts (ties by `order`)."""
    return [pk for pk, _n in sorted(counts.items(), key=lambda item: (-item[1], order(item[0])))[:size]]


def season_partners(season):
    """Who called whom and with what success, who took how many points from whom, and each
    player's best partner and bête noire, in one season (cached under its token)."""
    return cached_page("stats:partners", [season], lambda: _season_partners(season))


def _season_partners(season):
    game = season_game(season)
    names = game.names
    order = lambda pk: name_key(names.get(pk, ""))  # noqa: E731
    pairs = sorted(
        game.pairs.items(), key=lambda item: (-item[1].deals, order(item[0][0]), order(item[0][1]))
    )
    players = sorted(names, key=order)
    rows = []
    for me in players:
        net = net_with(game.taken, me)
        best = best_partner(game.pairs, me, order)
        worst = bete_noire(net, order)
        rows.append(
            {
                "player": names[me],
                "player_pk": me,
                "player_url": player_url(me),
                "stats_url": player_url(me) + f"?saison={season.name}",
                "won": points(sum((v for (_l, w), v in game.taken.items() if w == me), Fraction(0))),
                "lost": points(sum((v for (loser, _w), v in game.taken.items() if loser == me), Fraction(0))),
                "net": points(sum(net.values(), Fraction(0))),
                "best_partner": names.get(best[0]) if best else None,
                "best_partner_points": best[1].points if best else None,
                "bete_noire": names.get(worst) if worst is not None else None,
                "bete_noire_points": -points(net[worst]) if worst is not None else None,
            }
        )
    # the biggest net flows between two players
    net_pairs = []
    for (loser, winner), value in game.taken.items():
        back = game.taken.get((winner, loser), Fraction(0))
        if value > back:
            net_pairs.append((value - back, winner, loser))
    net_pairs.sort(key=lambda item: (-item[0], order(item[1]), order(item[2])))
    # the matrix: the players most often in attack with a partner, as takers and as partners
    as_taker, as_partner = Counter(), Counter()
    for (t, p), pair in game.pairs.items():
        as_taker[t] += pair.deals
        as_partner[p] += pair.deals
    callers = sorted(_most(as_taker, MATRIX_SIZE, order), key=order)
    called = sorted(_most(as_partner, MATRIX_SIZE, order), key=order)
    return {
        "season": season.name,
        "rounds": game.rounds,
        "deals": game.deals,
        "pairs": [
            {
                "taker": names.get(t, ""),
                "partner": names.get(p, ""),
                "deals": pair.deals,
                "made": pair.made,
                "rate": rounded_percent(pair.made, pair.deals),
                "points": pair.points,
                "deals_url": deals_url(p, ("called_by", t), season),
            }
            for (t, p), pair in pairs
        ],
        "matrix": {
            "takers": [names.get(t, "") for t in callers],
            "partners": [names.get(p, "") for p in called],
            "cells": [
                [
                    (game.pairs[t, p].deals, game.pairs[t, p].made) if (t, p) in game.pairs else None
                    for p in called
                ]
                for t in callers
            ],
        },
        "players": rows,
        "flows": [
            {
                "winner": names.get(w, ""),
                "loser": names.get(l_, ""),
                "points": points(v),
                "h2h_url": h2h_url(w, l_),
            }
            for v, w, l_ in net_pairs[:20]
        ],
    }


# --- head to head ----------------------------------------------------------------------------------


def head_to_head(a, b):
    """Two players across seasons: the rounds they sat at together (who finished ahead), the
    points each took from the other, and their deals as partners (cached)."""
    seasons = all_seasons()
    return cached_page(f"stats:h2h{a.pk}-{b.pk}", seasons, lambda: _head_to_head(a, b, seasons))


def _head_to_head(a, b, seasons):
    games = player_games(a, seasons)
    by_season = []
    totals = Counter()
    taken_ab = taken_ba = Fraction(0)
    rounds = []
    for season in seasons:
        game = games[season.pk]
        together = game.together.get(b.pk, [])
        ab = game.taken.get((b.pk, a.pk), Fraction(0))
        ba = game.taken.get((a.pk, b.pk), Fraction(0))
        pair_ab = game.pairs.get((a.pk, b.pk))
        pair_ba = game.pairs.get((b.pk, a.pk))
        if not (together or ab or ba):
            continue
        row = {
            "season": season.name,
            "rounds": len(together),
            "a_ahead": sum(1 for t in together if t.ahead > 0),
            "b_ahead": sum(1 for t in together if t.ahead < 0),
            "a_took": points(ab),
            "b_took": points(ba),
            "net": points(ab - ba),
            "a_called_b": pair_ab.deals if pair_ab else 0,
            "a_called_b_made": pair_ab.made if pair_ab else 0,
            "b_called_a": pair_ba.deals if pair_ba else 0,
            "b_called_a_made": pair_ba.made if pair_ba else 0,
        }
        by_season.append(row)
        totals.update({k: v for k, v in row.items() if k not in ("season", "a_took", "b_took", "net")})
        taken_ab += ab
        taken_ba += ba
        rounds += [(season.name, t) for t in together]
    shown = {
        r.pk: r
        for r in Round.objects.filter(pk__in=[t.round_id for _s, t in rounds]).select_related("season")
    }
    listed = sorted(
        (
            {
                "season": name,
                "round": shown[t.round_id].number,
                "stage": shown[t.round_id].stage,
                "table": shown[t.round_id].table,
                "date": shown[t.round_id].date,
                "url": round_url(t.round_id),
                "a_total": t.totals[0],
                "b_total": t.totals[1],
                "a_rank": t.ranks[0],
                "b_rank": t.ranks[1],
                "ahead": t.ahead,
            }
            for name, t in rounds
            if t.round_id in shown
        ),
        key=lambda row: (row["date"], row["round"]),
    )
    return {
        "a": a.name,
        "b": b.name,
        "a_url": player_url(a.pk),
        "b_url": player_url(b.pk),
        "rounds": totals["rounds"],
        "a_ahead": totals["a_ahead"],
        "b_ahead": totals["b_ahead"],
        "level": totals["rounds"] - totals["a_ahead"] - totals["b_ahead"],
        "a_took": points(taken_ab),
        "b_took": points(taken_ba),
        "net": points(taken_ab - taken_ba),
        "a_called_b": totals["a_called_b"],
        "a_called_b_made": totals["a_called_b_made"],
        "b_called_a": totals["b_called_a"],
        "b_called_a_made": totals["b_called_a_made"],
        "seasons": by_season,
        "list": listed,
    }
