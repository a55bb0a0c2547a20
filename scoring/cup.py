"""The Coupe du Monde (docs/regles.md §6): seeding, play-offs and final (the race to the
play-offs during the season is `scoring.outlook`).

Qualification is one pipeline, eligible → ranked → cut, and every player left out gets a
recorded reason: the seeding cut (``CupPlan.exclusions``), then the play-off tables
(``Qualification.reasons``). A reason, like a status's, is a `scoring.cup_reasons.Reason`: a code
and its figures, written in French by `scoring.cup_reasons.french` and in the page's language by
the site.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.cup_reasons import Reason
from scoring.ranking import PlayerSeason, Standing


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
    eligible = _table_results(plan, playoff_totals)
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
        reasons[player] = _third_cut(table, player, kept[-1], qualifiers, total_of, seed)
    finalists.sort(key=lambda p: seed[p])
    return Qualification(tuple(finalists), reasons, True)


def _table_results(plan: CupPlan, playoff_totals) -> dict[str, Mapping[str, int]]:
    """Each play-off table's round totals (empty while it has none), checked against its players."""
    eligible = {}
    for table, players in plan.tables.items():
        totals = playoff_totals.get(table) or {}
        if totals and set(totals) != set(players):
            raise ValueError(
                f"Table de play-off {table} : résultats attendus pour {', '.join(players)}, "
                f"reçus pour {', '.join(totals)}"
            )
        eligible[table] = totals
    return eligible


def _third_cut(table, player, last_kept_entry, qualifiers, total_of, seed) -> Reason:
    """Why a third of a play-off table is not among the best thirds kept for the final."""
    last_kept_table, last_kept = last_kept_entry
    return Reason(
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
        raise ValueError(f"Finale : {unknown[0]} ne fait pas partie des finalistes")
    return min(final_totals, key=lambda p: (-final_totals[p], seed[p]))
