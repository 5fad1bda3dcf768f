"""The linear backend: a word sum is one linear equation, solved digit by digit within its bounds.

The sum kernel (`smtcrypt.engine.sums`) searches it in a few hundred nodes, far less than starting Z3,
and exhaustively: every assignment the rules allow is visited or cut by a bound that proves it cannot
balance. Any other constraints are checked on each solution by the compiled formula.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from smtcrypt.analysis.equations import only_equation
from smtcrypt.analysis.fold import fold
from smtcrypt.analysis.linear import integer_equation
from smtcrypt.analysis.stats import space
from smtcrypt.core.check import Problem
from smtcrypt.engine.base import (
    UNKNOWNS_ELSEWHERE,
    Assignment,
    Backend,
    Ending,
    Executor,
    Fit,
    Means,
    Proof,
    SearchEnd,
    Statistics,
)
from smtcrypt.engine.compiled import Compiled
from smtcrypt.engine.sums import Digits, SumPlan, SumSearch, compiled_kernel, digit_mask, plan_sum
from smtcrypt.engine.sums.plan import estimated_nodes

BATCH = 4096
POLL_EVERY = 1024  # nodes of the sum search between two looks at the stop, the clock and `progress`


class LinearSearch(Backend):
    """Every solution of the problem's linear equation that the rules allow and the rest of the
    formula (checked by `compiled`, when there is more) accepts."""

    name = "linear"
    exact = True  # integer arithmetic on the equation, the compiled formula for the rest
    FREE_TUPLES = 100  # digit tuples tried beside each solution for the letters without a weight, at most

    @classmethod
    def fit(cls, problem: Problem, means: Means) -> Fit:
        """Takes an equation of sums in which every letter but a few has a weight (those few tried
        last, each digit tuple beside each solution of the equation; the rest of the formula, if
        any, checked by the compiled formula); `made` is the backend, its equation read."""
        refused = Fit.refused("it needs an equation of sums and integer multiples of words holding all but two "
                              "letters at most, no integer unknowns, and all letters distinct or none")
        if problem.unknowns:
            return Fit.refused("it solves one equation over the letters' digits, and integer unknowns are none "
                               "of them", UNKNOWNS_ELSEWHERE)
        if problem.distinctness == "some":  # its digit mask is all or nothing
            return refused
        with means.clock("compile"):
            equation = integer_equation(fold(problem))
        if equation is None or not equation[0]:
            return refused
        # letters without a weight (`SAINT + GEORGE = DRAGON`: A) or outside the equation: a few, all letters
        # distinct (where they need not differ, as the `?` cells of a layout, the equation may be a loose one)
        free = set(problem.letters) - set(equation[0])
        if free and (problem.distinctness != "all" or space(problem, free) > cls.FREE_TUPLES):
            return refused
        if only_equation(problem):
            return Fit.taken(cls(problem, equation, None, executor=means.executor))
        compiled = means.compiled()
        return refused if compiled is None else Fit.taken(cls(problem, equation, compiled, executor=means.executor))

    def __init__(self, problem: Problem, equation: tuple[dict[str, int], int], compiled: Compiled | None,
                 executor: Executor = Executor.AUTO):
        self.problem = problem
        self.executor = executor  # COMPILED: the compiled kernel decides what it can (see `batches`)
        self.equation = equation
        self.compiled = compiled  # None: the equation is the whole formula
        self.search: SumSearch | None = None
        self.kernel = "plain"  # or "compiled": which of the kernel's searches decided the sum
        self.found = 0  # solutions of the equation the rest of the formula accepted, so far
        self.polls = 0

    def sum(self) -> tuple[list[int], list[int]]:
        """The equation's weights and allowed digits (bits) over the problem's letters, sorted."""
        letters = sorted(self.problem.letters)
        return ([self.equation[0].get(letter, 0) for letter in letters],
                [digit_mask(self.problem.allowed[letter]) for letter in letters])

    @functools.cached_property
    def plan(self) -> SumPlan:
        """The sum kernel's plan of the equation, made once."""
        return plan_sum(*self.sum(), distinct=self.problem.distinctness == "all", base=self.problem.rules.base)

    def estimate(self, most: float | None = None) -> float:
        """About how many nodes the sum search takes: its plan's own guess (`estimated_nodes`)."""
        return estimated_nodes(self.plan)

    def statistics(self, stats: Statistics) -> None:
        stats.search_nodes, stats.sum_kernel = self.search.nodes if self.search is not None else 0, self.kernel

    def batches(self) -> Iterator[list[Assignment]]:
        """The kernel's solutions of the equation, the rest of the formula checked on each (it polls
        every POLL_EVERY nodes, so a stop ends it where no solution comes). Where the executor is the
        compiled one, the compiled kernel counts the solutions first, up to two: none or one settles
        it in microseconds; more, and the plain search lists them, each as it comes."""
        letters = sorted(self.problem.letters)
        fixed = self.equation[1]
        check = self._checker(letters)
        sums = compiled_kernel(self.executor)
        counted = None if sums is None else sums.count_first(*self.sum(), fixed, self.problem.rules.base,
                                                             self.problem.distinctness == "all", 2)
        if counted is not None and counted[0] < 2:
            self.kernel = "compiled"
            count, first = counted
            if count and (check is None or check(first)):
                yield [dict(zip(letters, first))]
            self.end = SearchEnd(Ending.COMPLETE, proof=Proof.BOUNDED)
            return
        self.found = self.polls = 0
        self.search = search = SumSearch(self.plan, fixed, poll=self._polled, every=POLL_EVERY)
        found: list[Digits] = []
        for digits in search:
            if check is None or check(digits):
                self.found += 1
                found.append(digits)
                if len(found) >= BATCH:
                    if self._stopping():
                        return
                    yield [dict(zip(letters, digits)) for digits in found]
                    found = []
        if search.stopped:  # `end` says why
            return
        if found:
            yield [dict(zip(letters, digits)) for digits in found]
        self.end = SearchEnd(Ending.COMPLETE, proof=Proof.BOUNDED)

    def _polled(self) -> bool:
        """The sum search's look between steps: stopped, out of time, or handed over."""
        self.polls += 1
        return (self.progress is not None and self.progress(self.polls * POLL_EVERY, self.found)) or self._stopping()

    def _checker(self, letters: list[str]) -> Callable[[Digits], bool] | None:
        """The compiled formula on one solution of the equation (a digit per letter of `letters`), or
        None if not needed."""
        if self.compiled is None:
            return None
        compiled = self.compiled
        position = {letter: index for index, letter in enumerate(letters)}
        picks = [position[letter] for letter in compiled.free]
        fixed = compiled.fixed

        def check(digits: Digits) -> bool:
            return (all(digits[position[letter]] == digit for letter, digit in fixed.items())
                    and bool(compiled.scan([tuple(digits[index] for index in picks)])))
        return check
