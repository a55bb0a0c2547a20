"""The race to the play-offs during the season (docs/regles.md §6): each player's status,
qualified, eliminated or in contention, only when certain under the bounds of a round.

The seeding, the play-off tables and the final are `scoring.cup`; what each player still needs
is `scoring.needs`, on the same model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from scoring.championship import late_report_weeks
from scoring.cup_reasons import Reason
from scoring.needs import Need, needs
from scoring.ranking import PlayerSeason, final_ranking

QUALIFIED = "qualified"
ELIMINATED = "eliminated"
IN_CONTENTION = "in_contention"


@dataclass(frozen=True)
class Status:
    code: str  # QUALIFIED, ELIMINATED or IN_CONTENTION
    reason: Reason  # why it is certain, or why not yet


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


def playoff_status(
    current: Sequence[PlayerSeason],
    remaining_rounds: int,
    rulebook,
    *,
    round_late: Sequence[int] = (),
    late: Mapping[str, int] | None = None,
) -> dict[str, Status]:
    """Qualified, eliminated or in contention for the play-offs, only when certain.

    Assumption (stated in the README and on the page): the season still has
    ``remaining_rounds`` regular rounds to count; every player of ``current`` may play each of
    them (players not listed are assumed not to play: list every registered player, with 0
    rounds if need be); each of them changes a player's points by ``round_bounds`` (the
    season's round limits, applied by the scoring), plus, for its report's author, a
    late-report malus of at most ``round_late`` (one value ≤ 0 per round, any of them may fall
    on anyone); ``late`` gives each player what the missing reports of counted rounds may still
    add to his malus (≤ 0). A player needs ``minimum_rounds`` to be ranked. Homologated rounds,
    reports' authors and filing dates and the rulebook are taken as they are: a correction (a
    bonus or malus added afterwards to a homologated round is one, made by the Direction with
    a motif) recomputes the statuses.

    Each player's points end between his *lowest* (points + rounds × floor + every ``round_late``
    + his ``late``) and his *highest* (points + rounds × cap).

    - qualified: he is ranked already (so whatever happens) and, even at his lowest with
      everyone else at his highest, fewer than ``playoff_players`` others can reach or tie his
      points (a tie counts against certainty, whatever the tie-breaks);
    - eliminated: he cannot reach ``minimum_rounds``, or at least ``playoff_players`` others
      are ranked already and stay strictly ahead even at their lowest with him at his highest;
    - in contention otherwise.

    The reasons give each ranked player the bounds of his final place: at worst one behind those
    who can reach or tie his lowest (``threats``), at best one behind those who stay ahead of his
    highest (``ahead``); one in contention also learns the fewest points the remaining rounds
    must bring him to make his place certain (``needed``, of at most ``most``: `scoring.needs`,
    the same model: his lowest must pass the ``playoff_players``-th highest of the others who
    may be ranked).

    Example (round limits +15 / −6, 10 places): with 2 rounds left, a ranked player on 120
    points can fall to 108; whoever is on 77 or less can reach at most 107, so if at most 9
    others have 78 or more he is qualified.

    With ``remaining_rounds == 0`` the statuses follow the final ranking: its first
    ``playoff_players`` are qualified, the others eliminated; players fully tied across the cut
    (equal on points and every tie-break) stay in contention. When a late-report malus may still
    grow, a player is qualified only if he stays in the places with his own malus at its worst
    and the others' at their best, eliminated only if he stays out the other way round.
    """
    return playoff_race(current, remaining_rounds, rulebook, round_late=round_late, late=late)[0]


def playoff_race(
    current: Sequence[PlayerSeason],
    remaining_rounds: int,
    rulebook,
    *,
    round_late: Sequence[int] = (),
    late: Mapping[str, int] | None = None,
) -> tuple[dict[str, Status], dict[str, Need]]:
    """`playoff_status` and what each player needs (`scoring.needs.needs`) of the same inputs,
    the needs computed once: the statuses of those in contention give them.

    A need's ``reachable`` is its status's word, so that the qualification page (the statuses)
    and its JSON (the needs) never disagree: a place is within reach unless he is eliminated.
    While rounds remain, `scoring.needs` finds the same on the same model; with no round left,
    the final ranking decides (its tie-breaks, which `scoring.needs` does not know)."""
    round_late, late = _checked_inputs(current, remaining_rounds, round_late, late)
    loss, gain = round_bounds(rulebook)
    need = needs(
        current,
        remaining_rounds,
        places=rulebook.cup.playoff_players,
        minimum_rounds=rulebook.championship.minimum_rounds,
        loss=loss,
        gain=gain,
        round_late=round_late,
        late=late,
    )
    if remaining_rounds == 0:
        if late:
            return _as_statuses(_final_statuses_with_late(current, rulebook, late), need)
        return _as_statuses(_final_statuses(current, rulebook), need)
    race = _Race(
        remaining=remaining_rounds,
        places=rulebook.cup.playoff_players,
        needed=rulebook.championship.minimum_rounds,
        loss=loss,
        gain=gain,
        coming=sum(round_late),
        late=late,
    )
    statuses = {me.player: _player_status(me, current, race, need[me.player]) for me in current}
    return _as_statuses(statuses, need)


def _as_statuses(statuses, need):
    """``(statuses, needs)``, each need's ``reachable`` as his status says: not eliminated."""
    return statuses, {
        player: replace(one, reachable=statuses[player].code != ELIMINATED) for player, one in need.items()
    }


