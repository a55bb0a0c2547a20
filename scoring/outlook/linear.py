"""A small integer linear program and its solution by HiGHS (docs/regles.md §6.4 says why).

Variables are integers between bounds; rows bound a linear sum; ``at_least_if`` states that a
0-1 variable set to 1 forces a linear sum up to a value, with the smallest constant that the
other variables' bounds allow (no guessed "big M"). HiGHS solves in floating point with a
tolerance of 1e-6 on a row and on integrality; every coefficient here is a small integer, and
the answers are read back rounded and checked against the rows, in integers.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import defaultdict


class SolverError(RuntimeError):
    """The solver did not prove its answer (a bug or a runaway search, never a season's fault)."""


class OutOfTime(SolverError):
    """The search ran past the time it was given (``solve(..., seconds=…)``)."""


# A proof of optimality takes milliseconds on a season; this only stops a runaway search.
TIME_LIMIT_SECONDS = 120.0


class Linear:
    """An integer linear program being written."""

    def __init__(self):
        self.lower, self.upper = [], []
        self.rows = []  # (coefficients {variable: int}, lower or None, upper or None)

    def var(self, lower: int, upper: int) -> int:
        self.lower.append(lower)
        self.upper.append(upper)
        return len(self.lower) - 1

    def row(self, coefficients, lower=None, upper=None) -> None:
        terms = defaultdict(int)
        for variable, coefficient in coefficients:
            terms[variable] += coefficient
        terms = {v: c for v, c in terms.items() if c}
        self.rows.append((terms, lower, upper))

    def least(self, coefficients) -> int:
        """The least a sum can be, each variable within its bounds."""
        return sum(min(c * self.lower[v], c * self.upper[v]) for v, c in coefficients)

    def most(self, coefficients) -> int:
        return sum(max(c * self.lower[v], c * self.upper[v]) for v, c in coefficients)

    def at_least_if(self, switch: int, coefficients, bound: int) -> None:
        """``switch`` = 1 forces ``Σ coefficients ≥ bound``."""
        coefficients = list(coefficients)
        slack = bound - self.least(coefficients)
        if slack > 0:
            self.row([*coefficients, (switch, -slack)], lower=bound - slack)

    def at_most_if(self, switch: int, coefficients, bound: int) -> None:
        """``switch`` = 1 forces ``Σ coefficients ≤ bound``."""
        self.at_least_if(switch, [(v, -c) for v, c in coefficients], -bound)

    def solve(self, objective, maximize: bool, seconds: float | None = None):
        """``(value, solution)`` of the best solution, or None when there is none; ``seconds``:
        the time it may take (`OutOfTime` past it), else `TIME_LIMIT_SECONDS`."""
        import numpy as np

        if not self.lower:  # nothing to choose: HiGHS calls it empty
            self._check([])
            return 0, []
        highs = _highs()
        highs.clearModel()
        count = len(self.lower)
        cost = np.zeros(count)
        for variable, coefficient in objective:
            cost[variable] += coefficient
        highs.addVars(count, np.array(self.lower, dtype=float), np.array(self.upper, dtype=float))
        highs.changeColsIntegrality(count, np.arange(count, dtype=np.int32), np.ones(count, dtype=np.uint8))
        highs.changeColsCost(count, np.arange(count, dtype=np.int32), cost)
        inf = highs.getInfinity()
        starts, indices, values, lows, highs_ = [], [], [], [], []
        for terms, lower, upper in self.rows:
            starts.append(len(indices))
            indices += list(terms)
            values += list(terms.values())
            lows.append(-inf if lower is None else lower)
            highs_.append(inf if upper is None else upper)
        highs.addRows(
            len(self.rows),
            np.array(lows, dtype=float),
            np.array(highs_, dtype=float),
            len(indices),
            np.array(starts, dtype=np.int32),
            np.array(indices, dtype=np.int32),
            np.array(values, dtype=float),
        )
        highs.changeObjectiveSense(_sense(maximize))
        highs.setOptionValue("time_limit", TIME_LIMIT_SECONDS if seconds is None else max(seconds, 0.01))
        highs.run()
        status = highs.getModelStatus()
        name = highs.modelStatusToString(status)
        if name == "Infeasible":
            return None
        if name == "Time limit reached" and seconds is not None:
            raise OutOfTime(f"HiGHS : {name}")
        if name != "Optimal":
            raise SolverError(f"HiGHS : {name}")
        solution = [round(x) for x in highs.getSolution().col_value]
        self._check(solution)
        return sum(c * solution[v] for v, c in objective), solution

    def _check(self, solution) -> None:
        """The rounded solution satisfies every row and bound, in integers."""
        for v, x in enumerate(solution):
            if not self.lower[v] <= x <= self.upper[v]:
                raise SolverError("HiGHS : solution hors bornes")
        for terms, lower, upper in self.rows:
            total = sum(c * solution[v] for v, c in terms.items())
            if (lower is not None and total < lower) or (upper is not None and total > upper):
                raise SolverError("HiGHS : solution qui viole une contrainte")


_SOLVER = threading.local()
_MAKING = threading.Lock()


def _highs():
    """One HiGHS per thread (a solver is not shared), silent, imported when first needed. Its
    constructor prints a banner on the standard output, which a server's log does not need: the
    standard output is pointed at /dev/null while it runs."""
    with _MAKING:
        if getattr(_SOLVER, "highs", None) is None:
            import highspy

            sys.stdout.flush()
            saved, sink = os.dup(1), os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(sink, 1)
                highs = highspy.Highs()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
                os.close(sink)
            highs.setOptionValue("output_flag", False)
            highs.setOptionValue("threads", 1)
            highs.setOptionValue("time_limit", TIME_LIMIT_SECONDS)
            highs.setOptionValue("mip_rel_gap", 0.0)
            highs.setOptionValue("mip_abs_gap", 0.5)  # integer objectives: a gap under 1 is none
            _SOLVER.highs = highs
    return _SOLVER.highs


def _sense(maximize: bool):
    import highspy

    return highspy.ObjSense.kMaximize if maximize else highspy.ObjSense.kMinimize
