"""« Mot de passe oublié » (issue 21): the page must not tell who is a member, nor mail without
limit. The account is looked up and the link mailed off the request (``federation.outbox``), so
that the page answers at once and the same for any address; and at most
PASSWORD_RESET_EMAIL_LIMIT links per address, PASSWORD_RESET_CLIENT_LIMIT requests per client
address, go out in a window: beyond, the page answers the same, and nothing is sent.

The mail server here is the test's: it answers only when the test lets it (``HeldBackend``), so
that a request that waited for it could not have answered first. Nothing is timed; the times of
a request against a slow server are reported (``benchmark``), never asserted.
"""

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail.backends import locmem
from django.urls import reverse

from federation import outbox
from tests.federation.test_security import run_python
from tests.pages import without_random_tokens

# the outbox's threads read the accounts: the test's data must be committed for them to see it
pytestmark = pytest.mark.django_db(transaction=True)

HOME, OTHER_HOME = "203.0.113.7", "198.51.100.9"
ANSWERED = threading.Event()  # set by the test once its request has been answered
RELEASED = threading.Event()  # the held server answers once it is set


class HeldBackend(locmem.EmailBackend):
    """A mail server that answers only once the test releases it (``RELEASED``); it refuses to
    send if it was never released (a request that waited for it would have waited in vain)."""

    def send_messages(self, messages):
        if not RELEASED.wait(timeout=5):
            raise TimeoutError("serveur de courriel tenu : la page a attendu l'envoi")
        return super().send_messages(messages)


class SlowBackend(locmem.EmailBackend):
    """A mail server that takes 0.3 s for each of its 7 replies (greeting, EHLO, MAIL, RCPT,
    DATA, the message, QUIT), as in the issue."""

    def send_messages(self, messages):
        time.sleep(7 * 0.3)
        return super().send_messages(messages)


@pytest.fixture
def held_server(settings):
    settings.EMAIL_BACKEND = "tests.federation.test_password_reset.HeldBackend"
    RELEASED.clear()
    yield RELEASED
    RELEASED.set()
    outbox.wait(timeout=30)


def member_with(address, name="membre"):
    return get_user_model().objects.create_user(name, email=address, password="secret-pass-1")


def ask(client, address, client_address=HOME, **extra):
    return client.post(reverse("password_reset"), {"email": address}, REMOTE_ADDR=client_address, **extra)


def sent():
    """The messages sent, once the outbox has sent all it was given."""
    assert outbox.wait(timeout=30)
    return mail.outbox


def test_the_page_answers_before_the_mail_server_does(client, held_server):
    member_with("membre@example.org")
    response = ask(client, "membre@example.org")
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    assert mail.outbox == []  # the server has not answered yet: the page did not wait for it
    held_server.set()
    assert [message.to for message in sent()] == [["membre@example.org"]]
    assert "Bonjour membre" in mail.outbox[0].body
    assert "http://testserver/compte/reinitialiser/" in mail.outbox[0].body


def test_a_member_and_a_stranger_get_the_same_answer(client, held_server):
    member_with("membre@example.org")
    known = ask(client, "membre@example.org")
    unknown = ask(client, "personne@example.org")
    assert (known.status_code, known.url) == (unknown.status_code, unknown.url)
    assert known.content == unknown.content
    assert dict(known.items()) == dict(unknown.items())
    followed = [client.get(response.url) for response in (known, unknown)]
    pages = [without_random_tokens(response.content.decode()) for response in followed]
    assert pages[0] == pages[1]
    assert mail.outbox == []
    held_server.set()
    assert [message.to for message in sent()] == [["membre@example.org"]]


def test_fifteen_requests_for_one_address_send_the_limit_then_nothing(client, settings):
    """The issue's 15 requests for one address, from 15 client addresses: the first
    PASSWORD_RESET_EMAIL_LIMIT (3) send a link, the others the same page and nothing."""
    assert settings.PASSWORD_RESET_EMAIL_LIMIT == 3
    member_with("membre@example.org")
    answers = [ask(client, "Membre@Example.org", client_address=f"192.0.2.{index}") for index in range(1, 16)]
    assert {(answer.status_code, answer.url, answer.content) for answer in answers} == {
        (302, reverse("password_reset_done"), b"")
    }
    assert len(sent()) == 3
    # another address is not held back by this one's limit
    member_with("autre@example.org", name="autre")
    ask(client, "autre@example.org")
    assert [message.to for message in sent()[3:]] == [["autre@example.org"]]


def test_the_sixteenth_request_from_one_client_sends_nothing(client, settings):
    """PASSWORD_RESET_CLIENT_LIMIT (15) requests from one client address, for 16 members: the
    16th answers the same page, and no link leaves; another client address still gets its link."""
    assert settings.PASSWORD_RESET_CLIENT_LIMIT == 15
    for index in range(1, 18):
        member_with(f"membre{index}@example.org", name=f"membre{index}")
    answers = [ask(client, f"membre{index}@example.org") for index in range(1, 17)]
    assert len({(answer.status_code, answer.url, answer.content) for answer in answers}) == 1
    assert sorted(message.to[0] for message in sent()) == sorted(
        f"membre{index}@example.org" for index in range(1, 16)
    )
    ask(client, "membre17@example.org", client_address=OTHER_HOME)
    assert sent()[-1].to == ["membre17@example.org"]
    assert len(mail.outbox) == 16


