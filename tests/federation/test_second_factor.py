"""Officials' second factor (federation.second_factor, federation.two_step): enrolment on « Mon
compte », the login in two steps, its throttling and expiry, the backup codes, the admin's login,
and the roles of a session that did not pass the code. Codes come from the device's own key
(django_otp.oath.totp), as an authenticator app computes them."""

import base64
import io
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from federation import private_links, two_step
from federation.roles import board_seasons, can_enter_rounds, is_board

BOARD_PAGE = "/saisons/importer/"  # the board's (federation.roles.board_seasons)


def code_of(device, steps_ahead=0):
    """The code the device's app shows now (or `steps_ahead` periods later: a code already used
    is refused, so a second login in the same test takes the next one)."""
    return f"{totp(device.bin_key, device.step, device.t0, device.digits, steps_ahead):06d}"


def wrong_code(device):
    right = {code_of(device, step) for step in (-1, 0, 1)}
    return next(f"{n:06d}" for n in range(1000000) if f"{n:06d}" not in right)


def with_device(user):
    device = TOTPDevice.objects.create(user=user, name="app", confirmed=True)
    backup = StaticDevice.objects.create(user=user, name="codes", confirmed=True)
    backup.token_set.create(token="abcdefghij")
    return device


def log_in(client, username, next_url=""):
    data = {"username": username, "password": "secret-pass-1"}
    url = reverse("login") + (f"?next={next_url}" if next_url else "")
    return client.post(url, data)


def send_code(client, code):
    return client.post(reverse("login_code"), {"code": code})


def logged_in(client):
    return "_auth_user_id" in client.session


def unthrottle(device):
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_timestamp=None)


# --- enrolment ------------------------------------------------------------------------------------


def test_an_official_adds_a_device_confirmed_by_a_right_code_and_sees_backup_codes_once(client, president):
    client.force_login(president.user)
    account = client.get(reverse("notifications:account")).content.decode()
    assert "Ajouter une seconde vérification" in account
    response = client.post(reverse("second_factor_start"))
    assert response.url == reverse("second_factor_enrol")
    device = TOTPDevice.objects.get(user=president.user)
    assert not device.confirmed  # protects nothing yet

    page = client.get(reverse("second_factor_enrol")).content.decode()
    assert "<svg" in page and 'class="qr"' in page
    assert f'href="{escape(device.config_url)}"' in page  # the same phone: a link to the app
    assert "issuer=Tarot-Bi%C3%A8re" in device.config_url
    secret = re.search(r'<code class="secret">([A-Z2-7 ]+)</code>', page).group(1)
    assert base64.b32decode(secret.replace(" ", "")) == device.bin_key

    wrong = client.post(reverse("second_factor_enrol"), {"code": wrong_code(device)})
    assert wrong.status_code == 400 and "Code erroné" in wrong.content.decode()
    device.refresh_from_db()
    assert not device.confirmed
    unthrottle(device)

    confirmed = client.post(reverse("second_factor_enrol"), {"code": code_of(device)})
    assert confirmed.url == reverse("second_factor_codes")
    device.refresh_from_db()
    assert device.confirmed
    codes_page = client.get(reverse("second_factor_codes")).content.decode()
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", codes_page)
    assert len(codes) == 10
    stored = StaticToken.objects.filter(device__user=president.user).values_list("token", flat=True)
    assert sorted(codes) == sorted(stored)
    assert client.get(reverse("second_factor_codes")).url == reverse("notifications:account")  # once
    # This session passed the code: it keeps its roles.
    assert client.get(BOARD_PAGE).status_code == 200
    assert "Retirer" in client.get(reverse("notifications:account")).content.decode()


def test_an_unconfirmed_device_does_not_change_the_login(client, president):
    two_step_device = TOTPDevice.objects.create(user=president.user, name="app", confirmed=False)
    assert two_step_device.pk
    response = log_in(client, "président")
    assert response.status_code == 302 and response.url == reverse("federation:home")
    assert logged_in(client)


def test_adding_a_device_logs_out_the_other_sessions_of_the_account_only(client, president, member):
    other_phone, someone_else = Client(), Client()
    other_phone.force_login(president.user)
    someone_else.force_login(member.user)
    client.force_login(president.user)
    client.post(reverse("second_factor_start"))
    device = TOTPDevice.objects.get(user=president.user)
    client.post(reverse("second_factor_enrol"), {"code": code_of(device)})
    assert not logged_in(other_phone)
    assert logged_in(client)
    assert logged_in(someone_else)
    assert Session.objects.count() == 2


