"""Bonuses and maluses of a round, from the season's catalogue: add one, delete one, each time
rescoring the round (its championship lines) in the same transaction, under the round's lock."""

from django.db import transaction

from championship.models import Adjustment
from championship.services.checks import checked_adjustment
from championship.services.errors import RoundError
from championship.services.locking import bump, check_homologated_change, claim_key, lock_round
from championship.services.rounds import _author, scored_or_refused


@transaction.atomic
def add_adjustment(
    round_, player, code, points=None, note="", *, entered_by=None, key=None, version=None, reason=None
):
    """Give `player` the catalogue's `code` (`points` None: the catalogue's points); return it.

    `entered_by` (a user) is kept on the adjustment and is the author of its history record.
    """
    lock_round(round_, version=version)
    claim_key(round_, key)
    check_homologated_change(round_, reason)
    adjustment = checked_adjustment(round_, player, code, points, note, entered_by)
    bump(round_)
    with _author(entered_by):
        adjustment._change_reason = reason
        adjustment.save()
        scored_or_refused(round_, reason)
    return adjustment


@transaction.atomic
def delete_adjustment(adjustment, motif=None, *, version=None, user=None):
    round_ = adjustment.round
    lock_round(round_, version=version)
    check_homologated_change(round_, motif)
    stored = Adjustment.objects.filter(pk=adjustment.pk).first()
    if stored is None:
        raise RoundError("missing", "Ce bonus ou malus n'existe plus : il vient d'être supprimé.")
    bump(round_)
    with _author(user):
        stored._change_reason = motif
        stored.delete()
        scored_or_refused(round_, motif)