def _checked_inputs(current, remaining_rounds, round_late, late):
    """`playoff_status`'s inputs checked: the late-report maluses as a tuple and a mapping."""
    if remaining_rounds < 0:
        raise ValueError("Le nombre de manches restantes ne peut pas être négatif")
    names = [p.player for p in current]
    if len(set(names)) != len(names):
        raise ValueError("Joueur présent deux fois dans l'état de la saison")
    round_late = tuple(round_late)
    late = {player: points for player, points in (late or {}).items() if points}
    if len(round_late) > remaining_rounds:
        raise ValueError("Plus de malus de compte-rendu à venir que de manches restantes")
    if any(points > 0 for points in round_late) or any(points > 0 for points in late.values()):
        raise ValueError("Un malus de compte-rendu en retard est négatif ou nul")
    return round_late, late


@dataclass(frozen=True)
class _Race:
    """What bounds every player's final points in `playoff_status`."""

    remaining: int  # regular rounds still to count
    places: int  # play-off places
    needed: int  # rounds to be ranked
    loss: int  # the most a round can take (≤ 0)
    gain: int  # the most a round can bring
    coming: int  # every late-report malus the coming rounds may still cost (≤ 0)
    late: Mapping[str, int]  # what each player's missing reports may still cost (≤ 0)

    def lowest(self, season: PlayerSeason) -> int:
        return season.points + self.loss * self.remaining + self.coming + self.late.get(season.player, 0)

    def highest(self, season: PlayerSeason) -> int:
        return season.points + self.gain * self.remaining


def _player_status(me: PlayerSeason, current, race: _Race, need) -> Status:
    """`me`'s status among `current`, and its reason (see `playoff_status`)."""
    remaining, places, needed = race.remaining, race.places, race.needed
    if me.rounds + remaining < needed:
        return Status(
            ELIMINATED,
            Reason("cannot_rank", {"rounds": me.rounds, "remaining": remaining, "needed": needed}),
        )
    others = [p for p in current if p.player != me.player]
    worst, best = race.lowest(me), race.highest(me)
    rankable = [p for p in others if p.rounds + remaining >= needed]
    threats = [p for p in rankable if race.highest(p) >= worst]
    ahead = [p for p in others if p.rounds >= needed and race.lowest(p) > best]
    if me.rounds >= needed and len(threats) < places:
        malus = race.coming + race.late.get(me.player, 0)
        return Status(
            QUALIFIED,
            Reason(
                "safe",
                {
                    "worst": worst,
                    "loss": race.loss,
                    "remaining": remaining,
                    "malus": malus,
                    "threats": len(threats),
                    "places": places,
                },
            ),
        )
    if len(ahead) >= places:
        return Status(
            ELIMINATED,
            Reason(
                "out_of_reach",
                {
                    "best": best,
                    "gain": race.gain,
                    "remaining": remaining,
                    "ahead": len(ahead),
                    "places": places,
                },
            ),
        )
    if me.rounds < needed:
        return Status(IN_CONTENTION, Reason("not_ranked_yet", {"rounds": me.rounds, "needed": needed}))
    # Qualified once fewer than `places` others can reach his lowest: above the `places`-th
    # highest of those who may be ranked (`scoring.needs`).
    return Status(
        IN_CONTENTION,
        Reason(
            "open",
            {
                "threats": len(threats),
                "ahead": len(ahead),
                "places": places,
                "needed": need.needed,
                "most": need.most,
                "remaining": remaining,
            },
        ),
    )


