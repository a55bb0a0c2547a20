"""Bonuses and maluses of a round, from the season's catalogue: add one, delete one, each time
rescoring the round (its championship lines) in the same transaction, under the round's lock."""

from django.db import transaction

from championship.models import Adjustment
from championship.services.checks import checked_adjustment
from championship.services.deletions import delete_and_rescore
from championship.services.locking import bump, check_homologated_change, claim_key, lock_round
from championship.services.scores import scored_or_refused
from federation.history import audited


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
    with audited(entered_by, reason) as audit:
        audit.save(adjustment)
        scored_or_refused(round_, reason)
    return adjustment


@transaction.atomic
def delete_adjustment(adjustment, reason=None, *, version=None, user=None):
    missing = "Ce bonus ou malus n'existe plus : il vient d'être supprimé."
    delete_and_rescore(Adjustment, adjustment, reason, version=version, user=user, missing=missing)
