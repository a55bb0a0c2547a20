"""The members' news, each once (docs/calendrier.md, « Les nouvelles sur le téléphone »).

`write` turns one piece of news into `News` rows in the act's own transaction (a rolled-back act
leaves none): one per phone of each recipient who wants that event on his phone, one for his
e-mail if he wants it by e-mail, under a unique key (the same news is written once whoever
writes it twice). It reads the recipients' choices, phones and addresses in three queries and
writes every row in one, whatever their number: what the official's request pays does not grow
with the phones (docs/mesures.md). Once the act commits, the rows are handed to the news' own
background threads (`workers`, apart from the mails' and the webhooks'), never sent in the request.

`outbox` sends a row (`federation.row_outbox`: claimed first, retried later and later, given up
after `MOST_ATTEMPTS`); the `deliver_news` command (cron) sends what a background thread missed
and the news of the clock (`notifications.clock`). A row's message is composed when first claimed
(`notifications.messages`, in the member's language) and kept: a retry sends the same words.
"""

import logging

from django.conf import settings
from django.db import transaction

from federation.models import Player
from federation.row_outbox import Result, RowOutbox
from federation.workers import Workers
from notifications import messages, push
from notifications.models import EMAIL, PUSH, News, PushSubscription, ReminderPreference

logger = logging.getLogger("notifications.news")

WORKERS = 2  # pushes under way at once in one process
MOST_ATTEMPTS = 8

workers = Workers("tarot-news", WORKERS, "nouvelle non envoyée")


def wait(timeout=None):
    """Wait until every news handed to the news' threads so far is sent; False if `timeout` ran out."""
    return workers.wait(timeout)


def preferences(pks):
    """{player pk: his `ReminderPreference`} (defaults for those without a row), in one query."""
    found = {pref.player_id: pref for pref in ReminderPreference.objects.filter(player__in=pks)}
    return {pk: found.get(pk) or ReminderPreference(player_id=pk) for pk in pks}


def write(event, key, subject_id, recipients, facts=None, channels=(PUSH, EMAIL), later=True):
    """The rows of the news `key` (an `EVENTS` code `event` about the object `subject_id`) for
    `recipients` (players or their pks), in the current transaction, on `channels`; `facts`:
    {player pk: what the message says of him}. Handed to the news' threads once the transaction
    commits (`later`; else left to the caller, the `deliver_news` run). Returns the rows made."""
    pks = list(dict.fromkeys(getattr(player, "pk", player) for player in recipients))
    if not pks:
        return []
    facts = facts or {}
    wanted = preferences(pks)
    phones = PushSubscription.objects.filter(user__player__in=pks, user__is_active=True).values_list(
        "pk", "user__player"
    )
    mailed = set(
        Player.objects.filter(pk__in=pks, user__is_active=True)
        .exclude(user__email="")
        .values_list("pk", flat=True)
    )
    rows = []

    def row(pk, channel, target, subscription=None):
        rows.append(
            News(
                recipient_id=pk,
                channel=channel,
                subscription_id=subscription,
                target=target,
                key=key,
                event=event,
                subject_id=subject_id,
                facts=facts.get(pk, {}),
            )
        )

    if PUSH in channels and settings.VAPID_PRIVATE_KEY:
        for subscription, pk in phones:
            if wanted[pk].wants(event, PUSH):
                row(pk, PUSH, f"push:{subscription}", subscription)
    for pk in pks:
        if EMAIL in channels and pk in mailed and wanted[pk].wants(event, EMAIL):
            row(pk, EMAIL, EMAIL)
    if rows:
        News.objects.bulk_create(rows, ignore_conflicts=True)
    if rows and later:
        transaction.on_commit(lambda: workers.send_later(deliver_in_background, [key]))
    return rows


def deliver_in_background(keys):
    """Send the pending rows of the news `keys`, on a thread of the news: what goes wrong is
    logged, the rows left to the command."""
    try:
        return outbox.deliver_all(outbox.due(rows=News.objects.filter(key__in=keys, attempts=0)))
    except Exception:
        logger.exception("nouvelles non envoyées en arrière-plan : laissées à deliver_news")
        return None


def send(row):
    """Send one row: compose its message once, then push it to its phone or mail it."""
    if not row.message:
        row.message = messages.compose(row)
        News.objects.filter(pk=row.pk).update(message=row.message)
    if not row.message:
        return Result("plus rien à dire (l'objet a changé ou disparu)", retry=False)
    if row.channel == PUSH:
        result = push.push(row.subscription, row.message)
        if result.forgotten:  # the push service forgot the phone: so do we, and its news
            PushSubscription.objects.filter(pk=row.subscription_id).delete()
        return result
    return messages.mail(row)


outbox = RowOutbox(
    News,
    send,
    deadline=lambda: float(settings.PUSH_TIMEOUT),
    most_attempts=MOST_ATTEMPTS,
    logger=logger,
    name="nouvelle",
)
