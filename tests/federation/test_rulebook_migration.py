"""Seasons created before the round limits: their rulebook drops the retired cup settings."""

import importlib

import pytest
from django.apps import apps

from federation.models import Season
from scoring.rulebook import Rulebook, RulebookError, default_rulebook_text, load_rulebook

migration = importlib.import_module("federation.migrations.0004_rulebook_round_limits")

# The end of the [cup] section as the default rulebook shipped it before.
RETIRED_LINES = (
    "# Hypothèse de calcul des qualifications : maximum de points de championnat gagnés en une manche.\n"
    "max_round_points = 15\n"
    "# Hypothèse de calcul des qualifications : minimum (le plus négatif) en une manche.\n"
    "min_round_points = -6\n"
)


def old_copy(text=None):
    return (text or default_rulebook_text()) + RETIRED_LINES


def test_it_refuses_the_retired_settings_saying_what_replaced_them():
    with pytest.raises(RulebookError) as caught:
        load_rulebook(old_copy())

    assert caught.value.field == "cup.max_round_points"
    assert "championship.round_points_cap" in caught.value.message


def test_it_strips_the_retired_settings_and_their_comments_only():
    assert migration.strip_retired_settings(old_copy()) == default_rulebook_text()
    assert load_rulebook(migration.strip_retired_settings(old_copy())) == Rulebook()


def test_it_keeps_a_season_s_own_choices(db):
    text = default_rulebook_text().replace("playoff_players = 10", "playoff_players = 8")
    season = Season.objects.create(name="2009-2010", start_date="2009-09-01", end_date="2010-06-30")
    Season.objects.filter(pk=season.pk).update(rulebook_text=old_copy(text))

    migration.forwards(apps, None)

    season = Season.objects.get(pk=season.pk)
    assert season.rulebook_text == text
    assert season.rulebook.cup.playoff_players == 8
