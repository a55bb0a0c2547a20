"""The outbox of the announcements: written in the act's transaction, posted after its commit,
never twice.

`write` adds one `Delivery` per active webhook inside the caller's transaction (a rolled-back
act leaves none) and, once it commits, hands them to the site's background threads
(`federation.outbox`): the official's page never waits for the chat, and a chat that hangs holds
a thread `WEBHOOK_TIMEOUT` seconds at most. A delivery is claimed before it is posted, by one
conditional UPDATE (``status = 'pending'`` → ``'sending'``) whose row count says who won: of two
processes sending the same row, one posts, the other does nothing; a delivered row is never
claimed again. A failure (an error status, a refused connection, the timeout) puts the row back
to pending with its next attempt later and later (`backoff`), up to `MOST_ATTEMPTS`; the
`deliver_webhooks` command (cron) sends what is due. A row whose process died while posting
stays « en cours d'envoi »: it may have been posted, so it is not sent again.

Logs, errors and lists name a webhook by its host only: its URL holds its secret.
"""

import datetime
import json
import logging
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from federation import outbox
from webhooks import formats
from webhooks.models import Delivery, Webhook, host_of

logger = logging.getLogger("webhooks")

FIRST_DELAY = datetime.timedelta(minutes=1)
LONGEST_DELAY = datetime.timedelta(hours=6)
MOST_ATTEMPTS = 8


def timeout():
    return float(getattr(settings, "WEBHOOK_TIMEOUT", 5))


def backoff(attempts):
    """The wait before the next attempt after `attempts` failed ones: 1, 2, 4… minutes, at most 6 h."""
    return min(FIRST_DELAY * 2 ** max(attempts - 1, 0), LONGEST_DELAY)


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
                body=formats.body(webhook.format, announcement),
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
    transaction.on_commit(lambda: outbox.send_later(deliver_in_background, pks))
    return pks


def deliver_in_background(pks):
    """`deliver_all` on a thread of the outbox: what goes wrong is logged here, the rows left
    to the command (a pending row stays pending)."""
    try:
        return deliver_all(pks)
    except Exception:
        logger.exception("annonces non envoyées en arrière-plan : laissées à deliver_webhooks")
        return None


def deliver_all(pks, now=None):
    return [deliver(pk, now) for pk in pks]


def claim(pk, now):
    """True if this process won the row: it was pending and due, it is now being sent."""
    return bool(
        Delivery.objects.filter(pk=pk, status=Delivery.PENDING, next_attempt_at__lte=now).update(
            status=Delivery.SENDING, attempts=F("attempts") + 1
        )
    )


def post(url, body):
    """POST `body` as JSON to `url`; an error message naming no URL, or "" once accepted (2xx).
    Only http and https: urllib would also open `file:` or `ftp:` addresses."""
    if urlsplit(url).scheme not in ("http", "https"):
        return "adresse refusée (http ou https seulement)"
    request = urllib.request.Request(
        url,
        data=json.dumps(body, ensure_ascii=False).encode(),
        headers={"Content-Type": "application/json; charset=utf-8", "User-Agent": "Tarot-Biere-webhook"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout()) as response:  # noqa: S310 (an official's URL)
            response.read(1024)
            return "" if 200 <= response.status < 300 else f"HTTP {response.status}"
    except urllib.error.HTTPError as error:
        return f"HTTP {error.code}"
    except TimeoutError:
        return "délai dépassé"
    except urllib.error.URLError as error:
        reason = error.reason
        return (
            "délai dépassé"
            if isinstance(reason, TimeoutError)
            else f"connexion impossible ({type(reason).__name__})"
        )
    except (OSError, ValueError) as error:
        return f"envoi impossible ({type(error).__name__})"


def deliver(pk, now=None):
    """Post one delivery if this process claims it; its new status, or None if not claimed."""
    now = now or timezone.now()
    if not claim(pk, now):
        return None
    delivery = Delivery.objects.select_related("webhook").get(pk=pk)
    webhook = delivery.webhook
    host = host_of(webhook.url)
    problem = post(webhook.url, delivery.body) if webhook.active else "webhook désactivé"
    if not problem:
        Delivery.objects.filter(pk=pk).update(
            status=Delivery.DELIVERED, sent_at=timezone.now(), last_error=""
        )
        logger.info("annonce %s livrée à %s", delivery.event, host)
        return Delivery.DELIVERED
    attempts = delivery.attempts
    given_up = attempts >= MOST_ATTEMPTS or not webhook.active
    status = Delivery.FAILED if given_up else Delivery.PENDING
    Delivery.objects.filter(pk=pk).update(
        status=status, last_error=problem[:200], next_attempt_at=timezone.now() + backoff(attempts)
    )
    logger.warning(
        "annonce %s non livrée à %s (essai %d) : %s%s",
        delivery.event,
        host,
        attempts,
        problem,
        " ; abandonnée" if given_up else "",
    )
    return status


def due(now=None):
    now = now or timezone.now()
    return list(
        Delivery.objects.filter(status=Delivery.PENDING, next_attempt_at__lte=now)
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)
    )
