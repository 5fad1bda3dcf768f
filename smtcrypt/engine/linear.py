"""The linear backend: a word sum is one linear equation, solved digit by digit within its bounds.

`SEND + MORE = MONEY` is 1000*S + 91*E - 90*N + D - 9000*M - 900*O + 10*R - Y = 0. Letters are
tried heaviest first, and each one's digits are cut to the interval that the lighter letters
could still balance, so the first few letters are nearly forced and the whole search visits a
few hundred nodes: far less than starting Z3. The 199-addend sum of the corpus is one such
equation over ten letters. The search is exhaustive: every assignment the rules allow is either
visited or cut by a bound that proves it cannot balance. Any other constraints are checked on
each solution of the equation by the compiled formula (see compiled.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

from smtcrypt.analysis.equations import only_equation
from smtcrypt.analysis.fold import fold
from smtcrypt.analysis.linear import integer_equation
from smtcrypt.core.check import Problem
from smtcrypt.engine.base import Assignment, Backend, Ending, Fit, Means, Proof, SearchEnd
from smtcrypt.engine.compiled import Compiled

BATCH = 4096


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
        if problem.unknowns or problem.distinctness == "some":  # its digit mask is all or nothing
            return refused
        with means.clock("compile"):
            equation = integer_equation(fold(problem))
        if equation is None or not equation[0]:
            return refused
        # letters without a weight (`SAINT + GEORGE = DRAGON`: A) or outside the equation: a few, all letters
        # distinct (where they need not differ, as the `?` cells of a layout, the equation may be a loose one)
        free = set(problem.letters) - set(equation[0])
        if free and (problem.distinctness != "all" or math.perm(
                len(set().union(*(problem.allowed[letter] for letter in free))), len(free)) > cls.FREE_TUPLES):
            return refused
        if only_equation(problem):
            return Fit.taken(cls(problem, equation, None))
        compiled = means.compiled()
        return refused if compiled is None else Fit.taken(cls(problem, equation, compiled))

    def __init__(self, problem: Problem, equation: tuple[dict[str, int], int], compiled: Compiled | None,
                 deadline: float | None = None):
        self.problem = problem
        self.equation = equation
        self.compiled = compiled  # None: the equation is the whole formula
        self.deadline = deadline
        self.end: SearchEnd | None = None
        self.stop_requested = False
        self.nodes = 0

    def statistics(self) -> dict[str, Any]:
        return {"search_nodes": self.nodes}

    def batches(self) -> Iterator[list[Assignment]]:
        letters = sorted(self.problem.letters)
        weights, fixed = self.equation
        order = sorted(letters, key=lambda letter: -abs(weights.get(letter, 0)))
        found: list[tuple[int, ...]] = []
        check = self._checker(order)
        for digits in self._solve([weights.get(letter, 0) for letter in order],
                                  [sorted(self.problem.allowed[letter]) for letter in order], fixed):
            if check is None or check(digits):
                found.append(digits)
            if len(found) >= BATCH or self.nodes & 1023 == 0:
                if self._stopping():
                    return
                if len(found) >= BATCH:
                    yield self._assignments(found, order, letters)
                    found = []
        if self._stopping():
            return
        if found:
            yield self._assignments(found, order, letters)
        self.end = SearchEnd(Ending.COMPLETE, proof=Proof.BOUNDED)

    @staticmethod
    def _assignments(found: list[tuple[int, ...]], order: list[str], letters: list[str]) -> list[Assignment]:
        return [{letter: values[letter] for letter in letters}
                for values in (dict(zip(order, digits)) for digits in found)]

    def _checker(self, order: list[str]) -> Callable[[tuple[int, ...]], bool] | None:
        """The compiled formula on one solution of the equation (in `order`), or None if not needed."""
        if self.compiled is None:
            return None
        compiled = self.compiled
        position = {letter: index for index, letter in enumerate(order)}
        picks = [position[letter] for letter in compiled.free]
        fixed = compiled.fixed

        def check(digits: tuple[int, ...]) -> bool:
            if any(digits[position[letter]] != digit for letter, digit in fixed.items()):
                return False
            return bool(compiled.scan([tuple(digits[index] for index in picks)]))
        return check

    def _solve(self, weights: list[int], domains: list[list[int]], fixed: int) -> Iterator[tuple[int, ...]]:
        """Digit tuples d (d[i] from domains[i], all different if the rules say so) with
        sum(weights[i] * d[i]) + fixed = 0; weights heaviest first search fastest."""
        count = len(weights)
        if any(not domain for domain in domains):
            return
        # the least and the most that letters k.. can add, ignoring distinctness (a sound bound)
        low, high = [0] * (count + 1), [0] * (count + 1)
        for k in range(count - 1, -1, -1):
            ends = (weights[k] * domains[k][0], weights[k] * domains[k][-1])
            low[k], high[k] = low[k + 1] + min(ends), high[k + 1] + max(ends)
        distinct = self.problem.distinctness == "all"
        values = [0] * count

        def descend(k: int, total: int, used: int) -> Iterator[tuple[int, ...]]:
            self.nodes += 1
            if k == count:
                if total == 0:
                    yield tuple(values)
                return
            w, rest_low, rest_high = weights[k], low[k + 1], high[k + 1]
            for digit in domains[k]:
                if distinct and used >> digit & 1:
                    continue
                value = total + w * digit
                if value + rest_low <= 0 <= value + rest_high:
                    values[k] = digit
                    yield from descend(k + 1, value, used | 1 << digit)

        yield from descend(0, fixed, 0)
