"""Time the play-off outlook (issue 33, docs/regles.md §6.4) on simulated seasons, and what an
exhaustive search would cost.

Not part of the suite (timings vary with the machine): run it by hand and report the figures in
docs/mesures.md:

    .venv/bin/python -m tests.benchmarks.outlook

For each size (20 players with 15 rounds left, 40 with 30), a season is simulated: rounds of 5
already played, each player coming more or less often, the places drawn by skill and luck; then
the remaining rounds: open to every active player; then the same with one round entered with its
seats and one night confirmed with 7 answers for 5 seats. One computation answers every player (`prospects`):
its CPU time (`time.process_time`, steadier than the wall clock on a machine shared with other
work) and its wall clock, the median of ``--runs``; how many integer programs HiGHS solved, and the
longest. The load average of the machine is printed before and after.

The exhaustive search: the outcomes of one round are its seatings times the rankings of its
table (541 for 5 players, ties included), each a different set of points; a season's outcomes are
their product. The script counts them, times the brute force of the tests
(`tests.scoring.outlook.brute`, every outcome kept) on 6 players and 2 rounds of 4, and
extrapolates at the rate it measured.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time

from scoring.outlook import linear
from scoring.outlook.season import ComingRound, Contender, Rules, forget, prospects
from scoring.rulebook import load_default_rulebook
from tests.scoring.outlook.brute import Brute, Case, weak_orderings

SIZES = ((20, 25, 15), (40, 60, 30))  # players, rounds played, rounds left
RANK = (10, 7, 5, 3, 1)


def simulated(
    players: int, played: int, remaining: int, seed: int = 1, known: bool = True, busy: bool = False
):
    """A season ``played`` rounds in, and its ``remaining`` rounds (see the module's docstring)."""
    rng = random.Random(seed)
    names = [f"J{k:02d}" for k in range(players)]
    comes = {name: rng.uniform(0.3, 1.0) for name in names}
    skill = {name: rng.gauss(0, 1) for name in names}
    points, rounds = dict.fromkeys(names, 0), dict.fromkeys(names, 0)
    for _round in range(played):
        pool, seated = list(names), []
        while len(seated) < 5:
            pick = rng.choices(pool, [comes[name] for name in pool])[0]
            pool.remove(pick)
            seated.append(pick)
        for place, name in enumerate(
            sorted(seated, key=lambda n: skill[n] + rng.gauss(0, 1.5), reverse=True)
        ):
            points[name] += RANK[place]
            rounds[name] += 1
    season = [Contender(name, points[name], rounds[name]) for name in names]
    entered = ComingRound(5, frozenset(rng.sample(names, 5)), late=-1)
    answered = ComingRound(5, frozenset(rng.sample(names, 7)), late=-1)
    if not known:
        return season, [ComingRound(5, late=-1) for _ in range(remaining)]
    coming = [entered, answered] + [ComingRound(5, late=-1) for _ in range(remaining - 2)]
    if busy:  # two more nights confirmed with answers in surplus, one of them at two tables
        eleven = frozenset(rng.sample(names, 11))
        coming[2:4] = [ComingRound(5, eleven, late=-1, night="c"), ComingRound(4, eleven, late=-1, night="c")]
    return season, coming


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def timed(season, coming, rules, runs: int):
    """``(cpu, wall, programs, longest)`` of ``runs`` computations: the median CPU time and
    wall clock, the programs of the last one and the longest of them."""
    cpus, walls = [], []
    for _run in range(runs):
        solved = []
        original = linear.Linear.solve

        def counted(self, objective, maximize, seconds=None, *, original=original, solved=solved):
            start = time.process_time()
            found = original(self, objective, maximize, seconds)
            solved.append(time.process_time() - start)
            return found

        linear.Linear.solve = counted
        forget()  # each run searches: the answers of the previous one are not remembered
        try:
            cpu, wall = time.process_time(), time.perf_counter()
            prospects(season, coming, rules)
            cpus.append(time.process_time() - cpu)
            walls.append(time.perf_counter() - wall)
        finally:
            linear.Linear.solve = original
    return statistics.median(cpus), statistics.median(walls), len(solved), max(solved, default=0.0)


def exhaustive(players: int, remaining: int) -> float:
    """How many outcomes an exhaustive search of the season would enumerate (log10): each open
    round, every seating of 5 among the players times every ranking of its table."""
    per_round = math.comb(players, 5) * sum(1 for _ in weak_orderings(range(5)))
    return remaining * math.log10(per_round)


def brute_rate():
    """``(outcomes, seconds)`` of the tests' brute force on 6 players and 2 open rounds of 4."""
    case = Case(
        names=tuple("ABCDEF"),
        points=(30, 28, 25, 22, 20, 12),
        rounds=(3,) * 6,
        active=(True,) * 6,
        late=(0,) * 6,
        nights=(((4, None, 0),), ((4, None, 0),)),
        rank_points={4: (10, 6, 3, 1)},
        floor=-30,
        cap=30,
        bonus=(0, 0),
        places=3,
        minimum=3,
    )
    start = time.process_time()
    brute = Brute(case, with_bonus=False, with_late=False, large=10**12)  # no outcome dropped
    for i in range(len(case.names)):
        brute.answers(i, reduce=False)
    seconds = time.process_time() - start
    return (math.comb(6, 4) * sum(1 for _ in weak_orderings(range(4)))) ** 2, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rules = Rules.of(load_default_rulebook())
    warm = linear.Linear()
    warm.solve([(warm.var(0, 1), 1)], True)  # HiGHS imported and made once, as a server has it
    print(f"charge de la machine : {load()}")
    for players, played, remaining in SIZES:
        for known, busy, calendar in (
            (False, False, "manches ouvertes"),
            (True, False, "une manche saisie, une soirée à 7 réponses"),
            (True, True, "une manche saisie, deux soirées confirmées à 7 et 11 réponses"),
        ):
            season, coming = simulated(players, played, remaining, known=known, busy=busy)
            cpu, wall, programs, longest = timed(season, coming, rules, args.runs)
            print(
                f"{players} joueurs, {remaining} manches restantes ({calendar}) : {cpu:.2f} s CPU "
                f"({wall:.2f} s horloge), {programs} programmes HiGHS, le plus long {longest * 1000:.0f} ms"
            )
        print(f"  recherche exhaustive : 10^{exhaustive(players, remaining):.0f} issues")
    outcomes, seconds = brute_rate()
    rate = outcomes / seconds
    print(f"force brute des tests : {outcomes} issues (6 joueurs, 2 manches de 4) en {seconds:.1f} s CPU")
    for players, _played, remaining in SIZES:
        years = 10 ** (exhaustive(players, remaining) - math.log10(rate)) / (3600 * 24 * 365)
        print(f"  à ce rythme, {players} joueurs et {remaining} manches : 10^{math.log10(years):.0f} ans")
    print(f"charge de la machine : {load()}")


if __name__ == "__main__":
    main()
