"""A member's private link (issue 31; federation.private_links, docs/exploitation.md « Comptes et
sécurité »): opening it logs him in on the phone, a wrong one is refused and counted, guesses are
throttled per address, a renewal ends the old link and its phones, a phone is logged out from
« Mon compte », an inactive member is refused, and every history record of a link's session says
« par son lien »; the secret never travels in a request line."""

import datetime
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from federation import private_links, throttle
from federation.models import MemberKey, PhoneSession, Player
from gamenights import services as night_services
from gamenights.models import Rsvp
from tests.conftest import make_player
from tests.federation.test_security import run_python

pytestmark = pytest.mark.django_db

ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0 Mobile Safari/537.36"
)
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)
HOME, ELSEWHERE = "203.0.113.7", "198.51.100.9"
OPEN = reverse("links:open")


def phone(user_agent=ANDROID):
    return Client(HTTP_USER_AGENT=user_agent)


def open_link(client, secret, address=HOME):
    return client.post(OPEN, {"secret": secret}, REMOTE_ADDR=address)


def by_link(client):
    """The player a client's session is of, if a private link opened it (else None)."""
    response = client.get(reverse("notifications:account"))
    if response.status_code != 200:
        return None
    user = response.wsgi_request.user
    return user.player if getattr(user, "by_link", False) else None


@pytest.fixture
def karim(db):
    """A member with no account yet (no password, no e-mail)."""
    return Player.objects.create(name="Karim")


def test_opening_the_link_logs_the_member_in_on_this_phone(karim):
    secret = private_links.issue(karim)
    client = phone()
    response = open_link(client, secret)
    assert response.status_code == 302 and response["Location"] == reverse("federation:home")
    home = client.get(response["Location"]).content.decode()
    assert (
        "Bonjour Karim : ce téléphone vous reconnaît désormais. Ajoutez le site à l'écran "
        "d'accueil pour le retrouver." in home.replace("&#x27;", "'")
    )
    assert "Connexion par mot de passe" not in home  # he has none
    assert by_link(client) == karim
    stored = PhoneSession.objects.get(player=karim)
    assert stored.label == "Chrome sur Android"
    assert stored.session_key == client.session.session_key
    # a long session: the cookie and the stored session last the setting's days, not two weeks
    cookie = response.cookies["sessionid"]
    assert 365 * 24 * 3600 - 60 < int(cookie["max-age"]) <= 365 * 24 * 3600
    session = Session.objects.get(session_key=stored.session_key)
    assert session.expire_date > timezone.now() + datetime.timedelta(days=364)


def test_a_player_without_an_account_gets_one_without_password_nor_email(karim):
    Player.objects.create(name="Karim!", user=get_user_model().objects.create_user(username="karim"))
    open_link(phone(), private_links.issue(karim))
    karim.refresh_from_db()
    user = karim.user
    assert user.username == "karim-2"  # « karim » was taken
    assert not user.has_usable_password() and user.email == ""
    assert karim.history.first().history_change_reason == "compte créé à l'ouverture de son lien privé"


def test_his_account_page_offers_no_password_change_he_could_not_make(karim, member):
    """Changing a password asks for the old one: a member who never had one is not offered it."""
    open_link(without := phone(), private_links.issue(karim))
    open_link(with_one := phone(), private_links.issue(member))
    change = reverse("password_change")
    assert f'href="{change}"' not in without.get(reverse("notifications:account")).content.decode()
    assert f'href="{change}"' in with_one.get(reverse("notifications:account")).content.decode()


def test_a_member_with_an_account_is_logged_into_it(member):
    open_link(client := phone(IPHONE), private_links.issue(member))
    assert by_link(client) == member
    assert get_user_model().objects.count() == 1
    assert PhoneSession.objects.get().label == "Safari sur iPhone"


def test_the_whole_link_pasted_opens_too(karim):
    secret = private_links.issue(karim)
    open_link(client := phone(), f"https://tarot.example.org/moi/lien/#{secret}")
    assert by_link(client) == karim


def test_a_wrong_link_is_refused_in_french_and_logs_nobody_in(karim):
    private_links.issue(karim)
    client = phone()
    response = open_link(client, "pas-le-bon-code")
    assert response.status_code == 404
    assert "Ce lien n'est pas (ou plus) valide" in response.content.decode().replace("&#x27;", "'")
    assert by_link(client) is None and not PhoneSession.objects.exists()
    assert private_links.guesses_left(HOME)
    assert throttle.counted(private_links.THROTTLE, HOME) == 1


