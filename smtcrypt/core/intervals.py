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
                heads = position == 0 and len(node.letters) > 1 and not rules.allow_leading_zeros
                digit_low, digit_high = (1 if heads else 0), rules.base - 1
            low, high = low * rules.base + digit_low, high * rules.base + digit_high
        return (low, high)
    if isinstance(node, Number):
        return (int(node.value), int(node.value)) if node.value.denominator == 1 else None
    if isinstance(node, Unary):
        inner = interval(node.operand, rules)
        return inner if inner is None or node.op == "+" else (-inner[1], -inner[0])
    if isinstance(node, Call) and node.name in ("abs", "min", "max"):
        known = [part for part in (interval(arg, rules) for arg in node.args) if part is not None]
        if len(known) < len(node.args):
            return None
        if node.name == "min":
            return (min(p[0] for p in known), min(p[1] for p in known))
        if node.name == "max":
            return (max(p[0] for p in known), max(p[1] for p in known))
        low, high = known[0]
        return (0 if low <= 0 <= high else min(abs(low), abs(high)), max(abs(low), abs(high)))
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


def scaled(coefficient: int, bounds: Interval) -> Interval:
    """coefficient * x for x in bounds."""
    low, high = coefficient * bounds[0], coefficient * bounds[1]
    return (low, high) if low <= high else (high, low)

