"""Intervals: the integer bounds a term's digits imply under the puzzle's rules, and the arithmetic
of intervals they are made with.

The checker bounds variable exponents with them, and the encoders size their terms with them, so
they live beside the language rather than in `analysis/`: the checker (in `core`) needs them.
The operations on intervals here take integers or fractions alike; `analysis/bounds.py` builds
the rest of interval arithmetic (powers, quotients, remainders, a formula's values over boxes of
digits) on them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

from smtcrypt.core.rules import MAX_FACTORIAL, Rules
from smtcrypt.core.tree import BinOp, Call, Expr, Number, Unary, Word

Interval = tuple[int, int]  # [low, high], both included
Value = TypeVar("Value", int, Fraction)


def interval(node: Expr, rules: Rules) -> Interval | None:
    """Integer bounds [lo, hi] of an integer-valued expression, or None if unknown or not integral."""
    if isinstance(node, Word):
        def digits(position: int, _letter: str) -> Interval:
            heads = position == 0 and not rules.allow_leading_zeros and (
                len(node.letters) > 1 or rules.nonzero_single_letters)
            return (1 if heads else 0), rules.base - 1
        return word_interval(node.letters, rules.base, digits)
    if isinstance(node, Number):
        return (int(node.value), int(node.value)) if node.value.denominator == 1 else None
    if isinstance(node, Unary):
        inner = interval(node.operand, rules)
        return inner if inner is None or node.op == "+" else negated(inner)
    if isinstance(node, Call):
        return _call_interval(node, rules)
    if isinstance(node, BinOp) and node.op in ("+", "-", "*"):
        left, right = interval(node.left, rules), interval(node.right, rules)
        if left is None or right is None:
            return None
        return ARITHMETIC[node.op](left, right)
    return None


def word_interval(cells: str, base: int, digits: Callable[[int, str], Interval]) -> Interval:
    """Bounds of a numeral whose letters each lie within `digits(position, letter)` (literal digits
    are themselves): "7AB" with A, B in [0, 9] -> [700, 799]."""
    low = high = 0
    for position, ch in enumerate(cells):
        digit_low, digit_high = (int(ch), int(ch)) if ch.isdigit() else digits(position, ch)
        low, high = low * base + digit_low, high * base + digit_high
    return low, high


def plus(a: tuple[Value, Value], b: tuple[Value, Value]) -> tuple[Value, Value]:
    """x + y for x in a, y in b."""
    return a[0] + b[0], a[1] + b[1]


def minus(a: tuple[Value, Value], b: tuple[Value, Value]) -> tuple[Value, Value]:
    """x - y for x in a, y in b."""
    return a[0] - b[1], a[1] - b[0]


def times(a: tuple[Value, Value], b: tuple[Value, Value]) -> tuple[Value, Value]:
    """x * y for x in a, y in b: the least and greatest of the corners' products."""
    corners = [x * y for x in a for y in b]
    return min(corners), max(corners)


ARITHMETIC = {"+": plus, "-": minus, "*": times}


def negated(a: tuple[Value, Value]) -> tuple[Value, Value]:
    """-x for x in a."""
    return -a[1], -a[0]


def absolute(a: tuple[Value, Value]) -> tuple[Value, Value]:
    """|x| for x in a: 0 at least where a holds 0, else its end nearest 0."""
    low, high = a
    nearest = low * 0 if low <= 0 <= high else min(abs(low), abs(high))  # 0 of the ends' own type
    return nearest, max(abs(low), abs(high))


def least(parts: Sequence[tuple[Value, Value]]) -> tuple[Value, Value]:
    """min(x, y, ...) for each argument in its interval."""
    return min(p[0] for p in parts), min(p[1] for p in parts)


def greatest(parts: Sequence[tuple[Value, Value]]) -> tuple[Value, Value]:
    """max(x, y, ...) for each argument in its interval."""
    return max(p[0] for p in parts), max(p[1] for p in parts)


def _call_interval(node: Call, rules: Rules) -> Interval | None:
    """Bounds of abs, min, max, dsum, rev and factorial of arguments with bounds (factorial's where it is
    defined, from 0 up; None where it never is)."""
    if node.name not in ("abs", "min", "max", "dsum", "rev", "factorial"):
        return None
    known = [part for part in (interval(arg, rules) for arg in node.args) if part is not None]
    if len(known) < len(node.args) or not known:
        return None
    if node.name == "min":
        return least(known)
    if node.name == "max":
        return greatest(known)
    if node.name == "factorial":
        low, high = known[0]
        return None if high < 0 or high > MAX_FACTORIAL else (math.factorial(max(low, 0)), math.factorial(high))
    if node.name != "abs":
        return (digit_sum_interval if node.name == "dsum" else reversal_interval)(known[0], rules.base)
    return absolute(known[0])


def scaled(coefficient: int, bounds: Interval) -> Interval:
    """coefficient * x for x in bounds."""
    low, high = coefficient * bounds[0], coefficient * bounds[1]
    return (low, high) if low <= high else (high, low)


def digit_count(value: int, base: int) -> int:
    """How many digits |value| has in `base` (0 has one): 999 -> 3."""
    value, count = abs(value), 1
    while value >= base:
        value, count = value // base, count + 1
    return count


def digit_sum_interval(bounds: Interval, base: int) -> Interval:
    """Bounds of dsum(x) for x in bounds: at most the largest |x| and its digits' count times base - 1;
    at least 1 where x is never 0."""
    low, high = bounds
    largest = max(abs(low), abs(high))
    return (1 if low > 0 or high < 0 else 0), min(largest, digit_count(largest, base) * (base - 1))


def reversal_interval(bounds: Interval, base: int) -> Interval:
    """Bounds of rev(x) for x in bounds: x's sign, and fewer digits than base ** digit_count; the
    reversal of a nonzero x ends in x's leading digit, so it is not 0."""
    low, high = bounds
    if low >= 0 and high < base:  # single digits read the same reversed
        return bounds
    bottom = -(base ** digit_count(low, base) - 1) if low < 0 else (1 if low > 0 else 0)
    top = base ** digit_count(high, base) - 1 if high > 0 else (-1 if high < 0 else 0)
    return bottom, top