def _final_statuses(current: Sequence[PlayerSeason], rulebook) -> dict[str, Status]:
    places = rulebook.cup.playoff_players
    needed = rulebook.championship.minimum_rounds
    ranked, unranked = final_ranking(current, rulebook)
    straddling = None
    if len(ranked) > places and ranked[places - 1].rank == ranked[places].rank:
        straddling = ranked[places].rank
    statuses = {}
    for index, standing in enumerate(ranked):
        place = {"place": index + 1, "places": places}
        if standing.rank == straddling:
            statuses[standing.player] = Status(
                IN_CONTENTION, Reason("final_tie", {"rank": standing.rank, "places": places})
            )
        elif index < places:
            statuses[standing.player] = Status(QUALIFIED, Reason("final_in", place))
        else:
            statuses[standing.player] = Status(ELIMINATED, Reason("final_out", place))
    for season in unranked:
        statuses[season.player] = Status(ELIMINATED, Reason("final_unranked", {"needed": needed}))
    return statuses


def _place_in(seasons: Sequence[PlayerSeason], player: str, rulebook) -> tuple[int | None, bool]:
    """``(index, straddling)`` of ``player`` in the final ranking of ``seasons``: his 0-based
    place (``None`` when not ranked) and whether he is fully tied across the cut."""
    places = rulebook.cup.playoff_players
    ranked, _ = final_ranking(seasons, rulebook)
    index = next((i for i, standing in enumerate(ranked) if standing.player == player), None)
    if index is None:
        return None, False
    straddling = len(ranked) > places and ranked[places - 1].rank == ranked[places].rank
    return index, straddling and ranked[index].rank == ranked[places].rank


def _with_late(season: PlayerSeason, late: Mapping[str, int]) -> PlayerSeason:
    return replace(season, points=season.points + late.get(season.player, 0))


def _final_statuses_with_late(
    current: Sequence[PlayerSeason], rulebook, late: Mapping[str, int]
) -> dict[str, Status]:
    """No round left, but missing reports whose malus may still grow until the season's end."""
    places = rulebook.cup.playoff_players
    needed = rulebook.championship.minimum_rounds
    statuses = {}
    for me in current:
        if me.rounds < needed:
            statuses[me.player] = Status(ELIMINATED, Reason("final_unranked", {"needed": needed}))
            continue
        # His worst case: his own malus at its worst, the others' not grown; his best: the reverse.
        worst = [_with_late(p, late) if p.player == me.player else p for p in current]
        best = [p if p.player == me.player else _with_late(p, late) for p in current]
        low, low_tied = _place_in(worst, me.player, rulebook)
        high, high_tied = _place_in(best, me.player, rulebook)
        if low < places and not low_tied:
            statuses[me.player] = Status(QUALIFIED, Reason("late_in", {"place": low + 1, "places": places}))
        elif high >= places and not high_tied:
            statuses[me.player] = Status(
                ELIMINATED, Reason("late_out", {"place": high + 1, "places": places})
            )
        else:
            statuses[me.player] = Status(
                IN_CONTENTION, Reason("late_between", {"high": high + 1, "low": low + 1, "places": places})
            )
    return statuses
