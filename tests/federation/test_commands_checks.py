"""The commands cron runs skip Django's system checks (docs/exploitation.md, « Les vérifications
de Django »): every command of a `crontab` line of the docs, and `restore`; the others keep them.
What a command does with `requires_system_checks = []` is Django's documented contract."""

import re
from pathlib import Path

from django.core.management import get_commands, load_command_class

ROOT = Path(__file__).resolve().parents[2]
WITHOUT_CHECKS = {"backup", "restore", "send_reminders", "deliver_news", "deliver_webhooks"}
OURS = ("championship", "federation", "gamenights", "notifications", "scoring", "webhooks")


def crontab_commands():
    text = (ROOT / "docs" / "exploitation.md").read_text()
    blocks = re.findall(r"```cron\n(.*?)```", text, re.S)
    return {name for block in blocks for name in re.findall(r"manage\.py (\w+)", block)}


def checks_of(name):
    return load_command_class(get_commands()[name], name).requires_system_checks


def test_every_command_of_the_crontab_lines_skips_the_checks_and_only_those_listed():
    assert crontab_commands() == WITHOUT_CHECKS - {"restore"}
    ours = {name for name, app in get_commands().items() if app in OURS}
    assert ours >= WITHOUT_CHECKS
    assert {name for name in ours if checks_of(name) == []} == WITHOUT_CHECKS
