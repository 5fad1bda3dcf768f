"""Exact bounds of a formula's values, with every letter in a box of digits (an interval).

The explainer's rule for a constraint that is neither a sum nor a product: what a person reads
from the sizes alone (a three-digit word is at least 100). Fractions, so that a quotient's bounds
are exact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction

from smtcrypt.core.numerals import root_floor
from smtcrypt.core.tree import BinOp, BoolOp, Call, Compare, Expr, Not, Number, Unary, Word

Box = Mapping[str, tuple[int, int]]  # each letter's least and greatest digit
Interval = tuple[Fraction, Fraction]

# A power p/q is bounded only for small p and q: the bounds' integers grow with p, their roots with q.
MAX_ROOT_PARTS = 64


def value_bounds(node: Expr, box: Box, base: int) -> Interval | None:
    """Exact bounds of a value with every letter within its box; None where not worked out."""
    if isinstance(node, Word):
        return _word_bounds(node, box, base)
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Unary):
        inner = value_bounds(node.operand, box, base)
        return inner if inner is None or node.op == "+" else (-inner[1], -inner[0])
    if isinstance(node, BinOp):
        left, right = value_bounds(node.left, box, base), value_bounds(node.right, box, base)
        if left is None or right is None:
            return None
        return _binop_bounds(node.op, left, right)
    if isinstance(node, Call):
        parts = [value_bounds(arg, box, base) for arg in node.args]
        known = [part for part in parts if part is not None]
        return _call_bounds(node.name, known) if len(known) == len(parts) else None
    return None


def _word_bounds(word: Word, box: Box, base: int) -> Interval:
    low = high = 0
    for ch in word.letters:
        a, b = (int(ch, 36), int(ch, 36)) if ch.isdigit() else box[ch]
        low, high = low * base + a, high * base + b
    return Fraction(low), Fraction(high)


def _binop_bounds(op: str, left: Interval, right: Interval) -> Interval | None:
    if op == "+":
        return left[0] + right[0], left[1] + right[1]
    if op == "-":
        return left[0] - right[1], left[1] - right[0]
    if op == "*":
        corners = [a * b for a in left for b in right]
        return min(corners), max(corners)
    if op == "/" and (right[0] > 0 or right[1] < 0):
        corners = [a / b for a in left for b in right]
        return min(corners), max(corners)
    if op == "**" and right[0] == right[1] and left[0] >= 0:
        return _power_bounds(left, right[0])
    return None


def _power_bounds(base: Interval, exponent: Fraction) -> Interval | None:
    """A non-negative interval to a constant power: whole powers exactly, roots to the next integer."""
    if exponent.denominator == 1 and exponent >= 0:
        return base[0] ** int(exponent), base[1] ** int(exponent)
    if exponent > 0 and exponent.numerator <= MAX_ROOT_PARTS and exponent.denominator <= MAX_ROOT_PARTS:
        p, q = exponent.numerator, exponent.denominator
        low = math.floor(base[0]) ** p
        high = math.ceil(base[1]) ** p
        return Fraction(root_floor(low, q)), Fraction(root_floor(high, q) + 1)
    return None


def _call_bounds(name: str, parts: list[Interval]) -> Interval | None:
    if name == "min":
        return min(p[0] for p in parts), min(p[1] for p in parts)
    if name == "max":
        return max(p[0] for p in parts), max(p[1] for p in parts)
    if name == "abs":
        low, high = parts[0]
        return (Fraction(0) if low <= 0 <= high else min(abs(low), abs(high))), max(abs(low), abs(high))
    return None


def truth_bounds(node: Expr, box: Box, base: int) -> bool | None:
    """True or False if the bounds decide the condition for every value in the box, else None."""
    if isinstance(node, Compare):
        operands = [value_bounds(op, box, base) for op in node.operands]
        results = [None if left is None or right is None else compare_bounds(op, left, right)
                   for op, left, right in zip(node.ops, operands, operands[1:])]
        if any(r is False for r in results):
            return False
        return True if all(r is True for r in results) else None
    if isinstance(node, BoolOp):
        parts = [truth_bounds(op, box, base) for op in node.operands]
        if node.op == "and":
            return False if False in parts else (True if all(p is True for p in parts) else None)
        return True if True in parts else (False if all(p is False for p in parts) else None)
    if isinstance(node, Not):
        inner = truth_bounds(node.operand, box, base)
        return None if inner is None else not inner
    return None


def _equal(a: Interval, b: Interval) -> bool | None:
    if a[1] < b[0] or b[1] < a[0]:
        return False
    return True if a[0] == a[1] == b[0] == b[1] else None


def _less(a: Interval, b: Interval) -> bool | None:
    return True if a[1] < b[0] else (False if a[0] >= b[1] else None)


def _at_most(a: Interval, b: Interval) -> bool | None:
    return True if a[1] <= b[0] else (False if a[0] > b[1] else None)


def _negated(decided: bool | None) -> bool | None:
    return None if decided is None else not decided


# the parser writes every comparison with one of these; membership (`in`) is not decided by bounds
COMPARISONS: dict[str, Callable[[Interval, Interval], bool | None]] = {
    "==": _equal,
    "!=": lambda a, b: _negated(_equal(a, b)),
    "<": _less,
    "<=": _at_most,
    ">": lambda a, b: _less(b, a),
    ">=": lambda a, b: _at_most(b, a),
}


def compare_bounds(op: str, a: Interval, b: Interval) -> bool | None:
    """Whether `a op b` holds for every value in the intervals (True), for none (False), or depends (None)."""
    compare = COMPARISONS.get(op)
    return None if compare is None else compare(a, b)