def test_a_member_who_is_not_an_official_sees_no_section_and_cannot_add_one(client, member):
    client.force_login(member.user)
    account = client.get(reverse("notifications:account")).content.decode()
    assert "Seconde vérification" not in account
    assert client.post(reverse("second_factor_start")).status_code == 403
    assert client.get(reverse("second_factor_enrol")).status_code == 403
    assert not TOTPDevice.objects.exists()


def test_staff_and_superusers_see_the_section(client, db):
    staff = get_user_model().objects.create_user("gérant", password="secret-pass-1", is_staff=True)
    client.force_login(staff)
    assert "Ajouter une seconde vérification" in client.get(reverse("notifications:account")).content.decode()


def test_a_session_opened_by_a_private_link_cannot_change_the_second_factor(client, president):
    secret = private_links.issue(president)
    assert client.post(reverse("links:open"), {"secret": secret}).status_code == 302
    assert client.session.get("by_link")
    assert "Seconde vérification" not in client.get(reverse("notifications:account")).content.decode()
    assert client.post(reverse("second_factor_start")).status_code == 403


# --- the login ------------------------------------------------------------------------------------


def test_the_login_of_an_account_with_a_device_asks_for_its_code(client, president):
    device = with_device(president.user)
    response = log_in(client, "président", next_url=BOARD_PAGE)
    assert response.url == reverse("login_code")
    assert not logged_in(client)  # the password alone logs nobody in
    assert client.get(BOARD_PAGE).url.startswith(reverse("login"))
    page = client.get(reverse("login_code"))
    assert page.status_code == 200 and 'autocomplete="one-time-code"' in page.content.decode()

    response = send_code(client, code_of(device))
    assert response.url == BOARD_PAGE
    assert logged_in(client)
    assert client.get(BOARD_PAGE).status_code == 200  # verified: the board's rights


def test_a_wrong_code_is_refused_and_the_device_throttled(client, president, caplog):
    device = with_device(president.user)
    log_in(client, "président")
    refused = send_code(client, wrong_code(device))
    assert refused.status_code == 400 and "Code erroné" in refused.content.decode()
    assert "Code de seconde vérification refusé pour le compte président" in caplog.text
    assert not logged_in(client)
    # Right away, even the right code waits for the delay (django-otp: OTP_TOTP_THROTTLE_FACTOR).
    throttled = send_code(client, code_of(device))
    assert throttled.status_code == 400 and "attendez" in throttled.content.decode()
    assert not logged_in(client)
    unthrottle(device)  # the delay passed
    assert send_code(client, code_of(device)).status_code == 302
    assert logged_in(client)


def test_a_pending_login_allows_a_few_codes_then_asks_for_the_password_again(client, president):
    device = with_device(president.user)
    log_in(client, "président")
    for _ in range(two_step.MAX_TRIES - 1):
        unthrottle(device)
        assert send_code(client, wrong_code(device)).status_code == 400
    unthrottle(device)
    last = send_code(client, wrong_code(device))
    assert last.url == reverse("login")
    unthrottle(device)
    assert send_code(client, code_of(device)).url == reverse("login")  # no pending login left
    assert not logged_in(client)


def test_a_backup_code_works_once(client, president):
    with_device(president.user)
    log_in(client, "président")
    assert send_code(client, "ABCDE FGHIJ").status_code == 302  # case and spaces as typed
    assert logged_in(client)
    assert client.get(BOARD_PAGE).status_code == 200
    client.post(reverse("logout"))
    log_in(client, "président")
    assert send_code(client, "abcdefghij").status_code == 400
    assert not logged_in(client)


def test_the_pending_login_expires(client, president):
    device = with_device(president.user)
    log_in(client, "président")
    session = client.session
    session[two_step.PENDING_KEY]["since"] = time.time() - two_step.PENDING_SECONDS - 1
    session.save()
    response = send_code(client, code_of(device))
    assert response.url == reverse("login")
    assert not logged_in(client)


