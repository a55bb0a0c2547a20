"""A member adds or changes his own e-mail address on « Mon compte » (issue 31): a link mailed
to the new address confirms it; until then the account keeps its address (or none), and no
reminder goes to the new one. The threat model: docs/exploitation.md, « Comptes et sécurité ».

The mails leave off the request (``federation.outbox``): ``sent()`` waits for them."""

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.test import Client
from django.urls import reverse

from federation import outbox
from federation.models import Player
from notifications.models import EmailChange

from .conftest import with_account

HOME, OTHER_HOME = "203.0.113.7", "198.51.100.9"
LINK = re.compile(r"http://testserver(/compte/adresse/confirmer/[^/\s]+/)")


def sent():
    """The messages sent, once the outbox has sent all it was given."""
    assert outbox.wait(timeout=30)
    return mail.outbox


def ask(client, address, client_address=HOME, **extra):
    return client.post(
        reverse("notifications:email_change"), {"email": address}, REMOTE_ADDR=client_address, **extra
    )


def text(response):
    """The page as read (entities such as &#x27; unescaped)."""
    return html.unescape(response.content.decode())


def link_in(message):
    return LINK.search(message.body).group(1)


@pytest.fixture
def karim(db):
    """A member whose account has no address (the issue's Karim)."""
    return with_account(Player.objects.create(name="Karim"), email="")


@pytest.fixture
def logged(client, karim):
    client.force_login(karim.user)
    return client


def refreshed(user):
    user.refresh_from_db()
    return user.email


def test_asking_mails_a_link_to_the_new_address_and_changes_nothing_yet(logged, karim):
    response = ask(logged, "karim@example.org")
    assert response.status_code == 302 and response.url == reverse("notifications:account")
    [message] = sent()
    assert message.to == ["karim@example.org"]
    assert "Tarot-Bière" in message.subject
    assert "karim" in message.body  # the account it is for
    assert link_in(message)
    assert refreshed(karim.user) == ""
    page = logged.get(reverse("notifications:account")).content.decode()
    assert "Un lien de confirmation a été envoyé à karim@example.org" in page
    assert "Aucun rappel ne peut vous parvenir" in page  # not yet


def test_the_link_opened_shows_a_button_and_changes_nothing(logged, karim):
    ask(logged, "karim@example.org")
    url = link_in(sent()[0])
    for client in (logged, Client()):  # logged in, or a mail scanner with no session
        response = client.get(url)
        page = response.content.decode()
        assert response.status_code == 200
        button = r'<form method="post">.*<button type="submit">Confirmer cette adresse</button>'
        assert re.search(button, page, re.S)
        assert "karim@example.org" in page
    assert refreshed(karim.user) == ""
    assert EmailChange.objects.get().confirmed_at is None


def test_the_button_confirms_the_address_and_the_link_dies(logged, karim):
    ask(logged, "karim@example.org")
    url = link_in(sent()[0])
    response = logged.post(url)
    assert response.status_code == 200
    assert "Votre adresse électronique est maintenant karim@example.org" in response.content.decode()
    assert refreshed(karim.user) == "karim@example.org"
    change = EmailChange.objects.get()
    assert (change.previous, change.address) == ("", "karim@example.org")
    assert change.confirmed_at is not None
    for again in (logged.get(url), logged.post(url)):  # used: dead
        assert again.status_code == 404
        assert "Ce lien n'est pas (ou plus) valide" in text(again)
    assert len(sent()) == 1  # no old address to warn
    page = logged.get(reverse("notifications:account")).content.decode()
    assert "Les rappels partent à karim@example.org" in page
    assert "Aucun rappel ne peut vous parvenir" not in page


def test_the_link_works_without_being_logged_in(client, karim):
    """Opened on another device (the mail read on a computer): the link is the proof."""
    client.force_login(karim.user)
    ask(client, "karim@example.org")
    url = link_in(sent()[0])
    other_device = Client(enforce_csrf_checks=True)
    page = other_device.get(url)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    assert other_device.post(url, {"csrfmiddlewaretoken": token}).status_code == 200
    assert refreshed(karim.user) == "karim@example.org"
    assert "_auth_user_id" not in other_device.session  # confirming logs nobody in


