"""The palmarès of the federation and of each player, put together from the cached season
records (`pieces.season_records`): champions and podiums, record round totals, most wins,
longest streaks, best seasons. Plain data for the HTML page and its JSON, as in `pages`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from django.urls import reverse

from championship.standings.season import seasons_standings
from championship.stats.links import all_seasons, player_url, round_url
from championship.stats.pieces import cached_page, player_records, season_records
from scoring.ranking import name_key
from scoring.stats.records import career, leaders


def _all_results(pieces):
    results, names = defaultdict(list), {}
    for piece in pieces.values():
        names.update(piece.names)
        for pk, items in piece.results.items():
            results[pk] += items
    return results, names


def _result_row(result, names, pk):
    return {
        "player": names.get(pk, ""),
        "player_pk": pk,
        "player_url": player_url(pk),
        "season": result.season,
        "round": result.number,
        "date": result.date,
        "total": result.total,
        "url": round_url(result.round_id),
    }


def _streak_row(streak, names, pk):
    return {
        "player": names.get(pk, ""),
        "player_pk": pk,
        "player_url": player_url(pk),
        "length": streak.length,
        "from": _result_row(streak.first, names, pk),
        "to": _result_row(streak.last, names, pk),
    }


def palmares():
    """The federation's palmarès: champions and podiums of the closed seasons, record round
    totals, most round wins, longest winning and losing streaks, best seasons (cached)."""
    seasons = all_seasons()
    return cached_page("stats:palmares", seasons, lambda: _palmares(seasons))


def _points_so_far(seasons):
    """`{season pk: {player id: points}}` of the seasons under way, as their standings count them
    (ranked and unranked; the cached standings of the season page): the season a player is
    having counts for his best season, marked as under way."""
    under_way = [season for season in seasons if season.is_open]
    standings = seasons_standings(under_way) if under_way else {}
    return {
        pk: {row.player.pk: row.points for row in [*table.ranked, *table.unranked]}
        for pk, table in standings.items()
    }


def _palmares(seasons):
    pieces = season_records(seasons)
    for pk, points in _points_so_far(seasons).items():
        pieces[pk] = replace(pieces[pk], points=points)
    results, names = _all_results(pieces)
    order = lambda pk: name_key(names.get(pk, ""))  # noqa: E731
    careers = {pk: career(items) for pk, items in results.items()}
    titles = []
    best_seasons = []
    for season in reversed(seasons):
        piece = pieces[season.pk]
        best_seasons += [(value, season.name, pk, season.is_open) for pk, value in piece.points.items()]
        if season.is_open:
            continue
        titles.append(
            {
                "season": season.name,
                "season_url": reverse("championship:season", args=[season.name]),
                "champion": names.get(piece.champion) if piece.champion else None,
                "champion_url": player_url(piece.champion) if piece.champion else None,
                "podium": [
                    {
                        "rank": rank,
                        "player": names.get(pk, ""),
                        "player_pk": pk,
                        "player_url": player_url(pk),
                        "points": value,
                    }
                    for rank, pk, value in piece.podium
                ],
            }
        )
    every_round = [(r, pk) for pk, items in results.items() for r in items if r.total is not None]
    record_rounds = leaders(
        every_round, lambda item: item[0].total, 10, lambda item: (item[0].date, order(item[1]))
    )
    wins = leaders([pk for pk in careers if careers[pk].wins], lambda pk: careers[pk].wins, 10, order)
    winning = leaders(
        [pk for pk in careers if careers[pk].winning.length],  # a streak: MIN_STREAK rounds or more
        lambda pk: careers[pk].winning.length,
        5,
        order,
    )
    losing = leaders(
        [pk for pk in careers if careers[pk].losing.length],  # a streak: MIN_STREAK rounds or more
        lambda pk: careers[pk].losing.length,
        5,
        order,
    )
    best = leaders(best_seasons, lambda item: item[0], 5, lambda item: (item[1], order(item[2])))
    return {
        "titles": titles,
        "record_rounds": [_result_row(r, names, pk) for r, pk in record_rounds],
        "most_wins": [
            {
                "player": names[pk],
                "player_pk": pk,
                "player_url": player_url(pk),
                "wins": careers[pk].wins,
                "rounds": careers[pk].rounds,
            }
            for pk in wins
        ],
        "winning_streaks": [_streak_row(careers[pk].winning, names, pk) for pk in winning],
        "losing_streaks": [_streak_row(careers[pk].losing, names, pk) for pk in losing],
        "best_seasons": [
            {
                "player": names.get(pk, ""),
                "player_pk": pk,
                "player_url": player_url(pk),
                "season": name,
                "points": value,
                "current": is_open,
            }
            for value, name, pk, is_open in best
        ],
    }


def player_palmares(player):
    """A player's palmarès: titles, podiums, rounds, wins, best round, longest streaks (two rounds
    or more, as the federation's), best season (the one under way included)."""
    return palmares_of(player, all_seasons())


def palmares_of(player, seasons):
    """`player_palmares` over `seasons` (the player page of a career passes those it shows), from
    his own piece of each season's records (`pieces.player_records`)."""
    pieces = player_records(player, seasons)
    mine = career([r for season in seasons for r in pieces[season.pk].results])
    names = {player.pk: player.name}
    titles = [s.name for s in seasons if not s.is_open and pieces[s.pk].champion]
    podiums = [
        {"season": s.name, "rank": pieces[s.pk].podium[0], "points": pieces[s.pk].podium[1]}
        for s in seasons
        if pieces[s.pk].podium
    ]
    # every season he has points in, the one under way included (its points so far)
    so_far = _points_so_far(seasons)
    points = {s.pk: so_far[s.pk].get(player.pk) if s.pk in so_far else pieces[s.pk].points for s in seasons}
    scored = [(points[s.pk], s.name, s.is_open) for s in seasons if points[s.pk] is not None]
    best = max(scored, default=None)
    return {
        "titles": titles,
        "podiums": podiums,
        "rounds": mine.rounds,
        "wins": mine.wins,
        "lasts": mine.lasts,
        "best_round": _result_row(mine.best_round, names, player.pk) if mine.best_round else None,
        "winning_streak": _streak_row(mine.winning, names, player.pk) if mine.winning.length else None,
        "losing_streak": _streak_row(mine.losing, names, player.pk) if mine.losing.length else None,
        "best_season": {"season": best[1], "points": best[0], "current": best[2]} if best else None,
    }
