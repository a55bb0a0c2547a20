"""What a process of the site imports before it answers anything: not WeasyPrint (a second),
pywebpush with aiohttp (a third of a second), icalendar (a tenth of a second) nor Django's test
client (`django.test`, 18 ms). Every gunicorn worker and every management command that runs
Django's checks loads the URLs; only a PDF needs WeasyPrint, only a push pywebpush, only a
calendar feed icalendar, only the figures' warming the test client's request factory, so each
imports them on first use (see docs/exploitation.md, « La suite de tests »)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LOADED = """
import sys
import django
django.setup()
from django.urls import get_resolver
get_resolver().url_patterns  # every view module imported, as by the first request
import notifications.news, championship.views.reports, gamenights.ical  # the ones that need them later
LATER = ("weasyprint", "pywebpush", "aiohttp", "icalendar", "django.test")
print(" ".join(sorted(name for name in LATER if name in sys.modules)))
"""


def test_the_site_starts_without_weasyprint_pywebpush_or_icalendar():
    env = {"DJANGO_SETTINGS_MODULE": "federation.settings", "DEBUG": "1", "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-c", LOADED], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []
