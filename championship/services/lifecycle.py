"""A round's lifecycle: submit, homologate, send back to draft, delete a draft. Each locks the
round first and re-checks its status there."""

from django.db import transaction
from django.utils import timezone

from championship import signals
from championship.models import Round
from championship.rounds.data import (
    score_stored_round,
)
from championship.services.errors import RoundError
from championship.services.locking import bump, lock_round
from championship.services.scores import (
    store_scores,
)
from championship.services.signoff import check_dispute_answered
from federation.history import REASON_MAX_LENGTH, audited
from scoring.errors import ScoringError
from scoring.vocabulary import MAX_PLAYERS, MIN_PLAYERS, TABLE_SIZES


def check_complete(round_):
    """Raise RoundError unless the round can be submitted: seats, deals or totals, consistent."""
    count = round_.seats.count()
    if count not in TABLE_SIZES:
        raise RoundError(
            "seats", f"Une manche se joue à {MIN_PLAYERS} ou {MAX_PLAYERS} joueurs (ici {count})."
        )
    if not round_.totals_only and not round_.deals.exists():
        raise RoundError("deals", "Aucune donne n'est saisie.")
    try:
        score_stored_round(round_)
    except ScoringError as error:
        raise RoundError("invalid", f"La manche est incohérente : {error}") from error


@transaction.atomic
def submit_round(round_, user=None, *, version=None, reason="soumise pour homologation"):
    lock_round(round_, version=version)
    if round_.status != Round.DRAFT:
        raise RoundError("status", "Seule une manche en brouillon peut être soumise.")
    check_complete(round_)
    bump(round_)
    with audited(user, reason) as audit:
        round_.status = Round.SUBMITTED
        audit.save(round_)
        scored = store_scores(round_)
    signals.round_submitted.send(sender=Round, round=round_)
    return scored


@transaction.atomic
def homologate_round(round_, user=None, *, version=None, reason=None, date_confirmed=False):
    """Homologate; a round whose sheet a seated player disputes, only with a `reason` (the
    board's answer to the dispute, `signoff.check_dispute_answered`); a round dated after today,
    only with `date_confirmed` (the board checked the date: a mistyped date would lead the
    season's latest rounds)."""
    lock_round(round_, version=version)
    if round_.status == Round.HOMOLOGATED:
        raise RoundError("status", "Cette manche est déjà homologuée.")
    check_dispute_answered(round_, reason)
    check_date_confirmed(round_, date_confirmed)
    reason = (reason or "").strip() or "homologation"
    check_complete(round_)
    bump(round_)
    round_.status = Round.HOMOLOGATED
    round_.homologated_at = timezone.now()
    round_.homologated_by = user
    with audited(user, reason) as audit:  # outside a request too (commands, demo)
        audit.save(round_)
        scored = store_scores(round_)
    signals.round_homologated.send(sender=Round, round=round_)
    return scored


def check_date_confirmed(round_, confirmed):
    """Refuse a round dated after today unless the board confirmed its date."""
    if round_.date > timezone.localdate() and not confirmed:
        raise RoundError(
            "future",
            f"Date : la manche est datée du {round_.date:%d/%m/%Y}, après aujourd'hui ; "
            "confirmez cette date pour l'homologuer, ou corrigez-la.",
        )


@transaction.atomic
def reopen_round(round_, user=None, reason="", *, version=None):
    """Send a submitted round back to draft (a homologated one stays: it is corrected in place)."""
    lock_round(round_, version=version)
    if round_.status != Round.SUBMITTED:
        raise RoundError("status", "Seule une manche soumise peut revenir en brouillon.")
    bump(round_)
    round_.status = Round.DRAFT
    with audited(user, reason or "renvoyée en brouillon") as audit:
        audit.save(round_)
    return round_


@transaction.atomic
def delete_draft_round(round_, user=None, reason="", *, version=None):
    """Delete a round entered by mistake: only while it is a draft, with a reason that the
    round's history keeps with its author (a submitted round goes back to draft first)."""
    reason = (reason or "").strip()
    if not reason:
        raise RoundError("reason", "Motif : obligatoire pour supprimer une manche.")
    if len(reason) > REASON_MAX_LENGTH:
        raise RoundError("reason", f"Motif : {REASON_MAX_LENGTH} caractères au plus.")
    lock_round(round_, version=version)
    if round_.status != Round.DRAFT:
        raise RoundError("status", "Seule une manche en brouillon peut être supprimée.")
    with audited(user, reason) as audit:
        audit.delete(round_)
