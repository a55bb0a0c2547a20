"""The browser tests' live server answers one request at a time.

The test database is SQLite in memory, which the live server's threads share with the test as
one connection (pytest-django passes it to them). Django's threaded server would run the page,
its static files, the service worker's requests and htmx's polls on that connection at once,
and SQLite then refuses some (« cannot start a transaction within a transaction », « database
table is locked »: a 500 the test did not cause). One request at a time, each answer closing its
connection (Django does so for a server without threads), they take their turn as they would
take the write lock of a real database.
"""

import pytest
from django.core.servers.basehttp import WSGIServer
from django.test.testcases import LiveServerThread


class OneRequestAtATime(WSGIServer):
    """Django's WSGI server without threads, built as `LiveServerThread` builds its server."""

    def __init__(self, *args, connections_override=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.connections_override = connections_override  # the server's thread holds them already


@pytest.fixture(scope="session", autouse=True)
def live_server_one_request_at_a_time():
    threaded = LiveServerThread.server_class
    LiveServerThread.server_class = OneRequestAtATime
    yield
    LiveServerThread.server_class = threaded
