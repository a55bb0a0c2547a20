"""The paper check of a round: the paper sheet's final totals beside the computed ones, and where
the gap may come from."""

from dataclasses import dataclass


@dataclass(frozen=True)
class PaperRow:
    name: str
    colour: str
    computed: int | None
    paper: int
    gap: int  # paper − computed: 0 when they agree
    suspects: tuple  # numbers of the deals that could explain the gap


@dataclass(frozen=True)
class PaperCheck:
    """The paper sheet's final totals (typed at the end of the night) against the computed ones."""

    entered: bool
    rows: tuple  # PaperRow per seat, in seat order
    paper_sum: int  # a paper sheet's totals cancel out (0) unless one of its additions is wrong

    @property
    def agrees(self):
        return self.entered and all(row.gap == 0 for row in self.rows)

    @property
    def gaps(self):
        return tuple(row for row in self.rows if row.gap)


def _proportional(gaps, shares):
    """Whether the gaps are one same multiple of the deal's shares (one deal entered with the
    wrong points, bouts, contract or outcome moves every player by a multiple of his share)."""
    ratio = None
    for gap, share in zip(gaps, shares, strict=True):
        if share == 0:
            if gap:
                return False
            continue
        if ratio is None:
            ratio = (gap, share)
        elif gap * ratio[1] != ratio[0] * share:
            return False
    return ratio is not None and ratio[0] != 0


def paper_check(paper_totals, seats, deals):
    """Compare `paper_totals` ({player id (str): total}) with the seats' computed totals; for each
    gap, the deals that could explain it, most likely first: those whose shares the gaps of the
    whole table are a multiple of (one deal mistyped), then those where the player's share is the
    gap or half of it (a deal left out or counted twice, or its outcome reversed)."""
    if not paper_totals:
        return PaperCheck(False, (), 0)
    computed = [seat.total or 0 for seat in seats]
    paper = [paper_totals.get(str(seat.player_id), 0) for seat in seats]
    gaps = [p - c for p, c in zip(paper, computed, strict=True)]
    whole = [deal.number for deal in deals if any(gaps) and _proportional(gaps, deal.shares)]
    rows = []
    for index, seat in enumerate(seats):
        gap, suspects = gaps[index], []
        if gap:
            suspects = [deal.number for deal in deals if deal.number in whole and deal.shares[index]]
            suspects += [
                deal.number
                for deal in deals
                if deal.number not in suspects
                and deal.shares[index]
                and abs(gap)
                in (
                    abs(deal.shares[index]),
                    2 * abs(deal.shares[index]),
                )
            ]
        rows.append(PaperRow(seat.name, seat.colour, seat.total, paper[index], gap, tuple(suspects)))
    return PaperCheck(True, tuple(rows), sum(paper))
