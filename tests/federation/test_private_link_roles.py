"""A private link's session is the member's only (issue 31; federation.roles): no role of any
season, not the board even for a board member, not a superuser, no admin; and the board's page
that hands the links out is the board's, in a password session only."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from championship.models import Round
from federation import private_links
from federation.models import Official, PhoneSession, Player
from federation.roles import board_seasons, can_enter_rounds, is_board
from tests.factories import make_round

pytestmark = pytest.mark.django_db
BOARD_PAGE = reverse("links:board")


def linked(player):
    """A phone on which `player` opened his private link."""
    client = Client()
    response = client.post(reverse("links:open"), {"secret": private_links.issue(player)})
    assert response.status_code == 302
    return client


def request_user(client, url=None):
    return client.get(url or reverse("notifications:account")).wsgi_request.user


@pytest.fixture
def root_player(db):
    """A superuser and staff account that is also a member (a player)."""
    user = get_user_model().objects.create_superuser(
        username="root", email="r@example.org", password="pw-12345678"
    )
    return Player.objects.create(name="Root", user=user)


def test_a_board_member_by_link_has_no_role(season, president, secretary):
    for player in (president, secretary):
        user = request_user(linked(player))
        assert user.by_link
        assert not is_board(user, season) and not can_enter_rounds(user, season)
        assert not board_seasons(user).exists()
        password = Client()
        password.force_login(player.user)
        assert can_enter_rounds(request_user(password), season)  # his password session keeps his role


def test_a_superuser_by_link_is_no_superuser(season, root_player):
    user = request_user(linked(root_player))
    assert user.is_superuser and user.by_link
    assert not is_board(user, season) and not board_seasons(user).exists()


def test_a_board_member_by_link_cannot_homologate(season, president):
    submitted = make_round(season, status=Round.SUBMITTED)
    client = linked(president)
    url = reverse("championship:round_homologate", args=[submitted.pk])
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    submitted.refresh_from_db()
    assert submitted.status == Round.SUBMITTED


def test_the_admin_refuses_a_link_session_whatever_the_account(root_player):
    client = linked(root_player)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))
    assert client.get(reverse("admin:federation_player_changelist")).status_code == 302
    page = client.get(reverse("federation:home")).content.decode()
    assert 'href="/admin/"' not in page and "Connexion par mot de passe" in page
    password = Client()
    password.force_login(root_player.user)
    assert password.get(reverse("admin:index")).status_code == 200


def test_an_official_is_told_his_acts_need_his_password(president, member):
    page = linked(president).get(reverse("federation:home")).content.decode()
    assert "vos actes d&#x27;officiel" in page
    assert "vos actes d&#x27;officiel" not in linked(member).get(reverse("federation:home")).content.decode()


def test_the_board_page_is_the_boards_with_its_password(season, president, secretary, member, root_player):
    anonymous = Client().get(BOARD_PAGE)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    for player in (member, secretary):
        client = Client()
        client.force_login(player.user)
        assert client.get(BOARD_PAGE).status_code == 403
        assert client.post(reverse("links:issue", args=[member.pk])).status_code == 403
    assert linked(president).get(BOARD_PAGE).status_code == 403
    assert linked(president).post(reverse("links:issue", args=[member.pk])).status_code == 403
    for user in (president.user, root_player.user):
        client = Client()
        client.force_login(user)
        assert client.get(BOARD_PAGE).status_code == 200


def test_the_board_page_lists_the_active_members_with_their_links_and_phones(season, president, member):
    Player.objects.create(name="Parti", active=False)
    secret = private_links.issue(member)
    for _ in range(2):
        Client().post(reverse("links:open"), {"secret": secret})
    client = Client()
    client.force_login(president.user)
    page = client.get(BOARD_PAGE).content.decode()
    assert "Membre" in page and "Parti" not in page
    assert "lien donné le" in page and "2 téléphones" in page and "pas encore de lien" in page
    assert "donnent donc un NOUVEAU lien" in page  # said before the buttons
    assert "envoyer" in page and "afficher le QR" in page
    # the home page leads there
    assert BOARD_PAGE in client.get(reverse("federation:home")).content.decode()


def test_the_board_sends_a_link_or_shows_its_qr(season, president, member):
    member.user.email = "membre@example.org"
    member.user.save()
    client = Client()
    client.force_login(president.user)
    sent = client.post(reverse("links:issue", args=[member.pk]), {"show": "send"}).content.decode()
    assert "/moi/lien/#" in sent and "data-share" in sent and "mailto:membre@example.org?" in sent
    assert "<svg" not in sent
    phones = linked(member)
    shown = client.post(reverse("links:issue", args=[member.pk]), {"show": "qr"}).content.decode()
    assert "<svg" in shown and "QR code du lien privé" in shown
    assert not PhoneSession.objects.exists()  # the renewal logged his phone out
    assert request_user(phones).is_anonymous


def test_an_official_issuing_a_link_is_in_the_history(season, president, member):
    client = Client()
    client.force_login(president.user)
    client.post(reverse("links:issue", args=[member.pk]), {"show": "qr"})
    record = member.member_key.history.get()
    assert record.history_user == president.user and record.history_change_reason == "lien privé donné"
    assert Official.objects.filter(player=president).exists()
