"""A round's seats: the totals of a round whose deals were not kept, and the chip colours."""

from django.db import transaction

from championship import bounds
from championship.models import Seat
from championship.services.errors import RoundError
from championship.services.locking import bump, check_homologated_change, lock_round
from championship.services.scores import (
    scored_or_refused,
)
from federation import validators
from federation.history import audited
from scoring.french import of_name
from scoring.vocabulary import COLOURS


@transaction.atomic
def set_seat_totals(round_, totals, *, version=None, reason=None, user=None):
    """Correct the totals of a round whose deals were not kept (`totals`: player id → total; they
    must cancel out) and rescore it (ranks, championship lines)."""
    lock_round(round_, version=version)
    if not round_.totals_only:
        raise RoundError("totals", "Cette manche a ses donnes : ses totaux en découlent.")
    check_homologated_change(round_, reason)
    seats = list(round_.seats.select_related("player").order_by("position"))
    if set(totals) != {seat.player_id for seat in seats}:
        raise RoundError("totals", "Totaux : un total par joueur assis, et pour eux seuls.")
    for seat in seats:
        problem = validators.bounds_problem(totals[seat.player_id], bounds.ROUND_TOTAL)
        if problem:
            label = f"Total {of_name(seat.player.name)}"
            raise RoundError("totals", validators.field_message(label, problem))
    if sum(totals.values()) != 0:
        raise RoundError(
            "totals", f"Totaux : ils doivent s'annuler, or leur somme fait {sum(totals.values())} (et non 0)."
        )
    reason = reason or "totaux corrigés"
    bump(round_)
    with audited(user, reason) as audit:
        for seat in seats:
            if seat.total != totals[seat.player_id]:
                seat.total = totals[seat.player_id]
                audit.save(seat, update_fields=["total"])
        return scored_or_refused(round_, reason)


@transaction.atomic
def set_seat_colours(round_, colours, *, version=None, reason=None, user=None):
    """Give each seated player a chip colour (`colours`: player id → colour or "" for none); two
    players may swap theirs. Returns the seats that changed."""
    lock_round(round_, version=version)
    check_homologated_change(round_, reason)
    seats = list(round_.seats.select_related("player").order_by("position"))
    chosen = [colours.get(seat.player_id, "") or "" for seat in seats]
    if any(colour not in COLOURS for colour in chosen if colour):
        raise RoundError("colours", "Couleurs : couleur de jetons inconnue.")
    picked = [colour for colour in chosen if colour]
    if len(set(picked)) != len(picked):
        raise RoundError("colours", "Couleurs : deux joueurs ont les mêmes jetons.")
    changed = [seat for seat, colour in zip(seats, chosen, strict=True) if seat.colour != colour]
    if not changed:
        return []
    bump(round_)
    with audited(user, reason or "couleurs des jetons") as audit:
        # Free the colours first so that two players can swap theirs (one colour per seat).
        Seat.objects.filter(pk__in=[seat.pk for seat in changed]).update(colour="")
        for seat in changed:
            seat.colour = colours.get(seat.player_id, "") or ""
            audit.save(seat, update_fields=["colour"])
    return changed
