"""Place values, intervals and carries: the arithmetic of numerals that every stage shares.

A word is a sum of place values (`7AB` = 700 + 10*A + B), an integer expression has bounds that
its words' digits imply, and a column of a sum passes on a carry whose range the column's bounds
fix. The checker, the encoders and the backends all read these from here, so that they agree.
(`verify.py` keeps its own word arithmetic on purpose: the exact re-check shares nothing with
the encoders.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Generic, TypeVar

from .tree import BinOp, Call, Expr, Number, Unary, Word

if TYPE_CHECKING:
    from .check import Rules

Interval = tuple[int, int]  # [low, high], both included
T = TypeVar("T")


def place_values(digits: str, base: int) -> tuple[dict[str, int], int]:
    """A numeral as letter weights and the value of its literal digits: "7AB" -> ({"A": 10, "B": 1}, 700);
    a repeated letter adds up: "ODD" -> ({"O": 100, "D": 11}, 0)."""
    weights: dict[str, int] = {}
    literal = 0
    for place, char in enumerate(reversed(digits)):
        if char.isdigit():
            literal += int(char) * base ** place
        else:
            weights[char] = weights.get(char, 0) + base ** place
    return weights, literal


def root_floor(n: int, q: int) -> int:
    """The largest r >= 0 with r**q <= n (0 for n < 1), by Newton's method from above."""
    if n < 2:
        return max(n, 0)
    r = 1 << (n.bit_length() // q + 1)
    while r ** q > n:
        r = ((q - 1) * r + n // r ** (q - 1)) // q
    while (r + 1) ** q <= n:
        r += 1
    return r


def repeating_scale(fixed: str, period: str, base: int) -> int:
    """The denominator of whole.fixed(period): B^f * (B^p - 1)."""
    return base ** len(fixed) * (base ** len(period) - 1)


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
        parts = [interval(arg, rules) for arg in node.args]
        if any(part is None for part in parts):
            return None
        if node.name == "min":
            return (min(p[0] for p in parts), min(p[1] for p in parts))  # type: ignore[index]
        if node.name == "max":
            return (max(p[0] for p in parts), max(p[1] for p in parts))  # type: ignore[index]
        low, high = parts[0]  # type: ignore[misc]
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


class Column(Generic[T]):
    """One column of `sum(base**p * column_p) + constant = 0` by carries: `terms` (coefficient,
    digit) plus `fixed` plus the carry in (a variable if `carry_in`) equals base times the carry
    out, a variable within `carry_out`; the top column has no carry out (`carry_out` None): its total is 0."""

    __slots__ = ("position", "terms", "fixed", "carry_in", "carry_out")

    def __init__(self, position: int, terms: list[tuple[int, T]], fixed: int, carry_in: bool,
                 carry_out: Interval | None):
        self.position, self.terms, self.fixed = position, terms, fixed
        self.carry_in, self.carry_out = carry_in, carry_out


def columns_by_carries(columns: dict[int, list[tuple[int, T]]], constant: int, base: int,
                       bounds: Callable[[T], Interval]) -> list[Column[T]] | None:
    """The columns of an equation with the tightest carry bounds their digits allow, or None
    where no carries can balance them (the equation has no solution). Columns with no digit
    and a known carry are folded into the next one."""
    digits = []  # the constant's digits, lowest first, with its sign
    rest = abs(constant)
    while rest:
        rest, digit = divmod(rest, base)
        digits.append(digit if constant > 0 else -digit)
    top = max([*columns, len(digits) - 1, 0])
    plan: list[Column[T]] = []
    known: int | None = 0  # the carry in, when it is a constant
    low = high = 0  # the carry in's bounds
    for position in range(top + 1):
        terms = [(c, d) for c, d in columns.get(position, ()) if c]
        fixed = digits[position] if position < len(digits) else 0
        if known is not None:
            fixed, low, high = fixed + known, 0, 0
            if not terms:
                if fixed % base:
                    return None
                known = fixed // base
                continue
        ranges = [scaled(c, bounds(d)) for c, d in terms]
        smallest = fixed + low + sum(r[0] for r in ranges)
        largest = fixed + high + sum(r[1] for r in ranges)
        low, high = -(-smallest // base), largest // base  # the carry out: ceil and floor
        if low > high:
            return None
        plan.append(Column(position, terms, fixed, known is None, (low, high)))
        known = None
    if known is not None:  # nothing may be carried out of the top column
        return plan if known == 0 else None
    if not low <= 0 <= high:
        return None
    plan[-1].carry_out = None
    return plan

