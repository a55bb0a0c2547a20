"""What may still change a player's season points before the play-offs (docs/regles.md §6.4):
the bounds of one round (`round_bounds`) and the late-report malus still to come (`late_malus`,
`report_risk`). The outlook itself — where each player can still finish, and what he needs — is
`scoring.outlook`; the seeding, the play-off tables and the final are `scoring.cup`.
"""

from __future__ import annotations

from datetime import date

from scoring.championship import late_report_weeks


def round_bounds(rulebook) -> tuple[int, int]:
    """``(loss, gain)``: the least and the most one regular round still to be played can change
    a player's season points, the late-report malus aside (see ``late_malus``).

    The bound is the one the season's rules enforce, not an estimate. A round's points add up
    terms that the rules do not bound by themselves: rank points and big win or close loss once,
    but prestige and wall per contract and chelem per chelem (with no limit to the number of
    deals of an evening), and any number of bonuses and maluses from the catalogue, whose points
    the Direction may fix. So the rulebook caps the round: ``championship.round_points_cap``
    (default +30) and ``championship.round_points_floor`` (default −30), chosen by the officials
    and applied by the scoring of every round (``scoring.championship.round_limit_items``, a
    ``round_cap`` or ``round_floor`` line that the explanation of the player's points shows).
    The defaults are far beyond any real round (the demo's best is +14; 16 takes a big win, a
    prestige contract made, a chelem and two failed in defence), so the default rulebook leaves
    every score as it was; officials who want statuses decided earlier choose a tighter bound.

    Why a cap rather than a bound derived from the rules: deriving one would need the rulebook
    to limit the deals of a round and its adjustments (how many, and the points the Direction
    may fix), refused at entry beyond; with limits no real round reaches, the derived bound
    (some 11 + 3 a deal + the adjustments) would be so wide that no status could be decided
    before the last round. A cap chosen by the officials and applied by the scoring is as tight
    as they want and true by construction, whatever the deals and the adjustments.

    Sitting a round out gives 0, so the bound always includes 0: a player who does not play
    may still be given a malus by the round (an absence), never more than the floor.

    The late-report malus is not part of a round's lines: it grows each started week until the
    report is filed, and the standings count it as of today, or of the season's end once it is
    over. Its bound comes from the season's dates (``late_malus``): the statuses add, for each
    round still to count, the malus its report reaches if never filed before the season's end,
    and for each missing report of a counted round, what it may still add to its author's.
    """
    rules = rulebook.championship
    return min(rules.round_points_floor, 0), max(rules.round_points_cap, 0)


def late_malus(deadline: date, filed: date | None, as_of: date, rulebook) -> int:
    """The late-report malus (≤ 0) of one report as the standings count it on ``as_of``.

    A report filed after ``as_of`` was still missing on that date. Computed on the season's end,
    it is the most the report can ever cost: filing it stops the malus, and nothing is counted
    after the season's end.
    """
    counted = filed if filed is not None and filed <= as_of else None
    return late_report_weeks(deadline, counted, as_of) * rulebook.reports.late_malus_per_week


def report_risk(deadline: date, filed: date | None, as_of: date, end: date, rulebook) -> int:
    """What the late-report malus of a counted round may still add (≤ 0) between ``as_of`` and
    the season's ``end``, for a report with this ``filed`` date (``None``: still missing)."""
    return late_malus(deadline, filed, end, rulebook) - late_malus(deadline, filed, as_of, rulebook)
