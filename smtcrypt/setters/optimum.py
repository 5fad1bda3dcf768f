"""The best value of an objective over a puzzle's solutions, proved: `--maximize MONEY`.

Eight in a hundred published puzzles ask for a largest or smallest value (SEND + MOST = MONEY with
MONEY largest is the classic). The optimum is found by searches that bound the objective as they
go: a first solution gives a value v; the puzzle with one constraint more, "the objective is better
than v" (made of the objective's own tree and checked as the formula is), is searched for one
solution, and so on. A search that proves there is none (Z3's unsat, or every assignment tried)
proves v the optimum; every solution on the way is the exact checker's, like any other.

Most optima take two searches (a first solution, then none better). Where better values keep
coming (HALVING_AFTER of them) and the objective is an integer with bounds its digits give
(`core.intervals`), each search asks for at least half the gap between the best value and the
bound instead: one that finds a value halves the gap, one that proves none moves the bound, so the
searches are logarithmic in the range, not in the number of better solutions. A best value that
meets the bound is proved by the searches that moved it (or by the bound itself).

Over integer unknowns the formula leaves unbounded (`x - y = 1`, maximise x) better values may
never run out: each best solution is tried as the start of an infinite family along which the
objective gains (`search/family.py`, with the objective's form leaning strictly the better way).
Found, it proves there is no optimum: status INFINITE, the family as the reason.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from smtcrypt.analysis.unknowns import unknown_values
from smtcrypt.core.check import extended
from smtcrypt.core.intervals import interval
from smtcrypt.core.results import Proof, Solution, Status, Verdict
from smtcrypt.core.tree import Compare, Expr, compare, number
from smtcrypt.errors import FormulaError
from smtcrypt.notations import Reading
from smtcrypt.search.family import find_family
from smtcrypt.setters.answers import Expression, searching

SENSES = ("maximize", "minimize")
HALVING_AFTER = 3  # better values found one after another before the searches probe halfway to the bound


@dataclass(frozen=True)
class Optimum:
    """The optimum of `objective` over the puzzle's solutions, and what was established about it.

    `status` is OPTIMAL (`value` proved best, `proof` says how), NONE (no solution, proved), INFINITE
    (no optimum: `reason` is the family of solutions along which the objective gains without bound,
    `value` its first member's) or UNKNOWN (the search ended first: `value`, where there is one, is the
    best found, a bound on the optimum, and `reason` says why). `solutions` holds a solution attaining
    `value`; with `unique=True`, `attained` says whether the optimum is attained once (UNIQUE, proved)
    or more (MULTIPLE: two solutions shown), or UNKNOWN.
    """

    objective: str
    sense: str
    status: Status
    value: int | Fraction | None
    solutions: tuple[Solution, ...]
    proof: Proof | None
    reason: str | None
    seconds: float
    searches: int
    attained: Status | None
    verdict: Verdict  # the searches' last verdict: what the report of a search says of the puzzle

    @property
    def as_verdict(self) -> Verdict:
        """The optimisation as a search's verdict (the attaining solutions, how it ended), for the report."""
        complete = self.status in (Status.OPTIMAL, Status.NONE)
        return Verdict(self.verdict.formula, self.status, self.solutions, complete, self.reason, self.seconds,
                       stats=self.verdict.stats, ending=None if complete else self.verdict.ending,
                       proof=self.proof if complete else None)


def optimize(reading: Reading, text: str, *, sense: str = "maximize", unique: bool = False,
             timeout: float | None = None, strategy: str = "auto") -> Optimum:
    """The optimum of the objective `text` (an expression over the puzzle's letters and unknowns)
    over the solutions of the puzzle read; `sense` is "maximize" or "minimize"."""
    if sense not in SENSES:
        raise ValueError(f"sense must be one of {', '.join(SENSES)}, not {sense!r}")
    expression = Expression(text, reading.problem)
    if expression.tuple:
        raise FormulaError("an objective is one expression, not a tuple", expression.text, 0)
    return _Optimizer(reading, expression, sense, timeout, strategy).run(unique)


