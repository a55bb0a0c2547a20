"""Login throttling with django-axes, really on: per account from an address, with a cool-off."""

import datetime
import logging
from zoneinfo import ZoneInfo

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from tests.federation.test_security import run_python

HOME, OTHER_HOME = "203.0.113.7", "198.51.100.9"


@pytest.fixture(autouse=True)
def axes_on(settings):
    settings.AXES_ENABLED = True


def log_in(client, password, address=HOME, username="membre"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def is_logged_in(client):
    return "Déconnexion (membre)" in client.get(reverse("federation:home")).content.decode()


def test_the_settings_lock_after_five_failures_for_fifteen_minutes_per_account_and_address():
    assert django_settings.AXES_FAILURE_LIMIT == 5
    assert django_settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60
    assert django_settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert django_settings.AXES_RESET_ON_SUCCESS is True


def test_it_locks_an_account_out_from_an_address_after_five_failures(client, member, caplog):
    with caplog.at_level(logging.WARNING, logger="axes"):
        for attempt in range(1, 5):
            response = log_in(client, "faux")
            assert response.status_code == 200, attempt
            assert "Saisissez un nom d’utilisateur et un mot de passe valides" in response.content.decode()
        fifth = log_in(client, "faux")
    assert fifth.status_code == 429
    html = fifth.content.decode()
    assert "Connexion suspendue" in html
    assert 'class="site-header"' in html  # in the site's layout
    last = AccessAttempt.objects.get(username="membre", ip_address=HOME).attempt_time
    retry_at = (last + datetime.timedelta(minutes=15)).astimezone(ZoneInfo("Europe/Paris"))
    if retry_at.date() == timezone.localdate():
        assert f"Vous pourrez réessayer après {retry_at:%H:%M}." in html
    else:  # locked out less than 15 minutes before midnight: the page names the day too
        assert f"Vous pourrez réessayer après le {date_format(retry_at, 'j F Y, H:i')}." in html
    # Each failure is logged, naming the account and the address.
    failures = [record.getMessage() for record in caplog.records if "login failure by" in record.getMessage()]
    assert len(failures) == 5
    assert "membre" in failures[0] and HOME in failures[0]
    assert any("Locking out" in record.getMessage() for record in caplog.records)

    # The right password is refused now, from that address...
    refused = log_in(client, "secret-pass-1")
    assert refused.status_code == 429
    assert not is_logged_in(client)
    # ...and trying during the lock does not prolong it.
    assert AccessAttempt.objects.get(username="membre", ip_address=HOME).attempt_time == last


def test_another_address_can_still_log_in(client, member):
    for _ in range(5):
        log_in(client, "faux")
    assert log_in(client, "secret-pass-1").status_code == 429
    response = log_in(client, "secret-pass-1", address=OTHER_HOME)
    assert response.status_code == 302
    assert is_logged_in(client)


def test_another_account_from_the_same_address_can_still_log_in(client, member, secretary):
    for _ in range(5):
        log_in(client, "faux")
    response = log_in(client, "secret-pass-1", username="secrétaire")
    assert response.status_code == 302


def test_the_lock_lifts_after_the_cool_off(client, member):
    for _ in range(5):
        log_in(client, "faux")
    assert log_in(client, "secret-pass-1").status_code == 429
    # Fifteen minutes later (the failures' time moved back, rather than waiting).
    sixteen_minutes_ago = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=16)
    AccessAttempt.objects.update(attempt_time=sixteen_minutes_ago)
    response = log_in(client, "secret-pass-1")
    assert response.status_code == 302
    assert is_logged_in(client)


def test_a_success_forgets_the_failures(client, member):
    for _ in range(4):
        log_in(client, "faux")
    assert log_in(client, "secret-pass-1").status_code == 302
    assert not AccessAttempt.objects.filter(username="membre").exists()
    client.logout()
    for _ in range(4):
        assert log_in(client, "faux").status_code == 200


def test_the_admin_login_is_the_site_login_throttled_too(client, member):
    """The admin's login sends to the site's (federation.two_step.AdminSite): a password posted to
    it is not read, and the site's login, throttled, is the only way in."""
    member.user.is_staff = True
    member.user.save()
    posted = client.post(
        reverse("admin:login"), {"username": "membre", "password": "secret-pass-1"}, REMOTE_ADDR=HOME
    )
    assert posted.status_code == 302 and posted.url.startswith(reverse("login"))
    assert not is_logged_in(client)
    for _ in range(5):
        log_in(client, "faux")
    right = {"username": "membre", "password": "secret-pass-1"}
    response = client.post(reverse("login") + "?next=/admin/", right, REMOTE_ADDR=HOME)
    assert response.status_code == 429


# --- configuration --------------------------------------------------------------------------------


CLIENT_ADDRESS = (
    "import django; django.setup(); from django.test import RequestFactory; "
    "from axes.helpers import get_client_ip_address; "
    "request = RequestFactory().get('/', REMOTE_ADDR='127.0.0.1', "
    "HTTP_X_FORWARDED_FOR='6.6.6.6, 203.0.113.5', HTTP_X_REAL_IP='192.0.2.44'); "
    "print(get_client_ip_address(request))"
)


def test_the_client_address_is_the_connections_without_a_proxy():
    result = run_python({}, CLIENT_ADDRESS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "127.0.0.1"  # forwarding headers are not believed


def test_the_client_address_behind_one_proxy_is_the_one_it_forwards():
    result = run_python({"PROXY_COUNT": "1"}, CLIENT_ADDRESS)
    assert result.returncode == 0, result.stderr
    # What the client wrote itself (6.6.6.6) is ignored: the proxy appended the true address.
    assert result.stdout.strip() == "203.0.113.5"


def test_the_client_address_behind_two_proxies():
    result = run_python({"PROXY_COUNT": "2"}, CLIENT_ADDRESS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "6.6.6.6"


def test_the_client_address_header_is_configurable():
    result = run_python({"PROXY_COUNT": "1", "CLIENT_IP_HEADER": "X-Real-IP"}, CLIENT_ADDRESS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "192.0.2.44"


LIMITS = (
    "from django.conf import settings as s; "
    "print(s.AXES_FAILURE_LIMIT, int(s.AXES_COOLOFF_TIME.total_seconds()))"
)


def test_the_limit_and_the_cool_off_come_from_the_environment():
    result = run_python({"LOGIN_FAILURE_LIMIT": "8", "LOGIN_COOLOFF_MINUTES": "30"}, LIMITS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["8", "1800"]


def test_it_refuses_a_cool_off_that_would_lock_for_good():
    result = run_python({"LOGIN_COOLOFF_MINUTES": "0"}, LIMITS)
    assert result.returncode != 0
    assert "LOGIN_COOLOFF_MINUTES" in result.stderr
