"""Deleting a row of a round (a deal, a bonus or malus): what the two deletions share."""

from championship.services.errors import RoundError
from championship.services.locking import bump, check_homologated_change, lock_round
from championship.services.scores import scored_or_refused
from federation.history import audited


def delete_and_rescore(model, instance, reason, *, version, user, missing, then=None):
    """Lock `instance`'s round, check it may change (a homologated round: with a `reason`), read
    the row afresh (RoundError `missing`, with the message `missing`, if it is gone), raise the
    round's version, delete the row with `reason` and `user` in its history, run `then(stored,
    audit)` (what else moves with it), and rescore the round, all in the caller's transaction."""
    round_ = instance.round
    lock_round(round_, version=version)
    check_homologated_change(round_, reason)
    stored = model.objects.filter(pk=instance.pk).first()
    if stored is None:
        raise RoundError("missing", missing)
    bump(round_)
    with audited(user, reason) as audit:
        audit.delete(stored)
        if then is not None:
            then(stored, audit)
        scored_or_refused(round_, reason)
    return stored
