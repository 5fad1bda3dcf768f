"""Exact bounds of the general encoding's terms, from the formula's tree, wherever a term is defined.

The lookup tables (roots of bounded numerators) and the number-theory words (`dsum`, `rev`,
`is_prime`, ... of a term: a table of values, or digits as bounded unknowns) need bounds on a
term's value: where they are known the encoding stays bounded and often linear; where they are
not it falls back to witnesses or recursive functions.
"""

from __future__ import annotations

import math
from fractions import Fraction

from smtcrypt.analysis.arithmetic import repeating_numerator_bounds
from smtcrypt.analysis.bounds import RationalInterval, call_bounds, power_bounds, quotient_bounds, remainder_bounds
from smtcrypt.analysis.unknowns import Values
from smtcrypt.core.check import Problem
from smtcrypt.core.intervals import (
    ARITHMETIC,
    Interval,
    digit_sum_interval,
    greatest,
    interval,
    least,
    negated,
    reversal_interval,
)
from smtcrypt.core.numerals import repeating_scale
from smtcrypt.core.rules import PREDICATES
from smtcrypt.core.tree import BinOp, BoolOp, Call, Compare, Expr, Name, Not, Number, Repeating, Unary, children

MAX_BOUNDED_POWER = 64  # largest constant exponent whose power's bounds a number-theory word's argument is given


class TermBounds:
    """Bounds of rational terms (`value_bounds`), of any term (`term_bounds`) and of the integer a
    term is taken as (`whole_bounds`)."""

    problem: Problem
    unknown_values: dict[str, Values] | None  # the integer unknowns' values, where the formula bounds every one

    def value_bounds(self, node: Expr) -> RationalInterval | None:
        """Exact bounds of a rational term's value, where each of its terms has them."""
        whole = interval(node, self.problem.rules)
        if whole is not None:
            return Fraction(whole[0]), Fraction(whole[1])
        if isinstance(node, Number):
            return node.value, node.value
        if isinstance(node, Repeating):
            base = self.problem.rules.base
            numerator = repeating_numerator_bounds(node, base, self.problem.allowed)
            if numerator is None:
                return None
            scale = repeating_scale(node.fixed, node.period, base)
            return Fraction(numerator[0], scale), Fraction(numerator[1], scale)
        if isinstance(node, Unary):
            inner = self.value_bounds(node.operand)
            return inner if inner is None or node.op == "+" else negated(inner)
        if isinstance(node, BinOp) and node.op in ARITHMETIC:
            left, right = self.value_bounds(node.left), self.value_bounds(node.right)
            if left is None or right is None:
                return None
            return ARITHMETIC[node.op](left, right)
        return None

    def whole_bounds(self, node: Expr) -> Interval | None:
        """Bounds of the integer a term's value is taken as (a fraction's floor, which the word then
        refuses), wherever the term is defined; None where some part of it has none."""
        bounds = interval(node, self.problem.rules)
        if bounds is not None:
            return bounds
        value = self.term_bounds(node)
        return None if value is None else (math.floor(value[0]), math.floor(value[1]))

    def term_bounds(self, node: Expr) -> RationalInterval | None:
        """Exact bounds of a term's value wherever it is defined: those of `value_bounds`, and of
        bounded unknowns, constant powers, quotients, the functions and truth values."""
        known = self.value_bounds(node)
        if known is not None:
            return known
        if isinstance(node, Name):
            values = (self.unknown_values or {}).get(node.name)
            return (Fraction(values[0]), Fraction(values[-1])) if values else None
        if isinstance(node, (Compare, Not)) or (isinstance(node, Call) and node.name in PREDICATES):
            return Fraction(0), Fraction(1)
        found = [self.term_bounds(child) for child in children(node)]
        parts = [part for part in found if part is not None]
        if len(parts) < len(found) or not parts:
            return None
        if isinstance(node, Unary):
            return negated(parts[0]) if node.op == "-" else parts[0]
        if isinstance(node, BoolOp):  # the value of one of the operands
            return least(parts)[0], greatest(parts)[1]
        if isinstance(node, Call) and node.name in ("abs", "min", "max", "dsum", "rev", "gcd"):
            return self.call_bounds(node.name, parts)
        if isinstance(node, BinOp):
            return self.binary_bounds(node, parts[0], parts[1])
        return None

    def call_bounds(self, name: str, parts: list[RationalInterval]) -> RationalInterval:
        known = call_bounds(name, parts)  # min, max, abs
        if known is not None:
            return known
        if name == "gcd":
            return Fraction(0), Fraction(math.floor(max(abs(end) for part in parts for end in part)))
        whole = (math.floor(parts[0][0]), math.floor(parts[0][1]))
        word = digit_sum_interval if name == "dsum" else reversal_interval
        bounds = word(whole, self.problem.rules.base)
        return Fraction(bounds[0]), Fraction(bounds[1])

    def binary_bounds(self, node: BinOp, left: RationalInterval, right: RationalInterval) -> RationalInterval | None:
        if node.op in ARITHMETIC:
            return ARITHMETIC[node.op](left, right)
        if node.op == "**":
            exponent = self.problem.constant_exponents.get(node)
            if exponent is None or exponent.denominator != 1 or not 1 <= exponent <= MAX_BOUNDED_POWER:
                return None
            return power_bounds(left[0], left[1], int(exponent))
        quotient = quotient_bounds(left, right)  # None: a divisor that may be 0 or near it
        if quotient is None or node.op == "/":
            return quotient
        if node.op == "//":
            return Fraction(math.floor(quotient[0])), Fraction(math.floor(quotient[1]))
        return remainder_bounds(right)
