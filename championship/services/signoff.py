"""The table signs the sheet: at the end of the night each seated player, logged in, confirms
the round as it stands (« Je confirme la feuille ») or disputes it with a comment; a player
without his account on his phone does it with the signing code the secretary's screen shows him
(`sign_sheet_by_code`, docs/utiliser.md).

A sign-off is of the round's version the player saw, which it must give (a form read at an
older version is refused as stale, the other change shown): once a deal changes, his word
stands as of that older version, and he may sign again. One row per player, rewritten with its history record
(`federation.history.audited`). A sign-off does not raise the round's version: it changes
nothing of the sheet, and the others' sign-offs stay current. Homologation stays the board's
act: an open dispute does not block it, but asks the board for a motif
(`lifecycle.homologate_round`, `check_dispute_answered`).
"""

from django.db import transaction
from django.utils import timezone

from championship.models import Round, Signoff
from championship.rounds.table_link import code_matches
from championship.services.errors import RoundError
from championship.services.locking import check_version, locked_round
from federation.history import REASON_MAX_LENGTH, audited
from federation.roles import player_of

REASONS = {
    Signoff.CONFIRMED: "feuille confirmée par le joueur",
    Signoff.DISPUTED: "feuille contestée par le joueur",
}


def _check_comment(verdict, comment):
    if verdict not in REASONS:
        raise RoundError("verdict", "Avis : « confirmée » ou « contestée » est attendu.")
    if verdict == Signoff.DISPUTED and not comment:
        raise RoundError(
            "comment", "Commentaire : obligatoire pour contester la feuille (dites ce qui ne va pas)."
        )
    if len(comment) > Signoff.COMMENT_MAX_LENGTH:
        raise RoundError("comment", f"Commentaire : {Signoff.COMMENT_MAX_LENGTH} caractères au plus.")


VERSION_MISSING = (
    "Version : la version de la feuille que vous avez lue manque ; rechargez la page en direct et "
    "signez de nouveau."
)


@transaction.atomic
def sign_sheet(round_, user, verdict, *, version, comment=""):
    """`user`'s player confirms (`Signoff.CONFIRMED`) or disputes (`Signoff.DISPUTED`, with a
    `comment`) `round_` at `version` (the round's version his page showed: required, a sign-off
    is of what the player saw). RoundError `player` unless he sits at the round, `status` once
    it is homologated, `version` without a version, `stale` if it changed since `version`,
    `comment` for a dispute without comment."""
    comment = (comment or "").strip()
    _check_comment(verdict, comment)
    player = player_of(user)
    locked_round(round_)  # not lock_round: a sign-off changes none of the season's figures
    _check_signable(round_, player, version)
    return _signed(round_, player, verdict, comment, user, REASONS[verdict])


@transaction.atomic
def sign_sheet_by_code(round_, player, code, verdict, *, version, comment=""):
    """`player` confirms or disputes `round_` at `version`, as `sign_sheet`, from a phone where
    he has no account: with `code`, his signing code that the secretary's screen shows him
    (`rounds.table_link`; the view throttles the guesses). The history names no account, « par
    son code de table ». RoundError as `sign_sheet`, and `code` for any code but his, `signed`
    if he already signed this version (by code, one's word is not changed: his account or the
    board change it)."""
    comment = (comment or "").strip()
    _check_comment(verdict, comment)
    locked_round(round_)
    _check_signable(round_, player, version)
    if not code_matches(round_, player.pk, code):
        raise RoundError(
            "code", "Code : ce n'est pas le vôtre ; demandez au secrétaire de vous montrer votre code."
        )
    if Signoff.objects.filter(round=round_, player=player, version=round_.version).exists():
        raise RoundError("signed", f"Joueur : {player.name} a déjà signé cette version de la feuille.")
    return _signed(round_, player, verdict, comment, None, f"{REASONS[verdict]}, par son code de table")


def _check_signable(round_, player, version):
    if player is None or not round_.seats.filter(player=player).exists():
        raise RoundError("player", "Seuls les joueurs assis à cette manche signent sa feuille.")
    if round_.status == Round.HOMOLOGATED:
        raise RoundError("status", "Cette manche est homologuée : sa feuille ne se signe plus.")
    if version is None:
        raise RoundError("version", VERSION_MISSING)
    check_version(round_, version)


def _signed(round_, player, verdict, comment, user, reason):
    signoff = Signoff.objects.filter(round=round_, player=player).first() or Signoff(
        round=round_, player=player
    )
    signoff.verdict = verdict
    signoff.comment = comment if verdict == Signoff.DISPUTED else ""
    signoff.version = round_.version
    signoff.signed_at = timezone.now()
    with audited(user, reason) as audit:
        audit.save(signoff)
    return signoff


def check_dispute_answered(round_, reason):
    """Homologating a round a seated player disputes asks the board for a motif (its answer to
    the dispute, kept in the round's history): RoundError `reason` without one."""
    reason = (reason or "").strip()
    if Signoff.objects.filter(round=round_, verdict=Signoff.DISPUTED).exists() and not reason:
        raise RoundError(
            "reason",
            "Motif : obligatoire pour homologuer une manche dont la feuille est contestée "
            "(votre réponse à la contestation, inscrite à l'historique).",
        )
    if len(reason) > REASON_MAX_LENGTH:
        raise RoundError("reason", f"Motif : {REASON_MAX_LENGTH} caractères au plus.")
