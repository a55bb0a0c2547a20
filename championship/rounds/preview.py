"""The preview of a deal as its form is filled: its shares and the new totals, scored as saving
would score it."""

from dataclasses import dataclass

from championship.rounds.display import announces, deal_summary
from scoring.round import running_totals


@dataclass(frozen=True)
class PreviewSeat:
    name: str
    colour: str
    share: int  # the deal's share, misères included
    total: int  # the running total after the deal (`scoring.round.running_totals`), as saved


@dataclass(frozen=True)
class DealPreview:
    """A deal scored before it is saved: what the entry page shows while the form is filled."""

    number: int
    summary: str
    announces: tuple
    unit: int
    pot_after: int
    seats: tuple  # PreviewSeat per seat, in seat order


def deal_preview(scored, candidate, seats):
    """The preview of `candidate` (an unsaved Deal, its number set) from `scored`, the round
    scored with it by the deal form's own validation (`scoring`, the same as saving): its summary,
    each seat's share and running total after it. Nothing is written."""
    outcome = scored.result.deals[candidate.number - 1]
    after = running_totals(scored.result)[candidate.number - 1]
    result = outcome.result
    names = scored.names
    candidate.made = result.made
    return DealPreview(
        number=candidate.number,
        summary=deal_summary(candidate, names, result.made, result.diff),
        announces=announces(candidate, names),
        unit=result.unit,
        pot_after=outcome.pot_after,
        seats=tuple(
            PreviewSeat(
                name=names[seat.player_id],
                colour=seat.colour,
                share=result.shares.get(names[seat.player_id], 0),
                total=after[names[seat.player_id]],
            )
            for seat in seats
        ),
    )
