"""The audit trail: who made a change and why, for every history record a write saves.

On the site, django-simple-history's `HistoryRequestMiddleware` exposes the request in
`HistoricalRecords.context`, and each record takes the logged-in user as its author. Outside a
request there is none; `recorded_as(user)` stands in for it, the same way, for a block of code.

Every write says both at once with `audited(user, reason)`: inside the block, the records name
`user` (a logged-in account; else the request's user, if any) and each instance saved or deleted
through the block's `Audit` carries `reason` into its record (docs/architecture.md).

A record saved during a request of a session a member's private link opened says so: « par son
lien » follows its reason (`mark_acts_by_link`; federation.private_links).
"""

import functools
from contextlib import contextmanager, nullcontext
from types import SimpleNamespace

import simple_history.manager
import simple_history.models
from django.dispatch import receiver
from simple_history.signals import pre_create_historical_record


class HistoryManager(simple_history.manager.HistoryManager):
    """django-simple-history's manager of a model's history, its class built once per queryset
    class: the library builds it anew (`from_queryset`, every method of the queryset copied, half
    a millisecond) at each reading of `Model.history` — which every save does, to write its
    history row (tests/federation/test_history_manager.py)."""

    @classmethod
    @functools.cache
    def from_queryset(cls, queryset_class, class_name=None):
        return super().from_queryset(queryset_class, class_name)


class HistoricalRecords(simple_history.models.HistoricalRecords):
    """The history of a model, read through `HistoryManager`; what every model that keeps one
    declares (`history = HistoricalRecords()`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("history_manager", HistoryManager)
        super().__init__(*args, **kwargs)


REASON_MAX_LENGTH = 100  # what django-simple-history keeps of a change reason
BY_LINK = "par son lien"

_MISSING = object()


@contextmanager
def recorded_as(user):
    """Every history record saved inside the block names `user` as its author (`None`: nobody).

    A record whose instance carries `_history_user` keeps that one; the request (or the block)
    that was current before is restored at the end.
    """
    context = HistoricalRecords.context
    previous = getattr(context, "request", _MISSING)
    # A block inside a request opened by a private link stays one (`mark_acts_by_link`).
    context.request = SimpleNamespace(user=user, by_link=getattr(previous, "by_link", False))
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


def reason_by_link(reason):
    """`reason` followed by « par son lien », within what a record keeps."""
    if not reason:
        return BY_LINK
    suffix = f" ({BY_LINK})"
    return reason[: REASON_MAX_LENGTH - len(suffix)] + suffix


@receiver(pre_create_historical_record, dispatch_uid="federation.history.mark_acts_by_link")
def mark_acts_by_link(sender, history_instance, history_user=None, **kwargs):
    """Every record written while a private link's session acts says « par son lien »."""
    request = getattr(HistoricalRecords.context, "request", None)
    if getattr(request, "by_link", False) or getattr(history_user, "by_link", False):
        history_instance.history_change_reason = reason_by_link(history_instance.history_change_reason)