class _Optimizer:
    """The searches of one optimisation, within one time limit."""

    def __init__(self, reading: Reading, expression: Expression, sense: str, timeout: float | None,
                 strategy: str):
        self.reading, self.expression, self.sense, self.strategy = reading, expression, sense, strategy
        self.item: Expr = expression.items[0]
        self.start = time.monotonic()
        self.deadline = None if timeout is None else self.start + timeout
        self.searches = 0
        bounds = interval(self.item, reading.rules)  # None: not an integer of known bounds
        self.bound: int | None = None if bounds is None else bounds[0 if sense == "minimize" else 1]
        self.bound_proof: Proof | None = Proof.OBJECTIVE_BOUND  # what shows no value beyond the bound: the digits',
        self.improvements = 0  # then the searches that moved it
        problem = reading.problem  # better values may never run out where unknowns are unbounded
        self.unbounded = bool(problem.unknowns) and unknown_values(problem, None) is None

    def better(self, a: int | Fraction, b: int | Fraction) -> bool:
        return a > b if self.sense == "maximize" else a < b

    def search(self, extra: Expr | None, *, decide: bool = False) -> tuple[list[Solution], Verdict]:
        """The puzzle's solutions (one; two with `decide`) with the constraint `extra` added."""
        problem = None if extra is None else extended(self.reading.problem, extra)
        remaining = None if self.deadline is None else max(self.deadline - time.monotonic(), 0.01)
        search = searching(self.reading, problem, limit=None if decide else 1, timeout=remaining,
                           strategy=self.strategy, decide=decide)
        self.searches += 1
        found = list(search)
        return found, search.verdict()

    def value_of(self, solution: Solution) -> int | Fraction | None:
        value = self.expression.value(solution.mapping, self.reading.rules.base)
        assert not isinstance(value, tuple)
        return value

    def goal(self, best: int | Fraction) -> tuple[Compare, int | None]:
        """The constraint that asks for a better value: every better one (strictly better than `best`),
        or a probe, at least as good as the threshold halfway to the bound (returned with it)."""
        span = self.item.span
        if (self.bound is not None and isinstance(best, int) and abs(self.bound - best) > 1
                and self.improvements >= HALVING_AFTER):
            step = abs(self.bound - best) // 2
            threshold = best + step if self.sense == "maximize" else best - step
            at_least = ">=" if self.sense == "maximize" else "<="
            return compare(self.item, at_least, number(threshold, span), span), threshold
        return compare(self.item, ">" if self.sense == "maximize" else "<", number(best, span), span), None

    def run(self, unique: bool) -> Optimum:
        found, verdict = self.search(None)
        if found and self.value_of(found[0]) is None:  # the objective undefined there: ask for one where it is
            found, verdict = self.search(compare(self.item, "==", self.item, self.item.span))
        if not found:
            status = Status.NONE if verdict.complete else Status.UNKNOWN
            return self.result(status, None, None, verdict.proof if verdict.complete else None, verdict, unique=False)
        best, attaining = self.value_of(found[0]), found[0]
        assert best is not None
        while True:
            if self.unbounded and (infinite := self.without_end(attaining, verdict)) is not None:
                return infinite
            if self.bound is not None and best == self.bound:
                return self.result(Status.OPTIMAL, best, attaining, self.bound_proof, verdict, unique)
            goal, threshold = self.goal(best)
            more, decided = self.search(goal)
            if more:
                value = self.value_of(more[0])
                assert value is not None and self.better(value, best)  # the goal holds: the checker saw to it
                best, attaining, verdict = value, more[0], decided
                self.improvements += 1
            elif not decided.complete:
                return self.result(Status.UNKNOWN, best, attaining, None, decided, unique=False)
            elif threshold is None:
                return self.result(Status.OPTIMAL, best, attaining, decided.proof, decided, unique)
            else:  # none as good as the probe's threshold, proved: the bound moves to just short of it
                self.bound = threshold - 1 if self.sense == "maximize" else threshold + 1
                self.bound_proof = decided.proof

    def without_end(self, attaining: Solution, verdict: Verdict) -> Optimum | None:
        """INFINITE where a family of solutions from `attaining` gains without bound (module docstring)."""
        gaining = (self.item, ">" if self.sense == "maximize" else "<")
        family = find_family(self.reading.problem, attaining.mapping, self.deadline, gaining)
        if family is None:
            return None
        value = self.value_of(attaining)
        word = "grows" if self.sense == "maximize" else "falls"
        reason = f"{family.describe()}, along which {self.expression.text} {word} without bound"
        return Optimum(self.expression.text, self.sense, Status.INFINITE, value, (attaining,), None, reason,
                       time.monotonic() - self.start, self.searches, None, verdict)

    def result(self, status: Status, value: int | Fraction | None, attaining: Solution | None, proof: Proof | None,
               verdict: Verdict, unique: bool) -> Optimum:
        solutions: tuple[Solution, ...] = () if attaining is None else (attaining,)
        attained = None
        if unique and status is Status.OPTIMAL and value is not None:
            span = self.item.span
            found, decided = self.search(compare(self.item, "==", number(value, span), span), decide=True)
            attained = decided.status if decided.status in (Status.UNIQUE, Status.MULTIPLE) else Status.UNKNOWN
            if attained is Status.MULTIPLE:
                solutions = tuple(found[:2])
            if attained is Status.UNKNOWN:
                verdict = decided
        reason = verdict.reason if status is Status.UNKNOWN else None
        return Optimum(self.expression.text, self.sense, status, value, solutions, proof, reason,
                       time.monotonic() - self.start, self.searches, attained, verdict)
