"""Seasons' rulebooks drop the cup's ``max_round_points`` and ``min_round_points``.

They were only an assumption of the qualification page, and a wrong one (a round of the default
rules can give more than +15). The bound now lives in ``[championship]``: ``round_points_cap``
and ``round_points_floor``, applied by the scoring of every round. A season's copy written
before keeps everything else and, like any absent setting, takes the new limits' defaults
(+30 / −30, beyond any real round: no score changes).
"""

import re

from django.db import migrations

RETIRED_SETTING = re.compile(r"^\s*(cup\.)?(max|min)_round_points\s*=")
RETIRED_COMMENT = "# Hypothèse de calcul des qualifications"


def strip_retired_settings(text):
    """The rulebook ``text`` without the retired settings and the comment lines shipped above them."""
    kept = []
    for line in text.splitlines(keepends=True):
        if RETIRED_SETTING.match(line):
            while kept and kept[-1].startswith(RETIRED_COMMENT):
                kept.pop()
            continue
        kept.append(line)
    return "".join(kept)


def forwards(apps, schema_editor):
    Season = apps.get_model("federation", "Season")
    for season in Season.objects.only("pk", "rulebook_text"):
        text = strip_retired_settings(season.rulebook_text)
        if text != season.rulebook_text:
            Season.objects.filter(pk=season.pk).update(rulebook_text=text)


class Migration(migrations.Migration):
    dependencies = [("federation", "0003_player_official_history")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
