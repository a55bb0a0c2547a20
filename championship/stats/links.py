"""The addresses a statistics figure links to, and the seasons every page reads.

A page links to hundreds of players and deals: each address is reversed once per process (and
script prefix), then remembered."""

from __future__ import annotations

from functools import lru_cache

from django.urls import get_script_prefix, reverse

from federation.models import Season
from scoring.stats.game import figure_slug


def all_seasons():
    """Every season, oldest first."""
    return list(Season.objects.order_by("start_date"))


@lru_cache(maxsize=50_000)
def _reversed(prefix, name, *args):
    return reverse(name, args=args)


def address(name, *args):
    """`reverse(name, args=args)`, remembered."""
    return _reversed(get_script_prefix(), name, *args)


def player_url(pk):
    return address("championship:player_stats", pk)


def deals_url(player_pk, key, season=None):
    url = address("championship:player_figure_deals", player_pk, figure_slug(key))
    return f"{url}?saison={season.name}" if season is not None else url


def round_url(round_pk, deal_number=None):
    url = address("championship:round", round_pk)
    return f"{url}#donne-{deal_number}" if deal_number else url


def h2h_url(a_pk, b_pk):
    return address("championship:head_to_head", a_pk, b_pk)
