import datetime

import pytest
from django.contrib.auth import get_user_model

from championship.models import Round
from federation.models import Player
from gamenights.services import schedule_night
from tests.factories import EXAMPLE_PLAYERS, make_round
from tests.local_servers import serving

# The example round of docs/feuille.md: Bruno wins it and writes its report, due a week later.
ROUND_DATE = datetime.date(2010, 11, 19)
DEADLINE = datetime.date(2010, 11, 26)
NIGHT_DATE = datetime.date(2010, 12, 10)


def with_account(player, email=None):
    """Give `player` an account with an e-mail address (None: none)."""
    username = player.name.lower().replace("é", "e").replace("è", "e")
    player.user = get_user_model().objects.create_user(
        username=username,
        email=email if email is not None else f"{username}@example.org",
        password="x-pass-1",
    )
    player.save()
    return player


@pytest.fixture
def members(season):
    """The five players of the example round, each with an account and an address."""
    return {name: with_account(Player.objects.create(name=name)) for name in EXAMPLE_PLAYERS}


@pytest.fixture
def night(season, members):
    return schedule_night(season, date=NIGHT_DATE, place="Chez Steph", host=members["Alice"])


@pytest.fixture
def homologated(season, members):
    return make_round(season, status=Round.HOMOLOGATED, date=ROUND_DATE)


# --- the phones' news (notifications.news, notifications.push) ---------------------------------------


@pytest.fixture(scope="session")
def vapid_pair():
    from notifications.management.commands.vapid_keys import new_pair  # noqa: PLC0415

    return new_pair()


@pytest.fixture
def push_settings(settings, vapid_pair):
    """The site's VAPID keys (made for the session), and the tests' push service on 127.0.0.1
    allowed (plain http, any port: production allows neither, `test_push.py` proves it)."""
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = vapid_pair
    settings.VAPID_SUBJECT = "mailto:direction@example.org"
    settings.PUSH_ALLOW_LOOPBACK = True
    settings.PUSH_ALLOWED_HOSTS = ["127.0.0.1"]
    return settings


@pytest.fixture
def push_service(push_settings):
    from tests.notifications.push_service import PushService  # noqa: PLC0415

    with serving(PushService()) as server:
        yield server
