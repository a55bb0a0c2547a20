"""The outbox of the announcements: written in the act's transaction, posted after its commit,
on threads of its own.

`write` adds one `Delivery` per active webhook inside the caller's transaction (a rolled-back
act leaves none) and, once it commits, hands them to the webhooks' own background threads
(`workers`, apart from the mails' in `federation.outbox`: a slow chat never holds a mail): the
official's page never waits for the chat, and a post holds a thread WEBHOOK_TIMEOUT seconds at
most, all told (`webhooks.posting`). A delivery is an outbox row
(`federation.row_outbox`, the members' news are others): claimed before it is posted, by one
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

import logging
import uuid

from django.conf import settings
from django.db import transaction

from federation import row_outbox
from federation.row_outbox import Result
from federation.workers import Workers
from webhooks import formats, posting
from webhooks.models import Delivery, Webhook, host_of

logger = logging.getLogger("webhooks")

MOST_ATTEMPTS = 8
WORKERS = 2  # posts under way at once in one process
ERROR = row_outbox.ERROR  # `deliver_all`'s word for a row whose sending raised
backoff = row_outbox.backoff  # 1, 2, 4… minutes, at most 6 h

workers = Workers("tarot-webhooks", WORKERS, "annonce non envoyée")


def wait(timeout=None):
    """Wait until every post handed to the webhooks' threads so far is done; False if `timeout`
    (seconds) ran out."""
    return workers.wait(timeout)


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


def attempt(delivery):
    """Post `delivery`: done once the chat took it, else its problem (given up at once for a
    webhook turned off). Whatever the post raises is a failure of this row."""
    webhook = delivery.webhook
    if not webhook.active:
        return Result("webhook désactivé", retry=False)
    try:
        problem = posting.post(webhook.url, delivery.body, idempotency_key(webhook.pk, delivery.key))
    except Exception as error:
        logger.exception("annonce %s : envoi à %s en erreur", delivery.event, webhook.host)
        problem = f"envoi impossible ({type(error).__name__})"
    return Result(problem)


class Words(row_outbox.Words):
    """An announcement is named by its event and its webhook's host, never its URL (its secret)."""

    def sent(self, row):
        logger.info("annonce %s livrée à %s", row.event, host_of(row.webhook.url))

    def failed(self, row, result, given_up):
        logger.warning(
            "annonce %s non livrée à %s (essai %d) : %s%s",
            row.event,
            host_of(row.webhook.url),
            row.attempts,
            result.problem,
            " ; abandonnée" if given_up else "",
        )

    def lost(self, row):
        logger.warning(
            "annonce %s à %s : reprise par un autre envoi pendant celui-ci",
            row.event,
            host_of(row.webhook.url),
        )


outbox = row_outbox.RowOutbox(
    Delivery,
    attempt,
    deadline=posting.timeout,
    most_attempts=MOST_ATTEMPTS,
    logger=logger,
    name="annonce",
    words=Words(logger, "annonce"),
    related=("webhook",),
)


def stuck_after():
    """How long after its claim a row still « en cours d'envoi » is stuck: its process is gone."""
    return outbox.stuck_after()


def is_stuck(delivery, now=None):
    return outbox.is_stuck(delivery, now)


def claimable(now):
    """The rows due: pending and their time come, or stuck « en cours d'envoi »."""
    return outbox.claimable(now)


def claim(pk, now):
    """The time of this process's claim on the row if it won it, None otherwise."""
    return outbox.claim(pk, now)


def deliver(pk, now=None):
    """Post one delivery if this process claims it; its new status, or None if not claimed (or
    claimed again by another process while this one was posting)."""
    return outbox.deliver(pk, now)


def due(now=None):
    return outbox.due(now)
