"""The digits backend: products (any equation of sums, products and powers of words) searched
column by column from the right, as a long multiplication is checked by hand.

The last k digits of a product depend only on the last k digits of its factors, so an equation
whose sides are polynomials in words holds modulo base**k as soon as the letters of its last k
columns have digits: the search cuts every assignment whose sides differ there. Past the units
column a letter first met in column k enters each side linearly modulo base**k (its square carries
base**(2k-2)), so each equation solves one letter of its column, `c * x + t = 0 (mod base)`,
instead of trying every digit.

Congruences do not make an equation: each constraint is checked exactly, as the compiled formula
checks it, once its letters all have digits; every assignment the rules allow is thus visited or cut
by a congruence it fails, a bounded search. The plan runs as a table walked by kernel.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, walk
from smtcrypt.engine.base import (
    Assignment,
    Backend,
    Ending,
    Executor,
    Fit,
    Means,
    Proof,
    SearchEnd,
    Statistics,
    compiled_available,
)
from smtcrypt.engine.compiled_writer import NotCompilable
from smtcrypt.engine.digits.equations import nonlinear, polynomial_equations
from smtcrypt.engine.digits.kernel import TAKEN, Machine, Scan, encode, load, projected, scan
from smtcrypt.engine.digits.plan import Congruence, Planner, Solve, Step, Try

__all__ = ["DigitPlan", "DigitSearch", "digit_plan", "has_products"]

YIELDED_WHEN_COUNTING = 100  # solutions yielded (for the caller's re-check) before a count goes on in bulk
# Where the caller leaves the choice, the walk goes compiled past these (see `DigitPlan.scan`): counts, not times,
# so that a puzzle takes the same path however busy the machine (docs/engine.md, "Products, column by column", has
# the figures). Where this process has not loaded the compiled walk yet, its price includes the load: UNLOADED_LARGE
ESTIMATED_LARGE = 16_000
PROJECTED_LARGE = 5000
PLAIN_STEPS = 2048
UNLOADED_LARGE = 50_000


class DigitPlan:
    """What the digits backend runs: the plan's steps and their table (kernel.py)."""

    def __init__(self, problem: Problem, steps: list[Step], machine: Machine):
        self.problem = problem
        self.steps = steps
        self.machine = machine
        self.letters = machine.letters  # the letters of a solution tuple, alphabetically

    def estimate(self) -> int:
        """The steps the plan is expected to take, worked out from it alone: at each letter it gives
        digits, the assignments so far, each letter tried multiplying them by its digits (less those
        taken, where every letter differs) and each congruence dividing them by the base."""
        size, total, given = Fraction(1), Fraction(0), 0
        distinct = self.problem.distinctness == "all"
        for step in self.steps:
            if isinstance(step, Try):
                size *= max(1, len(self.problem.allowed[step.letter]) - (given if distinct else 0))
            elif isinstance(step, Congruence):
                size /= self.problem.rules.base
            if isinstance(step, (Try, Solve)):
                given += 1
                total += size
        return int(total)

    def compiled(self, executor: Executor) -> bool:
        """Whether the compiled walk may run: not PLAIN, numba installed, int64 holding the table."""
        return executor is not Executor.PLAIN and self.machine.int64 and compiled_available()

    def scan(self, executor: Executor = Executor.PLAIN, ran: list[str] | None = None) -> Scan:
        """The walk as the executor runs it, where the compiled walk may run (`compiled()`): compiled
        for COMPILED or a plan estimated large, or (AUTO) plain until it is past PLAIN_STEPS steps or
        projected to take PROJECTED_LARGE, then compiled; else plain."""
        if not self.compiled(executor):
            return scan(self.machine, None, ran=ran)
        loaded = load.cache_info().currsize > 0  # the compiled walk's price: its load too, where not yet paid
        if executor is Executor.COMPILED or self.estimate() >= (ESTIMATED_LARGE if loaded else UNLOADED_LARGE):
            return scan(self.machine, load, ran=ran)
        most, size = (PLAIN_STEPS, PROJECTED_LARGE) if loaded else (UNLOADED_LARGE, UNLOADED_LARGE)
        return scan(self.machine, load,
                    lambda machine, memory: memory[TAKEN] >= most or (projected(machine, memory) or 0) >= size, ran)


