"""Exact bounds of the general encoding's terms wherever they are defined: with them its tables and
number-theory words stay bounded and often linear; without, it falls back to witnesses or recursive
functions."""

from __future__ import annotations

import math
from fractions import Fraction

from smtcrypt.analysis.arithmetic import repeating_numerator_bounds
from smtcrypt.analysis.bounds import RationalInterval, ValueBounds, power_bounds, quotient_bounds, remainder_bounds
from smtcrypt.analysis.unknowns import Values
from smtcrypt.core.check import Problem
from smtcrypt.core.intervals import Interval, digit_sum_interval, greatest, interval, least, reversal_interval
from smtcrypt.core.numerals import repeating_scale
from smtcrypt.core.rules import PREDICATES
from smtcrypt.core.tree import BinOp, BoolOp, Call, Compare, Expr, Name, Not, Repeating, Word

MAX_BOUNDED_POWER = 64  # largest constant exponent whose power's bounds a number-theory word's argument is given


class TermBounds(ValueBounds):
    """Bounds of any term (`of`) and of the integer a term is taken as (`whole_bounds`): words by the
    rules, bounded unknowns, repeating decimals, truth values, constant powers, quotients and the words."""

    problem: Problem
    unknown_values: dict[str, Values] | None  # the integer unknowns' values, where the formula bounds every one

    def whole_bounds(self, node: Expr) -> Interval | None:
        """Bounds of the integer a term's value is taken as (a fraction's floor, which the word then
        refuses), wherever the term is defined; None where some part of it has none."""
        bounds = interval(node, self.problem.rules)
        if bounds is not None:
            return bounds
        value = self.of(node)
        return None if value is None else (math.floor(value[0]), math.floor(value[1]))

    def leaf(self, node: Expr) -> RationalInterval | None:
        whole = interval(node, self.problem.rules) if isinstance(node, Word) else None
        if whole is not None:
            return Fraction(whole[0]), Fraction(whole[1])
        if isinstance(node, Repeating):
            base = self.problem.rules.base
            numerator = repeating_numerator_bounds(node, base, self.problem.allowed)
            if numerator is None:
                return None
            scale = repeating_scale(node.fixed, node.period, base)
            return Fraction(numerator[0], scale), Fraction(numerator[1], scale)
        if isinstance(node, Name):
            values = (self.unknown_values or {}).get(node.name)
            return (Fraction(values[0]), Fraction(values[-1])) if values else None
        if isinstance(node, (Compare, Not)) or (isinstance(node, Call) and node.name in PREDICATES):
            return Fraction(0), Fraction(1)
        return None

    def other(self, node: Expr, parts: list[RationalInterval]) -> RationalInterval | None:
        if isinstance(node, BoolOp):  # the value of one of the operands
            return least(parts)[0], greatest(parts)[1]
        if isinstance(node, Call) and node.name == "gcd":
            return Fraction(0), Fraction(math.floor(max(abs(end) for part in parts for end in part)))
        if isinstance(node, Call) and node.name in ("dsum", "rev"):
            word = digit_sum_interval if node.name == "dsum" else reversal_interval
            bounds = word((math.floor(parts[0][0]), math.floor(parts[0][1])), self.problem.rules.base)
            return Fraction(bounds[0]), Fraction(bounds[1])
        if not isinstance(node, BinOp):
            return None
        left, right = parts
        if node.op == "**":
            exponent = self.problem.constant_exponents.get(node)
            if exponent is None or exponent.denominator != 1 or not 1 <= exponent <= MAX_BOUNDED_POWER:
                return None
            return power_bounds(left[0], left[1], int(exponent))
        quotient = quotient_bounds(left, right)  # None: a divisor that may be 0 or near it
        if quotient is None or node.op == "%":
            return None if quotient is None else remainder_bounds(right)
        return Fraction(math.floor(quotient[0])), Fraction(math.floor(quotient[1]))
