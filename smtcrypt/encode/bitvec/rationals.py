"""Exact fractions of bounded integers: num / den, two `Z`s with den > 0 wherever the value is defined."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

import z3

from smtcrypt.analysis.arithmetic import signed_width
from smtcrypt.encode.base import Ok
from smtcrypt.encode.bitvec.ints import BoundedInts, Z


@dataclass(frozen=True)
class BitVecRat:
    """An exact value num/den, den > 0 wherever the value is defined."""

    num: Z
    den: Z
    letter: str | None = None  # the value is this letter's digit

    @property
    def const(self) -> Fraction | None:
        if self.num.value is None or self.den.value is None or self.den.value <= 0:
            return None
        return Fraction(self.num.value, self.den.value)


Value: TypeAlias = BitVecRat | z3.BoolRef


class BitVecRationals(BoundedInts):
    """The arithmetic of `BitVecRat`s: the value algebra the tree walk needs, over bounded integers."""

    def fraction(self, value: Fraction) -> BitVecRat:
        return BitVecRat(self.const(value.numerator), self.const(value.denominator))

    def integer(self, z: Z) -> BitVecRat:
        return BitVecRat(z, self.const(1))

    def rat(self, value: Value) -> BitVecRat:
        if isinstance(value, BitVecRat):
            return value
        if z3.is_true(value) or z3.is_false(value):
            return self.fraction(Fraction(int(z3.is_true(value))))
        term = z3.If(value, z3.BitVecVal(1, 2, self.ctx), z3.BitVecVal(0, 2, self.ctx))
        return self.integer(Z(term, 0, 1))

    def truthy(self, value: Value) -> z3.BoolRef:
        return self.nonzero(value.num) if isinstance(value, BitVecRat) else value

    def common(self, a: BitVecRat, b: BitVecRat) -> tuple[Z, Z, Z | None]:
        """Numerators over a common positive denominator: (a', b', den) with a = a'/den and
        b = b'/den. With a variable denominator, den is None and a' = a.num * b.den, b' = b.num * a.den."""
        da, db = a.den.value, b.den.value
        if da is not None and db is not None:
            common = math.lcm(da, db)
            return self.scale(a.num, common // da), self.scale(b.num, common // db), self.const(common)
        return self.z_mul(a.num, b.den), self.z_mul(b.num, a.den), None

    def add(self, a: BitVecRat, b: BitVecRat) -> BitVecRat:
        if a.const is not None and b.const is not None:
            return self.fraction(a.const + b.const)
        first, second, den = self.common(a, b)
        return BitVecRat(self.z_add(first, second), den if den is not None else self.z_mul(a.den, b.den))

    def negate(self, a: BitVecRat) -> BitVecRat:
        return BitVecRat(self.z_neg(a.num), a.den)

    def multiply(self, a: BitVecRat, b: BitVecRat) -> BitVecRat:
        if a.const is not None and b.const is not None:
            return self.fraction(a.const * b.const)
        for first, second in ((a, b), (b, a)):
            if first.const is not None and second.den.value is not None:  # constant * (num / constant)
                factor, den = first.const, second.den.value
                shared = math.gcd(factor.numerator, factor.denominator * den)
                return BitVecRat(self.scale(second.num, factor.numerator // shared),
                           self.const(factor.denominator * den // shared))
        return BitVecRat(self.z_mul(a.num, b.num), self.z_mul(a.den, b.den))

    def divide(self, a: BitVecRat, b: BitVecRat) -> BitVecRat:
        """a / b exactly, with a positive denominator (where b != 0)."""
        if b.const is not None and b.const != 0:
            return self.multiply(a, self.fraction(1 / b.const))
        x, y, _ = self.common(a, b)  # a / b = x / y
        if y.lo >= 0:
            return BitVecRat(x, self.positive(y))
        if y.hi <= 0:
            return BitVecRat(self.z_neg(x), self.positive(self.z_neg(y)))
        negative = self.z_compare("<", y, self.const(0))
        return BitVecRat(self.z_ite(negative, self.z_neg(x), x), self.positive(self.z_abs(y)))

    def positive(self, y: Z) -> Z:
        """y >= 0, known to be nonzero where defined: its lower bound raised to 1."""
        if y.lo >= 1:
            return y
        return self.make(self.at(y, signed_width(1, y.hi)), 1, y.hi) if y.hi > 1 else self.const(1)

    def integral(self, value: BitVecRat) -> tuple[Z, Ok]:
        """The value as an integer, and the condition that it is one."""
        if value.den.value == 1:
            return value.num, True
        if value.const is not None:
            return self.const(math.floor(value.const)), value.const.denominator == 1
        remainder = self.z_mod(value.num, value.den)
        return self.z_floordiv(value.num, value.den), self.z_compare("==", remainder, self.const(0))

    def compare(self, op: str, a: BitVecRat, b: BitVecRat) -> z3.BoolRef:
        """a op b, cross-multiplied (both denominators are positive)."""
        first, second, _ = self.common(a, b)
        return self.z_compare(op, first, second)

    def choose(self, condition: z3.BoolRef, then: Value, otherwise: Value) -> Value:
        if not isinstance(then, BitVecRat) and not isinstance(otherwise, BitVecRat):
            return z3.If(condition, then, otherwise)
        a, b = self.rat(then), self.rat(otherwise)
        if a.den.value is not None and b.den.value is not None:
            first, second, den = self.common(a, b)
            assert den is not None
            return BitVecRat(self.z_ite(condition, first, second), den)
        return BitVecRat(self.z_ite(condition, a.num, b.num), self.z_ite(condition, a.den, b.den))

    def inverse(self, a: BitVecRat) -> tuple[BitVecRat, Ok]:
        """1 / a, and the condition a != 0."""
        return self.divide(self.fraction(Fraction(1)), a), self.nonzero(a.num)

