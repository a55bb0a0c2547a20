"""Two delivery runs of the members' news at once send each news once: two threads, each on its
own connection, both holding the whole list of rows due before either claims one, pushing to the
tests' push service on 127.0.0.1, which counts what each phone received. Run by
`tests/notifications/test_concurrent_runs.py` on SQLite and PostgreSQL."""

import threading
from collections import Counter

import pytest

from championship.models import Round
from championship.services import homologate_round
from federation.row_outbox import OutboxRow
from notifications import news
from notifications.models import News
from tests.factories import make_round

from ..conftest import ROUND_DATE
from .conftest import RACES, twice_at_once

pytestmark = [
    pytest.mark.skipif(not RACES, reason="lancé par tests/notifications/test_concurrent_runs.py"),
    pytest.mark.django_db(transaction=True),
]


def test_two_delivery_runs_at_once_push_each_news_once(season, members, president, push_service, monkeypatch):
    names = [f"phone-{index}" for index in range(len(members))] + ["alice-2"]
    for name, player in zip(names, [*members.values(), members["Alice"]], strict=True):
        push_service.subscribe(player.user, name)
    monkeypatch.setattr(news.workers, "send_later", lambda *args: None)  # the two runs alone send
    homologate_round(make_round(season, status=Round.SUBMITTED, date=ROUND_DATE), president.user)
    assert News.objects.count() == 6
    both_listed = threading.Barrier(2, timeout=30)

    def run():
        due = news.outbox.due()
        both_listed.wait()  # neither claims before the other has its list
        return news.outbox.deliver_all(due)

    runs, errors = twice_at_once(run)
    results = [outcome for outcomes in runs for outcome in outcomes]
    assert errors == []
    assert Counter(results) == {
        OutboxRow.DELIVERED: 6,
        None: 6,
    }  # each row sent by one run, left by the other
    received = Counter(path for path, _payload in push_service.received)
    assert received == {f"/push/{name}": 1 for name in names}
    assert set(News.objects.values_list("status", flat=True)) == {OutboxRow.DELIVERED}
