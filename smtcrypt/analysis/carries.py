"""Carries: the columns of a linear equation, with the tightest carry bounds their digits allow. The
column encodings, the linear backend and the explainer read the same columns from here, so that they agree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from smtcrypt.core.intervals import Interval, scaled

T = TypeVar("T")


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
