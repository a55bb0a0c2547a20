"""Password change and reset by e-mail (Django's auth views, in French, in the site's layout)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from federation import outbox
from tests.pages import without_random_tokens

NEW_PASSWORD = "Pique-dame-2011"


def logged_in_as(client):
    html = client.get(reverse("federation:home")).content.decode()
    match = re.search(r"Déconnexion \(([^)]*)\)", html)
    return match.group(1) if match else None


def test_it_links_the_password_pages_from_the_account_and_the_login_page(client, member):
    """« Mot de passe » belongs to the account (issue 35): « Mon compte » links its change, the
    header's menu does not."""
    html = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in html
    assert "Mot de passe oublié ?" in html
    client.force_login(member.user)
    html = client.get(reverse("notifications:account")).content.decode()
    assert f'href="{reverse("password_change")}"' in html
    header = client.get(reverse("federation:home")).content.decode().split("</header>")[0]
    assert f'href="{reverse("notifications:account")}"' in header
    assert f'href="{reverse("password_change")}"' not in header


def test_it_asks_to_log_in_before_changing_a_password(client, db):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_it_changes_a_password(client, member):
    client.force_login(member.user)
    page = client.get(reverse("password_change"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Changer de mot de passe" in html and 'class="site-header"' in html
    response = client.post(
        reverse("password_change"),
        {"old_password": "secret-pass-1", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    assert "Mot de passe changé" in client.get(response.url).content.decode()
    client.logout()
    assert client.login(username="membre", password=NEW_PASSWORD)
    assert not client.login(username="membre", password="secret-pass-1")


def test_it_refuses_a_wrong_old_password_in_french(client, member):
    client.force_login(member.user)
    response = client.post(
        reverse("password_change"),
        {"old_password": "faux", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert "Votre ancien mot de passe est incorrect" in response.content.decode()
    member.user.refresh_from_db()
    assert member.user.check_password("secret-pass-1")


def sent():
    """The reset links are mailed off the request (``federation.outbox``): once sent."""
    assert outbox.wait(timeout=30)
    return mail.outbox


# the outbox's thread reads the accounts: the test's data must be committed for it to see it
@pytest.mark.django_db(transaction=True)
def test_it_resets_a_forgotten_password_by_e_mail(client, member):
    member.user.email = "membre@example.org"
    member.user.save()
    page = client.get(reverse("password_reset"))
    assert "Mot de passe oublié" in page.content.decode()

    response = client.post(reverse("password_reset"), {"email": "membre@example.org"})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert len(sent()) == 1
    message = mail.outbox[0]
    assert message.to == ["membre@example.org"]
    assert "nouveau mot de passe" in message.subject
    assert "Bonjour membre" in message.body
    link = re.search(r"http://testserver(/compte/reinitialiser/\S+/)", message.body).group(1)

    # Django moves the token into the session and redirects to a URL without it.
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    assert "Nouveau mot de passe" in form_page.content.decode()
    assert "Ce lien ne vaut plus" not in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("password_reset_complete")
    assert "Mot de passe enregistré" in client.get(response.url).content.decode()

    response = client.post(reverse("login"), {"username": "membre", "password": NEW_PASSWORD})
    assert response.status_code == 302
    assert logged_in_as(client) == "membre"

    # The link served once.
    client.logout()
    assert "Ce lien ne vaut plus" in client.get(link, follow=True).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_reset_for_an_unknown_address_reveals_nothing(client, member):
    member.user.email = "membre@example.org"
    member.user.save()
    known = client.post(reverse("password_reset"), {"email": "membre@example.org"}, follow=True)
    unknown = client.post(reverse("password_reset"), {"email": "personne@example.org"}, follow=True)
    assert len(sent()) == 1  # only to the known address
    assert known.redirect_chain == unknown.redirect_chain == [(reverse("password_reset_done"), 302)]
    assert without_random_tokens(known.content.decode()) == without_random_tokens(unknown.content.decode())


@pytest.mark.django_db(transaction=True)
def test_it_sends_no_reset_to_an_account_without_a_usable_password(client):
    user = get_user_model().objects.create_user("sans", email="sans@example.org")
    user.set_unusable_password()
    user.save()
    client.post(reverse("password_reset"), {"email": "sans@example.org"})
    assert sent() == []
