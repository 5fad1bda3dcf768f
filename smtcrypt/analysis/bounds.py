"""Interval arithmetic beyond core's (core/intervals.py), and one walk for the exact bounds of a
formula's values, which the general encoding sizes its terms with and the explainer reads a
constraint with (a three-digit word is at least 100). Fractions, so that a quotient's bounds are exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction

from smtcrypt.core.intervals import ARITHMETIC, Interval, Value, absolute, greatest, least, negated, word_interval
from smtcrypt.core.numerals import root_floor
from smtcrypt.core.tree import BinOp, BoolOp, Call, Compare, Expr, Not, Number, Unary, Word, children

Box = Mapping[str, tuple[int, int]]  # each letter's least and greatest digit
RationalInterval = tuple[Fraction, Fraction]

# A power p/q is bounded only for small p and q: the bounds' integers grow with p, their roots with q.
MAX_ROOT_PARTS = 64


def power_bounds(lo: Value, hi: Value, k: int) -> tuple[Value, Value]:
    """Bounds of x**k for x in [lo, hi] and k >= 0 (k >= 1 where lo < 0)."""
    if k % 2 or lo >= 0:
        return lo ** k, hi ** k
    if hi <= 0:
        return hi ** k, lo ** k
    return lo * 0, max(lo ** k, hi ** k)


def quotient_bounds(x: RationalInterval, y: RationalInterval) -> RationalInterval | None:
    """Bounds of x / y, where y cannot be 0 (else None): the corners' quotients, as y keeps one sign."""
    if y[0] <= 0 <= y[1]:
        return None
    quotients = [a / b for a in x for b in y]
    return min(quotients), max(quotients)


