"""The general encoding's value algebra: exact fractions of Z3 Int terms, whose `den` stays the Python
int 1 for integer-valued terms (the common case), so a linear formula stays linear."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

import z3

from smtcrypt.analysis.arithmetic import by_squaring, exact_root, repeating_fraction, root_range, root_step
from smtcrypt.analysis.bounds import RationalInterval, ValueBounds, power_bounds, quotient_bounds
from smtcrypt.analysis.linear import form_sum
from smtcrypt.analysis.unknowns import Values
from smtcrypt.core.check import Problem
from smtcrypt.core.intervals import Interval, digit_sum_interval, greatest, interval, least, reversal_interval
from smtcrypt.core.rules import PREDICATES
from smtcrypt.core.tree import BinOp, BoolOp, Call, Compare, Expr, Name, Not, Repeating, Word
from smtcrypt.encode.base import Ok, letter_variables
from smtcrypt.encode.walk import COMPARISONS, TreeEncoder, conj

Den: TypeAlias = z3.ArithRef | int
LetterForm: TypeAlias = tuple[dict[str, int], int]  # "2*AB + 1" -> ({"A": 20, "B": 2}, 1)
MAX_TABLE = 2000  # most entries of one lookup table (a root's candidates, a power's digits x exponents)
MAX_BOUNDED_POWER = 64  # largest constant exponent whose power's bounds a number-theory word's argument is given


class TermBounds(ValueBounds):
    """Exact bounds of a term (`of`) and of the integer it is taken as (`whole_bounds`) wherever it is
    defined: with them the tables and number-theory words stay bounded and often linear."""

    problem: Problem
    unknown_values: dict[str, Values] | None  # the integer unknowns' values, where the formula bounds every one

    def whole_bounds(self, node: Expr) -> Interval | None:
        """Bounds of the integer a term's value is taken as (a fraction's floor, which the word then
        refuses), wherever the term is defined; None where some part of it has none."""
        if (bounds := interval(node, self.problem.rules)) is not None:
            return bounds
        value = self.of(node)
        return None if value is None else (math.floor(value[0]), math.floor(value[1]))

    def leaf(self, node: Expr) -> RationalInterval | None:
        whole = interval(node, self.problem.rules) if isinstance(node, Word) else None
        if whole is not None:
            return Fraction(whole[0]), Fraction(whole[1])
        if isinstance(node, Repeating):  # its numerator's bounds (every weight >= 0) over its constant scale
            weights, low, scale = repeating_fraction(node, self.problem.rules.base)
            high = low
            for letter, weight in weights.items():
                digits = self.problem.allowed.get(letter)
                if not digits:
                    return None
                low, high = low + weight * min(digits), high + weight * max(digits)
            return Fraction(low, scale), Fraction(high, scale)
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
        if quotient is None or node.op == "//":
            return quotient and (Fraction(math.floor(quotient[0])), Fraction(math.floor(quotient[1])))
        largest = max(abs(right[0]), abs(right[1]))  # x % y: from 0 to y's largest magnitude, on y's side
        return (Fraction(0), largest) if right[0] > 0 else (-largest, Fraction(0))


@dataclass(frozen=True)
class Rat:
    """An exact value num/den with den > 0 wherever the value is defined."""

    num: z3.ArithRef
    den: Den = 1
    nonneg: bool = False  # known to be >= 0 where defined
    const: Fraction | None = None  # the value, when it does not depend on letters
    form: LetterForm | None = None  # the value as sum(weight * letter) + constant, when it is one


Value: TypeAlias = Rat | z3.BoolRef


class Rationals(TermBounds, TreeEncoder[Rat, z3.ArithRef]):
    """The arithmetic of `Rat`s that the tree walk needs, noting what the terms become (linear or
    not, with If-terms or not, every auxiliary unknown bounded or not): the solver is chosen by it."""

    def __init__(self, problem: Problem, context: z3.Context, tables: bool = True):
        self.problem = problem
        self.tables = tables
        self.ctx = context
        self.letters = letter_variables(problem, context)
        self.side: list[z3.BoolRef] = []  # bounds of auxiliary unknowns, asserted unconditionally
        self.bounded_fresh = 0  # auxiliary unknowns that have such bounds
        self.fresh = itertools.count()
        self.products: dict[tuple[str, str], z3.ArithRef] = {}  # shared products of two letters
        self.linear = True  # nothing nonlinear in the unknowns (products, quotients, floors, powers): QF_FD may take it
        self.cases = False  # If-terms over integers (and/or, abs, min, max): the finite-domain solver may give up
        # some auxiliary unknown is only a witness inside a constraint (a root, a gcd's Bezout
        # coefficients), not a function of the letters: the formula's negation is not its constraints' negation
        self.witnesses = False

    def fraction(self, value: Fraction) -> Rat:
        form: LetterForm | None = ({}, value.numerator) if value.denominator == 1 else None
        return Rat(z3.IntVal(value.numerator, self.ctx), value.denominator, value >= 0, value, form)

    def letters_value(self, weights: dict[str, int], literal: int) -> Rat:
        terms = [weight * self.letters[letter] for letter, weight in weights.items()]
        term = z3.Sum(*terms, z3.IntVal(literal, self.ctx)) if literal or not terms else z3.Sum(*terms)
        return Rat(term, 1, True, None, (weights, literal))

    def fresh_int(self, stem: str) -> z3.ArithRef:
        return z3.Int(f"{stem}!{next(self.fresh)}", self.ctx)

    def bounded_int(self, stem: str, low: int, high: int) -> z3.ArithRef:
        """A fresh Int within [low, high], unconditionally."""
        var = self.fresh_int(stem)
        self.bounded_fresh += 1
        self.side += [var >= low, var <= high]
        return var

    def rat(self, value: Value) -> Rat:
        if isinstance(value, Rat):
            return value
        self.cases = True
        return Rat(z3.If(value, z3.IntVal(1, self.ctx), z3.IntVal(0, self.ctx)), 1, True)

    def truthy(self, value: Value) -> z3.BoolRef:
        return value.num != 0 if isinstance(value, Rat) else value

    def times(self, a: z3.ArithRef | int, b: z3.ArithRef | int) -> z3.ArithRef | int:
        """A product, noting when it multiplies two unknowns."""
        if not (isinstance(a, int) or isinstance(b, int) or z3.is_int_value(a) or z3.is_int_value(b)):
            self.linear = False
        return a * b

    def choose(self, condition: z3.BoolRef, then: Value, otherwise: Value) -> Value:
        if not isinstance(then, Rat) and not isinstance(otherwise, Rat):
            return z3.If(condition, then, otherwise)
        a, b = self.rat(then), self.rat(otherwise)
        self.cases = True
        den = a.den
        if not (isinstance(a.den, int) and a.den == b.den):
            self.linear = False
            den = z3.If(condition, a.den, b.den)
        return Rat(z3.If(condition, a.num, b.num), den, a.nonneg and b.nonneg)

    def integral(self, value: Rat) -> tuple[z3.ArithRef, Ok]:
        """The value as an Int term, and the condition that it is an integer."""
        if isinstance(value.den, int) and value.den == 1:
            return value.num, True
        self.linear = False
        return value.num / value.den, value.num % value.den == 0

    def within(self, whole: z3.ArithRef, start: z3.ArithRef, stop: z3.ArithRef) -> z3.BoolRef:
        return z3.And(whole >= start, whole < stop)

    def add(self, a: Rat, b: Rat) -> Rat:
        if a.const is not None and b.const is not None:
            return self.fraction(a.const + b.const)
        if isinstance(a.den, int) and a.den == b.den:
            form = None if a.form is None or b.form is None else form_sum(a.form, b.form)
            return Rat(a.num + b.num, a.den, a.nonneg and b.nonneg, None, form)
        return Rat(self.times(a.num, b.den) + self.times(b.num, a.den), self.times(a.den, b.den),
                   a.nonneg and b.nonneg)

    def negate(self, a: Rat) -> Rat:
        if a.const is not None:
            return self.fraction(-a.const)
        form = None if a.form is None else ({letter: -weight for letter, weight in a.form[0].items()}, -a.form[1])
        return Rat(-a.num, a.den, False, None, form)

    def multiply(self, a: Rat, b: Rat) -> Rat:
        if a.const is not None and b.const is not None:
            return self.fraction(a.const * b.const)
        for first, second in ((a, b), (b, a)):
            if first.form is not None and not first.form[0] and second.form is not None and second.den == 1:
                factor = first.form[1]  # an integer constant times a sum of letters stays a sum of letters
                form = ({letter: factor * weight for letter, weight in second.form[0].items()}, factor * second.form[1])
                return Rat(factor * second.num, 1, (factor >= 0) == second.nonneg or factor == 0, None, form)
        if self.tables and a.form is not None and b.form is not None and a.den == 1 and b.den == 1:
            return self.expanded_product(a.form, b.form, a.nonneg and b.nonneg)
        return Rat(self.times(a.num, b.num), self.times(a.den, b.den), a.nonneg and b.nonneg)

    def expanded_product(self, a: LetterForm, b: LetterForm, nonneg: bool) -> Rat:
        """(sum a_L L + c)(sum b_M M + d) multiplied out, each product of two letters a fresh bounded
        Int defined by a table over one letter's digits: linear, so the finite-domain solver keeps it."""
        weights: dict[tuple[str, str], int] = {}  # "" stands for the constant 1
        for first, weight_a in [*a[0].items(), ("", a[1])]:
            for second, weight_b in [*b[0].items(), ("", b[1])]:
                key = (min(first, second), max(first, second))
                weights[key] = weights.get(key, 0) + weight_a * weight_b
        constant = weights.pop(("", ""))
        terms = [weight * (self.letter_product(*key) if key[0] else self.letters[key[1]])
                 for key, weight in weights.items() if weight]
        return Rat(z3.Sum(*terms, z3.IntVal(constant, self.ctx)), 1, nonneg)

    def letter_product(self, first: str, second: str) -> z3.ArithRef:
        """first * second as a fresh Int, bounded and defined digit by digit (shared per pair)."""
        if (cached := self.products.get((first, second))) is not None:
            return cached
        pool = sorted(self.problem.allowed[first])
        other = sorted(self.problem.allowed[second])
        values = [d * e for d in pool for e in other] if first != second else [d * d for d in pool]
        product = self.bounded_int(f"{first}{second}", min(values, default=0), max(values, default=0))
        for digit in pool:
            value = digit * digit if first == second else digit * self.letters[second]
            self.side.append(z3.Implies(self.letters[first] == digit, product == value))
        self.products[(first, second)] = product
        return product

    def inverse(self, b: Rat) -> tuple[Rat, Ok]:
        """1/b, and the condition b != 0."""
        if b.const is not None:
            return (self.fraction(1 / b.const), True) if b.const != 0 else (self.fraction(Fraction(0)), False)
        nonzero = b.num != 0
        if b.nonneg:
            return Rat(b.den if not isinstance(b.den, int) else z3.IntVal(b.den, self.ctx), b.num, True), nonzero
        self.linear = False
        negative = b.num < 0
        return Rat(z3.If(negative, -b.den, b.den), z3.If(negative, -b.num, b.num)), nonzero

    def floor(self, a: Rat) -> Rat:
        if a.const is not None:
            return self.fraction(Fraction(a.const.numerator // a.const.denominator))
        if isinstance(a.den, int) and a.den == 1:
            return a
        self.linear = False
        return Rat(a.num / a.den, 1, a.nonneg)  # Z3's Int division by a positive divisor is floor

    def int_power(self, a: Rat, k: int) -> Rat:
        if a.const is not None:
            return self.fraction(a.const ** k)
        if k == 0:
            return self.fraction(Fraction(1))
        num, den = by_squaring((a.num, a.den), k, lambda x, y, _: (self.times(x[0], y[0]), self.times(x[1], y[1])))
        return Rat(num, den, a.nonneg or k % 2 == 0)

    def power(self, a: Rat, k: int) -> tuple[Rat, Ok]:
        if k >= 0:
            return self.int_power(a, k), True
        inverse, nonzero = self.inverse(a)
        return self.int_power(inverse, -k), nonzero

    def root(self, a: Rat, q: int) -> tuple[Rat, Ok]:
        """The exact non-negative q-th root, defined only where it is rational."""
        if a.const is not None:
            top = exact_root(a.const.numerator, q) if a.const >= 0 else None
            bottom = exact_root(a.const.denominator, q)
            if top is None or bottom is None:
                return self.fraction(Fraction(0)), False
            return self.fraction(Fraction(top, bottom)), True
        self.linear = False
        self.witnesses = True
        top = self.fresh_int("root")
        conditions = [a.num >= 0, top >= 0, top <= a.num]
        if isinstance(a.den, int) and a.den == 1:
            conditions.append(self.int_power(Rat(top), q).num == a.num)
            return Rat(top, 1, True), z3.And(*conditions)
        bottom = self.fresh_int("rootden")
        conditions += [bottom >= 1, bottom <= a.den,
                       self.int_power(Rat(top), q).num * a.den == a.num * self.int_power(Rat(bottom), q).num]
        return Rat(top, bottom, True), z3.And(*conditions)

    def root_table(self, node: Expr, a: Rat, q: int) -> tuple[Rat, Ok] | None:
        """The q-th root of num/D, for a constant D and bounds on num, as a table of the roots in range,
        which stays linear (`EVIL**(1/2)`), where unknown roots and denominators are hard for Z3; None
        when the range is too wide. The root is s/D with s**q = num * D**(q-1), s a multiple of `root_step`."""
        if a.const is not None or not isinstance(a.den, int):
            return None
        den = a.den
        if den == 1:  # num's bounds: an integer term's interval, or the term's bounds (`.7(13) + A`) times D
            bounds = interval(node, self.problem.rules)
        else:
            value = self.of(node)
            bounds = None if value is None else (math.ceil(value[0] * den), math.floor(value[1] * den))
        if bounds is None:
            return None
        if bounds[1] < 0:
            return self.fraction(Fraction(0)), False
        scale, step = den ** (q - 1), root_step(den, q)
        low, high = max(bounds[0], 0) * scale, bounds[1] * scale
        whole = root_range(low, high, q)
        first, last = -(-whole.start // step) * step, (whole.stop - 1) // step * step
        if (last - first) // step + 1 > MAX_TABLE:
            return None
        roots = range(first, last + 1, step)
        result = self.bounded_int("root", first, max(first, last))
        cases = [a.num * scale == r ** q for r in roots]
        self.side += [z3.Implies(case, result == r) for r, case in zip(roots, cases)]
        return Rat(result, den, True), (z3.Or(*cases) if cases else False)

    def power_of(self, node: BinOp, base: Rat, exponent: Rat) -> tuple[Rat, Ok]:
        fixed = self.problem.constant_exponents.get(node)
        if fixed is not None:
            p, q = fixed.numerator, fixed.denominator
            ok: Ok = True
            if q != 1:
                base, ok = (self.tables and self.root_table(node.left, base, q)) or self.root(base, q)
            result, nonzero = self.power(base, p)
            return result, conj(ok, nonzero)
        low, high = self.exponent_range(node)
        table = self.power_table(node.left, self.integral(exponent)[0], low, high) if self.tables else None
        if table is not None:
            return table
        self.linear = False
        return self.power_choice(node, base, exponent)

    def power_table(self, base: Expr, power: z3.ArithRef, low: int, high: int) -> tuple[Rat, Ok] | None:
        """A letter to a variable power (`A**N`) as a lookup table, which stays linear: fresh bounded
        Ints equal to the numerator and denominator of d**k wherever the letter is d and the exponent k."""
        if not (isinstance(base, Word) and len(base.letters) == 1 and base.letters in self.letters):
            return None
        letter = self.letters[base.letters]
        digits = sorted(self.problem.allowed[base.letters])
        if not digits or len(digits) * (high - low + 1) > MAX_TABLE:
            return None
        values = {(d, k): Fraction(d) ** k for d in digits for k in range(low, high + 1) if d or k >= 0}
        nums, dens = [value.numerator for value in values.values()], [value.denominator for value in values.values()]
        top = self.bounded_int("power", min(nums), max(nums))
        bottom: Den = self.bounded_int("power", min(dens), max(dens)) if max(dens) > 1 else 1
        for (d, k), value in values.items():
            case = z3.And(letter == d, power == k)
            self.side.append(z3.Implies(case, top == value.numerator))
            if not isinstance(bottom, int):
                self.side.append(z3.Implies(case, bottom == value.denominator))
        defined: Ok = z3.Or(letter != 0, power >= 0) if 0 in digits and low < 0 else True
        return Rat(top, bottom, all(value >= 0 for value in values.values())), defined

    def compare(self, op: str, a: Rat, b: Rat) -> z3.BoolRef:
        """a op b, by cross-multiplying (both denominators are positive)."""
        if isinstance(a.den, int) and a.den == b.den:
            left, right = a.num, b.num
        else:
            left, right = self.times(a.num, b.den), self.times(b.num, a.den)
        return COMPARISONS[op](left, right)

    def division(self, op: str, a: Rat, b: Rat) -> tuple[Rat, Ok]:
        inverse, nonzero = self.inverse(b)
        quotient = self.multiply(a, inverse)
        if op == "/":
            return quotient, nonzero
        floor = self.floor(quotient)
        if op == "//":
            return floor, nonzero
        return self.add(a, self.negate(self.multiply(b, floor))), nonzero  # Python's a % b = a - b * (a // b)

    def range_sum(self, start: z3.ArithRef, stop: z3.ArithRef) -> Rat:
        """sum(range(start, stop)) = max(0, stop - start) * (start + stop - 1) / 2."""
        self.linear = False
        count = stop - start
        return Rat(z3.If(count > 0, count * (start + stop - 1), z3.IntVal(0, self.ctx)), 2)

    def absolute(self, value: Rat) -> Rat:
        if value.nonneg:
            return value
        self.cases = True
        return Rat(z3.If(value.num < 0, -value.num, value.num), value.den, True)
