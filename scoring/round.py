"""One round (manche): its deals in order, the pot, and each player's total (docs/regles.md §3–§4).

Pot, before every deal record (passed, petit sec and misdeal included): when the pot is empty
every player antes, otherwise only the dealer; a misdeal also costs the dealer the penalty. A
made contract wins the whole pot for the taker. Whatever is left at the end goes back to those
who put it in since it was last emptied, each exactly what they put in.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.deal import DealInput, DealResult, score_deal, validate_players
from scoring.errors import ScoringError
from scoring.french import of_name
from scoring.rulebook import Rulebook
from scoring.vocabulary import MISDEAL


@dataclass(frozen=True)
class DealOutcome:
    """A scored deal with its pot movements; ``pot_before`` is the pot before the antes."""

    number: int
    result: DealResult
    antes: dict[str, int]
    penalty: dict[str, int]
    pot_won: dict[str, int]
    pot_before: int
    pot_after: int
    deal: DealInput | None = None


@dataclass(frozen=True)
class RoundResult:
    players: tuple[str, ...]
    deals: tuple[DealOutcome, ...]
    pot_refund: dict[str, int]
    totals: dict[str, int]
    warnings: tuple[str, ...]


class _Pot:
    """The chips in the pot, by who put them in since it was last emptied."""

    def __init__(self, seats: tuple[str, ...]):
        self.contributions = dict.fromkeys(seats, 0)

    @property
    def total(self) -> int:
        return sum(self.contributions.values())

    def put(self, chips: Mapping[str, int]) -> None:
        for name, amount in chips.items():
            self.contributions[name] += amount

    def empty(self) -> int:
        won = self.total
        self.contributions = dict.fromkeys(self.contributions, 0)
        return won


def _antes(seats: tuple[str, ...], dealer: str, pot_is_empty: bool, ante: int) -> dict[str, int]:
    antes = dict.fromkeys(seats, ante if pot_is_empty else 0)
    antes[dealer] = ante
    return antes


def _play(deal: DealInput, number: int, result: DealResult, pot: _Pot, rulebook: Rulebook):
    seats = tuple(pot.contributions)
    zeros = dict.fromkeys(seats, 0)
    pot_before = pot.total
    antes = _antes(seats, deal.dealer, pot_before == 0, rulebook.pot.ante)
    penalty = dict(zeros)
    if deal.kind == MISDEAL:
        penalty[deal.dealer] = rulebook.pot.misdeal_penalty
    pot.put(antes)
    pot.put(penalty)
    pot_won = dict(zeros)
    if result.made:
        pot_won[deal.taker] = pot.empty()
    return DealOutcome(number, result, antes, penalty, pot_won, pot_before, pot.total, deal)


def running_totals(result: RoundResult) -> tuple[dict[str, int], ...]:
    """Each player's running total after each deal, in deal order: the shares so far plus the
    pots won, minus the antes and penalties. The pot still in play is not in it: it is paid back
    only at the round's end (``pot_refund``), so ``totals`` = the last running total + the refund,
    and after every deal the running totals and the pot sum to zero. The one running total of the
    site: the entry page's grid, its score cards and the preview of a deal show it."""
    running = dict.fromkeys(result.players, 0)
    after = []
    for outcome in result.deals:
        for name in result.players:
            running[name] += outcome.result.shares[name] + outcome.pot_won[name]
            running[name] -= outcome.antes[name] + outcome.penalty[name]
        after.append(dict(running))
    return tuple(after)


def score_round(players: Sequence[str], deals: Sequence[DealInput], rulebook: Rulebook) -> RoundResult:
    """Score every deal in order, run the pot and total the round; ``players`` in seating order."""
    seats = validate_players(players)
    pot = _Pot(seats)
    outcomes = []
    for number, deal in enumerate(deals, start=1):
        result = score_deal(deal, seats, rulebook, number)
        outcomes.append(_play(deal, number, result, pot, rulebook))
    refund = dict(pot.contributions)
    played = RoundResult(seats, tuple(outcomes), refund, {}, ())
    last = running_totals(played)[-1] if outcomes else dict.fromkeys(seats, 0)
    totals = {name: last[name] + refund[name] for name in seats}
    assert sum(totals.values()) == 0, totals
    return RoundResult(seats, tuple(outcomes), refund, totals, check_rotation(seats, deals))


def next_dealer(players: Sequence, dealer, kind: str):
    """Who deals after `dealer` dealt a deal of `kind`: the same after a misdeal, else his
    right-hand neighbour (the next in `players`); `dealer` himself if he is not in `players`."""
    seats = tuple(players)
    if kind == MISDEAL or dealer not in seats:
        return dealer
    return seats[(seats.index(dealer) + 1) % len(seats)]


def check_rotation(players: Sequence[str], deals: Sequence[DealInput]) -> tuple[str, ...]:
    """French warnings where a dealer is not the expected one.

    The first dealer is free; then each dealer is the right-hand neighbour of the previous one
    (the next in ``players``), except after a misdeal, when the same dealer deals again. Each
    check starts from the dealer actually recorded, so one mistake gives one warning.
    """
    seats = tuple(players)
    warnings = []
    previous = None
    for number, deal in enumerate(deals, start=1):
        if previous is not None and previous.dealer in seats and deal.dealer in seats:
            expected = next_dealer(seats, previous.dealer, previous.kind)
            if deal.dealer != expected:
                warnings.append(f"donne {number} : donneur attendu {expected}, inscrit {deal.dealer}")
        previous = deal
    return tuple(warnings)


def totals_only_round(players: Sequence[str], totals: Mapping[str, int]) -> RoundResult:
    """A round whose deals were not kept: only its totals, which must sum to zero."""
    seats = validate_players(players)
    if not isinstance(totals, Mapping):
        raise ScoringError("totals", "un total par joueur est attendu")
    for name in totals:
        if name not in seats:
            raise ScoringError("totals", f"{name} n'est pas à cette table")
    for name in seats:
        if name not in totals:
            raise ScoringError("totals", f"il manque le total {of_name(name)}")
        if type(totals[name]) is not int:
            raise ScoringError("totals", f"le total {of_name(name)} doit être un nombre entier")
    balance = sum(totals.values())
    if balance != 0:
        raise ScoringError("totals", f"les totaux doivent s'annuler (leur somme fait {balance})")
    zeros = dict.fromkeys(seats, 0)
    return RoundResult(seats, (), zeros, {name: totals[name] for name in seats}, ())