def floordiv_bounds(x: Interval, y: Interval) -> Interval:
    """Bounds of x // y over x in x, y in y, y != 0. For a fixed sign of y, x / y is monotone in
    each argument, so its extremes lie at the ends of x and of y's nonzero parts (nearest 0: +-1)."""
    divisors = [d for d in (y[0], y[1]) if d != 0]
    divisors += [d for d in (-1, 1) if y[0] <= d <= y[1]]
    if not divisors:  # y is always 0: never defined
        return 0, 0
    values = [a // d for a in x for d in divisors]
    return min(values), max(values)


def mod_bounds(x: Interval, y: Interval) -> Interval:
    """Bounds of Python's x % y for integers, y != 0: the sign of y, smaller than |y|, and no larger
    than |x| where x and y share a sign."""
    lo = hi = 0
    if y[1] >= 1:
        hi = y[1] - 1 if x[0] < 0 else min(y[1] - 1, x[1])
    if y[0] <= -1:
        lo = y[0] + 1 if x[1] > 0 else max(y[0] + 1, x[0])
    return lo, hi


class ValueBounds:
    """Exact bounds of a formula's values, node by node, wherever they are defined; None where some part
    has none. Numbers, signs, + - * /, min, max and abs are worked out here; the bounds the walk starts
    from (`leaf`: words, say) and those of any other operation (`other`) are the caller's."""

    def leaf(self, node: Expr) -> RationalInterval | None:
        return None

    def other(self, node: Expr, parts: list[RationalInterval]) -> RationalInterval | None:
        return None

    def of(self, node: Expr) -> RationalInterval | None:
        if (known := self.leaf(node)) is not None:
            return known
        if isinstance(node, Number):
            return node.value, node.value
        parts = []
        for child in children(node):
            part = self.of(child)
            if part is None:
                return None
            parts.append(part)
        if isinstance(node, BinOp):
            if node.op in ARITHMETIC:
                return ARITHMETIC[node.op](parts[0], parts[1])
            if node.op == "/":
                return quotient_bounds(parts[0], parts[1])
        elif isinstance(node, Unary):
            return negated(parts[0]) if node.op == "-" else parts[0]
        elif isinstance(node, Call) and node.name in ("min", "max", "abs"):
            return least(parts) if node.name == "min" else greatest(parts) if node.name == "max" else absolute(parts[0])
        return self.other(node, parts) if parts else None


class BoxBounds(ValueBounds):
    """A formula's values with every letter within its box of digits; constant powers of non-negative values."""

    def __init__(self, box: Box, base: int):
        self.box, self.base = box, base

    def leaf(self, node: Expr) -> RationalInterval | None:
        if not isinstance(node, Word):
            return None
        low, high = word_interval(node.letters, self.base, lambda _position, letter: self.box[letter])
        return Fraction(low), Fraction(high)

    def other(self, node: Expr, parts: list[RationalInterval]) -> RationalInterval | None:
        """A non-negative value to a constant power: whole powers exactly; roots p/q with small p and q
        (the ends made whole outwards, raised to p) to the next integer."""
        if not (isinstance(node, BinOp) and node.op == "**" and parts[1][0] == parts[1][1] and parts[0][0] >= 0):
            return None
        (low, high), p, q = parts[0], parts[1][0].numerator, parts[1][0].denominator
        if q == 1 and p >= 0:
            return power_bounds(low, high, p)
        if p > 0 and p <= MAX_ROOT_PARTS and q <= MAX_ROOT_PARTS:
            return Fraction(root_floor(math.floor(low) ** p, q)), Fraction(root_floor(math.ceil(high) ** p, q) + 1)
        return None


def polynomial_bound(node: Expr, word: Callable[[Word], int], exponents: Mapping[BinOp, Fraction]) -> int | None:
    """A bound on the absolute value of a polynomial (words, integers, signs, + - * and constant
    integer powers up to MAX_ROOT_PARTS) and of every value met evaluating it step by step, each word
    at most `word(node)`: whether fixed-width integers hold it. None for any other expression."""
    if isinstance(node, Word):
        return word(node)
    if isinstance(node, Number):
        return abs(int(node.value)) + 1 if node.value.denominator == 1 else None
    if isinstance(node, Unary):
        return polynomial_bound(node.operand, word, exponents) if node.op in ("-", "+") else None
    if not isinstance(node, BinOp):
        return None
    left = polynomial_bound(node.left, word, exponents)
    if node.op == "**":
        exponent = exponents.get(node)
        if left is None or exponent is None or exponent.denominator != 1 or not 0 <= exponent <= MAX_ROOT_PARTS:
            return None
        return max(left, 1) ** int(exponent)
    right = polynomial_bound(node.right, word, exponents)
    if left is None or right is None or node.op not in ("+", "-", "*"):
        return None
    return left * right if node.op == "*" else left + right


def truth_bounds(node: Expr, box: Box, base: int) -> bool | None:
    """True or False if the bounds decide the condition for every value in the box, else None."""
    return _truth(node, BoxBounds(box, base))


def _truth(node: Expr, bounds: BoxBounds) -> bool | None:
    if isinstance(node, Compare):
        operands = [bounds.of(op) for op in node.operands]
        results = [None if left is None or right is None else compare_bounds(op, left, right)
                   for op, left, right in zip(node.ops, operands, operands[1:])]
        return False if False in results else (True if all(r is True for r in results) else None)
    if isinstance(node, BoolOp):
        parts = [_truth(op, bounds) for op in node.operands]
        if node.op == "and":
            return False if False in parts else (True if all(p is True for p in parts) else None)
        return True if True in parts else (False if all(p is False for p in parts) else None)
    if isinstance(node, Not):
        inner = _truth(node.operand, bounds)
        return None if inner is None else not inner
    return None


def compare_bounds(op: str, a: tuple[Value, Value], b: tuple[Value, Value]) -> bool | None:
    """Whether `a op b` holds for every value in the intervals (True), for none (False), or depends (None);
    membership (`in`) is not decided by bounds."""
    if op in ("==", "!="):
        if a[1] < b[0] or b[1] < a[0]:
            return op == "!="
        return (op == "==") if a[0] == a[1] == b[0] == b[1] else None
    if op in (">", ">="):
        a, b, op = b, a, "<" if op == ">" else "<="
    if op == "<":
        return True if a[1] < b[0] else (False if a[0] >= b[1] else None)
    return (True if a[1] <= b[0] else (False if a[0] > b[1] else None)) if op == "<=" else None
