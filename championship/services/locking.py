"""What every write does first: lock the round, read it afresh, check the version and status the
caller saw, claim the form's one-time key, and raise the round's version.

Each service runs inside `transaction.atomic` and starts with `lock_round`: on PostgreSQL,
`select_for_update` makes a second writer of the same round wait until the first one commits,
then read what it wrote (so an edit never acts on a status the board just changed); on SQLite,
transactions are immediate (see the settings), so writers wait for each other the same way.
"""

import datetime

from django.db import IntegrityError
from django.db.models import F
from django.utils import timezone

from championship.lib.summaries import season_written
from championship.models import Adjustment, Deal, Round, Seat, SubmissionKey
from championship.rounds.history import who
from championship.services.errors import RoundError

MISSING_MOTIF = "Motif : obligatoire pour modifier une manche homologuée."


def lock_round(round_, *, version=None):
    """Lock `round_`'s row for the transaction and bring the instance up to date (status,
    version…); RoundError `missing` if it was deleted, `stale` if `version` is given and the
    round changed since (the message says what changed, by whom and when)."""
    locked_round(round_)
    season_written(round_.season_id)  # every write of a round's figures starts here
    check_version(round_, version)
    return round_


def locked_round(round_):
    """`round_`'s row locked for the transaction, the instance brought up to date; RoundError
    `missing` if it was deleted. Alone (without `lock_round`'s new figure token) for a write
    that changes nothing the season's figures are computed from, such as a sign-off."""
    locked = Round.objects.select_for_update().filter(pk=round_.pk).first()
    if locked is None:
        raise RoundError("missing", "Cette manche n'existe plus : elle vient d'être supprimée.")
    for field in Round._meta.concrete_fields:
        setattr(round_, field.attname, getattr(locked, field.attname))
    return round_


def check_version(round_, version):
    """RoundError `stale` if `version` is given and the locked round is no longer at it."""
    if version is not None and int(version) != round_.version:
        raise RoundError("stale", stale_message(round_))


def bump(round_, *, write=True):
    """Raise the round's version (no history record: the change itself has one). `write=False`
    raises it in memory only, for a write that stores it with the round's figures
    (`write_scores(..., version=True)`), under the lock taken by `lock_round`."""
    round_.version += 1
    if write:
        Round.objects.filter(pk=round_.pk).update(version=F("version") + 1)


def check_homologated_change(round_, reason):
    """A homologated round is corrected only with a reason kept in its history."""
    if round_.status == Round.HOMOLOGATED and not (reason or "").strip():
        raise RoundError(
            "reason",
            "Cette manche est homologuée (peut-être à l'instant) : elle ne se corrige qu'avec un motif. "
            + MISSING_MOTIF,
        )


DUPLICATE = "Ce formulaire a déjà été enregistré (envoi en double) : il ne l'est qu'une fois."


def claim_key(round_, key):
    """Store a form's one-time key (one INSERT); RoundError `duplicate` if it was stored already.

    Called inside the write's transaction, under the round's lock: a key stored already makes the
    INSERT fail on its unique index, and the RoundError raised then undoes the whole write (on
    PostgreSQL the failed INSERT leaves the transaction unusable, so nothing runs after it).
    """
    if not key:
        return
    try:
        SubmissionKey.objects.create(key=key, round=round_)
    except IntegrityError as error:
        raise RoundError("duplicate", DUPLICATE) from error


# --- what changed meanwhile ------------------------------------------------------------------------

# The records of one write: the same author and reason, each within a second of the next. The one
# that names it: a deletion, else an addition, else a change (a deal deleted, not the following
# deals it renumbered); then by model, then the latest.
_PRIORITY = [Deal, Adjustment, Round, Seat]
_TYPES = ["-", "+", "~"]
_SAME_WRITE = datetime.timedelta(seconds=1)
_LOOK_BACK = datetime.timedelta(seconds=30)  # a write's records are read back this far at most


def _what(model, record):
    verb = {"+": "ajoutée", "~": "modifiée", "-": "supprimée"}[record.history_type]
    if model is Deal:
        return f"donne {record.number} {verb}"
    if model is Adjustment:
        return f"bonus ou malus {verb.replace('ée', 'é')} ({record.code}, {record.points:+d})"
    if model is Seat:
        return "places, totaux ou couleurs modifiés"
    return {"+": "manche créée", "~": "manche modifiée", "-": "manche supprimée"}[record.history_type]


def _records(model, round_):
    key = "id" if model is Round else "round_id"
    return model.history.filter(**{key: round_.pk}).exclude(history_change_reason="recalcul")


def _last_write(round_):
    """(model, record) pairs of the round's last write, latest first (records of the scoring left
    out: the change that caused them is named)."""
    newest = [
        record.history_date
        for model in _PRIORITY
        if (record := _records(model, round_).only("history_date").order_by("-history_date").first())
    ]
    if not newest:
        return []
    since = max(newest) - _LOOK_BACK
    recent = sorted(
        (
            (model, record)
            for model in _PRIORITY
            for record in _records(model, round_)
            .filter(history_date__gte=since)
            .select_related("history_user__player")
            .order_by("-history_date")[:500]
        ),
        key=lambda pair: pair[1].history_date,
        reverse=True,
    )
    write = recent[:1]
    for model, record in recent[1:]:
        last = write[-1][1]
        same = (record.history_user_id, record.history_change_reason) == (
            last.history_user_id,
            last.history_change_reason,
        )
        if not same or last.history_date - record.history_date > _SAME_WRITE:
            break
        write.append((model, record))
    return write


def last_change(round_):
    """« donne 3 modifiée par Alice le 19/11/2010 à 22:14 (motif : …) », or None: the last write,
    named by the row it was made on (`_TYPES`, `_PRIORITY`)."""
    write = _last_write(round_)
    if not write:
        return None
    model, record = min(
        write, key=lambda pair: (_TYPES.index(pair[1].history_type), _PRIORITY.index(pair[0]))
    )
    when = timezone.localtime(record.history_date)
    author = who(record.history_user, nobody="quelqu'un")
    text = f"{_what(model, record)} par {author} le {when:%d/%m/%Y à %H:%M}"
    if record.history_change_reason:
        text += f" (motif : {record.history_change_reason})"
    return text


def stale_message(round_):
    change = last_change(round_)
    seen = f" : {change}" if change else ""
    return (
        f"La manche a été modifiée pendant que vous la lisiez{seen}. Rien n'est enregistré : "
        "voici la manche à jour, vérifiez-la puis recommencez si besoin."
    )
