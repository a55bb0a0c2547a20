"""Two runs of the reminders at once send each reminder once: in two threads of one process (each
on its own connection, both holding the whole list before either claims one), and in two
processes (`manage.py send_reminders` twice at the same moment). Run by
`tests/notifications/test_concurrent_runs.py` on SQLite and PostgreSQL."""

import datetime
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core import mail

from notifications import plan, sending
from notifications.models import SentReminder

from ..conftest import NIGHT_DATE
from .conftest import RACES, twice_at_once

ROOT = Path(__file__).resolve().parents[3]
TODAY = NIGHT_DATE - datetime.timedelta(days=3)  # the night (5 members) and the report overdue
EXPECTED = 6

pytestmark = [
    pytest.mark.skipif(not RACES, reason="lancé par tests/notifications/test_concurrent_runs.py"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def world(night, homologated):
    assert len(plan.reminders(TODAY)) == EXPECTED


def test_two_runs_in_threads_send_each_reminder_once(world, monkeypatch):
    both_planned = threading.Barrier(2, timeout=30)
    pending = sending.pending

    def pending_then_wait(reminders):
        found = pending(reminders)
        both_planned.wait()  # neither claims before the other has its list of what to send
        return found

    monkeypatch.setattr(sending, "pending", pending_then_wait)
    outcomes, errors = twice_at_once(lambda: sending.send_reminders(TODAY))
    assert errors == []
    assert sorted(len(o.queued) + len(o.already_sent) for o in outcomes) == [EXPECTED, EXPECTED]
    assert sum(len(o.queued) for o in outcomes) == EXPECTED
    assert len(mail.outbox) == EXPECTED
    assert len({(m.to[0], m.subject) for m in mail.outbox}) == EXPECTED
    assert SentReminder.objects.count() == EXPECTED


def test_two_runs_in_processes_send_each_reminder_once(world):
    # DEBUG: the console backend, each process prints the mails it sends.
    env = {**os.environ, "DEBUG": "1"}
    env.pop("EMAIL_HOST", None)
    command = [sys.executable, "manage.py", "send_reminders", "--today", TODAY.isoformat()]
    runs = [
        subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    printed = "".join(out for out, _err in outputs)
    assert printed.count("List-Unsubscribe-Post: List-Unsubscribe=One-Click") == EXPECTED, outputs
    summaries = sorted(line for out, _err in outputs for line in out.splitlines() if "déjà envoyé" in line)
    sent = [int(line.split()[0]) for line in summaries]
    assert sum(sent) == EXPECTED, summaries
    assert SentReminder.objects.count() == EXPECTED
