"""The addresses a statistics figure links to, and the seasons every page reads."""

from __future__ import annotations

from django.urls import reverse

from federation.models import Season
from scoring.stats.game import figure_slug


def all_seasons():
    """Every season, oldest first."""
    return list(Season.objects.order_by("start_date"))


def player_url(pk):
    return reverse("championship:player_stats", args=[pk])


def deals_url(player_pk, key, season=None):
    url = reverse("championship:player_figure_deals", args=[player_pk, figure_slug(key)])
    return f"{url}?saison={season.name}" if season is not None else url


def round_url(round_pk, deal_number=None):
    url = reverse("championship:round", args=[round_pk])
    return f"{url}#donne-{deal_number}" if deal_number else url


def h2h_url(a_pk, b_pk):
    return reverse("championship:head_to_head", args=[a_pk, b_pk])
