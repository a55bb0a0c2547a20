"""An outbox of rows: news written in the act's own transaction, then sent after it commits, each
once, by whichever process claims it first (docs/exploitation.md, « Les nouvelles sur le
téléphone »).

`OutboxRow` is the row's state (an abstract model): pending, being sent (claimed), delivered or
given up, with its attempts, its next attempt and when it was claimed. `RowOutbox` sends the rows
of one such model through one `send(row)` function:

- a row is claimed by one conditional UPDATE (pending and due, or stuck « en cours d'envoi »
  → being sent, stamped with the time of the claim) whose row count says who won: of two
  processes sending the same row, one sends it, the other does nothing; a delivered row is never
  claimed again;
- `send` answers a `Result`: done, or a problem and whether it is worth another attempt; a
  problem worth it puts the row back to pending, its next attempt later and later (`backoff`,
  or later still when the far end said when), up to `most_attempts`; a result that comes back
  to a row claimed again meanwhile (its process was thought dead) is dropped; a far end gone
  for good (`Result.forgotten`) took the row with it;
- a row still being sent `stuck_after()` its claim (its process died while sending) is claimed
  again.

The group chat's announcements (`webhooks.delivery`) and the members' news
(`notifications.news`) go through it, each with its own table, sender and threads.
"""

import datetime
import logging
from dataclasses import dataclass

from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

FIRST_DELAY = datetime.timedelta(minutes=1)
LONGEST_DELAY = datetime.timedelta(hours=6)
STUCK_MARGIN = datetime.timedelta(minutes=2)  # beyond the send's deadline, to write its result
ERROR = "error"  # `deliver_all`'s word for a row whose sending raised
FORGOTTEN = "forgotten"  # the row is gone with what it was sent to (`Result.forgotten`)


