"""The hand-typed count of remaining regular rounds becomes nights on the calendar.

For each season whose `remaining_rounds` is above 0 and which has no night yet, as many regular
nights « date à confirmer » (tentative) are scheduled, a week apart, from a week after the later
of today and the season's last round, within the season (docs/calendrier.md); the count is then
set to 0. A season without any night keeps reading its count (gamenights.schedule), so a season
whose end is too near to hold the nights keeps it untouched.
"""

import datetime

from django.db import migrations
from django.utils import timezone

WEEK = datetime.timedelta(days=7)


def nights_from_counts(apps, schema_editor):
    Season = apps.get_model("federation", "Season")
    Round = apps.get_model("championship", "Round")
    GameNight = apps.get_model("gamenights", "GameNight")
    today = timezone.localdate()
    for season in Season.objects.filter(remaining_rounds__gt=0):
        if GameNight.objects.filter(season=season).exists():
            continue
        last = Round.objects.filter(season=season).order_by("-date").values_list("date", flat=True).first()
        start = max(today, last or season.start_date) + WEEK
        dates = [start + WEEK * i for i in range(season.remaining_rounds)]
        if not dates or dates[-1] > season.end_date:
            continue
        GameNight.objects.bulk_create(
            GameNight(
                season=season,
                date=date,
                stage="regular",
                tentative=True,
                notes="Soirée créée depuis l'ancien nombre de manches restantes : date à confirmer.",
            )
            for date in dates
        )
        season.remaining_rounds = 0
        season.save(update_fields=["remaining_rounds"])


def counts_from_nights(apps, schema_editor):
    Season = apps.get_model("federation", "Season")
    GameNight = apps.get_model("gamenights", "GameNight")
    for season in Season.objects.all():
        placeholders = GameNight.objects.filter(season=season, tentative=True, cancelled=False, stage="regular")
        if placeholders.exists():
            season.remaining_rounds = placeholders.count()
            season.save(update_fields=["remaining_rounds"])
            placeholders.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("gamenights", "0001_initial"),
        ("championship", "0007_figure_tokens"),
        ("federation", "0004_rulebook_round_limits"),
    ]

    operations = [migrations.RunPython(nights_from_counts, counts_from_nights)]
