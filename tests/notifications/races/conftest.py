"""The races of two runs of `send_reminders` at once run against the database DATABASE_URL names,
as it is (migrated here), never a test copy: `tests/notifications/test_concurrent_runs.py` starts
them in a child process, on a file SQLite database or a PostgreSQL database of their own, so that
the threads and processes share it for real."""

import os
import threading

import pytest
from django.core.management import call_command
from django.db import connection

RACES = os.environ.get("TAROT_REMINDER_RACES") == "1"


@pytest.fixture(scope="session")
def django_db_setup(django_db_blocker):
    if not RACES:  # collected by the whole suite: skipped there
        return
    with django_db_blocker.unblock():
        call_command("migrate", verbosity=0)
        call_command("flush", interactive=False, verbosity=0)


def twice_at_once(job):
    """``(results, errors)`` of ``job()`` run in two threads at once, each on its own connection:
    what each returned, and what each raised (a race's failure is reported, not lost in a thread)."""
    results, errors = [], []

    def run():
        try:
            results.append(job())
        except Exception as error:  # noqa: BLE001 — reported by the caller
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, name=f"run-{n}") for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results, errors