def test_changing_an_address_warns_the_old_one(client, members):
    bruno = members["Bruno"]
    client.force_login(bruno.user)
    ask(client, "bruno.neuf@example.org")
    [confirmation] = sent()
    assert confirmation.to == ["bruno.neuf@example.org"]
    page = client.get(reverse("notifications:account")).content.decode()
    assert "Les rappels partent à bruno@example.org" in page  # the old one until confirmed
    assert "Un lien de confirmation a été envoyé à bruno.neuf@example.org" in page
    client.post(link_in(confirmation))
    assert refreshed(bruno.user) == "bruno.neuf@example.org"
    notice = sent()[1]
    assert notice.to == ["bruno@example.org"]
    assert "remplacée" in notice.body
    assert "bruno.neuf@example.org" not in notice.body  # only a hint of it
    assert "b…@example.org" in notice.body
    assert EmailChange.objects.get().previous == "bruno@example.org"


def test_an_expired_link_is_refused(logged, karim, settings):
    ask(logged, "karim@example.org")
    url = link_in(sent()[0])
    settings.EMAIL_CONFIRMATION_MAX_AGE = -1  # any link is older than that
    assert logged.get(url).status_code == 404
    assert logged.post(url).status_code == 404
    assert refreshed(karim.user) == ""


def resigned(token, settings, old, new):
    """The link's signed value with ``old`` replaced by ``new``, signed again as the site would."""
    payload = signing.loads(token, salt=settings.EMAIL_CONFIRMATION_SALT)
    assert old in payload
    changed = [new if item == old else item for item in payload]
    return signing.dumps(changed, salt=settings.EMAIL_CONFIRMATION_SALT)


def test_a_tampered_or_foreign_link_is_refused(logged, karim, settings):
    ask(logged, "karim@example.org")
    token = link_in(sent()[0]).split("/")[-2]
    payload = signing.loads(token, salt=settings.EMAIL_CONFIRMATION_SALT)
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    other_salt = signing.dumps(payload, salt="gamenights.answer")
    other_address = resigned(token, settings, "karim@example.org", "pirate@example.org")
    for bad in (forged, other_salt, other_address, "faux"):
        url = reverse("notifications:email_confirm", args=[bad])
        assert logged.post(url).status_code == 404, bad
        assert logged.get(url).status_code == 404, bad
    assert refreshed(karim.user) == ""
    assert logged.post(link_in(sent()[0])).status_code == 200  # the true link still works


def test_another_accounts_session_cannot_confirm_it(client, karim, members):
    client.force_login(karim.user)
    ask(client, "karim@example.org")
    url = link_in(sent()[0])
    intruder = Client()
    intruder.force_login(members["Chloé"].user)
    for response in (intruder.get(url), intruder.post(url)):
        assert response.status_code == 403
        assert "Ce lien confirme l'adresse d'un autre compte" in text(response)
    assert refreshed(karim.user) == ""
    assert refreshed(members["Chloé"].user) == "chloe@example.org"


def test_a_link_naming_another_account_is_refused(client, karim, members, settings):
    """Chloé asked for an address; her link, rewritten to name Karim's account (and signed, as
    only the site could), confirms nothing for either."""
    chloe = members["Chloé"].user
    client.force_login(chloe)
    ask(client, "chloe.neuve@example.org")
    token = link_in(sent()[0]).split("/")[-2]
    url = reverse("notifications:email_confirm", args=[resigned(token, settings, chloe.pk, karim.user.pk)])
    assert Client().post(url).status_code == 404
    assert (refreshed(karim.user), refreshed(chloe)) == ("", "chloe@example.org")


def test_a_link_dies_when_the_address_changed_meanwhile(logged, karim):
    """The board enters another address in the admin before the member opens his link."""
    ask(logged, "karim@example.org")
    url = link_in(sent()[0])
    karim.user.email = "karim@direction.example.org"
    karim.user.save()
    assert logged.post(url).status_code == 404
    assert refreshed(karim.user) == "karim@direction.example.org"
    page = logged.get(reverse("notifications:account")).content.decode()
    assert "Un lien de confirmation a été envoyé" not in page


def test_only_the_last_link_asked_works(logged, karim):
    ask(logged, "premier@example.org")
    ask(logged, "second@example.org")
    first, second = sorted(sent(), key=lambda message: message.to[0])
    assert logged.post(link_in(first)).status_code == 404
    assert logged.post(link_in(second)).status_code == 200
    assert refreshed(karim.user) == "second@example.org"


def test_an_address_of_another_account_is_refused_naming_the_field(logged, karim, members):
    response = ask(logged, "Chloe@Example.org")
    assert response.status_code == 400
    assert "Adresse électronique : cette adresse est déjà celle d'un autre compte." in text(response)
    assert sent() == []
    assert not EmailChange.objects.exists()


