"""Intervals: the integer bounds a term's digits imply under the puzzle's rules.

The checker bounds variable exponents with them, and the encoders size their terms with them, so
they live beside the language rather than in `analysis/`: the checker (in `core`) needs them.
"""

from __future__ import annotations

from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import BinOp, Call, Expr, Number, Unary, Word

Interval = tuple[int, int]  # [low, high], both included


def interval(node: Expr, rules: Rules) -> Interval | None:
    """Integer bounds [lo, hi] of an integer-valued expression, or None if unknown or not integral."""
    if isinstance(node, Word):
        low = high = 0
        for position, ch in enumerate(node.letters):
            if ch.isdigit():
                digit_low = digit_high = int(ch)
            else:
                heads = position == 0 and not rules.allow_leading_zeros and (
                    len(node.letters) > 1 or rules.nonzero_single_letters)
                digit_low, digit_high = (1 if heads else 0), rules.base - 1
            low, high = low * rules.base + digit_low, high * rules.base + digit_high
        return (low, high)
    if isinstance(node, Number):
        return (int(node.value), int(node.value)) if node.value.denominator == 1 else None
    if isinstance(node, Unary):
        inner = interval(node.operand, rules)
        return inner if inner is None or node.op == "+" else (-inner[1], -inner[0])
    if isinstance(node, Call):
        return _call_interval(node, rules)
    if isinstance(node, BinOp) and node.op in ("+", "-", "*"):
        left, right = interval(node.left, rules), interval(node.right, rules)
        if left is None or right is None:
            return None
        if node.op == "+":
            return (left[0] + right[0], left[1] + right[1])
        if node.op == "-":
            return (left[0] - right[1], left[1] - right[0])
        corners = [a * b for a in left for b in right]
        return (min(corners), max(corners))
    return None


def _call_interval(node: Call, rules: Rules) -> Interval | None:
    """Bounds of abs, min, max, dsum and rev of arguments with bounds."""
    if node.name not in ("abs", "min", "max", "dsum", "rev"):
        return None
    known = [part for part in (interval(arg, rules) for arg in node.args) if part is not None]
    if len(known) < len(node.args) or not known:
        return None
    if node.name == "min":
        return (min(p[0] for p in known), min(p[1] for p in known))
    if node.name == "max":
        return (max(p[0] for p in known), max(p[1] for p in known))
    if node.name != "abs":
        return (digit_sum_interval if node.name == "dsum" else reversal_interval)(known[0], rules.base)
    low, high = known[0]
    return (0 if low <= 0 <= high else min(abs(low), abs(high)), max(abs(low), abs(high)))


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
