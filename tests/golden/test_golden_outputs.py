"""The demo's finished season, every machine-readable output, byte for byte.

A refactoring must not change a single published figure: this test builds the demo and compares
`export_round` of every round of 2010-2011 (regular rounds, play-offs, final), its `standings`
(JSON and CSV) and its `cup` JSON with the files stored beside it. When an output changes on
purpose (a new rule, a new key), regenerate them with
`UPDATE_GOLDEN=1 python -m pytest tests/golden` and say why in the commit.
"""

import json
import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from championship.models import Round

GOLDEN = Path(__file__).resolve().parent / "demo_2010_2011.json"
SEASON = "2010-2011"


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def demo_outputs():
    outputs = {
        "standings json": run("standings", SEASON, "--format", "json", "--as-of", "2011-06-30"),
        "standings csv": run("standings", SEASON, "--format", "csv", "--as-of", "2011-06-30"),
        "cup json": run("cup", SEASON, "--format", "json"),
    }
    for round_ in Round.objects.filter(season__name=SEASON).order_by("stage", "table", "number"):
        args = ["export_round", SEASON, str(round_.number), "--stage", round_.stage]
        if round_.table:
            args += ["--table", round_.table]
        outputs[" ".join(args[3:] + [str(round_.number)])] = run(*args)
    return outputs


@pytest.mark.django_db
def test_the_demo_season_gives_the_same_outputs_byte_for_byte():
    call_command("demo", stdout=StringIO())
    outputs = demo_outputs()
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(outputs, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    expected = json.loads(GOLDEN.read_text())
    assert sorted(outputs) == sorted(expected)
    assert len(outputs) >= 16
    for key, value in expected.items():
        assert outputs[key] == value, key
