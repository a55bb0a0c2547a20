"""The outbox of the announcements: written in the act's transaction, posted after its commit,
on threads of its own.

`write` adds one `Delivery` per active webhook inside the caller's transaction (a rolled-back
act leaves none) and, once it commits, hands them to the webhooks' own background threads
(`workers`, apart from the mails' in `federation.outbox`: a slow chat never holds a mail): the
official's page never waits for the chat, and a post holds a thread WEBHOOK_TIMEOUT seconds at
most, all told (`webhooks.posting`). A delivery is claimed before it is posted, by one
conditional UPDATE (``status = 'pending'`` → ``'sending'``, with the time of the claim) whose
row count says who won: of two processes sending the same row, one posts, the other does
nothing; a delivered row is never claimed again. A failure (an error status, a redirect, a
refused address or connection, an answer that is not HTTP, the deadline, any error of the post)
puts the row back to pending with its next attempt later and later (`backoff`), up to
`MOST_ATTEMPTS`; the `deliver_webhooks` command (cron) sends what is due, row by row, an error
on one never stopping the others. A row still « en cours d'envoi » `stuck_after()` its claim
(its process died while posting) is shown to the board as stuck and claimed again: it may have
been posted, which its idempotency key (`idempotency_key`, the same at every attempt) lets the
chat see; a result that comes back to a row claimed again meanwhile is dropped.

Logs, errors and lists name a webhook by its host only: its URL holds its secret.
"""

import datetime
import logging
import uuid

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from federation.workers import Workers
from webhooks import formats, posting
from webhooks.models import Delivery, Webhook, host_of

logger = logging.getLogger("webhooks")

FIRST_DELAY = datetime.timedelta(minutes=1)
LONGEST_DELAY = datetime.timedelta(hours=6)
MOST_ATTEMPTS = 8
STUCK_MARGIN = datetime.timedelta(minutes=2)  # beyond the post's deadline, to write its result
WORKERS = 2  # posts under way at once in one process
ERROR = "error"  # `deliver_all`'s word for a row whose sending raised

workers = Workers("tarot-webhooks", WORKERS, "annonce non envoyée")


def wait(timeout=None):
    """Wait until every post handed to the webhooks' threads so far is done; False if `timeout`
    (seconds) ran out."""
    return workers.wait(timeout)


def backoff(attempts):
    """The wait before the next attempt after `attempts` failed ones: 1, 2, 4… minutes, at most 6 h."""
    return min(FIRST_DELAY * 2 ** max(attempts - 1, 0), LONGEST_DELAY)


def stuck_after():
    """How long after its claim a row still « en cours d'envoi » is stuck: its process is gone."""
    return datetime.timedelta(seconds=posting.timeout()) + STUCK_MARGIN


def is_stuck(delivery, now=None):
    now = now or timezone.now()
    return (
        delivery.status == Delivery.SENDING
        and delivery.claimed_at is not None
        and delivery.claimed_at < now - stuck_after()
    )


def idempotency_key(webhook_pk, key):
    """The same for every attempt of one news to one webhook, different for any other."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{settings.SITE_URL}/webhooks/{webhook_pk}/{key}"))


def write(announcement):
    """One delivery of `announcement` per active webhook, in the current transaction; sent after
    it commits. The same news (its key) is written once per webhook."""
    webhooks = list(Webhook.objects.filter(active=True))
    if not webhooks:
        return []
    Delivery.objects.bulk_create(
        [
            Delivery(
                webhook=webhook,
                key=announcement.key,
                event=announcement.kind,
                body=formats.body(
                    webhook.format, announcement, idempotency_key(webhook.pk, announcement.key)
                ),
            )
            for webhook in webhooks
        ],
        ignore_conflicts=True,
    )
    pks = list(
        Delivery.objects.filter(key=announcement.key, status=Delivery.PENDING, attempts=0).values_list(
            "pk", flat=True
        )
    )
    transaction.on_commit(lambda: workers.send_later(deliver_in_background, pks))
    return pks


def deliver_in_background(pks):
    """`deliver_all` on a thread of the webhooks: what goes wrong is logged, the rows left to the
    command (a pending row stays pending, a row left sending is claimed again once stuck)."""
    try:
        return deliver_all(pks)
    except Exception:
        logger.exception("annonces non envoyées en arrière-plan : laissées à deliver_webhooks")
        return None


def deliver_all(pks, now=None):
    """`deliver` each row; a row whose sending raised is logged and counted as `ERROR`, the others
    sent all the same."""
    results = []
    for pk in pks:
        try:
            results.append(deliver(pk, now))
        except Exception:
            logger.exception("annonce %s : erreur pendant son envoi, laissée au prochain passage", pk)
            results.append(ERROR)
    return results


def claimable(now):
    """The rows due: pending and their time come, or stuck « en cours d'envoi »."""
    return Q(status=Delivery.PENDING, next_attempt_at__lte=now) | Q(
        status=Delivery.SENDING, claimed_at__lt=now - stuck_after()
    )


def claim(pk, now):
    """The time of this process's claim on the row if it won it (it was due, it is now being
    sent), None otherwise."""
    stamp = timezone.now()
    won = Delivery.objects.filter(claimable(now), pk=pk).update(
        status=Delivery.SENDING, attempts=F("attempts") + 1, claimed_at=stamp
    )
    return stamp if won else None


def attempt(delivery):
    """Post `delivery`: an error message, or "" once the chat took it. Whatever the post raises
    is a failure of this row."""
    webhook = delivery.webhook
    if not webhook.active:
        return "webhook désactivé"
    try:
        return posting.post(webhook.url, delivery.body, idempotency_key(webhook.pk, delivery.key))
    except Exception as error:
        logger.exception("annonce %s : envoi à %s en erreur", delivery.event, webhook.host)
        return f"envoi impossible ({type(error).__name__})"


def deliver(pk, now=None):
    """Post one delivery if this process claims it; its new status, or None if not claimed (or
    claimed again by another process while this one was posting)."""
    now = now or timezone.now()
    stamp = claim(pk, now)
    if stamp is None:
        return None
    delivery = Delivery.objects.select_related("webhook").get(pk=pk)
    host = host_of(delivery.webhook.url)
    problem = attempt(delivery)
    mine = Delivery.objects.filter(pk=pk, status=Delivery.SENDING, claimed_at=stamp)
    if not problem:
        if not mine.update(status=Delivery.DELIVERED, sent_at=timezone.now(), last_error=""):
            return lost(delivery, host)
        logger.info("annonce %s livrée à %s", delivery.event, host)
        return Delivery.DELIVERED
    attempts = delivery.attempts
    given_up = attempts >= MOST_ATTEMPTS or not delivery.webhook.active
    status = Delivery.FAILED if given_up else Delivery.PENDING
    later = timezone.now() + backoff(attempts)
    if not mine.update(status=status, last_error=problem[:200], next_attempt_at=later):
        return lost(delivery, host)
    logger.warning(
        "annonce %s non livrée à %s (essai %d) : %s%s",
        delivery.event,
        host,
        attempts,
        problem,
        " ; abandonnée" if given_up else "",
    )
    return status


def lost(delivery, host):
    logger.warning("annonce %s à %s : reprise par un autre envoi pendant celui-ci", delivery.event, host)
    return None


def due(now=None):
    now = now or timezone.now()
    return list(
        Delivery.objects.filter(claimable(now)).order_by("next_attempt_at", "pk").values_list("pk", flat=True)
    )
