"""Chats of the test's own, on 127.0.0.1 (the tests never reach the internet):

- `Chat`, a local HTTP server in a thread that records what is posted to it (path, body,
  headers), every request (a GET too) and every connection, and answers as told (a status, a
  `Location`, or hanging until released);
- `RawChat`, a local TCP server that answers any request with the bytes it is given, a byte at a
  time with a pause between if told (a non-HTTP answer, a chat that trickles).

The production rule posts to public addresses only (`webhooks.addresses`): `local_chats_allowed`
lets these tests post to their loopback chats, and `production_addresses` puts the rule back as
production has it, for the tests that prove it refuses them."""

import datetime
import io
import json
import socketserver
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command

from gamenights import services as nights
from tests.local_servers import serving
from webhooks.models import Webhook

SECRET = "T0KEN-tres-secret-42"


class Chat(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), ChatHandler)
        self.posts = []  # (path, body)
        self.headers = []  # the headers of each post, in order
        self.requests = []  # (method, path) of every request, a GET too
        self.connections = 0
        self.status = 204
        self.location = None  # sent as `Location` (with a 3xx status)
        self.hang = threading.Event()  # set: the next posts wait for `release`
        self.release = threading.Event()
        self.entered = threading.Event()
        self.finished = threading.Event()
        self.during_post = None  # called while a post is being answered

    @property
    def port(self):
        return self.server_address[1]

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def verify_request(self, request, client_address):
        self.connections += 1
        return True


class ChatHandler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        self.server.requests.append(("GET", self.path))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):  # noqa: N802
        server = self.server
        server.requests.append(("POST", self.path))
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        server.posts.append((self.path, body))
        server.headers.append(dict(self.headers))
        server.entered.set()
        if server.hang.is_set():
            server.release.wait(30)
        meanwhile, server.during_post = server.during_post, None  # once
        if meanwhile is not None:
            meanwhile()
        self.send_response(server.status)
        if server.location:
            self.send_header("Location", server.location)
        self.send_header("Content-Length", "0")
        self.end_headers()
        server.finished.set()

    def log_message(self, *args):
        pass


class RawChat(socketserver.ThreadingTCPServer):
    """Answers each connection with `answer`, `pause` seconds between its bytes (0: all at once)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), RawHandler)
        self.answer = b"ERROR\r\n"
        self.pause = 0.0
        self.received = threading.Event()
        self.stop = threading.Event()

    def url(self, path):
        return f"http://127.0.0.1:{self.server_address[1]}{path}"


class RawHandler(socketserver.BaseRequestHandler):
    def handle(self):
        server = self.server
        self.request.recv(65536)
        server.received.set()
        try:
            if not server.pause:
                self.request.sendall(server.answer)
                return
            for index in range(len(server.answer)):
                if server.stop.wait(server.pause):
                    return
                self.request.sendall(server.answer[index : index + 1])
        except OSError:
            pass  # the poster hung up: what the test wants


@pytest.fixture
def chat():
    with serving(Chat()) as server:
        yield server
        server.release.set()


@pytest.fixture
def raw_chat():
    with serving(RawChat()) as server:
        yield server
        server.stop.set()


@pytest.fixture(autouse=True)
def local_chats_allowed(settings):
    """The tests' chats listen on 127.0.0.1, on a port of the system's choosing: loopback and any
    port allowed here. Safe: the setting is never read from the environment and production's is
    off (`tests/webhooks/test_addresses.py` proves it refuses these very chats)."""
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    settings.WEBHOOK_ALLOWED_PORTS = None


@pytest.fixture
def production_addresses(settings):
    """The address rule as production has it (`federation/settings.py` with no variable set)."""
    from federation import settings as production  # noqa: PLC0415

    settings.WEBHOOK_ALLOW_LOOPBACK = production.WEBHOOK_ALLOW_LOOPBACK
    settings.WEBHOOK_ALLOWED_PORTS = production.WEBHOOK_ALLOWED_PORTS
    settings.WEBHOOK_ALLOWED_HOSTS = production.WEBHOOK_ALLOWED_HOSTS
    return production


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


def deliver_command():
    """What `manage.py deliver_webhooks` prints."""
    out = io.StringIO()
    call_command("deliver_webhooks", stdout=out)
    return out.getvalue()


@pytest.fixture
def night(season):
    return nights.schedule_night(season, date=datetime.date(2010, 11, 19), place="Chez Steph")


def wait_until(condition, timeout=10):
    """True once `condition()` is, False if `timeout` seconds pass first."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()
