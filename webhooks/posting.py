"""One post of an announcement to a webhook, for `webhooks.delivery`: what went wrong in words
that name no URL (its secret), or "" once the chat took it (a 2xx answer).

The address is checked and its name resolved once (`webhooks.addresses.target`); the post
connects to the address so checked, sending the name as the request's `Host` and, over https,
as the TLS server name (the certificate is checked against the name). No redirect is followed:
a 3xx answer is a failure. One deadline, WEBHOOK_TIMEOUT seconds from the start, bounds the
whole post (resolving, connecting, the TLS handshake, sending, reading the answer): each step
waits at most what is left, and a watchdog cuts the connection once it has passed, whatever a
chat that trickles its answer does. Every error is a failure in words (a chat answering
something that is not HTTP is « réponse illisible »); nothing is raised.

Each post carries `Idempotency-Key`, the same at every attempt of one announcement to one
webhook: a chat that received a post but answered too late can drop the repeat.
"""

import contextlib
import http.client
import json
import socket
import ssl
import threading
import time

from django.conf import settings

from webhooks import addresses

USER_AGENT = "Tarot-Biere-webhook"


def timeout():
    return float(settings.WEBHOOK_TIMEOUT)


def tls_context():
    """The TLS settings of a post: the system's certificate authorities, names checked."""
    return ssl.create_default_context()


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds
        self.passed = threading.Event()  # set by the watchdog

    def left(self):
        """The seconds left; `TimeoutError` if none."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise TimeoutError("délai dépassé")
        return left


class Connection(http.client.HTTPConnection):
    """An HTTP connection over a socket already connected (and checked): it never connects."""

    def __init__(self, target, sock):
        super().__init__(target.host, target.port)
        self.default_port = addresses.PORTS[target.scheme]  # the `Host` header names the port otherwise
        self.sock = sock

    def connect(self):
        raise http.client.NotConnected("connexion déjà close")


def connect(target, deadline):
    """A socket connected to the first of the target's checked addresses that answers."""
    error = None
    for address in target.addresses:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(deadline.left())
            sock.connect((address, target.port))
            return sock
        except OSError as failure:
            sock.close()
            error = failure
    raise error or OSError("aucune adresse")


def watchdog(sock, deadline):
    """A timer that cuts `sock`'s connection once `deadline` has passed (a duplicate of it, so
    that it also cuts the TLS socket wrapped around it)."""
    spare = sock.dup()

    def cut():
        deadline.passed.set()
        with contextlib.suppress(OSError):  # the post ended meanwhile
            spare.shutdown(socket.SHUT_RDWR)

    timer = threading.Timer(max(deadline.end - time.monotonic(), 0), cut)
    timer.daemon = True
    timer.start()
    return timer, spare


def exchange(target, body, key, deadline):
    """POST `body` to `target` within `deadline`; the answer's status."""
    headers = {"Content-Type": "application/json; charset=utf-8"}
    if key:
        headers["Idempotency-Key"] = key
    data = json.dumps(body, ensure_ascii=False).encode()
    return request(target, data, headers, deadline)[0]


def request(target, data, headers, deadline):
    """POST the bytes `data` with `headers` to `target` (checked: `addresses.target`) within
    `deadline`; `(status, the answer's headers)`. The phones' pushes go through it too
    (`notifications.push`)."""
    sock = connect(target, deadline)
    timer, spare = watchdog(sock, deadline)
    try:
        if target.scheme == "https":
            sock.settimeout(deadline.left())
            sock = tls_context().wrap_socket(sock, server_hostname=target.host)
        connection = Connection(target, sock)
        headers = {"User-Agent": USER_AGENT, "Connection": "close", **headers}
        sock.settimeout(deadline.left())
        connection.request("POST", target.path, data, headers)
        response = connection.getresponse()
        deadline.left()
        return response.status, response.headers
    finally:
        timer.cancel()
        timer.join()
        spare.close()
        sock.close()


def verdict(status):
    if 200 <= status < 300:
        return ""
    if 300 <= status < 400:
        return f"redirection refusée (HTTP {status})"
    return f"HTTP {status}"


def post(url, body, key=""):
    """POST `body` as JSON to `url` (`key`: its `Idempotency-Key`); an error message naming no URL,
    or "" once accepted."""
    deadline = Deadline(timeout())
    try:
        target = addresses.target(url, deadline.left())
        return verdict(exchange(target, body, key, deadline))
    except addresses.Refused as refused:
        return f"adresse refusée : {refused.reason}"
    except Exception as error:  # noqa: BLE001 — every failure is a failure of this post, in words
        return "délai dépassé" if deadline.passed.is_set() else failure(error)


def failure(error):
    if isinstance(error, TimeoutError):
        return "délai dépassé"
    if isinstance(error, ssl.SSLCertVerificationError):
        return "certificat refusé"
    if isinstance(error, ssl.SSLError):
        return "échange TLS impossible"
    if isinstance(error, http.client.HTTPException):
        return "réponse illisible"
    if isinstance(error, OSError):
        return f"connexion impossible ({type(error).__name__})"
    return f"envoi impossible ({type(error).__name__})"
