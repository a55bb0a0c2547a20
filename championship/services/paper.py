"""The paper check of a round: the paper sheet's final totals, typed at the end of the night and
stored with the round (with its history), to be compared with the totals the site computes
(`championship.rounds.paper.paper_check`) by the secretary and by the official who homologates."""

from django.db import transaction

from championship import bounds
from championship.services.errors import RoundError
from championship.services.locking import bump, check_homologated_change, lock_round
from federation import validators
from federation.history import audited
from scoring.french import of_name

PAPER_REASON = "totaux de la feuille papier"


@transaction.atomic
def set_paper_totals(round_, totals, *, version=None, reason=None, user=None):
    """Store the paper sheet's totals of `round_`: `totals` maps each seated player's id to an
    integer (all of them), or is empty to clear the check. A homologated round needs a reason.
    RoundError `paper` if a seated player lacks a total, a total is not an integer in bounds, or
    another player is given."""
    lock_round(round_, version=version)
    check_homologated_change(round_, reason)
    names = dict(round_.seats.values_list("player_id", "player__name"))
    totals = {int(player_id): total for player_id, total in totals.items()}
    if totals and set(totals) != set(names):
        raise RoundError(
            "paper", "Totaux de la feuille : un total pour chaque joueur de la table, et pour eux seuls."
        )
    for player_id, total in totals.items():
        if isinstance(total, bool) or not isinstance(total, int):
            raise RoundError(
                "paper", f"Total {of_name(names[player_id])} sur la feuille : un nombre entier est attendu."
            )
        if problem := validators.bounds_problem(total, bounds.ROUND_TOTAL):
            raise RoundError("paper", f"Total {of_name(names[player_id])} sur la feuille : {problem}.")
    bump(round_, write=False)  # written with the totals
    round_.paper_totals = {str(player_id): total for player_id, total in totals.items()}
    with audited(user, reason or PAPER_REASON) as audit:
        audit.save(round_, update_fields=["paper_totals", "version"])
    return round_
