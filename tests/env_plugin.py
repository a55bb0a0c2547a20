"""Loaded by pytest before Django (see pyproject addopts): the test environment's variables.

The settings refuse to start without SECRET_KEY when DEBUG is off, which is what the suite
runs with, so the suite provides its own throwaway key here.

The static files are those production serves: the manifest storage (hashed names, a missing
file is an error, as in production), collected once into a folder named after the content of
the static sources and of the pinned requirements (tests/static_files.py), so that a run after
a change collects anew and a run without one reuses the folder.

The suite runs in parallel by default (pytest-xdist, one worker per core, `--dist loadscope`):
`python -m pytest` is the README's command, unchanged. `-n 0` runs it in one process, `-n 4`
with four workers. Each module's tests run on one worker, so that what a module builds once (its
shared demo, the site under gunicorn) is built once in the run; each worker
has its own test database, live server, Chromium and PostgreSQL databases (docs/exploitation.md,
« La suite de tests »).
"""

import contextlib
import gc
import os
import sys
import threading

import pytest
from _pytest import runner

from tests.databases import sqlite_database
from tests.static_files import collected_static_root, index_each_folder_once

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("STATIC_ROOT", str(collected_static_root()))
os.environ.setdefault("SECURE_COOKIES", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
# Each test process keeps its own cache (the suite clears it around every test).
os.environ.setdefault("CACHE_URL", "locmem://")
# No figures computed in the background after each write, but in the tests of it.
os.environ.setdefault("WARM_FIGURES", "0")

index_each_folder_once()  # WhiteNoise's index of the static folder, read once per process

# The bytecode of what the suite imports is written (in __pycache__ folders, which git ignores)
# even where PYTHONDONTWRITEBYTECODE forbids it: the run's hundred processes (xdist workers, child
# pytests, manage.py, gunicorn) then compile each module, and pytest rewrites each test module,
# once instead of each time.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# The collector of reference cycles runs after 10,000 new objects instead of 700: in a test
# process, which builds and drops thousands of pages, querysets and templates, it took 6.5 % of
# the processor (22 s of the 340 s of a run's two workers), 3.5 % with this threshold (9 s of
# 248 s; docs/mesures.md). Nothing a page is or says depends on when cycles are freed; the
# processes the tests start (manage.py, gunicorn) keep Python's default, as production does.
gc.set_threshold(10_000, 10, 10)


# Each test runs below one frame declared with room for 70,000 values, which CPython 3.11 gives a
# chunk of its frame stack of its own (1 MiB, mapped once, the test's own calls in its free part).
# CPython keeps the frames of Python calls in chunks of 16 KiB, mapped when the calls go past a
# chunk's end and unmapped as soon as they come back (CPython issue gh-142183, fixed in 3.13 and
# 3.14, not in 3.11): rendering a page goes down and up across such an edge hundreds of times, and
# a test process mapped and unmapped 440 chunks a test, each new mapping's pages faulted in again,
# a tenth of its processor in the kernel (docs/mesures.md). Nothing a test runs or checks changes,
# only where its frames are kept; the processes the tests start (manage.py, gunicorn) keep
# Python's way, as production does.
LARGE_FRAME = 70_000


def in_a_stack_chunk_of_its_own(function, *args):
    return function(*args)


in_a_stack_chunk_of_its_own.__code__ = in_a_stack_chunk_of_its_own.__code__.replace(
    co_stacksize=in_a_stack_chunk_of_its_own.__code__.co_stacksize + LARGE_FRAME
)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """pytest's own protocol for a test (setup, call, teardown, their reports), run below the
    large frame above."""
    return in_a_stack_chunk_of_its_own(runner.pytest_runtest_protocol, item, nextitem)


@pytest.hookimpl(wrapper=True)  # before pytest-xdist's own reading of the options
def pytest_cmdline_main(config):
    """`-n auto --dist loadscope` unless the command line says otherwise (a child pytest started
    with `-p no:xdist` has no such option; a worker has its options from the run that started it)."""
    if hasattr(config.option, "numprocesses") and not os.environ.get("PYTEST_XDIST_WORKER"):
        if config.option.numprocesses is None:
            config.option.numprocesses = "auto"
        if config.option.numprocesses and config.option.dist == "no":
            config.option.dist = "loadscope"
    return (yield)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    """In the run's first process (not in an xdist worker), the run's migrated database
    (tests/databases.py) is built in the background from the start, while the process imports
    the suite and collects the static files: after a change of the code, both cores work then,
    instead of each worker waiting at its first test for `migrate` (4 s). A process that needs
    the database before it is done waits on its lock, as it always did; one that finds it built
    skips it. The run's process waits for it before it ends."""
    if os.environ.get("PYTEST_XDIST_WORKER") or {"--nomigrations", "--co", "--collect-only"} & set(args):
        return

    def build():
        # A failure here is met again, and reported, by the first test that needs the database.
        with contextlib.suppress(Exception):
            sqlite_database("migrated")

    builder = threading.Thread(target=build, name="base migrée", daemon=True)
    builder.start()
    early_config.add_cleanup(builder.join)
