"""A push service of the tests' own, on 127.0.0.1 (the tests never reach the internet), and the
phones that subscribe to it.

`Phone`: a P-256 key pair and an auth secret made here, as a browser makes them; `subscribe`
gives the row the site keeps. `PushService`: a local HTTP server in a thread that, for each push,
checks the VAPID token (RFC 8292: its signature, its audience, the site's public key), decrypts
the payload with the phone's private key (http_ece, ``aes128gcm``) and answers the status the
test asks for (201 by default; `answers`, a list, is used up first; "hang": nothing for 3 s).
What it received is in `received` (endpoint path, payload), what it refused in `refused`."""

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02

from notifications.models import PushSubscription


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Phone:
    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def p256dh(self):
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(public)

    def decrypt(self, body):
        return http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")

    def subscribe(self, user, endpoint):
        return PushSubscription.objects.create(
            user=user, endpoint=endpoint, p256dh=self.p256dh, auth=b64url(self.auth), label="Test"
        )


class PushService(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), PushHandler)
        self.phones = {}  # endpoint path -> Phone
        self.received = []  # (path, payload dict)
        self.refused = []  # (path, why)
        self.answers = []  # statuses to answer first, in order
        self.retry_after = None
        self.lock = threading.Lock()

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def subscribe(self, user, name):
        """A new phone of `user`, subscribed at /push/<name>: (Phone, PushSubscription)."""
        phone = Phone()
        self.phones[f"/push/{name}"] = phone
        return phone, phone.subscribe(user, f"{self.origin}/push/{name}")

    def next_status(self):
        with self.lock:
            return self.answers.pop(0) if self.answers else 201

    def payloads(self, name=None):
        return [payload for path, payload in self.received if name is None or path == f"/push/{name}"]


def vapid_problem(headers, origin):
    """Why the VAPID token of a push is refused, or ""."""
    auth = headers.get("Authorization", "")
    if not auth.startswith("vapid "):
        return "pas de jeton VAPID"
    try:
        if not Vapid02.verify(auth):
            return "signature VAPID fausse"
    except Exception as error:  # noqa: BLE001 — a malformed token is refused
        return f"jeton illisible ({error})"
    parts = dict(part.split("=", 1) for part in auth[len("vapid ") :].split(","))
    if parts["k"] != settings.VAPID_PUBLIC_KEY:
        return "clé publique inconnue"
    claims = json.loads(unb64url(parts["t"].split(".")[1]))
    if claims.get("aud") != origin:
        return f"audience {claims.get('aud')}"
    if not claims.get("sub") or claims.get("exp", 0) < time.time():
        return "sujet absent ou jeton expiré"
    return ""


class PushHandler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        server = self.server
        body = self.rfile.read(int(self.headers["Content-Length"]))
        problem = vapid_problem(self.headers, server.origin)
        phone = server.phones.get(self.path)
        if not problem and phone is None:
            problem = "abonnement inconnu"
        if not problem and self.headers.get("Content-Encoding") != "aes128gcm":
            problem = "chiffrement inconnu"
        if problem:
            server.refused.append((self.path, problem))
            return self.answer(403 if "VAPID" in problem or "clé" in problem else 400)
        status = server.next_status()
        if status == "hang":  # a push service that never answers
            time.sleep(3)
            return self.answer(201)
        if status == 201:
            server.received.append((self.path, json.loads(phone.decrypt(body))))
        self.answer(status)
        return None

    def answer(self, status):
        self.send_response(status)
        if status == 429 and self.server.retry_after is not None:
            self.send_header("Retry-After", str(self.server.retry_after))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass
