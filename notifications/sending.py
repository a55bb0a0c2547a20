"""Sending the reminders due on a day, each once, even when two runs overlap (a cron run slower
than its period, a second run started by hand).

A reminder is first claimed: its ``SentReminder`` row is inserted under the unique constraint in
a transaction of its own, committed at once; an ``IntegrityError`` means another run (or an
earlier one) has it, and this run leaves it. Only the run that inserted the row queues the mail
(``federation.outbox``). If the mail cannot be sent, the run deletes its claim once the outbox is
done, so that the next run tries again: a reminder is sent at most once, and at least once as
long as runs go on.
"""

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction

from federation import outbox
from notifications import mail, plan
from notifications.models import SentReminder

WAIT = 300  # seconds a run waits for its mails to leave


@dataclass
class Outcome:
    queued: list = field(default_factory=list)
    already_sent: list = field(default_factory=list)
    failed: list = field(default_factory=list)  # the claims of the mails that could not leave
    finished: bool = True  # False: the outbox was still sending when the run stopped waiting

    @property
    def sent(self):
        return len(self.queued) - len(self.failed)


def recorded(reminders):
    """The keys of ``reminders`` already recorded as sent (one query per kind)."""
    keys = set()
    for kind in {reminder.kind for reminder in reminders}:
        rows = SentReminder.objects.filter(
            kind=kind, subject_id__in={r.subject.pk for r in reminders if r.kind == kind}
        ).values_list("kind", "subject_id", "recipient_id", "occurrence")
        keys.update(rows)
    return keys


def pending(reminders):
    """``(to send, already sent)``: ``reminders`` split by the record (what --dry-run shows; a run
    still claims each one, another run may be under way)."""
    done = recorded(reminders)
    return [r for r in reminders if r.key not in done], [r for r in reminders if r.key in done]


def claim(reminder):
    """The ``SentReminder`` of ``reminder``, newly inserted by this run; None if it exists."""
    kind, subject_id, recipient_id, occurrence = reminder.key
    try:
        with transaction.atomic():
            return SentReminder.objects.create(
                kind=kind, subject_id=subject_id, recipient_id=recipient_id, occurrence=occurrence
            )
    except IntegrityError:
        return None


def deliver(message, claimed_pk, failed):
    """On the outbox's thread: send ``message``; if it fails, note its claim in ``failed`` (then
    re-raise, for the outbox's log)."""
    try:
        message.send()
    except Exception:
        failed.append(claimed_pk)
        raise


def send_reminders(today, timeout=WAIT):
    """Claim and send every reminder due on ``today``; wait for the outbox (``timeout`` seconds),
    then delete the claims of the mails that could not leave, for the next run."""
    outcome = Outcome()
    to_send, outcome.already_sent = pending(plan.reminders(today))
    for reminder in to_send:
        message = mail.message(reminder)
        claimed = claim(reminder)
        if claimed is None:
            outcome.already_sent.append(reminder)
            continue
        outbox.send_later(deliver, message, claimed.pk, outcome.failed)
        outcome.queued.append(reminder)
    outcome.finished = outbox.wait(timeout)
    if outcome.failed:
        SentReminder.objects.filter(pk__in=list(outcome.failed)).delete()
    return outcome