def test_requests_for_unknown_addresses_count_for_the_client_too(client):
    """A client that tries addresses learns nothing and is held back as any other."""
    member_with("membre@example.org")
    for index in range(15):
        ask(client, f"personne{index}@example.org")
    ask(client, "membre@example.org")
    assert sent() == []


def test_behind_a_proxy_the_client_is_the_address_it_forwards(client, settings):
    """With PROXY_COUNT=1, the client address is the one the proxy wrote (as for the login
    throttle): 15 requests from one forwarded client hold it back, not the proxy's others."""
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR")
    settings.AXES_IPWARE_PROXY_COUNT = 0
    member_with("membre@example.org")
    member_with("autre@example.org", name="autre")
    proxy = {"client_address": "127.0.0.1"}
    for index in range(15):
        ask(client, f"personne{index}@example.org", HTTP_X_FORWARDED_FOR="203.0.113.50", **proxy)
    ask(client, "membre@example.org", HTTP_X_FORWARDED_FOR="203.0.113.50", **proxy)
    ask(client, "autre@example.org", HTTP_X_FORWARDED_FOR="203.0.113.51", **proxy)
    assert [message.to for message in sent()] == [["autre@example.org"]]


def test_a_held_back_request_is_logged(client, caplog):
    member_with("membre@example.org")
    for _ in range(4):
        ask(client, "membre@example.org")
    assert len(sent()) == 3
    assert (
        "Lien de nouveau mot de passe non envoyé (limite par adresse atteinte) : "
        "adresse membre@example.org, client 203.0.113.7" in caplog.text
    )


def test_a_failed_sending_is_logged_and_the_page_answers_the_same(client, settings, caplog):
    settings.EMAIL_BACKEND = "tests.federation.test_password_reset.BrokenBackend"
    member_with("membre@example.org")
    response = ask(client, "membre@example.org")
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    assert sent() == []
    assert "Failed to send password reset email" in caplog.text


class BrokenBackend(locmem.EmailBackend):
    def send_messages(self, messages):
        raise ConnectionRefusedError("serveur de courriel injoignable")


def test_the_mail_is_in_the_language_of_the_request(client):
    """Written on the outbox's thread, in the language the page was asked in."""
    member_with("membre@example.org")
    ask(client, "membre@example.org", HTTP_ACCEPT_LANGUAGE="en")
    ask(client, "membre@example.org", HTTP_ACCEPT_LANGUAGE="fr")
    # Two threads send them, so either may leave first: one in each language, whatever the order
    # (were the language not the request's, both would be in the same one).
    bodies = [message.body for message in sent()]
    assert len(bodies) == 2
    assert sum("If you did not ask for anything, ignore this message" in body for body in bodies) == 1
    assert sum("Si vous n'avez rien demandé, ignorez ce message" in body for body in bodies) == 1


def test_the_time_of_a_request_against_a_slow_mail_server(client, settings, benchmark):
    """The issue: 2.1–2.9 s for a member's address, 3 ms for another, the mail sent in the
    request. Reported: both times now, the server taking 2.1 s (not asserted)."""
    settings.EMAIL_BACKEND = "tests.federation.test_password_reset.SlowBackend"
    member_with("membre@example.org")
    times = {}
    for what, address, client_address in (
        ("adresse d'un membre", "membre@example.org", HOME),
        ("adresse inconnue", "personne@example.org", OTHER_HOME),
    ):
        start = time.perf_counter()
        ask(client, address, client_address=client_address)
        times[what] = time.perf_counter() - start
    assert [message.to for message in sent()] == [["membre@example.org"]]
    benchmark(
        "mot de passe oublié, serveur de courriel de 2,1 s : "
        + ", ".join(f"{what} {seconds * 1000:.1f} ms" for what, seconds in times.items())
    )


LIMITS = (
    "from django.conf import settings as s; "
    "print(s.PASSWORD_RESET_EMAIL_LIMIT, s.PASSWORD_RESET_CLIENT_LIMIT, "
    "int(s.PASSWORD_RESET_WINDOW.total_seconds()))"
)


def test_the_limits_come_from_the_environment():
    result = run_python({}, LIMITS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3", "15", "3600"]
    environment = {"RESET_EMAIL_LIMIT": "5", "RESET_CLIENT_LIMIT": "40", "RESET_WINDOW_MINUTES": "10"}
    result = run_python(environment, LIMITS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["5", "40", "600"]


def test_a_window_of_no_time_is_refused():
    result = run_python({"RESET_WINDOW_MINUTES": "0"}, LIMITS)
    assert result.returncode != 0
    assert "RESET_WINDOW_MINUTES : 0 est inférieur au minimum, 1." in result.stderr
