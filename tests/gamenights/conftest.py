import datetime

import pytest
from django.utils import timezone

from gamenights import services
from tests.conftest import make_player


@pytest.fixture
def open_season(db):
    """A season around today, so that nights are « to come »."""
    from federation.models import Season  # noqa: PLC0415

    today = timezone.localdate()
    start = today - datetime.timedelta(days=60)
    return Season.objects.create(
        name=f"{start.year}-{start.year + 1}", start_date=start, end_date=today + datetime.timedelta(days=200)
    )


@pytest.fixture
def board(open_season):
    from federation.models import Official  # noqa: PLC0415

    player = make_player("Présidente")
    Official.objects.create(season=open_season, player=player, role=Official.PRESIDENT)
    return player


@pytest.fixture
def night(open_season, board):
    return services.schedule_night(
        open_season,
        date=timezone.localdate() + datetime.timedelta(days=3),
        time=datetime.time(20, 30),
        place="Chez Steph",
        host=board,
        user=board.user,
    )


def in_days(days):
    return timezone.localdate() + datetime.timedelta(days=days)
