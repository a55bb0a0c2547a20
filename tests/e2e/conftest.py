"""The browser tests' live server answers one request at a time.

The test database is SQLite in memory, which the live server's threads share with the test as
one connection (pytest-django passes it to them). Django's threaded server would run the page,
its static files, the service worker's requests and htmx's polls on that connection at once,
and SQLite then refuses some (« cannot start a transaction within a transaction », « database
table is locked »: a 500 the test did not cause). One request at a time, each answer closing its
connection (Django does so for a server without threads), they take their turn as they would
take the write lock of a real database.

Its static files are served as production serves them: by WhiteNoise from the folder
`collectstatic` filled with the manifest storage (tests/static_files.py), not by the test
server's own handler, which finds the source files by name and would hide a versioned name the
manifest lacks.
"""

import pytest
from django.core.servers.basehttp import WSGIServer
from django.test import testcases
from django.test.testcases import LiveServerThread

from tests.e2e.chromium import headless_chromium
from tests.factories import make_round


class OneRequestAtATime(WSGIServer):
    """Django's WSGI server without threads, built as `LiveServerThread` builds its server."""

    def __init__(self, *args, connections_override=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.connections_override = connections_override  # the server's thread holds them already


class ProductionStaticFiles(LiveServerThread):
    """The live server's thread without the test server's static handler (WhiteNoise serves)."""

    server_class = OneRequestAtATime

    def __init__(self, *args, **kwargs):
        kwargs["static_handler"] = without_static_handler
        super().__init__(*args, **kwargs)


def without_static_handler(application):
    return application


@pytest.fixture(scope="session", autouse=True)
def live_server_as_production():
    """pytest-django builds its live server from `django.test.testcases.LiveServerThread`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(testcases, "LiveServerThread", ProductionStaticFiles)
        yield


@pytest.fixture
def browser(live_server):
    """A headless Chromium for a test, the live server started before it."""
    with headless_chromium() as chromium:
        yield chromium


@pytest.fixture
def empty_round(season, secretary, president):
    """A draft round of the five example players, no deal yet."""
    return make_round(season, deals=[])
