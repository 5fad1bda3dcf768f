"""The general encoding: every formula, exactly, as Z3 integer terms.

A value is a fraction `num/den` of Z3 Int terms with `den > 0`; `den` stays the
Python int 1 for integer-valued terms (the common case), so a linear formula
stays linear. The node cases, with each node's `ok` (where Python would evaluate
it without error) and Python's short-circuits, are the shared tree walk's (walk.py);
this module is the value algebra over Int terms. Letter products, variable powers
and roots become lookup tables over the digits, which keep a formula linear.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

import z3

from smtcrypt.analysis.arithmetic import divisors, exact_root, repeating_numerator_bounds, root_step
from smtcrypt.analysis.unknowns import unknown_values
from smtcrypt.core.check import Problem, large_exponents, splits
from smtcrypt.core.intervals import Interval, digit_count, digit_sum_interval, interval, reversal_interval
from smtcrypt.core.numerals import place_values, repeating_scale, root_floor
from smtcrypt.core.rules import PREDICATES, PRIME_LIMIT
from smtcrypt.core.tree import BinOp, BoolOp, Call, Compare, Expr, Name, Not, Number, Repeating, Unary, Word, children
from smtcrypt.encode import words
from smtcrypt.encode.base import (
    Encoded,
    FormulaTerms,
    Ok,
    Unsupported,
    allowed_digits,
    letter_variables,
    rule_constraints,
)
from smtcrypt.encode.walk import COMPARISONS, TreeEncoder, conj

Den: TypeAlias = z3.ArithRef | int
LetterForm: TypeAlias = tuple[dict[str, int], int]  # "2*AB + 1" -> ({"A": 20, "B": 2}, 1)
MAX_TABLE = 2000  # most entries of one lookup table (a root's candidates, a power's digits x exponents)
MAX_DIVIDEND = 10**8  # largest constant whose divisors a gcd chooses among (found by trial division)
MAX_BOUNDED_POWER = 64  # largest constant exponent whose power's bounds a number-theory word's argument is given


@dataclass(frozen=True)
class Rat:
    """An exact value num/den with den > 0 wherever the value is defined."""

    num: z3.ArithRef
    den: Den = 1
    nonneg: bool = False  # known to be >= 0 where defined
    const: Fraction | None = None  # the value, when it does not depend on letters
    form: LetterForm | None = None  # the value as sum(weight * letter) + constant, when it is one


Value: TypeAlias = Rat | z3.BoolRef


class GeneralEncoding:
    """Accepts every problem. With `tables=False` it is the plain reference encoding (products and
    powers as Z3 nonlinear terms) that every faster encoding is tested against."""

    name = "general"

    def __init__(self, tables: bool = True):
        self.tables = tables  # letter products, variable powers and roots as linear lookup tables

    def accepts(self, problem: Problem) -> bool:
        """Every problem but one whose variable exponent takes more values than a power is split into
        (see core/check.splits): those are left to the backends that compute the formula."""
        return not large_exponents(problem)

    def encode(self, problem: Problem, context: z3.Context) -> Encoded:
        return _Encoder(problem, context, self.tables).run()


def formula_terms(problem: Problem, context: z3.Context) -> FormulaTerms | None:
    """The formula and the rules apart; None with integer unknowns or witness unknowns (see
    `_Encoder.witnesses`), whose negation would need a quantifier."""
    if problem.unknowns or large_exponents(problem):
        return None
    encoder = _Encoder(problem, context, tables=True)
    holds = encoder.holds()
    if encoder.witnesses:
        return None
    formula = holds[0] if len(holds) == 1 else z3.And(*holds)
    return FormulaTerms(context, encoder.letters, rule_constraints(problem, encoder.letters), encoder.side,
                        formula, encoder.linear, encoder.cases)


class _Encoder(TreeEncoder[Rat, z3.ArithRef]):
    def __init__(self, problem: Problem, context: z3.Context, tables: bool = True):
        self.problem = problem
        self.tables = tables
        self.ctx = context
        self.letters = letter_variables(problem, context)
        self.unknowns = {name: z3.Int(name, context) for name in problem.unknowns}
        self.unknown_values = unknown_values(problem)  # their values, where the formula bounds every one
        self.side: list[z3.BoolRef] = []  # bounds of auxiliary unknowns, asserted unconditionally
        self.bounded_fresh = 0  # auxiliary unknowns that have such bounds
        self.fresh = itertools.count()
        self.products: dict[tuple[str, str], z3.ArithRef] = {}  # shared products of two letters
        self.linear = True  # nothing nonlinear in the unknowns (products, quotients, floors, powers): QF_FD may take it
        self.cases = False  # If-terms over integers (and/or, abs, min, max): the finite-domain solver may give up
        # some auxiliary unknown is only a witness inside a constraint (a root, a gcd's Bezout
        # coefficients), not a function of the letters: the formula's negation is not its constraints' negation
        self.witnesses = False
        self.recursions: dict[str, z3.FuncDeclRef] = {}  # recursive functions made, by what they compute

    def run(self) -> Encoded:
        problem = self.problem
        constraints = rule_constraints(problem, self.letters) + self.holds()
        constraints += self.side
        # the bounds the formula puts on its unknowns, stated apart: every solution meets them
        # (see analysis/unknowns.py)
        for name, values in (self.unknown_values or {}).items():
            var = self.unknowns[name]
            constraints += [var >= values[0], var <= values[-1]] if values else [z3.BoolVal(False, self.ctx)]
        unbounded = bool(self.unknowns) and self.unknown_values is None
        # every auxiliary unknown has bounds: then bit-blasting is possible (not tried over integer unknowns,
        # bounded or not: Z3's general solver was the faster on the property tests' formulas)
        bounded = next(self.fresh) == self.bounded_fresh and not self.unknowns
        terms = "linear" if self.linear else "nonlinear"
        return Encoded(self.ctx, {**self.letters, **self.unknowns}, constraints, terms,
                       if_terms=self.cases, bounded=bounded, unbounded=unbounded)

    # --- helpers -------------------------------------------------------------------------------

    def const(self, value: Fraction) -> Rat:
        form: LetterForm | None = ({}, value.numerator) if value.denominator == 1 else None
        return Rat(z3.IntVal(value.numerator, self.ctx), value.denominator, value >= 0, value, form)

    def fresh_int(self, stem: str) -> z3.ArithRef:
        return z3.Int(f"{stem}!{next(self.fresh)}", self.ctx)

    def rat(self, value: Value) -> Rat:
        if isinstance(value, Rat):
            return value
        self.cases = True
        return Rat(z3.If(value, z3.IntVal(1, self.ctx), z3.IntVal(0, self.ctx)), 1, True)

    def truthy(self, value: Value) -> z3.BoolRef:
        return value.num != 0 if isinstance(value, Rat) else value

    def times(self, a: z3.ArithRef | int, b: z3.ArithRef | int) -> z3.ArithRef | int:
        """A product, noting when it multiplies two unknowns."""
        if isinstance(a, int) or isinstance(b, int):
            return a * b
        if not (z3.is_int_value(a) or z3.is_int_value(b)):
            self.linear = False
        return a * b

    def choose(self, condition: z3.BoolRef, then: Value, otherwise: Value) -> Value:
        if not isinstance(then, Rat) and not isinstance(otherwise, Rat):
            return z3.If(condition, then, otherwise)
        a, b = self.rat(then), self.rat(otherwise)
        self.cases = True
        if isinstance(a.den, int) and a.den == b.den:
            den = a.den
        else:
            self.linear = False
            den = z3.If(condition, a.den, b.den)
        return Rat(z3.If(condition, a.num, b.num), den, a.nonneg and b.nonneg)

    def integral(self, value: Rat) -> tuple[z3.ArithRef, Ok]:
        """The value as an Int term, and the condition that it is an integer."""
        if isinstance(value.den, int) and value.den == 1:
            return value.num, True
        self.linear = False
        return value.num / value.den, value.num % value.den == 0

    def zero(self) -> z3.ArithRef:
        return z3.IntVal(0, self.ctx)

    def within(self, whole: z3.ArithRef, start: z3.ArithRef, stop: z3.ArithRef) -> z3.BoolRef:
        return z3.And(whole >= start, whole < stop)

    # --- arithmetic ---------------------------------------------------------------------------

    def add(self, a: Rat, b: Rat) -> Rat:
        if a.const is not None and b.const is not None:
            return self.const(a.const + b.const)
        if isinstance(a.den, int) and a.den == b.den:
            form: LetterForm | None = None
            if a.form is not None and b.form is not None:
                weights = dict(a.form[0])
                for letter, weight in b.form[0].items():
                    weights[letter] = weights.get(letter, 0) + weight
                form = (weights, a.form[1] + b.form[1])
            return Rat(a.num + b.num, a.den, a.nonneg and b.nonneg, None, form)
        return Rat(self.times(a.num, b.den) + self.times(b.num, a.den), self.times(a.den, b.den),
                   a.nonneg and b.nonneg)

    def negate(self, a: Rat) -> Rat:
        if a.const is not None:
            return self.const(-a.const)
        form = None if a.form is None else ({letter: -weight for letter, weight in a.form[0].items()}, -a.form[1])
        return Rat(-a.num, a.den, False, None, form)

    def multiply(self, a: Rat, b: Rat) -> Rat:
        if a.const is not None and b.const is not None:
            return self.const(a.const * b.const)
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
        terms: list[z3.ArithRef] = []
        constant = a[1] * b[1]
        weights: dict[tuple[str, str], int] = {}
        for first, weight_a in a[0].items():
            for second, weight_b in b[0].items():
                key = (min(first, second), max(first, second))
                weights[key] = weights.get(key, 0) + weight_a * weight_b
        for key, weight in weights.items():
            if weight:
                terms.append(weight * self.letter_product(*key))
        for letter, weight in a[0].items():
            if weight * b[1]:
                terms.append(weight * b[1] * self.letters[letter])
        for letter, weight in b[0].items():
            if weight * a[1]:
                terms.append(weight * a[1] * self.letters[letter])
        return Rat(z3.Sum(*terms, z3.IntVal(constant, self.ctx)), 1, nonneg)

    def letter_product(self, first: str, second: str) -> z3.ArithRef:
        """first * second as a fresh Int, bounded and defined digit by digit (shared per pair)."""
        cached = self.products.get((first, second))
        if cached is not None:
            return cached
        pool = sorted(allowed_digits(self.problem, first))
        other = sorted(allowed_digits(self.problem, second))
        values = [d * e for d in pool for e in other] if first != second else [d * d for d in pool]
        product = self.fresh_int(f"{first}{second}")
        self.bounded_fresh += 1
        self.side += [product >= min(values, default=0), product <= max(values, default=0)]
        for digit in pool:
            value = digit * digit if first == second else digit * self.letters[second]
            self.side.append(z3.Implies(self.letters[first] == digit, product == value))
        self.products[(first, second)] = product
        return product

    def inverse(self, b: Rat) -> tuple[Rat, Ok]:
        """1/b, and the condition b != 0."""
        if b.const is not None:
            return (self.const(1 / b.const), True) if b.const != 0 else (self.const(Fraction(0)), False)
        nonzero = b.num != 0
        if b.nonneg:
            return Rat(b.den if not isinstance(b.den, int) else z3.IntVal(b.den, self.ctx), b.num, True), nonzero
        self.linear = False
        negative = b.num < 0
        return Rat(z3.If(negative, -b.den, b.den), z3.If(negative, -b.num, b.num)), nonzero

    def floor(self, a: Rat) -> Rat:
        if a.const is not None:
            return self.const(Fraction(a.const.numerator // a.const.denominator))
        if isinstance(a.den, int) and a.den == 1:
            return a
        self.linear = False
        return Rat(a.num / a.den, 1, a.nonneg)  # Z3's Int division by a positive divisor is floor

    def int_power(self, a: Rat, k: int) -> Rat:
        if a.const is not None:
            return self.const(a.const ** k)
        if k == 0:
            return self.const(Fraction(1))
        nonneg = a.nonneg or k % 2 == 0
        result: tuple[z3.ArithRef | int, Den] | None = None
        square_num, square_den = a.num, a.den
        while k:
            if k & 1:
                result = (square_num, square_den) if result is None else (
                    self.times(result[0], square_num), self.times(result[1], square_den))
            k >>= 1
            if k:
                square_num, square_den = self.times(square_num, square_num), self.times(square_den, square_den)
        assert result is not None  # k > 0 had a lowest set bit
        return Rat(result[0], result[1], nonneg)

    def signed_power(self, a: Rat, k: int) -> tuple[Rat, Ok]:
        if k >= 0:
            return self.int_power(a, k), True
        inverse, nonzero = self.inverse(a)
        return self.int_power(inverse, -k), nonzero

    def root(self, a: Rat, q: int) -> tuple[Rat, Ok]:
        """The exact non-negative q-th root, defined only where it is rational."""
        if a.const is not None:
            value = a.const
            top = exact_root(value.numerator, q) if value >= 0 else None
            bottom = exact_root(value.denominator, q)
            if top is None or bottom is None:
                return self.const(Fraction(0)), False
            return self.const(Fraction(top, bottom)), True
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
        """The q-th root of num/D, for a constant D and bounds on num (an integer expression's, a
        repeating decimal's), as a table of the roots in range, which stays linear (`EVIL**(1/2)`:
        32**2 .. 99**2); None when the range is too wide. The root is s/D with s**q = num * D**(q-1),
        so s is a multiple of `root_step`: `0.A(68) ** (1/2)` in base 16 has 5 candidates, where
        a root and a denominator as unknowns are hard for Z3."""
        bounds = self.numerator_bounds(node, a)
        if bounds is None:
            return None
        den = a.den
        assert isinstance(den, int)
        if bounds[1] < 0:
            return self.const(Fraction(0)), False
        scale, step = den ** (q - 1), root_step(den, q)
        low, high = max(bounds[0], 0) * scale, bounds[1] * scale
        first = root_floor(low - 1, q) + 1 if low > 0 else 0
        first, last = -(-first // step) * step, root_floor(high, q) // step * step
        if (last - first) // step + 1 > MAX_TABLE:
            return None
        roots = range(first, last + 1, step)
        result = self.fresh_int("root")
        self.bounded_fresh += 1
        self.side += [result >= first, result <= max(first, last)]
        cases = [a.num * scale == r ** q for r in roots]
        self.side += [z3.Implies(case, result == r) for r, case in zip(roots, cases)]
        return Rat(result, den, True), (z3.Or(*cases) if cases else False)

    def numerator_bounds(self, node: Expr, a: Rat) -> Interval | None:
        """Bounds on a.num where a.den is a constant: an integer expression's interval, or those of
        a sum, difference or product of such terms and repeating decimals (`.7(13) + A`), scaled by
        the denominator; None if some term has no bounds."""
        if a.const is not None or not isinstance(a.den, int):
            return None
        if a.den == 1:
            return interval(node, self.problem.rules)
        bounds = self.value_bounds(node)
        if bounds is None:
            return None
        low, high = bounds[0] * a.den, bounds[1] * a.den
        return math.ceil(low), math.floor(high)

    def value_bounds(self, node: Expr) -> tuple[Fraction, Fraction] | None:
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
            return inner if inner is None or node.op == "+" else (-inner[1], -inner[0])
        if isinstance(node, BinOp) and node.op in ("+", "-", "*"):
            left, right = self.value_bounds(node.left), self.value_bounds(node.right)
            if left is None or right is None:
                return None
            if node.op == "+":
                return left[0] + right[0], left[1] + right[1]
            if node.op == "-":
                return left[0] - right[1], left[1] - right[0]
            corners = [x * y for x in left for y in right]
            return min(corners), max(corners)
        return None

    def power_of(self, node: BinOp, base: Rat, exponent: Rat) -> tuple[Rat, Ok]:
        fixed = self.problem.constant_exponents.get(node)
        if fixed is not None:
            p, q = fixed.numerator, fixed.denominator
            ok: Ok = True
            if q != 1:
                base, ok = (self.tables and self.root_table(node.left, base, q)) or self.root(base, q)
            result, nonzero = self.signed_power(base, p)
            return result, conj(ok, nonzero)
        if not splits(self.problem.exponent_ranges[node]):
            raise Unsupported("a variable exponent with more values than a power is split into")
        low, high = self.problem.exponent_ranges[node]
        power, _ = self.integral(exponent)
        table = self.power_table(node.left, power, low, high) if self.tables else None
        if table is not None:
            return table
        self.linear = False
        cases = [(k, *self.signed_power(base, k)) for k in range(low, high + 1)]
        chosen: Value = cases[-1][1]
        for k, value, _ in reversed(cases[:-1]):
            chosen = self.choose(power == k, value, chosen)
        defined = conj(*[z3.Implies(power == k, nonzero) for k, _, nonzero in cases if nonzero is not True])
        return self.rat(chosen), defined

    def power_table(self, base: Expr, power: z3.ArithRef, low: int, high: int) -> tuple[Rat, Ok] | None:
        """A letter to a variable power (`A**N`) as a lookup table, which stays linear: fresh bounded
        Ints equal to the numerator and denominator of d**k wherever the letter is d and the exponent k."""
        if not (isinstance(base, Word) and len(base.letters) == 1 and base.letters in self.letters):
            return None
        letter = self.letters[base.letters]
        digits = sorted(allowed_digits(self.problem, base.letters))
        if not digits or len(digits) * (high - low + 1) > MAX_TABLE:
            return None
        values = {(d, k): Fraction(d) ** k for d in digits for k in range(low, high + 1) if d or k >= 0}
        top = self.fresh_int("power")
        parts = [(top, [value.numerator for value in values.values()])]
        bottom: Den = 1
        if any(value.denominator != 1 for value in values.values()):
            bottom = self.fresh_int("power")
            parts.append((bottom, [value.denominator for value in values.values()]))
        for var, seen in parts:
            self.bounded_fresh += 1
            self.side += [var >= min(seen), var <= max(seen)]
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

    # --- the node cases of this encoding's own (the others are walk.py's) -------------------------

    def digits_value(self, digits: str) -> z3.ArithRef:
        """The base-B number whose digits are letters or literal digits: "7AB" -> 700 + 10*A + B."""
        weights, literal = place_values(digits, self.problem.rules.base)
        terms = [weight * self.letters[letter] for letter, weight in weights.items()]
        return z3.Sum(*terms, z3.IntVal(literal, self.ctx)) if literal or not terms else z3.Sum(*terms)

    def encode_word(self, node: Word) -> tuple[Value, Ok]:
        form = place_values(node.letters, self.problem.rules.base)
        return Rat(self.digits_value(node.letters), 1, True, None, form), True

    def encode_repeating(self, node: Repeating) -> tuple[Value, Ok]:
        """whole.fixed(period) = whole + fixed/B^f + period/(B^f (B^p - 1)), one exact fraction."""
        base = self.problem.rules.base
        scale, cycle = base ** len(node.fixed), base ** len(node.period) - 1
        whole = int(node.whole, base)
        # a constant: its roots are known (0.2(68) ** (1/2))
        if not any(ch.isalpha() for ch in node.fixed + node.period):
            return self.const(Fraction(whole * scale * cycle + int(node.fixed or "0", base) * cycle
                                       + int(node.period, base), scale * cycle)), True
        fixed = self.digits_value(node.fixed) if node.fixed else z3.IntVal(0, self.ctx)
        numerator = whole * scale * cycle + fixed * cycle + self.digits_value(node.period)
        return Rat(numerator, scale * cycle, True), True

    def encode_name(self, node: Name) -> tuple[Value, Ok]:
        return Rat(self.unknowns[node.name]), True

    def gcd(self, nodes: Sequence[Expr], wholes: list[z3.ArithRef]) -> tuple[Rat, Ok]:
        """math.gcd of integer terms. The arguments whose bounds meet are constants: with a nonzero
        gcd c of theirs, the result is the greatest divisor of c that divides the other arguments,
        a choice among c's divisors that is a function of the letters (gcd(3, ABB, 2) is 1, and
        gcd(12, AB) a choice among 12, 6, 4, 3, 2 and 1); otherwise Bezout's witnesses."""
        bounds = [interval(node, self.problem.rules) for node in nodes]
        fixed = [bound[0] for bound in bounds if bound is not None and bound[0] == bound[1]]
        if len(fixed) == len(nodes):
            return self.const(Fraction(math.gcd(*fixed))), True
        constant = abs(math.gcd(*fixed)) if fixed else 0
        if 0 < constant <= MAX_DIVIDEND:
            rest = [whole for whole, bound in zip(wholes, bounds) if bound is None or bound[0] != bound[1]]
            return self.divisor_gcd(divisors(constant), rest), True
        return self.bezout_gcd(bounds, wholes)

    def divisor_gcd(self, divisors: list[int], wholes: list[z3.ArithRef]) -> Rat:
        """The greatest of the divisors (ascending, from 1) that divides every term."""
        self.linear = False
        self.cases = True
        result = z3.IntVal(1, self.ctx)
        for d in divisors[1:]:
            result = z3.If(z3.And(*[whole % d == 0 for whole in wholes]), z3.IntVal(d, self.ctx), result)
        return Rat(result, 1, True)

    def bezout_gcd(self, bounds: list[Interval | None], wholes: list[z3.ArithRef]) -> tuple[Rat, Ok]:
        """gcd by Bezout: g >= 0 divides every argument and is an integer combination of them.

        That pins g to the gcd exactly (any common divisor divides such a combination). When the
        arguments' bounds are known, every auxiliary unknown is bounded, unconditionally, by what
        a solution needs (g by the larger argument, a quotient by its dividend, a Bezout
        coefficient by the other argument: such coefficients always exist), so the problem stays
        bit-blastable, with terms no wider than the arguments'.
        """
        self.linear = False
        self.witnesses = True
        known = [max(abs(bound[0]), abs(bound[1])) for bound in bounds if bound is not None]
        sizes = known if len(known) == len(bounds) else None
        result, conditions = wholes[0], []
        for index, value in enumerate(wholes[1:], 1):
            g, ka, kb, u, v = (self.fresh_int(stem) for stem in ("gcd", "gcdq", "gcdq", "bezout", "bezout"))
            conditions += [g >= 0, result == g * ka, value == g * kb, g == u * result + v * value]
            if sizes is not None:
                first, second = sizes[0], sizes[index]
                for unknown, size in ((g, max(first, second)), (ka, first), (kb, second),
                                      (u, max(second, 1)), (v, max(first, 1))):
                    self.side.append(z3.And(unknown >= -size, unknown <= size))
                self.bounded_fresh += 5
                sizes[0] = max(first, second)  # the bound on g, the next step's first argument
            result = g
        return Rat(result, 1, True), z3.And(*conditions)

    # --- the number-theory words (see encode/words.py) --------------------------------------------

    def whole_bounds(self, node: Expr) -> Interval | None:
        """Bounds of the integer a term's value is taken as (a fraction's floor, which the word then
        refuses), wherever the term is defined; None where some part of it has none."""
        bounds = interval(node, self.problem.rules)
        if bounds is not None:
            return bounds
        value = self.term_bounds(node)
        return None if value is None else (math.floor(value[0]), math.floor(value[1]))

    def term_bounds(self, node: Expr) -> tuple[Fraction, Fraction] | None:
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
        parts = [self.term_bounds(child) for child in children(node)]
        if any(part is None for part in parts) or not parts:
            return None
        ends = [end for part in parts if part is not None for end in part]
        if isinstance(node, Unary):
            return (-ends[1], -ends[0]) if node.op == "-" else (ends[0], ends[1])
        if isinstance(node, BoolOp):  # the value of one of the operands
            return min(ends), max(ends)
        if isinstance(node, Call) and node.name in ("abs", "min", "max", "dsum", "rev", "gcd"):
            return self.call_bounds(node.name, ends)
        if isinstance(node, BinOp):
            return self.binary_bounds(node, ends)
        return None

    def call_bounds(self, name: str, ends: list[Fraction]) -> tuple[Fraction, Fraction] | None:
        pairs = list(zip(ends[::2], ends[1::2]))
        if name in ("min", "max"):
            pick = min if name == "min" else max
            return pick(low for low, _ in pairs), pick(high for _, high in pairs)
        largest = max(abs(end) for end in ends)
        if name == "abs":
            low, high = pairs[0]
            return (Fraction(0) if low <= 0 <= high else min(abs(low), abs(high))), largest
        if name == "gcd":
            return Fraction(0), Fraction(math.floor(largest))
        whole = (math.floor(pairs[0][0]), math.floor(pairs[0][1]))
        word = digit_sum_interval if name == "dsum" else reversal_interval
        bounds = word(whole, self.problem.rules.base)
        return Fraction(bounds[0]), Fraction(bounds[1])

    def binary_bounds(self, node: BinOp, ends: list[Fraction]) -> tuple[Fraction, Fraction] | None:
        left, right = (ends[0], ends[1]), (ends[2], ends[3])
        if node.op in ("+", "-", "*"):
            corners = ([a + b for a, b in zip(left, right)] if node.op == "+" else
                       [a - b for a, b in zip(left, right[::-1])] if node.op == "-" else
                       [a * b for a in left for b in right])
            return min(corners), max(corners)
        if node.op == "**":
            exponent = self.problem.constant_exponents.get(node)
            if exponent is None or exponent.denominator != 1 or not 1 <= exponent <= MAX_BOUNDED_POWER:
                return None
            k, (low, high) = int(exponent), left
            if k % 2 or low >= 0:
                return low ** k, high ** k
            return (high ** k, low ** k) if high <= 0 else (Fraction(0), max(low ** k, high ** k))
        if right[0] <= 0 <= right[1]:  # a divisor that may be 0 or near it: no bound
            return None
        quotients = [a / b for a in left for b in right]
        low, high = min(quotients), max(quotients)
        if node.op == "/":
            return low, high
        if node.op == "//":
            return Fraction(math.floor(low)), Fraction(math.floor(high))
        largest = max(abs(right[0]), abs(right[1]))  # a % b lies between 0 and b
        return (Fraction(0), largest) if right[0] > 0 else (-largest, Fraction(0))

    def number_word(self, node: Call, wholes: list[z3.ArithRef]) -> tuple[Value, Ok]:
        x = wholes[0]
        if node.name == "divides":
            return self.divides(node, wholes), True
        bounds = self.whole_bounds(node.args[0])
        if node.name in ("dsum", "rev", "is_palindrome"):
            return self.digit_word(node, x, bounds), True
        # is_prime is undefined from PRIME_LIMIT on (see core/verify.py)
        defined: Ok = x < PRIME_LIMIT if node.name == "is_prime" and (bounds is None or bounds[1] >= PRIME_LIMIT) \
            else True
        by_letters = words.word_table(node, self.problem)
        if by_letters is not None:
            return words.trie(*by_letters, lambda letter, digit: self.letters[letter] == digit, self.ctx), defined
        listed = words.table(node, bounds, self.problem.rules.base)
        if listed is not None:
            return self.one_of(x, listed), defined
        if node.name == "is_prime":
            return self.prime(x, bounds), defined
        if node.name == "is_triangular":  # x = t(t + 1)/2 exactly when 8x + 1 = (2t + 1)**2
            high = None if bounds is None else 8 * bounds[1] + 1
            return z3.And(x >= 0, self.is_power_of(8 * x + 1, 2, high)), True
        return self.is_power_of(x, words.power_of(node), None if bounds is None else bounds[1]), True

    def one_of(self, x: z3.ArithRef, values: list[int]) -> z3.BoolRef:
        """x is one of the values (a table: linear)."""
        if not values:
            return z3.BoolVal(False, self.ctx)
        return z3.Or(*[x == value for value in values]) if len(values) > 1 else x == values[0]

    def floor_root(self, y: z3.ArithRef, k: int, high: int | None) -> z3.ArithRef:
        """The largest r >= 0 with r**k <= max(y, 0): a fresh Int that y fixes (a function of the letters,
        not a witness), bounded where y's upper bound `high` is known."""
        self.linear = False
        self.cases = True
        root = self.fresh_int("root")
        floor = z3.If(y >= 0, y, z3.IntVal(0, self.ctx))
        if high is not None:  # where y is undefined its term may lie beyond: the root stays defined
            floor = z3.If(floor <= max(high, 0), floor, z3.IntVal(max(high, 0), self.ctx))
        self.side += [root >= 0, self.int_power(Rat(root), k).num <= floor,
                      floor < self.int_power(Rat(root + 1), k).num]
        if high is not None:
            self.side.append(root <= root_floor(max(high, 0), k))
            self.bounded_fresh += 1
        return root

    def is_power_of(self, y: z3.ArithRef, k: int, high: int | None) -> z3.BoolRef:
        """y = r**k for some r >= 0: y is the k-th power of its floor root."""
        root = self.floor_root(y, k, high)
        return z3.And(y >= 0, self.int_power(Rat(root), k).num == y)

    def prime(self, x: z3.ArithRef, bounds: Interval | None) -> z3.BoolRef:
        """Trial division by the primes up to the square root of x's upper bound, each a constant modulus;
        where there are too many of them (or no bound), a recursive search for a divisor."""
        self.linear = False
        divisors = None if bounds is None else words.trial_divisors(bounds[1])
        if divisors is not None:
            return z3.And(x >= 2, *[z3.Or(x == p, x % p != 0) for p in divisors])
        has_divisor = self.recursive("divisor", 2, lambda f, n, d: z3.If(
            d * d > n, z3.BoolVal(False, self.ctx), z3.Or(n % d == 0, f(n, d + 1))), z3.BoolSort(self.ctx))
        return z3.And(x >= 2, z3.Not(has_divisor(x, z3.IntVal(2, self.ctx))))

    def recursive(self, stem: str, arity: int, body: Callable[..., z3.ExprRef], result: z3.SortRef) -> z3.FuncDeclRef:
        """A recursive function of `arity` Ints (made once per encoding), for terms without bounds:
        Z3 unfolds it as far as a model needs."""
        made = self.recursions.get(stem)
        if made is not None:
            return made
        int_sort = z3.IntSort(self.ctx)
        function = z3.RecFunction(f"{stem}!{next(self.fresh)}", *([int_sort] * arity), result)
        arguments = [z3.Int(f"{stem}!arg{index}", self.ctx) for index in range(arity)]
        z3.RecAddDefinition(function, arguments, body(function, *arguments))
        self.recursions[stem] = function
        self.linear = False
        return function

    def digit_word(self, node: Call, x: z3.ArithRef, bounds: Interval | None) -> Value:
        """dsum, rev or is_palindrome: of a word, from its letters; else from the digits of x."""
        argument = node.args[0]
        if isinstance(argument, Word):
            if node.name == "dsum":
                return self.word_digit_sum(argument)
            reversed_word = self.word_reversal(argument)
            return reversed_word if node.name == "rev" else reversed_word.num == x
        if node.name == "is_palindrome":
            listed = words.table(node, bounds, self.problem.rules.base)
            if listed is not None:
                return self.one_of(x, listed)
            return self.digits_of(x, "rev", bounds).num == x
        return self.digits_of(x, node.name, bounds)

    def word_digit_sum(self, word: Word) -> Rat:
        weights: dict[str, int] = {}
        literal = 0
        for cell in word.letters:
            if cell.isdigit():
                literal += int(cell)
            else:
                weights[cell] = weights.get(cell, 0) + 1
        return self.linear_rat(weights, literal)

    def linear_rat(self, weights: dict[str, int], literal: int) -> Rat:
        terms = [weight * self.letters[letter] for letter, weight in weights.items()]
        term = z3.Sum(*terms, z3.IntVal(literal, self.ctx)) if literal or not terms else z3.Sum(*terms)
        return Rat(term, 1, True, None, (weights, literal))

    def word_reversal(self, word: Word) -> Rat:
        """rev of a word by its letters: the reversal from its first nonzero cell, a choice where a
        letter that may be 0 leads (linear where none may)."""
        base = self.problem.rules.base
        cells = words.word_cells(word)
        options: list[tuple[z3.BoolRef | None, Rat]] = []  # (this cell is the first nonzero one, the reversal)
        for start, cell in enumerate(cells):
            reversed_rat = self.linear_rat(*words.reversed_weights(cells, start, base))
            if cell.isdigit() or 0 not in allowed_digits(self.problem, cell):
                options.append((None, reversed_rat))
                break
            options.append((self.letters[cell] != 0, reversed_rat))
        else:
            options.append((None, self.const(Fraction(0))))
        result = options[-1][1]
        for condition, value in reversed(options[:-1]):
            assert condition is not None
            chosen = self.choose(condition, value, result)
            assert isinstance(chosen, Rat)
            result = chosen
        return result

    def digits_of(self, x: z3.ArithRef, name: str, bounds: Interval | None) -> Rat:
        """dsum(x) or rev(x) of an integer term: a table of its values where they are few, its digits as
        fresh Ints that x fixes where x has bounds, else a recursive function."""
        base = self.problem.rules.base
        values = words.digit_table(name, bounds, base)
        if values is not None:
            result = self.fresh_int(name)
            self.bounded_fresh += 1
            self.side += [result >= min(values.values()), result <= max(values.values())]
            self.side += [z3.Implies(x == n, result == value) for n, value in values.items()]
            return Rat(result, 1, min(values.values()) >= 0)
        self.linear = False
        self.cases = True
        magnitude = x if bounds is not None and bounds[0] >= 0 else z3.If(x < 0, -x, x)
        if bounds is None:
            return self.recursive_digits(name, x, magnitude)
        largest = max(-bounds[0], bounds[1])
        count = digit_count(largest, base)
        # where x is undefined its term may lie beyond its bounds: the digits stay defined
        magnitude = z3.If(magnitude <= largest, magnitude, z3.IntVal(largest, self.ctx))
        digits = [self.fresh_int("digit") for _ in range(count)]  # the last first
        self.bounded_fresh += count
        for digit in digits:
            self.side += [digit >= 0, digit < base]
        self.side.append(magnitude == z3.Sum(*[digit * base ** place for place, digit in enumerate(digits)]))
        if name == "dsum":
            return Rat(z3.Sum(*digits), 1, True)
        value: z3.ArithRef = z3.IntVal(0, self.ctx)
        for top in range(count):  # the reversal of the digits up to the highest nonzero one
            reversed_digits = z3.Sum(*[digits[place] * base ** (top - place) for place in range(top + 1)])
            value = z3.If(digits[top] != 0, reversed_digits, value)
        return Rat(value if bounds[0] >= 0 else z3.If(x < 0, -value, value), 1, bounds[0] >= 0)

    def recursive_digits(self, name: str, x: z3.ArithRef, magnitude: z3.ArithRef) -> Rat:
        """dsum or rev of a term without bounds, by recursive functions of its magnitude."""
        base = self.problem.rules.base
        if name == "dsum":
            digit_sum = self.recursive("dsum", 1, lambda f, n: z3.If(n < base, n, n % base + f(n / base)),
                                       z3.IntSort(self.ctx))
            return Rat(digit_sum(magnitude), 1, True)
        reversal = self.recursive("rev", 2, lambda f, n, acc: z3.If(
            n == 0, acc, f(n / base, acc * base + n % base)), z3.IntSort(self.ctx))
        value = reversal(magnitude, z3.IntVal(0, self.ctx))
        return Rat(z3.If(x < 0, -value, value), 1)

    def divides(self, node: Call, wholes: list[z3.ArithRef]) -> z3.BoolRef:
        """d divides x: x = k*d for an integer k, so 0 divides only 0 (a constant d: one remainder)."""
        d, x = wholes
        self.linear = False
        fixed = self.whole_bounds(node.args[0])
        if fixed is not None and fixed[0] == fixed[1]:
            return x == 0 if fixed[0] == 0 else x % abs(fixed[0]) == 0
        return z3.Or(z3.And(d == 0, x == 0), z3.And(d != 0, x % d == 0))

    def encode_number(self, node: Number) -> tuple[Value, Ok]:
        return self.const(node.value), True

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
