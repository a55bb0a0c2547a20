"""The rating of a season apart from the championship (`scoring.stats.rating`), read from its
homologated rounds' deals in the order played and cached under the season's token
(``stats:rating``), like the other pieces.

The piece keeps each player's μ and σ as openskill gives them; the page rounds every figure
once, from them (`scoring.french.rounded`): the low bound μ − 3σ is then the rating beside it,
which it would not always be from μ and σ already rounded."""

from __future__ import annotations

from collections import defaultdict

from django.urls import reverse

from championship.lib.summaries import cached_many
from championship.models import Deal, Round, Seat
from scoring.french import rounded
from scoring.ranking import name_key
from scoring.stats.rating import ratings

DEAL_VALUES = ("round_id", "kind", "taker_id", "partner_id", "made")


def _ratings_of_seasons(seasons):
    homologated = {"round__season__in": seasons, "round__status": Round.HOMOLOGATED}
    seated, names, season_of = defaultdict(list), defaultdict(dict), {}
    for round_id, season_id, player_id, name in Seat.objects.filter(**homologated).values_list(
        "round_id", "round__season_id", "player_id", "player__name"
    ):
        seated[round_id].append(player_id)
        names[season_id][player_id] = name
        season_of[round_id] = season_id
    games = defaultdict(list)
    for deal in (
        Deal.objects.filter(**homologated, kind=Deal.PLAYED)
        .values(*DEAL_VALUES)
        .order_by("round__date", "round__number", "round__stage", "round__table", "number")
    ):
        games[season_of[deal["round_id"]]].append((deal, seated[deal["round_id"]]))
    pieces = []
    for season in seasons:
        rated = ratings(games[season.pk])
        rows = sorted(
            rated.values(), key=lambda r: (-round(r.shown, 6), name_key(names[season.pk].get(r.player, "")))
        )
        pieces.append(
            [
                {
                    "player_id": r.player,
                    "player": names[season.pk].get(r.player, ""),
                    "mu": r.mu,  # unrounded: the page rounds each figure once
                    "sigma": r.sigma,
                    "deals": r.deals,
                    "won": r.won,
                }
                for r in rows
            ]
        )
    return pieces


def season_ratings(seasons):
    """`{season pk: [row]}`, best rating first, cached; μ and σ unrounded."""
    return cached_many("stats:rating", list(seasons), lambda _season: None, _ratings_of_seasons)


def season_rating(season):
    """The rating page's figures: every player rated in the season, best first, with his rank;
    the rating μ − 3σ, μ, σ and the bounds μ ∓ 3σ each rounded once from the unrounded μ and σ
    (the low bound is the rating)."""
    rows = season_ratings([season])[season.pk]
    shown = []
    for index, row in enumerate(rows, start=1):
        mu, sigma = row["mu"], row["sigma"]
        shown.append(
            {
                "rank": index,
                "player": row["player"],
                "player_pk": row["player_id"],
                "rating": rounded(mu - 3 * sigma),
                "mu": rounded(mu),
                "sigma": rounded(sigma),
                "deals": row["deals"],
                "won": row["won"],
                "low": rounded(mu - 3 * sigma),
                "high": rounded(mu + 3 * sigma),
                "player_url": reverse("championship:player_stats", args=[row["player_id"]])
                + f"?saison={season.name}",
            }
        )
    return {"season": season.name, "model": "openskill PlackettLuce", "players": shown}
