"""The audit trail: who made a change and why, for every history record a write saves.

On the site, django-simple-history's `HistoryRequestMiddleware` exposes the request in
`HistoricalRecords.context`, and each record takes the logged-in user as its author. Outside a
request there is none; `recorded_as(user)` stands in for it, the same way, for a block of code.

Every write says both at once with `audited(user, reason)`: inside the block, the records name
`user` (a logged-in account; else the request's user, if any) and each instance saved or deleted
through the block's `Audit` carries `reason` into its record (docs/architecture.md).
"""

from contextlib import contextmanager, nullcontext
from types import SimpleNamespace

from simple_history.models import HistoricalRecords

REASON_MAX_LENGTH = 100  # what django-simple-history keeps of a change reason

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


class Audit:
    """The reason of one block of writes, given to each instance it saves or deletes."""

    def __init__(self, reason):
        self.reason = reason

    def mark(self, *instances, reason=None):
        """Give `instances` the block's reason (or `reason`) for their next history record."""
        for instance in instances:
            instance._change_reason = reason if reason is not None else self.reason
        return instances[0] if len(instances) == 1 else instances

    def save(self, instance, *, reason=None, **options):
        self.mark(instance, reason=reason)
        instance.save(**options)
        return instance

    def delete(self, instance, *, reason=None):
        self.mark(instance, reason=reason)
        return instance.delete()


@contextmanager
def audited(user=None, reason=None):
    """A block of writes whose history records name `user` (a logged-in account; anyone else:
    the request's user, or nobody outside a request) and carry `reason` (`Audit.save`,
    `Audit.delete`, `Audit.mark`)."""
    author = recorded_as(user) if getattr(user, "is_authenticated", False) else nullcontext()
    with author:
        yield Audit(reason)