class OutboxRow(models.Model):
    PENDING, SENDING, DELIVERED, FAILED = "pending", "sending", "delivered", "failed"
    STATUSES = [
        (PENDING, _("à envoyer")),
        (SENDING, _("en cours d'envoi")),
        (DELIVERED, _("livrée")),
        (FAILED, _("abandonnée")),
    ]

    status = models.CharField(_("état"), max_length=10, choices=STATUSES, default=PENDING)
    attempts = models.PositiveSmallIntegerField(_("essais"), default=0)
    next_attempt_at = models.DateTimeField(_("prochain essai"), default=timezone.now)
    claimed_at = models.DateTimeField(_("réservée le"), null=True, blank=True)
    last_error = models.CharField(_("dernière erreur"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("écrite le"), default=timezone.now)
    sent_at = models.DateTimeField(_("envoyée le"), null=True, blank=True)

    class Meta:
        abstract = True


@dataclass(frozen=True)
class Result:
    problem: str = ""  # "" once sent
    retry: bool = True  # a problem worth another attempt
    later: datetime.timedelta | None = None  # the far end's own word on when to try again
    forgotten: bool = False  # the far end is gone for good: `send` deleted the row with it

    @property
    def done(self):
        return not self.problem


def backoff(attempts, later=None):
    """The wait before the next attempt after `attempts` failed ones: 1, 2, 4… minutes, at most
    6 h; at least `later` (what the far end asked for), within the same 6 h."""
    wait = min(FIRST_DELAY * 2 ** max(attempts - 1, 0), LONGEST_DELAY)
    return min(max(wait, later), LONGEST_DELAY) if later else wait


class Words:
    """What an outbox logs of its rows (a subclass words it otherwise: the webhooks name their
    row's event and host)."""

    def __init__(self, logger, name):
        self.logger, self.name = logger, name

    def sent(self, row):
        self.logger.info("%s %s envoyée", self.name, row.pk)

    def failed(self, row, result, given_up):
        self.logger.warning(
            "%s %s non envoyée (essai %d) : %s%s",
            self.name,
            row.pk,
            row.attempts,
            result.problem,
            " ; abandonnée" if given_up else "",
        )

    def forgotten(self, row, result):
        self.logger.info("%s %s : %s ; sa destination est oubliée", self.name, row.pk, result.problem)

    def lost(self, row):
        self.logger.warning("%s %s : reprise par un autre envoi pendant celui-ci", self.name, row.pk)

    def error(self, pk):
        self.logger.exception("%s %s : erreur, laissée au prochain passage", self.name, pk)


class RowOutbox:
    def __init__(
        self, model, send, *, deadline, most_attempts=8, logger=None, name="nouvelle", words=None, related=()
    ):
        """`send(row)` → `Result`; `deadline()`: the seconds one send may take in all; `related`:
        what to read with a row (`select_related`)."""
        self.model, self.send, self.deadline = model, send, deadline
        self.most_attempts = most_attempts
        self.logger = logger or logging.getLogger(__name__)
        self.name = name
        self.words = words or Words(self.logger, name)
        self.related = related

    def is_stuck(self, row, now=None):
        """A row still « en cours d'envoi » `stuck_after()` its claim: its process is gone."""
        now = now or timezone.now()
        return (
            row.status == OutboxRow.SENDING
            and row.claimed_at is not None
            and row.claimed_at < now - self.stuck_after()
        )

    def stuck_after(self):
        return datetime.timedelta(seconds=self.deadline()) + STUCK_MARGIN

    def claimable(self, now):
        return Q(status=OutboxRow.PENDING, next_attempt_at__lte=now) | Q(
            status=OutboxRow.SENDING, claimed_at__lt=now - self.stuck_after()
        )

    def claim(self, pk, now):
        """The time of this process's claim on the row if it won it, None otherwise."""
        stamp = timezone.now()
        won = self.model.objects.filter(self.claimable(now), pk=pk).update(
            status=OutboxRow.SENDING, attempts=F("attempts") + 1, claimed_at=stamp
        )
        return stamp if won else None

    def attempt(self, row):
        try:
            return self.send(row)
        except Exception as error:
            self.logger.exception("%s %s : erreur pendant l'envoi", self.name, row.pk)
            return Result(f"envoi impossible ({type(error).__name__})")

    def deliver(self, pk, now=None):
        """Send one row if this process claims it: its new status, or None if not claimed (or
        claimed again by another process while this one was sending)."""
        now = now or timezone.now()
        stamp = self.claim(pk, now)
        if stamp is None:
            return None
        row = self.model.objects.select_related(*self.related).get(pk=pk)
        result = self.attempt(row)
        if result.forgotten:
            self.words.forgotten(row, result)
            return FORGOTTEN
        mine = self.model.objects.filter(pk=pk, status=OutboxRow.SENDING, claimed_at=stamp)
        if result.done:
            if not mine.update(status=OutboxRow.DELIVERED, sent_at=timezone.now(), last_error=""):
                return self.lost(row)
            self.words.sent(row)
            return OutboxRow.DELIVERED
        given_up = not result.retry or row.attempts >= self.most_attempts
        status = OutboxRow.FAILED if given_up else OutboxRow.PENDING
        later = timezone.now() + backoff(row.attempts, result.later)
        if not mine.update(status=status, last_error=result.problem[:200], next_attempt_at=later):
            return self.lost(row)
        self.words.failed(row, result, given_up)
        return status

    def lost(self, row):
        self.words.lost(row)
        return None

    def deliver_all(self, pks, now=None):
        """`deliver` each row; one whose sending raised is logged and counted as `ERROR`."""
        results = []
        for pk in pks:
            try:
                results.append(self.deliver(pk, now))
            except Exception:
                self.words.error(pk)
                results.append(ERROR)
        return results

    def due(self, now=None, rows=None):
        """The pks of the rows due (among `rows`, a queryset, if given), oldest first."""
        now = now or timezone.now()
        rows = self.model.objects.all() if rows is None else rows
        return list(
            rows.filter(self.claimable(now)).order_by("next_attempt_at", "pk").values_list("pk", flat=True)
        )
