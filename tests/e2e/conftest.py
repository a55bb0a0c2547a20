"""The browser tests' live server runs the site for one request at a time.

The test database is SQLite in memory, which the live server's threads share with the test as
one connection (pytest-django passes it to them). Django's threaded server would run the page,
its static files, the service worker's requests and htmx's polls on that connection at once,
and SQLite then refuses some (« cannot start a transaction within a transaction », « database
table is locked »: a 500 the test did not cause). So the site answers one request at a time,
as requests take their turn for the write lock of a real database.

The connections themselves are read in threads, as by any real server: Chromium opens sockets
ahead of need (a preconnect) and may leave one idle for seconds; a server without threads waits
on that silent socket, and every other request of the page (a preview, the service worker's
script) waits behind it: a test then fails for a stall no user of a real server would see.

Its static files are served as production serves them: by WhiteNoise from the folder
`collectstatic` filled with the manifest storage (tests/static_files.py), not by the test
server's own handler, which finds the source files by name and would hide a versioned name the
manifest lacks.
"""

import threading
from contextlib import contextmanager

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test import testcases
from django.test.testcases import LiveServerThread

from tests.e2e.chromium import headless_chromium
from tests.factories import make_round


class OneRequestAtATime(ThreadedWSGIServer):
    """Django's threaded server (a thread per connection) that runs the site for one request at a
    time: the answer is made and read whole, its `close()` called, before the next one starts.
    It counts its open connections, so that a test's end can wait for the last one to close
    (`wait_until_idle`) before its database is emptied. A test that writes to the database while
    its pages poll takes the server's `turn` (`between_requests`): the test and the server share
    one SQLite in memory, where a write beside a read fails (« database table is locked »), as it
    never does between a real server's requests."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.activity = threading.Condition()
        self.connections = 0

    def process_request(self, request, client_address):
        with self.activity:
            self.connections += 1
        super().process_request(request, client_address)

    def shutdown_request(self, request):
        try:
            super().shutdown_request(request)
        finally:
            with self.activity:
                self.connections -= 1
                self.activity.notify_all()

    def wait_until_idle(self, timeout):
        """Whether every connection closed within `timeout` seconds."""
        with self.activity:
            return self.activity.wait_for(lambda: self.connections <= 0, timeout)

    def set_app(self, application):
        turn = self.turn = threading.Lock()  # also taken by a test that writes while pages poll

        def one_at_a_time(environ, start_response):
            with turn:
                answer = application(environ, start_response)
                try:
                    body = b"".join(answer)
                finally:
                    if hasattr(answer, "close"):
                        answer.close()
            return [body]

        super().set_app(one_at_a_time)


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


@pytest.fixture(scope="package")
def shared_chromium(live_server):
    """One headless Chromium for the browser tests of a test process (they run one after the
    other on one xdist worker: tests/conftest.py), the live server started before it. Starting
    Playwright's driver and a Chromium costs about a second under load; a test's isolation comes
    from its own browser contexts (cookies, storage, service workers), closed after it."""
    with headless_chromium() as chromium:
        yield chromium


@pytest.fixture
def browser(shared_chromium):
    """The shared Chromium for a test; whatever context the test left open (a failure midway) is
    closed after it, before `quiet_live_server` waits for the server's last connection."""
    yield shared_chromium
    for context in shared_chromium.contexts:
        context.close()


@contextmanager
def between_requests(live_server):
    """A block of the test's own database work run between two requests of the live server."""
    with live_server.thread.httpd.turn:
        yield


IDLE_SECONDS = 30  # a request under way when the test ended: a page's poll on a loaded machine


@pytest.fixture(autouse=True)
def quiet_live_server(transactional_db, live_server):
    """After each browser test, its browser contexts closed (`browser`), and before its database
    is emptied (this fixture comes after `transactional_db`, so its end comes before): the live
    server's last connection is waited for. A page's request still under way when the database
    is emptied would hold a table (« database table is locked ») and leave rows to the next
    test."""
    yield
    assert live_server.thread.httpd.wait_until_idle(IDLE_SECONDS), "le serveur du test répond encore"


@pytest.fixture
def empty_round(season, secretary, president):
    """A draft round of the five example players, no deal yet."""
    return make_round(season, deals=[])
