"""The digits backend: products (any equation of sums, products and powers of words) searched
column by column from the right, as a long multiplication is checked by hand.

The last k digits of a product depend only on the last k digits of its factors, so an equation
whose sides are polynomials in words (`THETA * XI = ETA * NU * PHI`, `ABC ** 2 = ...`, a layout's
partial products) holds modulo base**k as soon as the letters of its last k columns have digits.
The search gives the letters digits column by column, right to left, and cuts every assignment
whose sides differ modulo base**k. Where solutions are rare, few assignments survive a column.

Past the units column a letter first met in column k enters each side linearly modulo base**k
(its square carries base**(2k-2), a multiple of base**k), so each equation solves one letter of
its column instead of trying every digit: with the rest of the column known, `c * x + t = 0
(mod base)`, whose solutions a table lists (one, where c is a unit). In the units column that
holds for a letter of degree one (`... = FREAKY`).

Congruences do not make an equation: each constraint of the formula (each equation in full, and
the inequalities, quotients and rules of a layout) is checked exactly, as the compiled formula
checks it (compiled.py), as soon as its letters all have digits; letters in no such equation are
tried last. Every assignment the rules allow is thus either visited or cut by a congruence it
fails: a bounded search, and its solutions are the exact evaluation's own.

The search is generated as one Python generator of nested loops, a loop per letter (compiled.py
explains why generated code: a step costs a fraction of a microsecond); the code holds only names
it makes (`v3`, `_m2`, `_S4`) and integers it computed, never the formula's text.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Generator, Iterator
from typing import Any

from smtcrypt.core.check import Problem
from smtcrypt.engine.base import (
    Assignment,
    Backend,
    Ending,
    Executor,
    Fit,
    Halted,
    Means,
    Proof,
    SearchEnd,
    compiled_available,
)
from smtcrypt.engine.compiled import define_scan
from smtcrypt.engine.compiled_writer import NotCompilable
from smtcrypt.engine.digits.equations import nonlinear, polynomial_equations
from smtcrypt.engine.digits.generated import LoopWriter
from smtcrypt.engine.digits.plan import Planner, Step

__all__ = ["DigitPlan", "DigitSearch", "digit_plan", "has_products"]

YIELDED_WHEN_COUNTING = 100  # solutions yielded (for the caller's re-check) before a count goes on in bulk
# steps the generated loops search before the arrays take over, unless numpy is loaded already (its
# import costs more than most products take in the loops: docs/engine.md, "Products, column by column");
# a count of steps, not a time, so that a puzzle takes the same path however busy the machine
LOOP_STEPS = 1 << 16

Scan = Callable[[list[tuple[int, ...]]], Generator[int, None, int]]


def compiled_search() -> Callable[..., int] | None:
    """The compiled kernel's search (kernel.py's `search_plan`, loaded once a process), or None
    where numba is not installed."""
    if not compiled_available():
        return None
    from smtcrypt.engine.digits.kernel import load  # numpy and numba: only once asked for

    return load()


class DigitPlan:
    """What the digits backend runs: the plan, as generated loops, on arrays or for the compiled
    kernel, each made on first use (a process with numpy loaded runs the arrays or the kernel and never
    needs the loops' code, whose compiling costs more than most products take to search)."""

    def __init__(self, problem: Problem, steps: list[Step]):
        self.problem = problem
        self.steps = steps
        self.letters = sorted(problem.letters)  # the letters of a solution tuple, alphabetically
        self._loops: tuple[str, Scan] | None = None
        self._arrays: list[Any] = []  # the ArraySearch once tried: [search] or [None]
        self._kernel: list[Any] = []  # the KernelPlan once tried: [plan] or [None]

    def loops(self) -> tuple[str, Scan]:
        """The generated loops' code and function; `NotCompilable` if Python cannot compile them."""
        if self._loops is None:
            generator = LoopWriter(self.problem, self.steps)
            self._loops = generator.source, define_scan(generator.source, generator.writer.constants,
                                                        generator.tables, "<smtcrypt digits>")
        return self._loops

    @property
    def source(self) -> str:
        """The generated loops' code."""
        return self.loops()[0]

    @property
    def scan(self) -> Scan:
        """The generated loops."""
        return self.loops()[1]

    def on_arrays(self, halted: Callable[[], bool] = lambda: False) -> Scan | None:
        """The same plan run on arrays (arrays.py), or None: numpy missing, or values too wide for int64.
        `halted()` is read between steps of a block (see `ArraySearch`)."""
        if not self._arrays:
            try:
                from smtcrypt.engine.digits.arrays import ArraySearch, NotVectorizable
            except ImportError:
                return None
            try:
                self._arrays.append(ArraySearch(self.problem, self.steps, halted))
            except (NotVectorizable, NotCompilable):
                self._arrays.append(None)
        search = self._arrays[0]
        if search is None:
            return None
        search.halted = halted
        return search.run

    def compiled(self, search: Callable[..., int]) -> Scan | None:
        """The plan run by the compiled kernel's `search` (kernel.py), or None: a plan it does not run
        exactly."""
        from smtcrypt.engine.digits.kernel import NotKernel, kernel_plan, kernel_scan

        if not self._kernel:
            try:
                self._kernel.append(kernel_plan(self.problem, self.steps))
            except NotKernel:
                self._kernel.append(None)
        return None if self._kernel[0] is None else kernel_scan(self._kernel[0], search)


def has_products(problem: Problem) -> bool:
    """True if some equation between polynomials in words multiplies words or raises one to a power
    (`ODD * ODD = FREAKY`): where `auto` runs the digit search, the linear one being faster on sums."""
    return any(nonlinear(side, problem) for _, equation in polynomial_equations(problem)
               for side in (equation.left, equation.right))


def digit_plan(problem: Problem, halted: Callable[[], bool] = lambda: False,
               executor: Executor = Executor.AUTO) -> DigitPlan | None:
    """The digit search for this problem, or None where it does not fit: no equation between
    polynomials in words, integer unknowns, letters in no such equation, code too deep to compile. Planning reads
    `halted()` (the search's stop and clock) and raises `Halted` once it is true. The plan is made
    ready for the compiled kernel where the executor is the compiled one and the kernel takes it,
    else on arrays where numpy is loaded, and the loops only where neither can take it."""
    if problem.unknowns or not problem.letters:
        return None
    found = polynomial_equations(problem)
    if not found:
        return None
    covered = {letter for _, equation in found for word, _ in equation.words for letter in word if not letter.isdigit()}
    if covered != set(problem.letters):
        return None
    plan = DigitPlan(problem, Planner(problem, dict(found), halted).plan())
    search = compiled_search() if executor is Executor.COMPILED else None
    if search is not None and plan.compiled(search) is not None:
        return plan
    if executor is not Executor.PLAIN and numpy_loaded() and plan.on_arrays(halted) is not None:
        return plan
    try:
        plan.loops()
    except NotCompilable:  # a part the compiled formula does not write, or code too deep for Python
        return None
    return plan


def numpy_loaded() -> bool:
    """True once numpy is imported in this process (then the arrays cost nothing to start)."""
    return "numpy" in sys.modules


class DigitSearch(Backend):
    """The plan run in slices between looks at the clock and the stop flag: by the compiled kernel
    where the executor is the compiled one and the kernel takes the plan (kernel.py: faster than
    the arrays on the longest products, ten times faster on a product of a few thousand steps);
    else by the generated loops for LOOP_STEPS steps, then (`arrays`) on arrays, less the solutions
    the loops reported (on arrays at once where numpy is loaded already). `listing=False`
    (counting) yields the first YIELDED_WHEN_COUNTING solutions and counts the rest."""

    name = "digits"
    exact = True  # every solution passed each constraint's exact evaluation

    def __init__(self, plan: DigitPlan, deadline: float | None = None, listing: bool = True, arrays: bool = True,
                 executor: Executor = Executor.AUTO):
        self.plan = plan
        self.executor = executor
        self.deadline = deadline
        self.listing = listing
        self.arrays = arrays and executor is not Executor.PLAIN  # PLAIN: the interpreter alone, no numpy
        self.bulk = 0
        self.found = 0
        self.nodes = 0
        self.ran: list[str] = []  # "compiled"; or "loops", then "arrays" if they took over
        self.end: SearchEnd | None = None
        self.stop_requested = False

    @classmethod
    def fit(cls, problem: Problem, means: Means) -> Fit:
        """Takes what `digit_plan` plans; `made` is the backend, its plan made."""
        with means.clock("compile"):
            plan = digit_plan(problem, halted=means.halted, executor=means.executor)
        if plan is None:
            return Fit.refused("it needs equations between sums, products and constant powers of words that hold "
                               "every letter, and no integer unknowns")
        return Fit.taken(cls(plan, listing=means.listing, executor=means.executor))

    def statistics(self) -> dict[str, Any]:
        return {"digit_search_steps": self.nodes, "digit_search": " -> ".join(self.ran)}

    def batches(self) -> Iterator[list[Assignment]]:
        hits: list[tuple[int, ...]] = []
        loops = None
        reported: set[tuple[int, ...]] = set()
        search = compiled_search() if self.arrays and self.executor is Executor.COMPILED else None
        compiled = self.plan.compiled(search) if search is not None else None
        if compiled is not None:  # neither the loops nor the arrays are needed
            self.ran.append("compiled")
            yield from self._drive(compiled(hits), hits, None, None)
            return
        if not self.arrays or not numpy_loaded():  # the loops first (numpy's import is dear)
            self.ran.append("loops")
            loops = self.plan.scan(hits)
            yield from self._drive(loops, hits, reported, LOOP_STEPS if self.arrays else None)
            if self.end is not None:
                return
        on_arrays = self.plan.on_arrays(self._stopping)
        if on_arrays is None:  # the loops go on
            self.ran[:] = ["loops"]
            yield from self._drive(loops or self.plan.scan(hits), hits, None, None)
            return
        if loops is not None:
            loops.close()
        self.ran.append("arrays")
        yield from self._drive(on_arrays(hits), hits, None, None, skip=reported)

    def _drive(self, steps: Generator[int, None, int], hits: list[tuple[int, ...]],
               reported: set[tuple[int, ...]] | None, switch_at: int | None,
               skip: set[tuple[int, ...]] | None = None) -> Iterator[list[Assignment]]:
        """Run a scan until it ends (`end` set), the search is stopped, or past `switch_at` steps (end left None)."""
        done = self.nodes
        while not self._stopping():
            if switch_at is not None and self.nodes >= switch_at:
                return
            try:
                self.nodes = done + next(steps)
            except StopIteration as finished:
                self.nodes = done + finished.value
                self.end = SearchEnd(Ending.COMPLETE, proof=Proof.BOUNDED)
            except Halted:  # the arrays looked at `_stopping()` inside a block: `end` says why
                return
            if skip:  # solutions the loops reported before the arrays took over
                hits[:] = [digits for digits in hits if digits not in skip]
            if reported is not None:
                reported.update(hits)
            if hits:
                batch = self._batch(hits, self.plan.letters)
                hits.clear()
                if batch:
                    yield batch
            if self.end is not None:
                return

    def _batch(self, hits: list[tuple[int, ...]], letters: list[str]) -> list[Assignment]:
        if not self.listing and self.found >= YIELDED_WHEN_COUNTING:
            self.bulk += len(hits)
            return []
        keep = len(hits) if self.listing else YIELDED_WHEN_COUNTING - self.found
        hits.sort()  # in the order of the letters' digits, alphabetically, as the other backends list them
        batch = [dict(zip(letters, digits)) for digits in itertools.islice(hits, keep)]
        self.bulk += len(hits) - len(batch)
        self.found += len(batch)
        return batch
