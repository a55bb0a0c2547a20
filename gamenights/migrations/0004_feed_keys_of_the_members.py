"""Every player who has an account gets the key of his own feed now, as a new account gets it
with the account (gamenights.receivers): the pages that show his address then never write."""

import secrets

from django.db import migrations


def make_the_missing_keys(apps, schema_editor):
    Player = apps.get_model("federation", "Player")
    FeedKey = apps.get_model("gamenights", "FeedKey")
    missing = Player.objects.filter(user__isnull=False, feed_key__isnull=True).order_by("pk")
    FeedKey.objects.bulk_create(
        [
            FeedKey(player_id=player_pk, key=secrets.token_urlsafe(32))
            for player_pk in missing.values_list("pk", flat=True)
        ]
    )


class Migration(migrations.Migration):
    dependencies = [("gamenights", "0003_member_feed_key")]

    operations = [migrations.RunPython(make_the_missing_keys, migrations.RunPython.noop)]
