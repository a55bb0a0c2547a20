"""The author of history records written outside a web request (commands, the demo).

On the site, django-simple-history's `HistoryRequestMiddleware` exposes the request in
`HistoricalRecords.context`, and each record takes the logged-in user as its author. Outside a
request there is none; `recorded_as(user)` stands in for it, the same way, for a block of code.
"""

from contextlib import contextmanager
from types import SimpleNamespace

from simple_history.models import HistoricalRecords

_MISSING = object()


@contextmanager
def recorded_as(user):
    """Every history record saved inside the block names `user` as its author (`None`: nobody).

    A record whose instance carries `_history_user` keeps that one; the request (or the block)
    that was current before is restored at the end.
    """
    context = HistoricalRecords.context
    previous = getattr(context, "request", _MISSING)
    context.request = SimpleNamespace(user=user)
    try:
        yield user
    finally:
        if previous is _MISSING:
            del context.request
        else:
            context.request = previous
