"""Two presses of one link confirming a new address at once (a double tap, the mail opened on two
devices): the address changes once, and only one of them is told it did (the other is refused as
a link already used), so that the old address is told once. Two threads, each on its own
connection, both holding the valid link's request before either confirms. Run by
`tests/notifications/test_concurrent_runs.py` on SQLite and PostgreSQL."""

import threading

import pytest
from django.core.exceptions import ValidationError

from notifications import links, services
from notifications.models import EmailChange

from .conftest import RACES, twice_at_once

pytestmark = [
    pytest.mark.skipif(not RACES, reason="lancé par tests/notifications/test_concurrent_runs.py"),
    pytest.mark.django_db(transaction=True),
]


def test_two_confirmations_at_once_change_the_address_once(members):
    bruno = members["Bruno"].user
    token = links.email_confirmation_token(services.request_email_change(bruno, "bruno.neuf@example.org"))
    both_hold_it = threading.Barrier(2, timeout=30)

    def confirm():
        change = links.email_change_of_token(token)
        both_hold_it.wait()  # neither confirms before the other has found the link valid
        try:
            services.confirm_email_change(change)
            return "confirmée"
        except ValidationError as refused:
            return refused.code

    outcomes, errors = twice_at_once(confirm)
    assert errors == []
    assert sorted(outcomes) == ["confirmée", "stale"]
    bruno.refresh_from_db()
    assert bruno.email == "bruno.neuf@example.org"
    assert EmailChange.objects.filter(confirmed_at__isnull=False).count() == 1