def test_the_page_alone_does_nothing(karim):
    private_links.issue(karim)
    client = phone()
    response = client.get(OPEN)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="secret"' in page and "private-link" in page  # the field, and the script that fills it
    assert by_link(client) is None


def test_guesses_are_throttled_per_address_and_nothing_is_checked_meanwhile(karim, settings):
    settings.PRIVATE_LINK_FAILURE_LIMIT = 3
    secret = private_links.issue(karim)
    client = phone()
    for _ in range(3):
        assert open_link(client, "devine").status_code == 404
    before = timezone.now()
    locked = open_link(client, secret)  # the right link, while locked: not even looked at
    assert locked.status_code == 429
    page = locked.content.decode().replace("&#x27;", "'")
    assert "Trop de liens invalides (3)" in page and "Vous pourrez réessayer après" in page
    retry = private_links.retry_at(HOME)
    assert before + datetime.timedelta(minutes=59) < retry <= before + datetime.timedelta(minutes=60)
    assert timezone.localtime(retry).strftime("%H:%M") in page
    assert by_link(client) is None
    assert open_link(client, "devine").status_code == 429  # and a failure while locked is not counted
    # another address is not locked
    other = phone()
    assert open_link(other, secret, address=ELSEWHERE).status_code == 302


def test_the_lock_lifts_when_the_window_ends(karim, settings):
    settings.PRIVATE_LINK_FAILURE_LIMIT = 1
    secret = private_links.issue(karim)
    client = phone()
    open_link(client, "devine")
    assert open_link(client, secret).status_code == 429
    from django.core.cache import cache  # noqa: PLC0415

    cache.clear()  # the window's count expires with it
    assert open_link(client, secret).status_code == 302


def test_a_renewal_by_the_board_ends_the_old_link_and_every_phone(karim, president):
    old = private_links.issue(karim)
    first, second = phone(), phone(IPHONE)
    open_link(first, old)
    open_link(second, old)
    assert PhoneSession.objects.filter(player=karim).count() == 2
    new = private_links.issue(karim, user=president.user)
    assert by_link(first) is None and by_link(second) is None
    assert not PhoneSession.objects.exists()
    assert open_link(phone(), old).status_code == 404
    assert open_link(third := phone(), new).status_code == 302 and by_link(third) == karim
    key = MemberKey.objects.get(player=karim)
    assert key.renewed_by == president.user and key.renewed_at is not None
    assert key.digest == private_links.digest_of(new) and new not in key.digest
    assert [h.history_change_reason for h in key.history.order_by("history_date")] == [
        "lien privé donné",
        "lien privé renouvelé",
    ]
    assert not hasattr(key.history.first(), "digest")  # the history never keeps the digest


