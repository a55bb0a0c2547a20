"""The Coupe du Monde (docs/regles.md §6): seeding, play-offs, final, and statuses during the season.

Qualification is one pipeline, eligible → ranked → cut, and every player left out gets a
recorded reason: the seeding cut (``CupPlan.exclusions``), then the play-off tables
(``Qualification.reasons``). A reason, like a status's, is a `scoring.cup_reasons.Reason`: a code
and its figures, written in French by `scoring.cup_reasons.french` and in the page's language by
the site.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from scoring.championship import late_report_weeks
from scoring.cup_reasons import Reason
from scoring.needs import needs
from scoring.ranking import PlayerSeason, Standing, final_ranking

QUALIFIED = "qualified"
ELIMINATED = "eliminated"
IN_CONTENTION = "in_contention"


@dataclass(frozen=True)
class CupPlan:
    """``seeds`` by final rank; ``tables`` empty when there are no play-offs."""

    seeds: tuple[str, ...]
    tables: dict[str, tuple[str, ...]]
    direct_final: tuple[str, ...]
    exclusions: list[tuple[str, Reason]] = field(default_factory=list)


@dataclass(frozen=True)
class Qualification:
    """``finalists`` in seed order, empty while ``complete`` is False."""

    finalists: tuple[str, ...]
    reasons: dict[str, Reason]
    complete: bool


@dataclass(frozen=True)
class Status:
    code: str  # QUALIFIED, ELIMINATED or IN_CONTENTION
    reason: Reason  # why it is certain, or why not yet


def snake_tables(seeds: Sequence[str], tables: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """Snake seeding: seeds 1, 2 to tables A, B, then 3, 4 to B, A, then 5, 6 to A, B…

    >>> snake_tables([str(n) for n in range(1, 11)], ["A", "B"])
    {'A': ('1', '4', '5', '8', '9'), 'B': ('2', '3', '6', '7', '10')}
    """
    width = len(tables)
    filled: dict[str, list[str]] = {table: [] for table in tables}
    for index, player in enumerate(seeds):
        turn, position = divmod(index, width)
        table = tables[position] if turn % 2 == 0 else tables[width - 1 - position]
        filled[table].append(player)
    return {table: tuple(players) for table, players in filled.items()}


def seed_cup(ranked: Sequence[Standing], rulebook, unranked: Iterable[PlayerSeason] = ()) -> CupPlan:
    """Seed the cup from the final ranking (in its display order).

    With at least ``playoff_players`` ranked, the top ones are seeded in snake order across
    the play-off tables (10 players, tables A and B: A gets seeds 1, 4, 5, 8, 9 and B seeds
    2, 3, 6, 7, 10). With fewer, there are no play-offs: the top ``final_players`` (or all of
    them when fewer, e.g. 4) play the final directly. Below ``minimum_players`` ranked, no cup.
    Ties among seeds follow the ranking's order (its tie-breaks, then names).
    """
    cup = rulebook.cup
    minimum_rounds = rulebook.championship.minimum_rounds
    order = sorted(ranked, key=lambda s: s.rank)  # stable: keeps the ranking's order of ties
    exclusions = [
        (s.player, Reason("unranked", {"minimum": minimum_rounds, "rounds": s.rounds})) for s in unranked
    ]
    count = len(order)
    if count < cup.minimum_players:
        reason = Reason("no_cup", {"count": count, "minimum": cup.minimum_players})
        exclusions = [(s.player, reason) for s in order] + exclusions
        return CupPlan((), {}, (), exclusions)

    if count >= cup.playoff_players:
        size = cup.playoff_players
        code, where = "outside_playoffs", {"size": size}
    else:
        size = min(cup.final_players, count)
        code, where = "outside_direct_final", {"size": size, "playoff_players": cup.playoff_players}
    seeds = tuple(s.player for s in order[:size])
    cut = [
        (s.player, Reason(code, {**_place(s, index, order[size - 1]), **where}))
        for index, s in enumerate(order)
        if index >= size
    ]
    exclusions = cut + exclusions
    if count >= cup.playoff_players:
        return CupPlan(seeds, snake_tables(seeds, cup.playoff_tables), (), exclusions)
    return CupPlan(seeds, {}, seeds, exclusions)


def _place(standing: Standing, index: int, last_in: Standing) -> dict:
    """His place in the final ranking (« 11e »), or his tie with the last player in, decided by
    name (``tied_with``)."""
    if standing.rank == last_in.rank:
        return {"place": standing.rank, "tied_with": last_in.player}
    return {"place": index + 1, "tied_with": None}


def qualify_for_final(
    plan: CupPlan, playoff_totals: Mapping[str, Mapping[str, int]], rulebook
) -> Qualification:
    """Finalists from the play-off round totals: eligible → ranked → cut.

    - eligible: the players of each table, once every table has its results (until then
      ``complete`` is False and there are no finalists);
    - ranked: within each table by round total, ties broken by the better regular-season seed;
    - cut: the first ``qualifiers_per_table`` of each table go to the final, then the best
      ``best_thirds`` of the next ones across tables, by round total (ties: better seed).

    Example (default rulebook): table A totals 1: 200, 4: 50, 5: 50, 8: −100, 9: −200 and table
    B 2: 300, 3: 100, 6: 40, 7: −140, 10: −300 → A sends 1 and 4 (4 ahead of 5 on seed), B sends
    2 and 3; the thirds are 5 (50) and 6 (40): 5 is the best third. Finalists 1, 2, 3, 4, 5.

    Without play-offs the finalists are the plan's direct final (``complete`` is True). Every
    player not in the final has a reason, the seeding exclusions included.
    """
    cup = rulebook.cup
    reasons = dict(plan.exclusions)
    if not plan.tables:
        return Qualification(plan.direct_final, reasons, True)

    seed = {player: index for index, player in enumerate(plan.seeds)}
    eligible = {}
    for table, players in plan.tables.items():
        totals = playoff_totals.get(table) or {}
        if totals and set(totals) != set(players):
            raise ValueError(
                f"Table de play-off {table} : résultats attendus pour {', '.join(players)}, "
                f"reçus pour {', '.join(totals)}"
            )
        eligible[table] = totals
    if not all(eligible.values()):
        return Qualification((), reasons, False)

    def order(player: str, totals: Mapping[str, int]) -> tuple[int, int]:
        return (-totals[player], seed[player])

    qualifiers = cup.qualifiers_per_table
    finalists: list[str] = []
    thirds: list[tuple[str, str]] = []  # (table, player)
    total_of: dict[str, int] = {}
    for table, totals in eligible.items():
        total_of.update(totals)
        ranked = sorted(totals, key=lambda p, t=totals: order(p, t))
        for position, player in enumerate(ranked, start=1):
            if position <= qualifiers:
                finalists.append(player)
                continue
            if position == qualifiers + 1 and cup.best_thirds > 0:
                thirds.append((table, player))
                continue
            above = ranked[position - 2]
            tied = totals[player] == totals[above]
            reasons[player] = Reason(
                "table_cut",
                {
                    "position": position,
                    "table": table,
                    "total": totals[player],
                    "tied_with": above if tied else None,
                    "seed_above": seed[above] + 1,
                    "seed": seed[player] + 1,
                    "qualifiers": qualifiers,
                    "best_thirds": cup.best_thirds,
                },
            )

    thirds.sort(key=lambda entry: order(entry[1], total_of))
    kept = thirds[: cup.best_thirds]
    finalists += [player for _, player in kept]
    for table, player in thirds[cup.best_thirds :]:
        last_kept_table, last_kept = kept[-1]
        reasons[player] = Reason(
            "third_cut",
            {
                "position": qualifiers + 1,
                "table": table,
                "total": total_of[player],
                "kept": last_kept,
                "kept_table": last_kept_table,
                "kept_total": total_of[last_kept],
                "tied": total_of[player] == total_of[last_kept],
                "seed_above": seed[last_kept] + 1,
                "seed": seed[player] + 1,
            },
        )
    finalists.sort(key=lambda p: seed[p])
    return Qualification(tuple(finalists), reasons, True)


def champion(players: Sequence[str], final_totals: Mapping[str, int] | None) -> str | None:
    """Winner of the final: highest total, ties broken by the better seed (order of ``players``).

    ``players`` are the finalists or the seeds, in seed order; ``None`` until the final's totals
    are known.
    """
    if not final_totals:
        return None
    seed = {player: index for index, player in enumerate(players)}
    unknown = [player for player in final_totals if player not in seed]
    if unknown:
        raise ValueError(f"Finale : {unknown[0]} ne fait pas partie des finalistes")
    return min(final_totals, key=lambda p: (-final_totals[p], seed[p]))


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
    if remaining_rounds == 0:
        if late:
            return _final_statuses_with_late(current, rulebook, late)
        return _final_statuses(current, rulebook)

    places = rulebook.cup.playoff_players
    needed = rulebook.championship.minimum_rounds
    loss, gain = round_bounds(rulebook)
    coming = sum(round_late)
    need = needs(
        current,
        remaining_rounds,
        places=places,
        minimum_rounds=needed,
        loss=loss,
        gain=gain,
        round_late=round_late,
        late=late,
    )

    def lowest(season: PlayerSeason) -> int:
        return season.points + loss * remaining_rounds + coming + late.get(season.player, 0)

    def highest(season: PlayerSeason) -> int:
        return season.points + gain * remaining_rounds

    statuses = {}
    for me in current:
        others = [p for p in current if p.player != me.player]
        if me.rounds + remaining_rounds < needed:
            statuses[me.player] = Status(
                ELIMINATED,
                Reason("cannot_rank", {"rounds": me.rounds, "remaining": remaining_rounds, "needed": needed}),
            )
            continue
        worst, best = lowest(me), highest(me)
        rankable = [p for p in others if p.rounds + remaining_rounds >= needed]
        threats = [p for p in rankable if highest(p) >= worst]
        ahead = [p for p in others if p.rounds >= needed and lowest(p) > best]
        if me.rounds >= needed and len(threats) < places:
            statuses[me.player] = Status(
                QUALIFIED,
                Reason(
                    "safe",
                    {
                        "worst": worst,
                        "loss": loss,
                        "remaining": remaining_rounds,
                        "malus": coming + late.get(me.player, 0),
                        "threats": len(threats),
                        "places": places,
                    },
                ),
            )
        elif len(ahead) >= places:
            statuses[me.player] = Status(
                ELIMINATED,
                Reason(
                    "out_of_reach",
                    {
                        "best": best,
                        "gain": gain,
                        "remaining": remaining_rounds,
                        "ahead": len(ahead),
                        "places": places,
                    },
                ),
            )
        elif me.rounds < needed:
            statuses[me.player] = Status(
                IN_CONTENTION, Reason("not_ranked_yet", {"rounds": me.rounds, "needed": needed})
            )
        else:
            # Qualified once fewer than `places` others can reach his lowest: above the
            # `places`-th highest of those who may be ranked (`scoring.needs`).
            statuses[me.player] = Status(
                IN_CONTENTION,
                Reason(
                    "open",
                    {
                        "threats": len(threats),
                        "ahead": len(ahead),
                        "places": places,
                        "needed": need[me.player].needed,
                        "most": need[me.player].most,
                        "remaining": remaining_rounds,
                    },
                ),
            )
    return statuses


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
