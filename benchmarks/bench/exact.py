"""Exact arithmetic shared by the reference methods: integer roots, powers, quotients, constants."""

from __future__ import annotations

import math
import operator
from fractions import Fraction

from smtcrypt.core.tree import BinOp, Expr, Number, Unary

COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge}


class NotRational(ArithmeticError):
    """An irrational or complex root: the candidate is not a solution."""


def floor_root(n: int, k: int) -> int:
    """The largest r with r**k <= n, for n >= 0 (integer Newton iteration from above)."""
    if n < 2:
        return n
    if k == 2:
        return math.isqrt(n)
    r = 1 << (n.bit_length() // k + 1)  # above the root
    while True:
        s = ((k - 1) * r + n // r ** (k - 1)) // k
        if s >= r:
            return r
        r = s


def exact_root(n: int, k: int) -> int:
    r = floor_root(n, k)
    if r ** k != n:
        raise NotRational(f"{n} is not a perfect {k}-th power")
    return r


def exact_power(base, exponent):
    """base ** exponent exactly: ints stay ints, negative powers become Fractions, p/q takes a root."""
    if isinstance(exponent, Fraction) and exponent.denominator != 1:
        if isinstance(base, int):  # the common case (`EVIL**(1/2)`): an integer root, no Fraction
            if base < 0:
                raise NotRational("root of a negative number")
            base, exponent = exact_root(base, exponent.denominator), exponent.numerator
            return exact_power(base, exponent)
        base = Fraction(base)
        if base < 0:
            raise NotRational("root of a negative number")
        q = exponent.denominator
        top, bottom = exact_root(base.numerator, q), exact_root(base.denominator, q)
        base = top if bottom == 1 else Fraction(top, bottom)
        exponent = exponent.numerator
    exponent = int(exponent)
    if exponent >= 0:
        return base ** exponent
    if base == 0:
        raise ZeroDivisionError("zero to a negative power")
    return Fraction(base) ** exponent


def exact_divide(left, right):
    if isinstance(left, int) and isinstance(right, int):
        return Fraction(left, right)  # raises ZeroDivisionError on 0
    if right == 0:
        raise ZeroDivisionError("division by zero")
    return Fraction(left) / right


def as_int(value) -> int:
    if isinstance(value, Fraction):
        if value.denominator != 1:
            raise NotRational("range() of a non-integer")
        return value.numerator
    return int(value)


def constant_value(node: Expr) -> Fraction | None:
    """The exact value of a letter-free expression of numbers and + - * / (like `(1/2)`), else None."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Unary):
        inner = constant_value(node.operand)
        return None if inner is None else (-inner if node.op == "-" else inner)
    if isinstance(node, BinOp) and node.op in ("+", "-", "*", "/"):
        left, right = constant_value(node.left), constant_value(node.right)
        if left is None or right is None or (node.op == "/" and right == 0):
            return None
        if node.op == "/":
            return left / right
        return {"+": operator.add, "-": operator.sub, "*": operator.mul}[node.op](left, right)
    return None