def test_the_member_renews_his_own_link_and_keeps_this_phone(karim):
    old = private_links.issue(karim)
    here, lost = phone(), phone(IPHONE)
    open_link(here, old)
    open_link(lost, old)
    response = here.post(reverse("links:renew"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "<svg" in page and "/moi/lien/#" in page
    new = page.split("/moi/lien/#")[1].split('"')[0]
    assert by_link(here) == karim and by_link(lost) is None
    assert open_link(phone(), old).status_code == 404
    assert open_link(phone(), new).status_code == 302


def test_a_member_logs_one_of_his_phones_out_from_his_account(karim, member):
    secret = private_links.issue(karim)
    here, other = phone(), phone(IPHONE)
    open_link(here, secret)
    open_link(other, secret)
    page = here.get(reverse("notifications:account")).content.decode()
    assert "Chrome sur Android" in page and "Safari sur iPhone" in page
    assert "déconnecter ce téléphone" in page and "Renouveler mon lien" in page
    iphone = PhoneSession.objects.get(browser="Safari")
    response = here.post(reverse("links:phone_logout", args=[iphone.pk]))
    assert response.status_code == 302
    assert by_link(other) is None and by_link(here) == karim
    assert not PhoneSession.objects.filter(pk=iphone.pk).exists()
    # another member cannot touch his phones
    mine = PhoneSession.objects.get()
    someone = Client()
    someone.force_login(member.user)
    assert someone.post(reverse("links:phone_logout", args=[mine.pk])).status_code == 404
    assert by_link(here) == karim


def test_logging_out_of_a_link_session_forgets_its_phone(karim):
    open_link(client := phone(), private_links.issue(karim))
    client.post(reverse("logout"))
    assert not PhoneSession.objects.exists()


def test_an_inactive_player_or_account_is_refused(karim, member):
    secret = private_links.issue(karim)
    karim.active = False
    karim.save()
    response = open_link(client := phone(), secret)
    assert response.status_code == 403 and by_link(client) is None
    assert "membre inactif" in response.content.decode()
    member.user.is_active = False
    member.user.save()
    assert open_link(phone(), private_links.issue(member)).status_code == 403


def test_a_phone_is_logged_out_once_its_player_turns_inactive(karim):
    open_link(client := phone(), private_links.issue(karim))
    Player.objects.filter(pk=karim.pk).update(active=False)
    assert by_link(client) is None
    assert client.get(reverse("notifications:account")).status_code == 302  # to the login page


def test_a_password_login_on_a_link_phone_is_a_password_session(member):
    open_link(client := phone(), private_links.issue(member))
    client.post(reverse("login"), {"username": "membre", "password": "secret-pass-1"})
    response = client.get(reverse("notifications:account"))
    assert response.status_code == 200 and not getattr(response.wsgi_request.user, "by_link", False)
    assert "by_link" not in client.session


@pytest.fixture
def night(season):
    season.end_date = timezone.localdate() + datetime.timedelta(days=100)
    season.save()
    host = make_player("Hôte")
    return night_services.schedule_night(
        season, date=timezone.localdate() + datetime.timedelta(days=3), place="Chez Steph", host=host
    )


def test_an_answer_through_the_link_says_so_in_the_history(night, member):
    open_link(client := phone(), private_links.issue(member))
    url = reverse("gamenights:night_answer", args=[night.pk])
    assert client.post(url, {"answer": "yes"}).status_code == 302
    record = Rsvp.objects.get().history.first()
    assert record.history_change_reason == "réponse du joueur (par son lien)"
    assert record.history_user == member.user
    # the same answer by password says nothing of a link
    client = Client()
    client.force_login(member.user)
    client.post(url, {"answer": "no"})
    assert Rsvp.objects.get().history.first().history_change_reason == "réponse du joueur"


def test_the_secret_never_travels_in_a_request_line(karim, president):
    """The link's secret is in its fragment: no request line (path and query) carries it, so
    no server or proxy log, and no Referer, ever holds it."""
    client = Client()
    client.force_login(president.user)
    page = client.post(reverse("links:issue", args=[karim.pk]), {"show": "send"}).content.decode()
    link = page.split('id="private-link-url" type="text" readonly value="')[1].split('"')[0]
    parts = urlsplit(link)
    secret = parts.fragment
    assert len(secret) >= 43 and MemberKey.objects.get().digest == private_links.digest_of(secret)
    assert secret not in parts.path + parts.query and parts.path == OPEN
    # opening it: a GET of the path alone, then the secret in a POST's body
    seen = []
    member_phone = phone()
    for response in (member_phone.get(parts.path), open_link(member_phone, secret)):
        request = response.wsgi_request
        seen.append(request.get_full_path())
    assert all(secret not in line for line in seen)


def test_device_labels():
    assert private_links.device(ANDROID) == ("Chrome", "Android")
    assert private_links.device(IPHONE) == ("Safari", "iPhone")
    firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
    assert private_links.device(firefox) == ("Firefox", "Windows")
    assert private_links.device("") == ("", "")
    assert PhoneSession(browser="", system="").label == "Navigateur inconnu sur appareil inconnu"


def test_the_link_logs_in_with_the_login_throttling_on(karim, settings):
    """django-axes watches every login (AxesMiddleware, its user_logged_in handler): a link's
    login goes through it as in production."""
    settings.AXES_ENABLED = True
    assert open_link(client := phone(), private_links.issue(karim)).status_code == 302
    assert by_link(client) == karim


LIMITS = (
    "from django.conf import settings as s; "
    "print(s.PRIVATE_LINK_FAILURE_LIMIT, int(s.PRIVATE_LINK_WINDOW.total_seconds()), "
    "s.PRIVATE_LINK_SESSION_AGE.days)"
)


def test_the_settings_come_from_the_environment():
    result = run_python({}, LIMITS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["10", "3600", "365"]
    environment = {"LINK_FAILURE_LIMIT": "4", "LINK_WINDOW_MINUTES": "30", "LINK_SESSION_DAYS": "90"}
    result = run_python(environment, LIMITS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["4", "1800", "90"]
    refused = run_python({"LINK_SESSION_DAYS": "0"}, LIMITS)
    assert refused.returncode != 0 and "LINK_SESSION_DAYS : 0 est inférieur au minimum, 1." in refused.stderr
