"""A chat of the test's own: a local HTTP server, in a thread, that records what is posted to it
and answers as told (a status, or hanging until released)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from webhooks.models import Webhook

SECRET = "T0KEN-tres-secret-42"


class Chat(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), ChatHandler)
        self.posts = []  # (path, body)
        self.status = 204
        self.hang = threading.Event()  # set: the next posts wait for `release`
        self.release = threading.Event()
        self.entered = threading.Event()
        self.finished = threading.Event()
        self.during_post = None  # called while a post is being answered

    def url(self, path):
        return f"http://127.0.0.1:{self.server_address[1]}{path}"


class ChatHandler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        server = self.server
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        server.posts.append((self.path, body))
        server.entered.set()
        if server.hang.is_set():
            server.release.wait(30)
        meanwhile, server.during_post = server.during_post, None  # once
        if meanwhile is not None:
            meanwhile()
        self.send_response(server.status)
        self.send_header("Content-Length", "0")
        self.end_headers()
        server.finished.set()

    def log_message(self, *args):
        pass


@pytest.fixture
def chat():
    server = Chat()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def discord(chat):
    return Webhook.objects.create(
        name="Discord du club", url=chat.url(f"/api/webhooks/123/{SECRET}"), format="discord"
    )


@pytest.fixture
def board_user(season):
    from federation.models import Official  # noqa: PLC0415
    from tests.conftest import make_player  # noqa: PLC0415

    player = make_player("Présidente")
    Official.objects.create(season=season, player=player, role=Official.PRESIDENT)
    return player.user
