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
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

from smtcrypt.core.check import Problem, constant
from smtcrypt.core.numerals import place_values
from smtcrypt.core.tree import BinOp, BoolOp, Call, Compare, Expr, Number, Unary, Word
from smtcrypt.engine.base import Assignment, Backend, Ending, Proof, SearchEnd
from smtcrypt.engine.compiled import Compiled

LinearForm = tuple[dict[str, Fraction], Fraction]  # "2*AB + 1" -> ({"A": 20, "B": 2}, 1)
BATCH = 4096


def linear_form(node: Expr, base: int, allowed: Mapping[str, frozenset[int]] | None = None) -> LinearForm | None:
    """The value of `node` as sum(weight * letter) + constant, or None if it is not one. With each
    letter's `allowed` digits, `dsum` of a word and `rev` of a word that cannot start with 0 are too."""
    if isinstance(node, Word):
        weights, fixed = place_values(node.letters, base)
        return {letter: Fraction(weight) for letter, weight in weights.items()}, Fraction(fixed)
    if isinstance(node, Number):
        return {}, node.value
    if isinstance(node, Call) and allowed is not None and len(node.args) == 1 and isinstance(node.args[0], Word):
        return _word_function(node.name, node.args[0].letters, base, allowed)
    if isinstance(node, Unary):
        inner = linear_form(node.operand, base, allowed)
        return inner if inner is None or node.op == "+" else _scale(inner, Fraction(-1))
    if isinstance(node, BinOp) and node.op in ("+", "-"):
        left, right = linear_form(node.left, base, allowed), linear_form(node.right, base, allowed)
        if left is None or right is None:
            return None
        return _add(left, _scale(right, Fraction(-1)) if node.op == "-" else right)
    if isinstance(node, BinOp) and node.op == "*":
        for factor, other in ((node.left, node.right), (node.right, node.left)):
            value = constant(factor)
            if value is not None:
                inner = linear_form(other, base, allowed)
                return None if inner is None else _scale(inner, value)
    return None


def _word_function(name: str, cells: str, base: int, allowed: Mapping[str, frozenset[int]]) -> LinearForm | None:
    """dsum of a word's cells (its letters and literal digits added); rev of them where the first cell
    is not 0 (`rev(ABCD)` = 1000D + 100C + 10B + A when A cannot be 0), so that its digits read backwards
    are its reversal; else None."""
    if name == "dsum":
        weights: dict[str, Fraction] = {}
        for cell in cells:
            if not cell.isdigit():
                weights[cell] = weights.get(cell, Fraction(0)) + 1
        return weights, Fraction(sum(int(cell) for cell in cells if cell.isdigit()))
    first = cells.lstrip("0")[:1]
    if name != "rev" or not first or (not first.isdigit() and 0 in allowed[first]):
        return None
    reversed_weights, fixed = place_values(cells.lstrip("0")[::-1], base)
    return {letter: Fraction(weight) for letter, weight in reversed_weights.items()}, Fraction(fixed)


def _scale(form: LinearForm, factor: Fraction) -> LinearForm:
    return {letter: weight * factor for letter, weight in form[0].items()}, form[1] * factor


def _add(first: LinearForm, second: LinearForm) -> LinearForm:
    weights = dict(first[0])
    for letter, weight in second[0].items():
        weights[letter] = weights.get(letter, Fraction(0)) + weight
    return weights, first[1] + second[1]


def equations(problem: Problem) -> Iterator[tuple[Expr, Expr]]:
    """Both sides of every `==` of a top-level constraint (looking inside `and`)."""
    pending = list(problem.formula.constraints)
    while pending:
        node = pending.pop(0)
        if isinstance(node, BoolOp) and node.op == "and":
            pending[:0] = node.operands
        elif isinstance(node, Compare) and all(op == "==" for op in node.ops):
            yield from zip(node.operands, node.operands[1:])


def integer_equation(problem: Problem) -> tuple[dict[str, int], int] | None:
    """The equation (integer weights and constant, = 0) that fixes the most letters, or None."""
    best = None
    for left, right in equations(problem):
        first = linear_form(left, problem.rules.base, problem.allowed)
        second = linear_form(right, problem.rules.base, problem.allowed)
        if first is None or second is None:
            continue
        weights, fixed = _add(first, _scale(second, Fraction(-1)))
        scale = 1
        for value in [*weights.values(), fixed]:
            scale = scale * value.denominator // math.gcd(scale, value.denominator)
        form = ({letter: int(weight * scale) for letter, weight in weights.items() if weight}, int(fixed * scale))
        if best is None or len(form[0]) > len(best[0]):
            best = form
    return best


def only_equation(problem: Problem) -> bool:
    """True if the formula is one `A == B` and nothing else: its solutions need no further check."""
    constraints = problem.formula.constraints
    return len(constraints) == 1 and isinstance(constraints[0], Compare) and constraints[0].ops == ("==",)


class LinearSearch(Backend):
    """Every solution of the problem's linear equation that the rules allow and the rest of the
    formula (checked by `compiled`, when there is more) accepts."""

    name = "linear"
    exact = True  # integer arithmetic on the equation, the compiled formula for the rest

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
