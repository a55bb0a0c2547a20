"""Deals of a round: add the next one, change one, delete one (the following ones renumbered).

`fields` are the deal's model values (see `DEAL_FIELDS`): Players for `dealer`, `taker` and
`partner` (or None), player ids in `poignees` (`[{"player": id, "size": "simple"}]`) and
`miseres`. Each write locks the round, re-checks its status and version there, scores the round
as it would be (a deal the engine refuses stores nothing: RoundError `invalid`), stores the deal
with its history record and rescores the round.
"""

from django.db import transaction

from championship import bounds
from championship.models import Deal, Round
from championship.rounds.data import (
    DEAL_FIELDS,
    RoundData,
    counts_for_championship,
    current_data,
    read_round_data,
    score_stored_round,
    scored_from,
)
from championship.services.deletions import delete_and_rescore
from championship.services.errors import RoundError
from championship.services.locking import (
    bump,
    check_homologated_change,
    check_version,
    claim_key,
    lock_round,
)
from championship.services.scores import apply_scores, write_scores
from federation.history import audited
from scoring.errors import ScoringError


def _check_entry(round_):
    if round_.totals_only:
        raise RoundError("deals", "Cette manche n'a que des totaux : elle n'a pas de donnes.")


def _validate(round_, candidate, data, scored=None):
    """Score the round with `candidate` in place of (or after) its deal of that number: a deal the
    engine refuses is refused before anything is written. Returns the `ScoreChanges` of the
    round with the candidate (its figures set on it, the other rows to write listed). `scored`:
    the round its caller scored with the same candidate (a form's), used if it was scored from
    exactly these inputs (`rounds.data.scored_from`), else the round is scored here."""
    deals = [deal for deal in data.deals if deal.number != candidate.number]
    deals.insert(candidate.number - 1, candidate)
    data = RoundData(data.seats, deals, data.adjustments, data.version)
    try:
        scored = scored_from(scored, round_, data.seats, deals) or score_stored_round(
            round_, deals, seats=data.seats
        )
    except ScoringError as error:
        raise RoundError("invalid", f"Donne {candidate.number} : {error}") from error
    changes = apply_scores(round_, data, scored)  # the figures set in memory, nothing written
    changes.deals = [deal for deal in changes.deals if deal is not candidate]  # saved with its own
    return changes


def _taken(number):
    return RoundError(
        "deal_number",
        f"Une autre donne n°{number} vient d'être enregistrée sur cette manche : rien n'a été "
        "enregistré. Vérifiez la feuille puis saisissez à nouveau cette donne.",
    )


@transaction.atomic
def add_deal(
    round_, fields, *, number=None, version=None, key=None, reason=None, user=None, data=None, scored=None
):
    """Store the next deal of `round_` and rescore it; return the Deal.

    `number`: the number the deal was entered as (refused with `deal_number` if another deal
    took it meanwhile); `version`: the round's version the deal was entered at (refused with
    `stale` if the round changed since; None: not checked); `key`: the form's one-time key
    (refused with `duplicate` when sent again, whatever `version` says: a deal sent again after
    a lost answer is one stored already);
    `data`: the round's inputs as the caller read them (`read_round_data`), used if the round
    has not changed since, else read again under the lock. Once the deal is stored, `data` (if
    it was used) is the round as stored: the deal appended, every figure set, the championship
    lines computed, `data.scored` the round scored, and `data.version` the round's new version;
    a caller whose `data.version` differs from `round_.version` afterwards reads the round again.
    `scored`: the round scored with this deal by the caller (the form's check), see `_validate`.
    """
    lock_round(round_)
    claim_key(round_, key)  # before the version: a deal sent again, stored already, is a duplicate
    check_version(round_, version)
    _check_entry(round_)
    if round_.status == Round.SUBMITTED:
        raise RoundError(
            "status",
            "Cette manche est soumise pour homologation : la remettre en brouillon pour ajouter une donne.",
        )
    check_homologated_change(round_, reason)
    data = current_data(round_, data)
    next_number = len(data.deals) + 1
    if number is not None and number != next_number:
        raise _taken(number)
    problem = bounds.deal_number_problem(next_number)
    if problem:
        raise RoundError("deals", f"Donne {next_number} : {problem}.")
    bump(round_, write=False)  # written with the round's figures, under the lock
    deal = Deal(round=round_, number=next_number, **{name: fields.get(name) for name in DEAL_FIELDS})
    _defaults(deal)
    changes = _validate(round_, deal, data, scored)
    with audited(user, reason) as audit:
        audit.save(deal)  # with its figures: only what else moved is written after it
        write_scores(round_, changes, reason, version=True)
    data.deals.append(deal)
    data.lines = changes.lines if counts_for_championship(round_) else []
    data.scored = changes.scored
    data.version = round_.version
    return deal


@transaction.atomic
def change_deal(deal, fields, *, version=None, reason=None, user=None):
    """Correct `deal` with `fields` and rescore its round; return the Deal as stored."""
    round_ = deal.round
    lock_round(round_, version=version)
    _check_entry(round_)
    check_homologated_change(round_, reason)
    data = read_round_data(round_, adjustments=False)
    stored = next((item for item in data.deals if item.pk == deal.pk), None)
    if stored is None:
        raise RoundError("missing", f"La donne {deal.number} n'existe plus : elle vient d'être supprimée.")
    bump(round_)
    data.version = round_.version
    for name in DEAL_FIELDS:
        setattr(stored, name, fields.get(name))
    _defaults(stored)
    changes = _validate(round_, stored, data)
    with audited(user, reason) as audit:
        audit.save(stored)  # with its figures
        write_scores(round_, changes, reason)
    return stored


@transaction.atomic
def delete_deal(deal, reason=None, *, version=None, user=None):
    """Delete a deal, renumber the following ones and rescore the round."""

    def renumber_the_following(stored, audit):
        for following in deal.round.deals.filter(number__gt=stored.number).order_by("number"):
            following.number -= 1
            audit.save(following, update_fields=["number"])

    missing = f"La donne {deal.number} n'existe plus : elle vient d'être supprimée."
    delete_and_rescore(
        Deal, deal, reason, version=version, user=user, missing=missing, then=renumber_the_following
    )


def _defaults(deal):
    for name in ("contract", "called", "petit_au_bout", "chelem_made_by"):
        if getattr(deal, name) is None:
            setattr(deal, name, "")
    deal.kind = deal.kind or Deal.PLAYED
    deal.called_rank = deal.called_rank or "roi"
    deal.poignees = deal.poignees or []
    deal.miseres = deal.miseres or []
    deal.chelem_announced = bool(deal.chelem_announced)