def test_the_pending_login_dies_when_the_password_changes(client, president):
    device = with_device(president.user)
    log_in(client, "président")
    president.user.set_password("another-pass-2")
    president.user.save()
    assert send_code(client, code_of(device)).url == reverse("login")
    assert not logged_in(client)


def test_the_code_page_without_a_password_first_sends_to_the_login(client, db):
    assert client.get(reverse("login_code")).url == reverse("login")


def test_the_throttled_login_with_axes_on_still_asks_for_the_code(client, president, settings):
    settings.AXES_ENABLED = True
    device = with_device(president.user)
    assert log_in(client, "président").url == reverse("login_code")
    assert send_code(client, code_of(device)).status_code == 302
    assert logged_in(client)


# --- the admin ------------------------------------------------------------------------------------


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("racine", password="secret-pass-1")


def test_the_admin_login_sends_to_the_site_login(client, superuser):
    with_device(superuser)
    response = client.get(reverse("admin:login") + "?next=/admin/")
    assert response.url == reverse("login") + "?next=%2Fadmin%2F"
    posted = client.post(reverse("admin:login"), {"username": "racine", "password": "secret-pass-1"})
    assert posted.status_code == 302 and not logged_in(client)
    # Through the site's login: the code first.
    assert log_in(client, "racine", next_url="/admin/").url == reverse("login_code")
    assert client.get("/admin/").url.startswith(reverse("admin:login"))


def test_an_unverified_session_of_a_device_holder_has_no_official_role(
    client, president, secretary, superuser, season
):
    with_device(president.user)
    with_device(superuser)
    with_device(secretary.user)
    # A session opened before the device was added (force_login: no code given).
    client.force_login(secretary.user)
    entry = reverse("championship:round_import")  # the roles read with the seasons (with_roles)
    assert client.get(entry).status_code == 403
    client.force_login(president.user)
    assert client.get(BOARD_PAGE).status_code == 403
    client.force_login(superuser)
    assert client.get(BOARD_PAGE).status_code == 403
    assert client.get("/admin/").status_code == 302  # to the login
    # The same accounts without a device keep their rights (and a user outside a request too).
    assert is_board(superuser, season) and board_seasons(superuser).exists()
    TOTPDevice.objects.all().delete()
    assert client.get(BOARD_PAGE).status_code == 200
    client.force_login(president.user)
    assert client.get(BOARD_PAGE).status_code == 200
    client.force_login(secretary.user)
    assert client.get(entry).status_code == 200


def test_the_roles_of_a_device_holder_need_a_verified_session(president, secretary, season):
    """As OTPMiddleware gives a request's user `is_verified`: False for a session without the code."""
    for official in (president, secretary):
        with_device(official.user)
    president.user.is_verified = lambda: False
    secretary.user.is_verified = lambda: False
    assert not is_board(president.user, season)
    assert not can_enter_rounds(secretary.user, season)
    president.user.is_verified = lambda: True
    secretary.user.is_verified = lambda: True
    assert is_board(president.user, season)
    assert can_enter_rounds(secretary.user, season)


# --- removal --------------------------------------------------------------------------------------


def test_removing_the_second_factor_asks_for_a_current_code(client, president):
    device = with_device(president.user)
    log_in(client, "président")
    send_code(client, code_of(device))
    remove = reverse("second_factor_remove")
    assert client.post(remove, {"code": ""}).status_code == 302
    unthrottle(device)
    client.post(remove, {"code": wrong_code(device)})
    assert TOTPDevice.objects.filter(user=president.user).exists()
    unthrottle(device)
    response = client.post(remove, {"code": code_of(device, 1)})  # the login's code is spent
    assert response.url == reverse("notifications:account")
    assert not TOTPDevice.objects.filter(user=president.user).exists()
    assert not StaticDevice.objects.filter(user=president.user).exists()
    assert client.get(BOARD_PAGE).status_code == 200  # no device: the password suffices


def test_a_superuser_removes_a_lost_device_with_a_command(client, president):
    with_device(president.user)
    client.force_login(president.user)
    out = io.StringIO()
    call_command("remove_second_factor", "président", stdout=out)
    assert "retirée" in out.getvalue()
    assert not TOTPDevice.objects.exists() and not StaticDevice.objects.exists()
    assert not logged_in(client)  # its sessions (the lost phone's) are closed
    assert log_in(client, "président").url == reverse("federation:home")