def test_an_address_taken_meanwhile_is_refused_at_confirmation(logged, karim, members):
    ask(logged, "commune@example.org")
    url = link_in(sent()[0])
    chloe = members["Chloé"].user
    chloe.email = "commune@example.org"
    chloe.save()
    response = logged.post(url)
    assert response.status_code == 400
    assert "cette adresse est déjà celle d'un autre compte" in text(response)
    assert refreshed(karim.user) == ""


def test_a_malformed_or_same_address_is_refused(logged, karim, members):
    assert ask(logged, "pas-une-adresse").status_code == 400
    client = Client()
    client.force_login(members["Bruno"].user)
    response = ask(client, "BRUNO@example.org")
    assert response.status_code == 400
    assert "Adresse électronique : c'est déjà l'adresse de votre compte." in text(response)
    assert sent() == []


def test_asking_needs_a_login_and_a_post(client, karim):
    response = ask(client, "karim@example.org")
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert sent() == []


def test_the_requests_of_one_account_are_limited(logged, karim, settings):
    settings.EMAIL_CHANGE_ACCOUNT_LIMIT = 3
    for index in range(3):
        assert ask(logged, f"k{index}@example.org", client_address=f"192.0.2.{index}").status_code == 302
    refused = ask(logged, "k3@example.org", client_address="192.0.2.9")
    assert refused.status_code == 429
    assert "Adresse électronique : trop de demandes" in refused.content.decode()
    assert sorted(message.to[0] for message in sent()) == [f"k{index}@example.org" for index in range(3)]
    assert EmailChange.objects.count() == 3


def test_the_requests_of_one_client_are_limited(db, settings):
    """Accounts asked from one client address: beyond the limit, nothing leaves for any; another
    client address still gets its link. Refused requests (an address taken) count as well."""
    settings.EMAIL_CHANGE_CLIENT_LIMIT = 3
    clients = []
    for index in range(5):
        player = with_account(Player.objects.create(name=f"Membre{index}"), email="")
        client = Client()
        client.force_login(player.user)
        clients.append(client)
    get_user_model().objects.create_user("pris", email="pris@example.org")
    assert ask(clients[0], "pris@example.org").status_code == 400  # counts
    assert ask(clients[1], "m1@example.org").status_code == 302
    assert ask(clients[2], "m2@example.org").status_code == 302
    assert ask(clients[3], "m3@example.org").status_code == 429
    assert ask(clients[4], "m4@example.org", client_address=OTHER_HOME).status_code == 302
    assert sorted(message.to[0] for message in sent()) == [f"m{index}@example.org" for index in (1, 2, 4)]


def test_reminders_never_go_to_an_unconfirmed_address(client, karim, members, night):
    """Karim (no address) and Bruno (changing his) asked; before they confirm, the night's
    reminders go to Bruno's old address and to nobody for Karim; once confirmed, to the new ones."""
    import datetime  # noqa: PLC0415

    from notifications.sending import send_reminders  # noqa: PLC0415

    from .conftest import NIGHT_DATE  # noqa: PLC0415

    links = {}
    for user, address in (
        (karim.user, "karim@example.org"),
        (members["Bruno"].user, "bruno.neuf@example.org"),
    ):
        client.force_login(user)
        ask(client, address)
        links[address] = link_in(sent()[-1])
    mail.outbox.clear()
    send_reminders(NIGHT_DATE - datetime.timedelta(days=3))
    recipients = sorted(message.to[0] for message in sent())
    assert recipients == sorted(
        f"{name}@example.org" for name in ("alice", "bruno", "chloe", "david", "emile")
    )
    for url in links.values():
        Client().post(url)
    sent()  # the old address's notice gone
    mail.outbox.clear()
    send_reminders(NIGHT_DATE - datetime.timedelta(days=2))  # the night not yet reminded to them
    assert "karim@example.org" in {message.to[0] for message in sent()}


def test_the_mails_are_in_the_language_of_the_page(client, members):
    bruno = members["Bruno"]
    client.force_login(bruno.user)
    ask(client, "bruno.neuf@example.org", HTTP_ACCEPT_LANGUAGE="en")
    [confirmation] = sent()
    assert confirmation.subject == "Tarot-Bière: confirm your e-mail address"
    assert "open this link and press “Confirm this address”" in confirmation.body
    client.post(link_in(confirmation), HTTP_ACCEPT_LANGUAGE="en")
    notice = sent()[1]
    assert notice.subject == "Tarot-Bière: your account's address changed"
    assert "was replaced by b…@example.org" in notice.body
