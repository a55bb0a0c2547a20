import datetime
import io
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from federation.models import Official, Player, Season
from tests.databases import sqlite_database

# Property tests: no timing deadline (the CI machine has 2 cores shared by the test workers),
# and in CI the same examples every run, so that a landing never depends on a random draw.
hypothesis_settings.register_profile("default", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_collection_modifyitems(config, items):
    """The tests marked `postgresql` are skipped, with their reason, without TEST_POSTGRES_URL."""
    from tests.postgres import POSTGRES_URL  # noqa: PLC0415

    if POSTGRES_URL:
        return
    for item in items:
        if item.get_closest_marker("postgresql"):
            item.add_marker(pytest.mark.skip(reason="TEST_POSTGRES_URL n'est pas défini"))


def pytest_sessionstart(session):
    """The static files collected with the manifest storage, as production serves them
    (tests/static_files.py), before any test is collected or run: a page that names a file the
    manifest lacks fails here as there. The storage then reads the manifest afresh, whatever of
    it was read in this process before the collection was complete."""
    from django.contrib.staticfiles.storage import staticfiles_storage  # noqa: PLC0415
    from django.utils.functional import empty  # noqa: PLC0415

    from tests.static_files import collect  # noqa: PLC0415

    collect(Path(django_settings.STATIC_ROOT))
    staticfiles_storage._wrapped = empty


def _in_memory_sqlite():
    return connection.vendor == "sqlite" and connection.creation.is_in_memory_db(
        connection.creation._get_test_db_name()
    )


@pytest.fixture(scope="session")
def django_db_use_migrations(request):
    """The test database of each process is a copy of the run's migrated database (below), not
    migrated again (4.5 s a process): Django only creates its tables from the models, which the
    copy then replaces. Elsewhere than in a SQLite memory database, or with --nomigrations, as
    pytest-django does."""
    return not request.config.getvalue("nomigrations") and not _in_memory_sqlite()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, then, in a SQLite memory database, the content of the
    migrated database that `manage.py migrate` built once for the run (tests/databases.py) copied
    over it by SQLite's backup: the same tables, triggers and rows as after the migrations, every
    migration recorded as applied (`tests/test_test_database.py`)."""
    if not _in_memory_sqlite():
        return
    with django_db_blocker.unblock():
        connection.ensure_connection()
        with closing(sqlite3.connect(sqlite_database("migrated"))) as migrated:
            migrated.backup(connection.connection)
        ContentType.objects.clear_cache()  # the copy's ids, not those Django's tables had


@pytest.fixture
def season(db):
    return Season.objects.create(
        name="2010-2011",
        start_date=datetime.date(2010, 9, 1),
        end_date=datetime.date(2011, 6, 30),
    )


def make_player(name, *, with_user=True):
    user = None
    if with_user:
        user = get_user_model().objects.create_user(username=name.lower(), password="secret-pass-1")
    return Player.objects.create(name=name, user=user)


@pytest.fixture
def president(season):
    player = make_player("Président")
    Official.objects.create(season=season, player=player, role=Official.PRESIDENT)
    return player


@pytest.fixture
def secretary(season):
    player = make_player("Secrétaire")
    Official.objects.create(season=season, player=player, role=Official.SECRETARY)
    return player


@pytest.fixture
def member(db):
    return make_player("Membre")


FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Hashing real passwords is slow by design; the suite needs no such protection."""
    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS


# Tests that reach the database, whatever way they ask for it (pytest-django's fixtures, its mark).
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"}
DATABASE_FIXTURES |= {"live_server"}


def _uses_the_database(item):
    return bool(DATABASE_FIXTURES & set(item.fixturenames)) or item.get_closest_marker("django_db")


def _refuse_tests_that_would_see_it(request, fixture):
    """A world kept for a module (`demo`) is the database of every test of that module that runs
    after the first one asking for it: such a test must ask for it too, and none may be
    transactional (it would flush what the module's transaction holds)."""
    items = [item for item in request.session.items if item.getparent(pytest.Module) is request.node]
    first = next(index for index, item in enumerate(items) if fixture in item.fixturenames)
    wrong = [
        item.name
        for item in items[first:]
        if _uses_the_database(item)
        and (fixture not in item.fixturenames or "transactional_db" in item.fixturenames)
    ]
    if wrong:
        pytest.fail(f"« {fixture} » is this module's database: {wrong} would see it; move them out")


@pytest.fixture(scope="module")
def demo(request, django_db_setup, django_db_blocker):
    """The demo federation (`manage.py demo`), built once for the tests of a module that ask for it
    and rolled back after the last one: each test runs in its own savepoint inside it (pytest-
    django's `db`), so none sees what another wrote. Building it takes seconds; a module whose
    tests all read the demo (tests/championship/views/test_home_demo.py) builds it once."""
    _refuse_tests_that_would_see_it(request, "demo")
    with django_db_blocker.unblock():
        kept = transaction.atomic()
        kept.__enter__()
        try:
            with (
                override_settings(PASSWORD_HASHERS=FAST_PASSWORD_HASHERS),
                translation.override(django_settings.LANGUAGE_CODE),
            ):
                call_command("demo", stdout=io.StringIO())
        except BaseException:
            transaction.set_rollback(True)
            kept.__exit__(None, None, None)
            raise
    yield
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        kept.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def login_throttling_off(settings):
    """django-axes refuses an `authenticate()` without a request, which the test client's
    `login()` makes; the suite runs without it, as axes advises. The throttling tests, and the
    browser tests that log in through the form, turn it back on (`settings.AXES_ENABLED = True`)."""
    settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def site_language():
    """Each test starts in the site's language: a request in English leaves English active in
    the worker's thread, which would otherwise leak into the next test's messages."""
    with translation.override(django_settings.LANGUAGE_CODE):
        yield


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: a rolled-back test may leave figures cached under a
    season id that the next test's season takes again."""
    from django.core.cache import cache  # noqa: PLC0415

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def outbox_drained():
    """Each test ends with the e-mails it handed to the outbox sent (federation.outbox), the
    announcements handed to the webhooks' threads posted (webhooks.delivery) and the members'
    news handed to theirs sent (notifications.news): none is left running into the next test's
    database."""
    yield
    from federation import outbox  # noqa: PLC0415
    from webhooks import delivery  # noqa: PLC0415

    assert outbox.wait(timeout=60), "des courriels de l'outbox n'ont pas fini de partir"
    assert delivery.wait(timeout=60), "des annonces n'ont pas fini de partir"
    from notifications import news  # noqa: PLC0415

    assert news.wait(timeout=60), "des nouvelles des membres n'ont pas fini de partir"


# --- measures: reported, never asserted ------------------------------------------------------------


@pytest.fixture
def benchmark(record_property):
    """``benchmark("…")``: a measure (a duration, a peak of memory) printed at the end of the run,
    under « mesures », and never asserted: a figure depends on the machine."""

    def report(line):
        record_property("benchmark", line)

    return report


def pytest_terminal_summary(terminalreporter):
    lines = [
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
        for name, value in getattr(report, "user_properties", ())
        if name == "benchmark"
    ]
    if lines:
        terminalreporter.section("mesures (rapportées, jamais vérifiées)")
        for line in lines:
            terminalreporter.line(line)
