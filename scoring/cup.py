"""The Coupe du Monde (REGLEMENT §6): seeding, play-offs, final, and statuses during the season.

Qualification is one pipeline, eligible → ranked → cut, and every player left out gets a
recorded French reason: the seeding cut (``CupPlan.exclusions``), then the play-off tables
(``Qualification.reasons``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.championship import num, ordinal
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
    exclusions: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Qualification:
    """``finalists`` in seed order, empty while ``complete`` is False."""

    finalists: tuple[str, ...]
    reasons: dict[str, str]
    complete: bool


@dataclass(frozen=True)
class Status:
    code: str  # QUALIFIED, ELIMINATED or IN_CONTENTION
    explanation: str


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n > 1 else ''}"


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
        (
            s.player,
            f"non classé : moins de {minimum_rounds} manches "
            f"({_plural(s.rounds, 'manche')} jouée{'s' if s.rounds > 1 else ''})",
        )
        for s in unranked
    ]
    count = len(order)
    if count < cup.minimum_players:
        reason = (
            f"pas de Coupe du Monde : {_plural(count, 'joueur')} "
            f"classé{'s' if count > 1 else ''}, il en faut au moins {cup.minimum_players}"
        )
        exclusions = [(s.player, reason) for s in order] + exclusions
        return CupPlan((), {}, (), exclusions)

    if count >= cup.playoff_players:
        size = cup.playoff_players
        where = f"hors des {size} qualifiés pour les play-offs"
    else:
        size = min(cup.final_players, count)
        where = (
            f"hors des {size} qualifiés pour la finale directe "
            f"(moins de {cup.playoff_players} classés : pas de play-offs)"
        )
    seeds = tuple(s.player for s in order[:size])
    cut = [
        (s.player, f"{_place(s, index, order[size - 1])} : {where}")
        for index, s in enumerate(order)
        if index >= size
    ]
    exclusions = cut + exclusions
    if count >= cup.playoff_players:
        return CupPlan(seeds, snake_tables(seeds, cup.playoff_tables), (), exclusions)
    return CupPlan(seeds, {}, seeds, exclusions)


def _place(standing: Standing, index: int, last_in: Standing) -> str:
    """« 11e du classement final », or the tie with the last player in, decided by name."""
    if standing.rank == last_in.rank:
        return (
            f"{ordinal(standing.rank)} ex æquo du classement final avec {last_in.player}, "
            "départagé par l'ordre alphabétique"
        )
    return f"{ordinal(index + 1)} du classement final"


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
            reasons[player] = (
                f"{ordinal(position)} de la table {table} (total {num(totals[player])}"
                f"{_tie(player, above, total_of, seed)}) : "
                f"{_cut_phrase(qualifiers, cup.best_thirds)}"
            )

    thirds.sort(key=lambda entry: order(entry[1], total_of))
    kept = thirds[: cup.best_thirds]
    finalists += [player for _, player in kept]
    label = ordinal(qualifiers + 1)
    for table, player in thirds[cup.best_thirds :]:
        last_kept_table, last_kept = kept[-1]
        reasons[player] = (
            f"{label} de la table {table} (total {num(total_of[player])}) : moins bon {label} "
            f"que {last_kept} (table {last_kept_table}, total {num(total_of[last_kept])}"
            f"{_seed_tie(player, last_kept, total_of, seed)})"
        )
    finalists.sort(key=lambda p: seed[p])
    return Qualification(tuple(finalists), reasons, True)


def _tie(player: str, above: str, totals: Mapping[str, int], seed: Mapping[str, int]) -> str:
    if totals[player] != totals[above]:
        return ""
    return (
        f", à égalité avec {above}, égalité départagée par la tête de série "
        f"({seed[above] + 1} contre {seed[player] + 1})"
    )


def _seed_tie(player: str, above: str, totals: Mapping[str, int], seed: Mapping[str, int]) -> str:
    if totals[player] != totals[above]:
        return ""
    return f", égalité départagée par la tête de série ({seed[above] + 1} contre {seed[player] + 1})"


def _cut_phrase(qualifiers: int, best_thirds: int) -> str:
    first = "seul le premier" if qualifiers == 1 else f"seuls les {qualifiers} premiers"
    return f"{first} de chaque table{_thirds_phrase(best_thirds, qualifiers)} vont en finale"


def _thirds_phrase(best_thirds: int, qualifiers: int) -> str:
    if best_thirds <= 0:
        return ""
    label = ordinal(qualifiers + 1)
    if best_thirds == 1:
        return f" et le meilleur {label}"
    return f" et les {best_thirds} meilleurs {label}s"


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
        raise ValueError(f"Finale : {unknown[0]} n'est pas qualifié pour la finale")
    return min(final_totals, key=lambda p: (-final_totals[p], seed[p]))


def playoff_status(current: Sequence[PlayerSeason], remaining_rounds: int, rulebook) -> dict[str, Status]:
    """Qualified, eliminated or in contention for the play-offs, only when certain.

    Assumption (stated in the README): the season still has ``remaining_rounds`` regular rounds
    scheduled; every player of ``current`` may play each of them (players not listed are
    assumed not to play: list every registered player, with 0 rounds if need be); in one round a
    player's points change by at least ``rulebook.cup.min_round_points`` and at most
    ``rulebook.cup.max_round_points``, whether he plays it or not (rank points, bonuses,
    catalogue maluses and late-report maluses included); a player needs ``minimum_rounds`` to
    be ranked. Sitting out a round is always possible, so the bounds used are
    ``min(min_round_points, 0)`` and ``max(max_round_points, 0)`` per round.

    - qualified: he is ranked already (so whatever happens) and, even if he gains the minimum
      and everyone else the maximum, fewer than ``playoff_players`` others can reach or tie
      his points (a tie counts against certainty, whatever the tie-breaks);
    - eliminated: he cannot reach ``minimum_rounds``, or at least ``playoff_players`` others
      are ranked already and stay strictly ahead even if he gains the maximum and they the
      minimum;
    - in contention otherwise.

    Example (default rulebook: 10 places, +15 / −6 per round): with 2 rounds left, a ranked
    player on 120 points can fall to 108; whoever is on 77 or less can reach at most 107, so if
    at most 9 others have 78 or more he is qualified.

    With ``remaining_rounds == 0`` the statuses follow the final ranking: its first
    ``playoff_players`` are qualified, the others eliminated; players fully tied across the cut
    (equal on points and every tie-break) stay in contention.
    """
    if remaining_rounds < 0:
        raise ValueError("Le nombre de manches restantes ne peut pas être négatif")
    names = [p.player for p in current]
    if len(set(names)) != len(names):
        raise ValueError("Joueur présent deux fois dans l'état de la saison")
    if remaining_rounds == 0:
        return _final_statuses(current, rulebook)

    places = rulebook.cup.playoff_players
    needed = rulebook.championship.minimum_rounds
    low_step = min(rulebook.cup.min_round_points, 0)
    high_step = max(rulebook.cup.max_round_points, 0)
    low, high = low_step * remaining_rounds, high_step * remaining_rounds
    left = _plural(remaining_rounds, "manche")

    statuses = {}
    for me in current:
        others = [p for p in current if p.player != me.player]
        if me.rounds + remaining_rounds < needed:
            statuses[me.player] = Status(
                ELIMINATED,
                f"Éliminé : {_plural(me.rounds, 'manche')} jouée{'s' if me.rounds > 1 else ''} "
                f"et {left} à jouer, il en faut {needed} pour être classé",
            )
            continue
        worst, best = me.points + low, me.points + high
        threats = [p for p in others if p.rounds + remaining_rounds >= needed]
        threats = [p for p in threats if p.points + high >= worst]
        ahead = [p for p in others if p.rounds >= needed and p.points + low > best]
        if me.rounds >= needed and len(threats) < places:
            statuses[me.player] = Status(
                QUALIFIED,
                f"Qualifié : même avec {num(low_step)} par manche sur les {left} restantes, "
                f"{_can_reach(len(threats))}, pour {_plural(places, 'place')}",
            )
        elif len(ahead) >= places:
            statuses[me.player] = Status(
                ELIMINATED,
                f"Éliminé : même avec +{high_step} par manche sur les {left} restantes, "
                f"{len(ahead)} joueurs classés resteront devant lui, "
                f"pour {_plural(places, 'place')}",
            )
        elif me.rounds < needed:
            statuses[me.player] = Status(
                IN_CONTENTION,
                f"En course : {_plural(me.rounds, 'manche')} jouée"
                f"{'s' if me.rounds > 1 else ''}, il en faut {needed} pour être classé",
            )
        else:
            statuses[me.player] = Status(
                IN_CONTENTION,
                f"En course : {_can_reach(len(threats))} ; "
                f"{_plural(len(ahead), 'joueur')} classé{'s' if len(ahead) > 1 else ''} "
                f"assuré{'s' if len(ahead) > 1 else ''} de rester devant lui, "
                f"pour {_plural(places, 'place')}",
            )
    return statuses


def _can_reach(count: int) -> str:
    if count == 0:
        return "personne ne peut l'atteindre ni l'égaler"
    if count == 1:
        return "un seul autre joueur peut l'atteindre ou l'égaler"
    return f"{count} autres joueurs au plus peuvent l'atteindre ou l'égaler"


def _final_statuses(current: Sequence[PlayerSeason], rulebook) -> dict[str, Status]:
    places = rulebook.cup.playoff_players
    needed = rulebook.championship.minimum_rounds
    ranked, unranked = final_ranking(current, rulebook)
    straddling = None
    if len(ranked) > places and ranked[places - 1].rank == ranked[places].rank:
        straddling = ranked[places].rank
    statuses = {}
    for index, standing in enumerate(ranked):
        place = ordinal(index + 1)
        if standing.rank == straddling:
            statuses[standing.player] = Status(
                IN_CONTENTION,
                f"En course : ex æquo parfait à la {ordinal(standing.rank, feminine=True)} "
                f"place, à la limite des {places} places, que les critères du règlement "
                "ne départagent pas",
            )
        elif index < places:
            statuses[standing.player] = Status(
                QUALIFIED, f"Qualifié : {place} du classement final, parmi les {places} places"
            )
        else:
            statuses[standing.player] = Status(
                ELIMINATED, f"Éliminé : {place} du classement final, hors des {places} places"
            )
    for season in unranked:
        statuses[season.player] = Status(ELIMINATED, f"Éliminé : non classé, moins de {needed} manches")
    return statuses
