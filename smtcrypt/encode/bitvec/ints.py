"""Bounded integers as bit-vectors: every value a signed term exactly as wide as its bounds need,
and every operation built at a width that holds its exact result, so that none overflows."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import z3

from smtcrypt.analysis.arithmetic import by_squaring, euclid_steps, signed_width
from smtcrypt.analysis.bounds import compare_bounds, floordiv_bounds, mod_bounds, power_bounds
from smtcrypt.core.intervals import times
from smtcrypt.encode.base import Unsupported
from smtcrypt.encode.walk import COMPARISONS

MAX_WIDTH = 512  # widest bit-vector the encoding builds; a formula that needs more is declined


@dataclass(frozen=True)
class Z:
    """A bounded integer: a signed bit-vector term of width `signed_width(lo, hi)` whose value lies
    in [lo, hi] wherever it is defined (and the rules hold)."""

    term: z3.BitVecRef
    lo: int
    hi: int

    @property
    def width(self) -> int:
        return self.term.size()

    @property
    def value(self) -> int | None:
        return self.lo if self.lo == self.hi else None


# on bit-vectors as unsigned numbers (non-negative operands: no sign extension needed)
UNSIGNED_COMPARISONS: dict[str, Callable[[z3.BitVecRef, z3.BitVecRef], z3.BoolRef]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": z3.ULT, "<=": z3.ULE, ">": z3.UGT, ">=": z3.UGE}


def fitted(lo: int, hi: int) -> int:
    """The width of [lo, hi] (`signed_width`), where the encoding builds terms that wide: else Unsupported."""
    width = signed_width(lo, hi)
    if width > MAX_WIDTH:
        raise Unsupported(f"a value of {width} bits")
    return width


class BoundedInts:
    """Operations on `Z`s in one context, each exact (no overflow) wherever its operands are defined."""

    def __init__(self, context: z3.Context):
        self.ctx = context

    def const(self, value: int) -> Z:
        return Z(z3.BitVecVal(value, fitted(value, value), self.ctx), value, value)

    def make(self, term: z3.BitVecRef, lo: int, hi: int) -> Z:
        """A Z from a term whose low bits hold a value in [lo, hi]: narrowed to its width."""
        if lo == hi:
            return self.const(lo)
        width = fitted(lo, hi)
        if term.size() > width:
            term = z3.Extract(width - 1, 0, term)
        assert term.size() == width
        return Z(term, lo, hi)

    def at(self, a: Z, width: int) -> z3.BitVecRef:
        """a's term at `width`: extended (zeros above a non-negative value), or truncated (for ring
        operations only)."""
        if width > MAX_WIDTH:
            raise Unsupported(f"a value of {width} bits")
        if width == a.width:
            return a.term
        if width < a.width:
            return z3.Extract(width - 1, 0, a.term)
        return (z3.ZeroExt if a.lo >= 0 else z3.SignExt)(width - a.width, a.term)

    def ring(self, op: Callable, a: Z, b: Z, lo: int, hi: int) -> Z:
        """a op b for op in + - * (or a choice), whose exact result lies in [lo, hi]: computed modulo 2**w
        at that width."""
        if lo == hi:
            return self.const(lo)
        width = signed_width(lo, hi)
        return self.make(op(self.at(a, width), self.at(b, width)), lo, hi)

    def z_add(self, a: Z, b: Z) -> Z:
        if a.value == 0:
            return b
        if b.value == 0:
            return a
        return self.ring(lambda x, y: x + y, a, b, a.lo + b.lo, a.hi + b.hi)

    def z_neg(self, a: Z) -> Z:
        return self.ring(lambda x, _: -x, a, a, -a.hi, -a.lo)

    def z_sub(self, a: Z, b: Z) -> Z:
        return a if b.value == 0 else self.ring(lambda x, y: x - y, a, b, a.lo - b.hi, a.hi - b.lo)

    def z_mul(self, a: Z, b: Z, bounds: tuple[int, int] | None = None) -> Z:
        """a * b; `bounds` may give tighter bounds known for the product (a power)."""
        for first, second in ((a, b), (b, a)):
            if first.value == 0:
                return first
            if first.value == 1:
                return second
            if first.value == -1:
                return self.z_neg(second)
        if bounds is None:
            bounds = times((a.lo, a.hi), (b.lo, b.hi))
        return self.ring(lambda x, y: x * y, a, b, *bounds)

    def scale(self, a: Z, factor: int) -> Z:
        return self.z_mul(a, self.const(factor))

    def z_abs(self, a: Z) -> Z:
        if a.lo >= 0:
            return a
        if a.hi <= 0:
            return self.z_neg(a)
        lo, hi = 0, max(-a.lo, a.hi)
        width = max(a.width, signed_width(lo, hi))
        term = self.at(a, width)
        return self.make(z3.If(term < 0, -term, term), lo, hi)

    def z_ite(self, condition: z3.BoolRef, a: Z, b: Z) -> Z:
        if z3.is_true(condition):
            return a
        if z3.is_false(condition):
            return b
        if a.value is not None and a.value == b.value:
            return a
        return self.ring(lambda x, y: z3.If(condition, x, y), a, b, min(a.lo, b.lo), max(a.hi, b.hi))

    def z_compare(self, op: str, a: Z, b: Z) -> z3.BoolRef:
        known = compare_bounds(op, (a.lo, a.hi), (b.lo, b.hi))  # where the bounds alone decide it
        if known is not None:
            return z3.BoolVal(known, self.ctx)
        width = max(a.width, b.width)
        x, y = self.at(a, width), self.at(b, width)
        return (UNSIGNED_COMPARISONS if a.lo >= 0 and b.lo >= 0 else COMPARISONS)[op](x, y)

    def nonzero(self, a: Z) -> z3.BoolRef:
        return self.z_compare("!=", a, self.const(0))

    def z_floordiv(self, x: Z, y: Z) -> Z:
        """Python's x // y, exact wherever y != 0."""
        lo, hi = floordiv_bounds((x.lo, x.hi), (y.lo, y.hi))
        if y.value == 1:
            return x
        if lo == hi:
            return self.const(lo)
        if x.lo >= 0 and y.lo >= 0:
            width = max(x.width, y.width)
            return self.make(z3.UDiv(self.at(x, width), self.at(y, width)), lo, hi)
        # truncating division, one less where the remainder is nonzero and the signs differ; the
        # truncated quotient may be one above the floor
        width = max(x.width, y.width, signed_width(lo - 1, hi + 1))
        a, b = self.at(x, width), self.at(y, width)
        quotient, remainder = a / b, z3.SRem(a, b)
        adjust = z3.And(remainder != 0, z3.Xor(remainder < 0, b < 0))
        return self.make(z3.If(adjust, quotient - 1, quotient), lo, hi)

    def z_mod(self, x: Z, y: Z) -> Z:
        """Python's x % y (the sign of y), exact wherever y != 0."""
        lo, hi = mod_bounds((x.lo, x.hi), (y.lo, y.hi))
        if lo == hi:
            return self.const(lo)
        width = max(x.width, y.width, signed_width(lo, hi))
        a, b = self.at(x, width), self.at(y, width)
        return self.make(z3.URem(a, b) if x.lo >= 0 and y.lo >= 0 else a % b, lo, hi)

    def z_half(self, a: Z) -> Z:
        """a / 2 for an even a: an arithmetic shift."""
        return self.const(a.value // 2) if a.value is not None else self.make(a.term >> 1, a.lo // 2, a.hi // 2)

    def z_power(self, a: Z, k: int) -> Z:
        """a ** k, k >= 1, by repeated squaring; every partial power within its own tight bounds."""
        if a.value is not None:
            return self.const(a.value ** k)
        return by_squaring(a, k, lambda x, y, power: self.z_mul(x, y, power_bounds(a.lo, a.hi, power)))

    def z_gcd(self, a: Z, b: Z) -> Z:
        """gcd(a, b) of non-negative a and b: Euclid's algorithm unrolled for as many steps as Lamé's
        bound allows, b the argument with the smaller bound. Each remainder is as wide as its own
        bounds (below y and at most (x - 1) // 2), so the widths halve every two steps."""
        if a.value is not None and b.value is not None:
            return self.const(math.gcd(a.value, b.value))
        if b.hi > a.hi:
            a, b = b, a
        if b.value == 0:
            return a
        positive = [z.hi for z in (a, b) if z.lo > 0]
        lo, hi = (1 if positive else 0), (min(positive) if positive else a.hi)
        # below, the bounds hold while every earlier remainder is nonzero: the only values used
        x, y = Z(b.term, max(b.lo, 1), b.hi) if b.lo == 0 and b.hi > 1 else b, self.z_mod(a, b)
        finals: list[tuple[z3.BoolRef, Z]] = []  # (y is 0, x): the gcd, if no earlier y was 0
        for _ in range(euclid_steps(b.hi)):
            if y.value == 0:
                break
            finals.append((y.term == 0, x))
            bound = min(y.hi - 1, (x.hi - 1) // 2)
            width = max(x.width, y.width)
            x, y = y, self.make(z3.URem(self.at(x, width), self.at(y, width)), 0, bound) if bound > 0 else \
                self.const(0)
        result = x
        for done, value in reversed(finals):
            result = self.z_ite(done, value, result)
        if b.lo == 0:
            result = self.z_ite(b.term == 0, a, result)
        return self.make(result.term, lo, hi)

    def weighted_sum(self, terms: list[tuple[int, Z]], constant: int) -> Z:
        """sum(weight * z) + constant, bounded term by term, computed at the width of its bounds
        (a ring operation: each term may be truncated to it)."""
        lo = hi = constant
        for weight, z in terms:
            ends = (weight * z.lo, weight * z.hi)
            lo, hi = lo + min(ends), hi + max(ends)
        if lo == hi:
            return self.const(lo)
        width = fitted(lo, hi)
        parts = []
        for weight, z in terms:
            if weight and z.value != 0:
                term = self.at(z, width)
                parts.append(term if weight == 1 else z3.BitVecVal(weight, width, self.ctx) * term)
        if constant:
            parts.append(z3.BitVecVal(constant, width, self.ctx))
        return self.make(parts[0] if len(parts) == 1 else z3.Sum(*parts), lo, hi)
