"""The bit-vector encoding: the formula as Z3 bit-vector terms that cannot overflow.

For nonlinear formulas that the products encoding does not take (`AB % C + D = E`,
`gcd(AB, CD) = E`, `max(A, B) - min(C, D) = E + F`, `A**N + B**N = C**N`), so that a plain
incremental QF_BV solver can enumerate their models: it keeps its state and its learned clauses
from one model to the next, instead of bit-blasting the whole formula again for every check.

Every integer is a `Z`: a signed (two's complement) bit-vector term together with sound bounds
[lo, hi] on its value, computed from the digits each letter may take (`problem.allowed`) and
the base; the term is exactly as wide as those bounds need. An operation is built at a width
that holds its exact result:
- `+`, `-`, `*` at the width of the result's bounds, the operands extended or truncated to it:
  arithmetic modulo 2**w is a ring homomorphism, so the low w bits of the result are right
  whatever the operands' widths, and w bits hold the whole result;
- division, remainder, comparisons and choices at a width that holds every operand (and the
  result, with a spare value either side for the truncated quotient that floor division adjusts).
Non-negative values are zero-extended, so their upper bits are constants the bit-blaster drops.
A bound holds wherever the term is defined and the puzzle's rules hold; a term whose bounds
meet is replaced by that constant.

As in the general encoding, a value is a fraction num/den (two `Z`s, den > 0) and each node
also yields `ok`, the condition that Python evaluates it without error (no zero divisor, only
integers where gcd and range need them), with `and`, `or` and comparison chains
short-circuiting as Python does. A constraint holds when it is `ok` and its value is nonzero.

Letters are unsigned bit-vectors of the base's digit width (4 bits in base 10), kept to their
allowed digits by the rules. Products and powers are bit-vector multiplications (a letter to a
power is a table over its digits; a variable exponent chooses among its few values), quotients
keep a denominator as in the general encoding, floor division and remainder follow Python's
signs, gcd is Euclid's algorithm unrolled over Lamé's bound of its steps, and sum(range(a, b))
is the closed form max(0, b - a) * (a + b - 1) / 2.

Declined: integer unknowns (unbounded), rational exponents (roots), and anything whose bounds
need more than MAX_WIDTH bits.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Union

import z3

from smtcrypt.core.check import Problem
from smtcrypt.core.numerals import place_values, repeating_scale
from smtcrypt.core.tree import BinOp, BoolOp, Call, Collection, Compare, Expr, Not, Number, Repeating, Unary, Word
from smtcrypt.encode import Encoded, allowed_digits, checkpoint, indicator
from smtcrypt.encode.general import FormulaTerms

MAX_WIDTH = 512  # widest bit-vector the encoding builds; a formula that needs more is declined

Ok = Union[z3.BoolRef, bool]  # Python True when always defined


class Unsupported(Exception):
    """The formula needs something this encoding does not express."""


def signed_width(lo: int, hi: int) -> int:
    """The fewest bits whose two's complement holds every integer in [lo, hi]: [0, 9] -> 5, [-8, 7] -> 4."""
    return max((v if v >= 0 else ~v).bit_length() for v in (lo, hi)) + 1


def power_bounds(lo: int, hi: int, k: int) -> tuple[int, int]:
    """Bounds of x**k for x in [lo, hi] and k >= 1."""
    if k % 2 or lo >= 0:
        return lo ** k, hi ** k
    if hi <= 0:
        return hi ** k, lo ** k
    return 0, max(lo ** k, hi ** k)