def has_products(problem: Problem) -> bool:
    """True if some equation between polynomials in words multiplies words or raises one to a power
    (`ODD * ODD = FREAKY`): where `auto` runs the digit search, the linear one being faster on sums. A
    formula without `*`, `**` or `/` has none, seen at a glance (reading a sum's polynomials costs a third of it)."""
    if not any(isinstance(node, BinOp) and node.op in ("*", "**", "/")
               for constraint in problem.formula.constraints for node in walk(constraint)):
        return False
    return any(nonlinear(side, problem) for _, equation in polynomial_equations(problem)
               for side in (equation.left, equation.right))


def digit_plan(problem: Problem, halted: Callable[[], bool] = lambda: False) -> DigitPlan | None:
    """The digit search for this problem, or None where it does not fit: no equation between
    polynomials in words, integer unknowns, letters in no such equation, a constraint too deep to
    compile. Planning reads `halted()` (the search's stop and clock) and raises `Halted` once it is true."""
    if problem.unknowns or not problem.letters:
        return None
    found = polynomial_equations(problem)
    covered = {letter for _, equation in found for word, _ in equation.words for letter in word if not letter.isdigit()}
    if covered != set(problem.letters):
        return None
    steps = Planner(problem, dict(found), halted).plan()
    try:
        return DigitPlan(problem, steps, encode(problem, steps))
    except NotCompilable:  # a part the compiled formula does not write, or code too deep for Python
        return None


class DigitSearch(Backend):
    """The plan walked in slices between looks at the clock and the stop flag, plain or compiled as
    the executor says (`DigitPlan.compiled`). `listing=False` (counting) yields the first
    YIELDED_WHEN_COUNTING solutions and counts the rest."""

    name = "digits"
    exact = True  # every solution passed each constraint's exact evaluation

    def __init__(self, plan: DigitPlan, deadline: float | None = None, listing: bool = True,
                 executor: Executor = Executor.AUTO):
        self.plan = plan
        self.executor = executor
        self.deadline = deadline
        self.listing = listing
        self.found = 0
        self.nodes = 0
        self.ran: list[str] = []  # "plain", "compiled", or "plain" then "compiled"

    @classmethod
    def fit(cls, problem: Problem, means: Means) -> Fit:
        """Takes what `digit_plan` plans; `made` is the backend, its plan made."""
        with means.clock("compile"):
            plan = digit_plan(problem, halted=means.halted)
        if plan is None:
            return Fit.refused("it needs equations between sums, products and constant powers of words that hold "
                               "every letter, and no integer unknowns")
        return Fit.taken(cls(plan, listing=means.listing, executor=means.executor))

    def estimate(self, most: float | None = None) -> float:
        return self.plan.estimate()

    def statistics(self, stats: Statistics) -> None:
        stats.digit_search_steps, stats.digit_search = self.nodes, " -> ".join(self.ran)

    def batches(self) -> Iterator[list[Assignment]]:
        hits: list[tuple[int, ...]] = []
        steps = self.plan.scan(self.executor, self.ran)(hits)
        while not self._stopping():
            try:
                self.nodes = next(steps)
            except StopIteration as finished:
                self.nodes = finished.value
                self.end = SearchEnd(Ending.COMPLETE, proof=Proof.BOUNDED)
            if hits and self.skip is not None:  # reported by another search before a switch
                hits[:] = [digits for digits in hits if not self.skip(digits)]
            if hits:
                keep = len(hits) if self.listing else max(0, YIELDED_WHEN_COUNTING - self.found)
                if keep:  # in the order of the letters' digits, alphabetically, as the other backends list them
                    hits.sort()
                batch = [dict(zip(self.plan.letters, digits)) for digits in hits[:keep]]
                self.bulk += len(hits) - len(batch)
                self.found += len(batch)
                hits.clear()
                if batch:
                    yield batch
            if self.end is not None or self.progress is not None and self.progress(self.nodes, self.found + self.bulk):
                return  # done, or handed on (`end` left None)