def floordiv_bounds(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    """Bounds of x // y over x in x, y in y, y != 0. For a fixed sign of y, x / y is monotone in
    each argument, so its extremes lie at the ends of x and of y's nonzero parts (nearest 0: +-1)."""
    divisors = [d for d in (y[0], y[1]) if d != 0]
    divisors += [d for d in (-1, 1) if y[0] <= d <= y[1]]
    if not divisors:  # y is always 0: never defined
        return 0, 0
    values = [a // d for a in x for d in divisors]
    return min(values), max(values)


def mod_bounds(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    """Bounds of Python's x % y, y != 0: the sign of y, smaller than |y|, and no larger than |x|
    where x and y share a sign."""
    lo = hi = 0
    if y[1] >= 1:
        hi = y[1] - 1 if x[0] < 0 else min(y[1] - 1, x[1])
    if y[0] <= -1:
        lo = y[0] + 1 if x[1] > 0 else max(y[0] + 1, x[0])
    return lo, hi


def euclid_steps(bound: int) -> int:
    """How many steps (x, y) -> (y, x mod y), each skipped once y is 0, bring every pair
    0 <= y < x <= bound to y = 0 (x is then the gcd). By Lamé's theorem, n steps need x >= F(n + 2)
    (Fibonacci numbers, F(1) = F(2) = 1)."""
    steps, previous, current = 0, 1, 2  # F(n + 1), F(n + 2) for n = steps + 1
    while current <= bound:
        steps += 1
        previous, current = current, previous + current
    return steps


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


@dataclass(frozen=True)
class Rat:
    """An exact value num/den, den > 0 wherever the value is defined."""

    num: Z
    den: Z
    letter: str | None = None  # the value is this letter's digit

    @property
    def const(self) -> Fraction | None:
        if self.num.value is None or self.den.value is None or self.den.value <= 0:
            return None
        return Fraction(self.num.value, self.den.value)


Value = Union[Rat, z3.BoolRef]


def conj(*conditions: Ok) -> Ok:
    """The conjunction, folding away Python True (and z3 true)."""
    rest = [c for c in conditions if not (c is True or (isinstance(c, z3.BoolRef) and z3.is_true(c)))]
    if any(c is False or (isinstance(c, z3.BoolRef) and z3.is_false(c)) for c in rest):
        return False
    return True if not rest else rest[0] if len(rest) == 1 else z3.And(*rest)


def disj(first: z3.BoolRef, second: Ok) -> Ok:
    """first or second, folding Python truth values of `second`."""
    if second is True:
        return True
    return first if second is False else z3.Or(first, second)


def _unsigned_compare(op: str) -> Callable[[z3.BitVecRef, z3.BitVecRef], z3.BoolRef]:
    return {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": z3.ULT, "<=": z3.ULE,
            ">": z3.UGT, ">=": z3.UGE}[op]


# on Python ints, and on bit-vectors as signed numbers
COMPARISONS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
               "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def decided(op: str, a: Z, b: Z) -> bool | None:
    """The comparison's outcome if the bounds alone decide it."""
    if a.value is not None and b.value is not None:
        return COMPARISONS[op](a.value, b.value)
    below, above = a.hi < b.lo, a.lo > b.hi  # a < b always, a > b always
    if op in ("==", "!="):
        return (op == "!=") if below or above else None
    if op == "<":
        return True if below else False if a.lo >= b.hi else None
    if op == "<=":
        return True if a.hi <= b.lo else False if above else None
    if op == ">":
        return True if above else False if a.hi <= b.lo else None
    return True if a.lo >= b.hi else False if below else None


_scratch = threading.local()  # where accepts() builds terms that it then drops


class BitVecEncoding:
    """Formulas as overflow-free bit-vector terms, for an incremental QF_BV solver."""

    name = "bitvec"

    def accepts(self, problem: Problem) -> bool:
        if problem.unknowns or any(value.denominator != 1 for value in problem.constant_exponents.values()):
            return False
        context = getattr(_scratch, "context", None)
        if context is None:  # a context per thread: making one costs milliseconds
            context = _scratch.context = z3.Context()
        try:
            _Encoder(problem, context).holds()
        except Unsupported:
            return False
        return True

    def encode(self, problem: Problem, context: z3.Context) -> Encoded:
        encoder = _Encoder(problem, context)
        constraints = encoder.rules() + encoder.holds() + encoder.indicators()
        # The letters are bit-vectors: not `digits_only`, whose packed read-back multiplies each
        # letter by 2**(6 * place) at the letter's own width.
        return Encoded(context, dict(encoder.letters), constraints, "bit-vector", indicators=True)


def formula_terms(problem: Problem, context: z3.Context) -> FormulaTerms | None:
    """The formula and the rules apart, as bit-vector terms (see `general.FormulaTerms`): every
    node's definedness is part of the formula, so its negation needs no quantifier. None where
    this encoding declines the problem."""
    try:
        encoder = _Encoder(problem, context)
        holds = encoder.holds()
    except Unsupported:
        return None
    formula = holds[0] if len(holds) == 1 else z3.And(*holds)
    return FormulaTerms(context, dict(encoder.letters), encoder.rules(), [], formula, linear=False, cases=False,
                        solver="bit-vector")


class _Encoder:
    def __init__(self, problem: Problem, context: z3.Context):
        if problem.unknowns:
            raise Unsupported("integer unknowns")
        self.problem = problem
        self.ctx = context
        self.base = problem.rules.base
        self.letter_width = max(1, (self.base - 1).bit_length())
        self.letters = {letter: z3.BitVec(letter, self.letter_width, context) for letter in problem.letters}
        self.digits = {letter: sorted(allowed_digits(problem, letter)) for letter in problem.letters}

    # --- the puzzle's rules ---------------------------------------------------------------------

    def rules(self) -> list[z3.BoolRef]:
        """Each letter's digits (a range or a set), and distinct digits where asked."""
        constraints: list[z3.BoolRef] = []
        for letter, var in self.letters.items():
            digits = self.digits[letter]
            if not digits:
                return [z3.BoolVal(False, self.ctx)]
            low, high = digits[0], digits[-1]
            if low > 0:
                constraints.append(z3.UGE(var, low))
            if high < (1 << self.letter_width) - 1:
                constraints.append(z3.ULE(var, high))
            if len(digits) != high - low + 1:
                constraints.append(z3.Or(*[var == digit for digit in digits]))
        for group in self.problem.groups:
            constraints.append(z3.Distinct(*(self.letters[letter] for letter in group)))
        return constraints

    def indicators(self) -> list[z3.BoolRef]:
        """The Boolean `A=1` defined as A == 1 for every digit a letter may take (`Encoded.indicators`).
        Models should be blocked with clauses of these: the incremental QF_BV solver translates every
        later model back through each clause of bit-vector disequalities already added, so that
        listing the 1,276 models of AB % C + D = E spent 7.3 s reading models that way, 0.26 s with
        clauses of indicators."""
        return [indicator(letter, digit, self.ctx) == (var == digit)
                for letter, var in self.letters.items() for digit in self.digits[letter]]

    def holds(self) -> list[z3.BoolRef]:
        """Each constraint as one Bool: defined, and true."""
        constraints = []
        for constraint in self.problem.formula.constraints:
            value, ok = self.encode(constraint)
            holds = conj(ok, self.truthy(value))
            constraints.append(z3.BoolVal(holds, self.ctx) if isinstance(holds, bool) else holds)
        return constraints

    # --- bounded integers -----------------------------------------------------------------------

    def const(self, value: int) -> Z:
        width = signed_width(value, value)
        if width > MAX_WIDTH:
            raise Unsupported(f"a constant of {width} bits")
        return Z(z3.BitVecVal(value, width, self.ctx), value, value)

    def make(self, term: z3.BitVecRef, lo: int, hi: int) -> Z:
        """A Z from a term whose low bits hold a value in [lo, hi]: narrowed to its width."""
        if lo == hi:
            return self.const(lo)
        width = signed_width(lo, hi)
        if width > MAX_WIDTH:
            raise Unsupported(f"a value of {width} bits")
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
        """a op b for op in + - *, whose exact result lies in [lo, hi]: computed modulo 2**w at that width."""
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
        if a.value is not None:
            return self.const(-a.value)
        width = signed_width(-a.hi, -a.lo)
        return self.make(-self.at(a, width), -a.hi, -a.lo)

    def z_sub(self, a: Z, b: Z) -> Z:
        if b.value == 0:
            return a
        return self.ring(lambda x, y: x - y, a, b, a.lo - b.hi, a.hi - b.lo)

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
            corners = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
            bounds = (min(corners), max(corners))
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
        lo, hi = min(a.lo, b.lo), max(a.hi, b.hi)
        width = signed_width(lo, hi)
        return self.make(z3.If(condition, self.at(a, width), self.at(b, width)), lo, hi)

    def z_compare(self, op: str, a: Z, b: Z) -> z3.BoolRef:
        known = decided(op, a, b)
        if known is not None:
            return z3.BoolVal(known, self.ctx)
        width = max(a.width, b.width)
        x, y = self.at(a, width), self.at(b, width)
        if a.lo >= 0 and b.lo >= 0:
            return _unsigned_compare(op)(x, y)
        return COMPARISONS[op](x, y)

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
        if x.lo >= 0 and y.lo >= 0:
            return self.make(z3.URem(a, b), lo, hi)
        return self.make(a % b, lo, hi)

    def z_half(self, a: Z) -> Z:
        """a / 2 for an even a: an arithmetic shift."""
        if a.value is not None:
            return self.const(a.value // 2)
        return self.make(a.term >> 1, a.lo // 2, a.hi // 2)

    def z_power(self, a: Z, k: int) -> Z:
        """a ** k, k >= 1, by repeated squaring; every partial power within its own tight bounds."""
        if a.value is not None:
            return self.const(a.value ** k)
        result: Z | None = None
        result_power, square, square_power = 0, a, 1
        while k:
            if k & 1:
                result_power += square_power
                result = square if result is None else self.z_mul(
                    result, square, power_bounds(a.lo, a.hi, result_power))
            k >>= 1
            if k:
                square_power *= 2
                square = self.z_mul(square, square, power_bounds(a.lo, a.hi, square_power))
        assert result is not None
        return result

    def z_gcd(self, a: Z, b: Z) -> Z:
        """gcd(a, b) of non-negative a and b: a if b is 0, else Euclid's algorithm unrolled from
        (b, a mod b), where b is the argument with the smaller bound, for as many steps as Lamé's
        bound allows. Each step is as wide as its own bounds: from (x, y) with 0 < y < x, the next
        remainder x mod y is below y and at most (x - 1) // 2, so the widths halve every two steps
        (gcd(3, ABC) takes one division of ABC and one step of 2 bits)."""
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

    def letter_table(self, letter: str, value: Callable[[int], int]) -> Z:
        """value(digit) of a letter's digit, as a table over the digits it may take."""
        digits = self.digits[letter]
        if not digits:
            return self.const(0)
        values = [value(d) for d in digits]
        lo, hi = min(values), max(values)
        if lo == hi:
            return self.const(lo)
        width = signed_width(lo, hi)
        if width > MAX_WIDTH:
            raise Unsupported(f"a value of {width} bits")
        var = self.letters[letter]
        term = z3.BitVecVal(values[-1], width, self.ctx)
        for digit, result in reversed(list(zip(digits, values))[:-1]):
            term = z3.If(var == digit, z3.BitVecVal(result, width, self.ctx), term)
        return Z(term, lo, hi)

    def letter(self, letter: str) -> Z:
        """A letter's digit as a Z."""
        digits = self.digits[letter] or [0]
        lo, hi = digits[0], digits[-1]
        if lo == hi:
            return self.const(lo)
        width = signed_width(lo, hi)
        var = self.letters[letter]
        term = z3.ZeroExt(width - var.size(), var) if width >= var.size() else z3.Extract(width - 1, 0, var)
        return Z(term, lo, hi)

    def weighted_sum(self, terms: list[tuple[int, Z]], constant: int) -> Z:
        """sum(weight * z) + constant, bounded term by term, computed at the width of its bounds
        (a ring operation: each term may be truncated to it)."""
        lo = hi = constant
        for weight, z in terms:
            ends = (weight * z.lo, weight * z.hi)
            lo, hi = lo + min(ends), hi + max(ends)
        if lo == hi:
            return self.const(lo)
        width = signed_width(lo, hi)
        if width > MAX_WIDTH:
            raise Unsupported(f"a value of {width} bits")
        parts = []
        for weight, z in terms:
            if weight and z.value != 0:
                term = self.at(z, width)
                parts.append(term if weight == 1 else z3.BitVecVal(weight, width, self.ctx) * term)
        if constant:
            parts.append(z3.BitVecVal(constant, width, self.ctx))
        return self.make(parts[0] if len(parts) == 1 else z3.Sum(*parts), lo, hi)

    def linear(self, weights: dict[str, int], constant: int) -> Z:
        """sum(weight * letter) + constant."""
        return self.weighted_sum([(weight, self.letter(letter)) for letter, weight in weights.items()], constant)

    # --- exact fractions --------------------------------------------------------------------------

    def fraction(self, value: Fraction) -> Rat:
        return Rat(self.const(value.numerator), self.const(value.denominator))

    def integer(self, z: Z) -> Rat:
        return Rat(z, self.const(1))

    def rat(self, value: Value) -> Rat:
        if isinstance(value, Rat):
            return value
        if z3.is_true(value) or z3.is_false(value):
            return self.fraction(Fraction(int(z3.is_true(value))))
        term = z3.If(value, z3.BitVecVal(1, 2, self.ctx), z3.BitVecVal(0, 2, self.ctx))
        return self.integer(Z(term, 0, 1))

    def truthy(self, value: Value) -> z3.BoolRef:
        return self.nonzero(value.num) if isinstance(value, Rat) else value

    def common(self, a: Rat, b: Rat) -> tuple[Z, Z, Z | None]:
        """Numerators over a common positive denominator: (a', b', den) with a = a'/den and
        b = b'/den. With a variable denominator, den is None and a' = a.num * b.den, b' = b.num * a.den."""
        da, db = a.den.value, b.den.value
        if da is not None and db is not None:
            common = math.lcm(da, db)
            return self.scale(a.num, common // da), self.scale(b.num, common // db), self.const(common)
        return self.z_mul(a.num, b.den), self.z_mul(b.num, a.den), None

    def add(self, a: Rat, b: Rat) -> Rat:
        if a.const is not None and b.const is not None:
            return self.fraction(a.const + b.const)
        first, second, den = self.common(a, b)
        return Rat(self.z_add(first, second), den if den is not None else self.z_mul(a.den, b.den))

    def negate(self, a: Rat) -> Rat:
        return Rat(self.z_neg(a.num), a.den)

    def multiply(self, a: Rat, b: Rat) -> Rat:
        if a.const is not None and b.const is not None:
            return self.fraction(a.const * b.const)
        for first, second in ((a, b), (b, a)):
            if first.const is not None and second.den.value is not None:  # constant * (num / constant)
                factor, den = first.const, second.den.value
                shared = math.gcd(factor.numerator, factor.denominator * den)
                return Rat(self.scale(second.num, factor.numerator // shared),
                           self.const(factor.denominator * den // shared))
        return Rat(self.z_mul(a.num, b.num), self.z_mul(a.den, b.den))

    def quotient_parts(self, a: Rat, b: Rat) -> tuple[Z, Z]:
        """(x, y) with a / b = x / y, where b != 0."""
        x, y, _ = self.common(a, b)
        return x, y

    def divide(self, a: Rat, b: Rat) -> Rat:
        """a / b exactly, with a positive denominator (where b != 0)."""
        if b.const is not None and b.const != 0:
            return self.multiply(a, self.fraction(1 / b.const))
        x, y = self.quotient_parts(a, b)
        if y.lo >= 0:
            return Rat(x, self.positive(y))
        if y.hi <= 0:
            return Rat(self.z_neg(x), self.positive(self.z_neg(y)))
        negative = self.z_compare("<", y, self.const(0))
        return Rat(self.z_ite(negative, self.z_neg(x), x), self.positive(self.z_abs(y)))

    def positive(self, y: Z) -> Z:
        """y >= 0, known to be nonzero where defined: its lower bound raised to 1."""
        if y.lo >= 1:
            return y
        return self.make(self.at(y, signed_width(1, y.hi)), 1, y.hi) if y.hi > 1 else self.const(1)

    def integral(self, value: Rat) -> tuple[Z, Ok]:
        """The value as an integer, and the condition that it is one."""
        if value.den.value == 1:
            return value.num, True
        if value.const is not None:
            return self.const(math.floor(value.const)), value.const.denominator == 1
        remainder = self.z_mod(value.num, value.den)
        return self.z_floordiv(value.num, value.den), self.z_compare("==", remainder, self.const(0))

    def compare(self, op: str, a: Rat, b: Rat) -> z3.BoolRef:
        """a op b, cross-multiplied (both denominators are positive)."""
        first, second, _ = self.common(a, b)
        return self.z_compare(op, first, second)

    def choose(self, condition: z3.BoolRef, then: Value, otherwise: Value) -> Value:
        if not isinstance(then, Rat) and not isinstance(otherwise, Rat):
            return z3.If(condition, then, otherwise)
        a, b = self.rat(then), self.rat(otherwise)
        if a.den.value is not None and b.den.value is not None:
            first, second, den = self.common(a, b)
            assert den is not None
            return Rat(self.z_ite(condition, first, second), den)
        return Rat(self.z_ite(condition, a.num, b.num), self.z_ite(condition, a.den, b.den))

    def inverse(self, a: Rat) -> tuple[Rat, Ok]:
        """1 / a, and the condition a != 0."""
        return self.divide(self.fraction(Fraction(1)), a), self.nonzero(a.num)

    def power(self, a: Rat, k: int) -> tuple[Rat, Ok]:
        """a ** k for an integer k, and the condition that it is defined (a != 0 for k < 0)."""
        if a.const is not None:
            if a.const == 0 and k < 0:
                return self.fraction(Fraction(0)), False
            return self.fraction(a.const ** k), True
        if k == 0:
            return self.fraction(Fraction(1)), True
        if k < 0 and a.letter is not None:  # 1 / d**-k from a table; d = 0 is undefined
            return (Rat(self.const(1), self.letter_table(a.letter, lambda d: max(d, 1) ** -k)),
                    self.nonzero(a.num))
        if k < 0:
            inverse, ok = self.inverse(a)
            result, _ = self.power(inverse, -k)
            return result, ok
        if k == 1:
            return a, True
        if a.letter is not None:
            return self.integer(self.letter_table(a.letter, lambda d: d ** k)), True
        return Rat(self.z_power(a.num, k), self.z_power(a.den, k)), True

    # --- the tree ---------------------------------------------------------------------------------

    def encode(self, node: Expr) -> tuple[Value, Ok]:
        checkpoint(self.ctx)
        method = getattr(self, "encode_" + type(node).__name__.lower(), None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node)

    def weights(self, digits: str) -> tuple[dict[str, int], int]:
        """A numeral as letter weights and a literal constant: "7AB" -> ({"A": 10, "B": 1}, 700)."""
        return place_values(digits, self.base)

    def encode_word(self, node: Word) -> tuple[Value, Ok]:
        weights, literal = self.weights(node.letters)
        letter = node.letters if len(node.letters) == 1 else None
        return Rat(self.linear(weights, literal), self.const(1), letter), True

    def encode_repeating(self, node: Repeating) -> tuple[Value, Ok]:
        """whole.fixed(period) = (whole fixed period - whole fixed) / (B^f (B^p - 1))."""
        head, head_literal = self.weights(node.whole + node.fixed)
        full, full_literal = self.weights(node.whole + node.fixed + node.period)
        for letter, weight in head.items():
            full[letter] = full.get(letter, 0) - weight
        scale = repeating_scale(node.fixed, node.period, self.base)
        return Rat(self.linear(full, full_literal - head_literal), self.const(scale)), True

    def encode_number(self, node: Number) -> tuple[Value, Ok]:
        return self.fraction(node.value), True

    def encode_unary(self, node: Unary) -> tuple[Value, Ok]:
        value, ok = self.encode(node.operand)
        value = self.rat(value)
        return (self.negate(value) if node.op == "-" else value), ok

    def encode_not(self, node: Not) -> tuple[Value, Ok]:
        value, ok = self.encode(node.operand)
        return z3.Not(self.truthy(value)), ok

    def encode_binop(self, node: BinOp) -> tuple[Value, Ok]:
        (left, left_ok), (right, right_ok) = self.encode(node.left), self.encode(node.right)
        a, b = self.rat(left), self.rat(right)
        ok = conj(left_ok, right_ok)
        if node.op == "+":
            return self.add(a, b), ok
        if node.op == "-":
            return self.add(a, self.negate(b)), ok
        if node.op == "*":
            return self.multiply(a, b), ok
        if node.op == "**":
            value, power_ok = self.encode_power(node, a, b)
            return value, conj(ok, power_ok)
        ok = conj(ok, self.nonzero(b.num))
        if node.op == "/":
            return self.divide(a, b), ok
        if a.const is not None and b.const is not None:
            if b.const == 0:
                return self.fraction(Fraction(0)), False
            return self.fraction(Fraction(a.const // b.const if node.op == "//" else a.const % b.const)), ok
        x, y = self.quotient_parts(a, b)  # a / b = x / y, and a % b = (x % y) / (a.den * b.den)
        if node.op == "//":
            return self.integer(self.z_floordiv(x, y)), ok
        den = self.const(math.lcm(a.den.value, b.den.value)) if a.den.value and b.den.value else self.z_mul(
            a.den, b.den)
        return Rat(self.z_mod(x, y), den), ok

    def encode_power(self, node: BinOp, base: Rat, exponent: Rat) -> tuple[Rat, Ok]:
        fixed = self.problem.constant_exponents.get(node)
        if fixed is not None:
            if fixed.denominator != 1:
                raise Unsupported("a rational exponent")
            return self.power(base, fixed.numerator)
        if node not in self.problem.exponent_ranges:
            raise Unsupported("an exponent without bounds")
        low, high = self.problem.exponent_ranges[node]
        power, is_integer = self.integral(exponent)
        cases = []  # (exponent == k, base ** k, defined)
        for k in range(low, high + 1):
            value, defined = self.power(base, k)
            cases.append((self.z_compare("==", power, self.const(k)), value, defined))
        result: Value = cases[-1][1]
        for chosen, value, _ in reversed(cases[:-1]):
            result = self.choose(chosen, value, result)
        ok = conj(is_integer, *[z3.Not(chosen) if defined is False else z3.Implies(chosen, defined)
                                for chosen, _, defined in cases if defined is not True])
        return self.rat(result), ok

    def encode_compare(self, node: Compare) -> tuple[Value, Ok]:
        left, ok = self.encode(node.operands[0])
        left = self.rat(left)
        results: list[z3.BoolRef] = []
        for op, operand in zip(node.ops, node.operands[1:]):
            if op in ("in", "not in"):
                found, operand_ok = self.membership(left, operand)
                result = found if op == "in" else z3.Not(found)
                right = left
            else:
                value, operand_ok = self.encode(operand)
                right = self.rat(value)
                result = self.compare(op, left, right)
            # Python evaluates the next operand only while the chain is still true
            ok = conj(ok, disj(z3.Not(z3.And(*results)), operand_ok) if results else operand_ok)
            results.append(result)
            left = right
        return (results[0] if len(results) == 1 else z3.And(*results)), ok

    def membership(self, item: Rat, container: Expr) -> tuple[z3.BoolRef, Ok]:
        if isinstance(container, Collection):  # Python builds the whole literal first
            encoded = [self.encode(element) for element in container.items]
            if not encoded:
                return z3.BoolVal(False, self.ctx), True
            found = z3.Or(*[self.compare("==", item, self.rat(value)) for value, _ in encoded])
            return found, conj(*[ok for _, ok in encoded])
        start, stop, ok = self.range_bounds(container)
        whole, is_integer = self.integral(item)
        inside = z3.And(self.z_compare(">=", whole, start), self.z_compare("<", whole, stop))
        return (inside if is_integer is True else z3.And(is_integer, inside) if is_integer is not False
                else z3.BoolVal(False, self.ctx)), ok

    def range_bounds(self, call: Expr) -> tuple[Z, Z, Ok]:
        if not (isinstance(call, Call) and call.name == "range"):
            raise Unsupported("a container that is not a literal or range()")
        parts, oks = [], []
        for arg in call.args:
            value, ok = self.encode(arg)
            whole, is_integer = self.integral(self.rat(value))
            parts.append(whole)
            oks += [ok, is_integer]
        if len(parts) == 1:
            parts.insert(0, self.const(0))
        return parts[0], parts[1], conj(*oks)

    def encode_boolop(self, node: BoolOp) -> tuple[Value, Ok]:
        encoded = [self.encode(operand) for operand in node.operands]
        value, ok = encoded[-1]
        for earlier, earlier_ok in reversed(encoded[:-1]):
            test = self.truthy(earlier)
            if node.op == "and":
                value = self.choose(test, value, earlier)
                ok = conj(earlier_ok, disj(z3.Not(test), ok))
            else:
                value = self.choose(test, earlier, value)
                ok = conj(earlier_ok, disj(test, ok))
        return value, ok

    def encode_call(self, node: Call) -> tuple[Value, Ok]:
        if node.name == "sum":  # sum(range(a, b)) = max(0, b - a) * (a + b - 1) / 2, an even product halved
            start, stop, ok = self.range_bounds(node.args[0])
            count = self.z_sub(stop, start)
            product = self.z_mul(count, self.z_sub(self.z_add(start, stop), self.const(1)))
            total = self.z_ite(self.z_compare(">", count, self.const(0)), product, self.const(0))
            return self.integer(self.z_half(total)), ok
        if node.name not in ("abs", "min", "max", "gcd"):
            raise Unsupported(f"the function {node.name}")
        encoded = [self.encode(arg) for arg in node.args]
        ok = conj(*[ok for _, ok in encoded])
        values = [self.rat(value) for value, _ in encoded]
        if node.name == "gcd":  # of integers only, as math.gcd
            wholes = [self.integral(value) for value in values]
            result = self.z_abs(wholes[0][0])
            for whole, _ in wholes[1:]:
                result = self.z_gcd(result, self.z_abs(whole))
            return self.integer(result), conj(ok, *[is_integer for _, is_integer in wholes])
        if node.name == "abs":
            (value,) = values
            return Rat(self.z_abs(value.num), value.den), ok
        result: Value = values[0]
        for value in values[1:]:
            smaller = self.compare("<=", self.rat(result), value)
            result = self.choose(smaller, result, value) if node.name == "min" else self.choose(
                smaller, value, result)
        return result, ok
