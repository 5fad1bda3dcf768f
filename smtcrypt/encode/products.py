"""Long multiplication for products and powers of words: `ODD * ODD = FREAKY` digit by digit.

Every constraint must be an equation (or a chain of them, or an `and` of them)
between polynomials of words with rational constants, such as
`NAUGHT ** 2 = ZERO ** 3` or `PI * R**2 = AREA`, possibly divided by products of
words, such as `NORTH / SOUTH = EAST / WEST`. Each equation is brought to one
integer polynomial that must be zero: both sides over a common denominator
(a product of words, each required to be nonzero, exactly when Python would
divide by it), cross-multiplied, the rational coefficients cleared.

The polynomial is then written as a person multiplies by hand, and stays linear
in bounded integers, which is what the finite-domain solver (QF_FD) needs:
- the product of two digits is a fresh Int in 0..81 defined by a table over the
  values of one of them (shared between every place the same pair occurs);
- a product of three or more words gets the digits of its first factors as
  fresh digit variables 0..9, tied to their partial products by their own
  columns with bounded carries, and is then multiplied by the last factor;
- the final equation places every partial product (times the term's
  coefficient), every word's letters and the constant in its decimal column,
  and holds exactly when bounded integer carries balance every column, with
  nothing carried out of the top one.

Long multiplication reasons from the last digits up; the magnitudes come from the
leading digits, which split.py reads as intervals: they narrow each letter's digits
before encoding, and split a search that runs long into cases.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

import z3

from smtcrypt.analysis.carries import columns_by_carries
from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, Expr, Number, Repeating, Unary, Word
from smtcrypt.encode.base import (
    Encoded,
    Unsupported,
    allowed_digits,
    checkpoint,
    equation_chains,
    indicator,
    letter_variables,
)
from smtcrypt.encode.split import Bounds, Domains

Monomial = tuple[str, ...]  # a product of words, as the sorted tuple of their letters: ("ODD", "ODD")
Poly = dict[Monomial, Fraction]  # monomial -> coefficient; () holds the constant

MAX_EXPONENT = 8  # largest |k| of a word power W ** k
MAX_DEGREE = 8  # most words multiplied in one term
MAX_TERMS = 64  # most terms of an expanded polynomial
MAX_PARTIALS = 6000  # most digit-by-digit products of all multiplications together


@dataclass
class Quotient:
    """num / den: a polynomial over a product of words (each known to be nonzero where defined)."""

    num: Poly
    den: Monomial = ()


@dataclass
class Analysis:
    """The problem as integer polynomials equal to zero, and the words that must be nonzero."""

    polynomials: list[dict[Monomial, int]]
    nonzero: set[str] = field(default_factory=set)


# --- polynomials ------------------------------------------------------------------------------------


def monomial(*parts: Monomial) -> Monomial:
    return tuple(sorted(itertools.chain(*parts)))


def trimmed(poly: Poly) -> Poly:
    result = {key: value for key, value in poly.items() if value}
    if len(result) > MAX_TERMS or any(len(key) > MAX_DEGREE for key in result):
        raise Unsupported("too large")
    return result


def poly_add(first: Poly, second: Poly, factor: Fraction = Fraction(1)) -> Poly:
    total: dict[Monomial, Fraction] = defaultdict(Fraction, first)
    for key, value in second.items():
        total[key] += factor * value
    return trimmed(total)


def poly_times(first: Poly, second: Poly) -> Poly:
    total: dict[Monomial, Fraction] = defaultdict(Fraction)
    for (a, x), (b, y) in itertools.product(first.items(), second.items()):
        total[monomial(a, b)] += x * y
    return trimmed(total)


def poly_times_words(poly: Poly, words: Monomial) -> Poly:
    return trimmed({monomial(key, words): value for key, value in poly.items()})


def multiset_minus(first: Monomial, second: Monomial) -> Monomial:
    """first / second for products of words, where second divides first."""
    rest = list(first)
    for word in second:
        rest.remove(word)
    return tuple(rest)


def multiset_lcm(first: Monomial, second: Monomial) -> Monomial:
    counts = {word: max(first.count(word), second.count(word)) for word in set(first) | set(second)}
    return tuple(sorted(word for word, count in counts.items() for _ in range(count)))


def cancel(value: Quotient) -> Quotient:
    """Divide num and den by every word of den that divides each term of num (den is nonzero)."""
    if not value.num:
        return Quotient({}, ())
    num, den = dict(value.num), list(value.den)
    for word in sorted(set(den)):
        while word in den and all(word in key for key in num):
            den.remove(word)
            num = {multiset_minus(key, (word,)): coefficient for key, coefficient in num.items()}
    return Quotient(num, tuple(den))


# --- the tree -> quotients of polynomials -----------------------------------------------------------


class _Reader:
    def __init__(self, problem: Problem):
        self.problem = problem
        self.nonzero: set[str] = set()

    def analyse(self) -> Analysis:
        polynomials: list[dict[Monomial, int]] = []
        chains = equation_chains(self.problem)
        if chains is None:
            raise Unsupported("not an equation")
        for node in chains:
            sides = [self.read(operand) for operand in node.operands]
            polynomials += [difference(a, b) for a, b in zip(sides, sides[1:])]
        return Analysis(polynomials, self.nonzero)

    def read(self, node: Expr) -> Quotient:
        if isinstance(node, Word):
            return Quotient({(node.letters,): Fraction(1)})
        if isinstance(node, Number):
            return Quotient(trimmed({(): node.value}))
        if isinstance(node, Repeating):
            return self.repeating(node)
        if isinstance(node, Unary):
            inner = self.read(node.operand)
            return inner if node.op == "+" else Quotient(poly_add({}, inner.num, Fraction(-1)), inner.den)
        if not isinstance(node, BinOp) or node.op not in ("+", "-", "*", "/", "**"):
            raise Unsupported(f"{type(node).__name__} is not a polynomial")
        if node.op == "**":
            return self.power(node)
        left, right = self.read(node.left), self.read(node.right)
        if node.op == "/":
            right = self.inverse(right)
        if node.op in ("*", "/"):
            return cancel(Quotient(poly_times(left.num, right.num), monomial(left.den, right.den)))
        common = multiset_lcm(left.den, right.den)
        num = poly_add(poly_times_words(left.num, multiset_minus(common, left.den)),
                       poly_times_words(right.num, multiset_minus(common, right.den)),
                       Fraction(1 if node.op == "+" else -1))
        return cancel(Quotient(num, common))

    def repeating(self, node: Repeating) -> Quotient:
        """whole.fixed(period) = (whole * B^f * (B^p - 1) + fixed * (B^p - 1) + period) / (B^f * (B^p - 1)),
        with the fixed and repeating digits read as words (which may start with 0)."""
        base = self.problem.rules.base
        if any(ch.islower() for ch in node.fixed + node.period):
            raise Unsupported("digits beyond 9 in a repeating decimal")
        scale, cycle = base ** len(node.fixed), base ** len(node.period) - 1
        num: dict[Monomial, Fraction] = defaultdict(Fraction)
        num[()] += Fraction(int(node.whole, base) * scale * cycle)
        if node.fixed:
            num[(node.fixed,)] += cycle
        num[(node.period,)] += 1
        return Quotient(trimmed({key: value / (scale * cycle) for key, value in num.items()}))

    def inverse(self, value: Quotient) -> Quotient:
        """1 / value, which Python defines only where value != 0: value must be one term c * words."""
        if len(value.num) != 1:
            raise Unsupported("division by a sum (or by zero)")
        ((words, coefficient),) = value.num.items()
        self.nonzero.update(words)
        return Quotient({value.den: 1 / coefficient}, words)

    def power(self, node: BinOp) -> Quotient:
        exponent = self.problem.constant_exponents.get(node)
        if exponent is None or exponent.denominator != 1 or abs(exponent.numerator) > MAX_EXPONENT:
            raise Unsupported("not a small integer power")
        base = self.read(node.left)
        k = exponent.numerator
        if k < 0:
            base, k = self.inverse(base), -k
        result = Quotient({(): Fraction(1)})
        for _ in range(k):
            result = Quotient(poly_times(result.num, base.num), monomial(result.den, base.den))
        return cancel(result)


def difference(left: Quotient, right: Quotient) -> dict[Monomial, int]:
    """left == right as one integer polynomial that must be zero (both denominators are nonzero)."""
    common = multiset_lcm(left.den, right.den)
    poly = poly_add(poly_times_words(left.num, multiset_minus(common, left.den)),
                    poly_times_words(right.num, multiset_minus(common, right.den)), Fraction(-1))
    scale = math.lcm(*[value.denominator for value in poly.values()]) if poly else 1
    integral = {key: int(value * scale) for key, value in poly.items()}
    divisor = math.gcd(*integral.values()) if integral else 1
    return {key: value // divisor for key, value in integral.items()}


def analyse(problem: Problem) -> Analysis | None:
    """The problem's equations as integer polynomials, or None if it is not of that shape or too big."""
    try:
        analysis = _Reader(problem).analyse()
    except (Unsupported, ZeroDivisionError):
        return None
    if getattr(problem, "unknowns", ()):
        return None
    if partial_count(analysis, problem.rules.base) > MAX_PARTIALS:
        return None
    return analysis


def digit_count(value: int, base: int) -> int:
    """How many base-`base` digits `value` > 0 takes."""
    count = 0
    while value:
        value //= base
        count += 1
    return max(count, 1)


def product_length(words: Monomial, base: int) -> int:
    """Enough digits for any value of the product of these words."""
    return digit_count(math.prod(base ** len(word) - 1 for word in words), base)


def partial_count(analysis: Analysis, base: int) -> int:
    """How many digit-by-digit products the long multiplications take (shared prefixes counted once)."""
    def length(words: Monomial) -> int:
        return len(words[0]) if len(words) == 1 else product_length(words, base)

    steps: set[Monomial] = set()
    for poly in analysis.polynomials:
        for words in poly:
            for size in range(2, len(words) + 1):
                steps.add(words[:size])
    return sum(length(words[:-1]) * len(words[-1]) for words in steps)


# --- Z3 ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Digit:
    """A bounded Int in a digit's role: a letter, a fresh digit of a product, or a partial product."""

    name: str
    var: z3.ArithRef
    low: int
    high: int


Column = dict[str, tuple[int, Digit]]  # name -> (coefficient, term)


class _Builder:
    def __init__(self, problem: Problem, context: z3.Context, domains: Domains):
        self.problem = problem
        self.ctx = context
        self.base = problem.rules.base
        self.letters = letter_variables(problem, context)
        self.constraints: list[z3.BoolRef] = []
        self.digits: dict[str, Digit] = {}
        for letter, var in self.letters.items():
            self.digits[letter] = Digit(letter, var, domains[letter][0], domains[letter][-1])
        self.digit_rules(domains)
        for value in range(self.base):  # literal digits inside words such as 7AB
            self.digits[str(value)] = self.constant(value)
        self.vectors: dict[Monomial, list[Digit]] = {}  # digits of a product, lowest first
        self.partials: dict[tuple[str, str], Digit] = {}
        self.fresh = itertools.count()

    def name(self, stem: str) -> str:
        return f"{stem}!{next(self.fresh)}"

    def digit_rules(self, domains: Domains) -> None:
        """Each letter within its digits, each (letter, digit) named by a Boolean `A=1` (for blocking
        clauses and for the cases of a split search), and distinct digits as "each digit is used at
        most once": the finite-domain solver reasons with that better than with pairwise
        disequalities (NAUGHT ** 2 = ZERO ** 3)."""
        users: dict[int, list[z3.BoolRef]] = defaultdict(list)
        for letter, digits in domains.items():
            var = self.letters[letter]
            self.constraints += [var >= digits[0], var <= digits[-1]]
            for digit in range(digits[0], digits[-1] + 1):
                if digit not in digits:
                    self.constraints.append(var != digit)
            for digit in digits:
                named = indicator(letter, digit, self.ctx)
                self.constraints.append(named == (var == digit))
                users[digit].append(named)
        if self.problem.distinctness == "some":  # each group's letters use each digit at most once
            for group in self.problem.groups:
                for digit in set().union(*(domains[letter] for letter in group)):
                    named = [indicator(letter, digit, self.ctx) for letter in group if digit in domains[letter]]
                    if len(named) > 1:
                        self.constraints.append(z3.AtMost(*named, 1))
            return
        if self.problem.distinctness == "none":
            return
        for indicators in users.values():
            if len(indicators) > 1:
                self.constraints.append(z3.AtMost(*indicators, 1))
            if len(domains) == len(users):  # as many letters as digits: every digit is used
                self.constraints.append(z3.Or(*indicators) if indicators else z3.BoolVal(False, self.ctx))

    def constant(self, value: int) -> Digit:
        return Digit(f"#{value}", z3.IntVal(value, self.ctx), value, value)

    def partial(self, a: Digit, b: Digit) -> tuple[int, Digit]:
        """The product a * b as factor * term: a bounded Int defined by a table over one factor's values."""
        checkpoint(self.ctx)
        if a.low == a.high or b.low == b.high:  # a literal digit (or a letter with one allowed digit)
            if a.low != a.high:
                a, b = b, a
            return (a.low, b) if b.low != b.high else (1, self.constant(a.low * b.low))
        key = (min(a.name, b.name), max(a.name, b.name))
        found = self.partials.get(key)
        if found is not None:
            return 1, found
        if a.high - a.low > b.high - b.low:
            a, b = b, a
        corners = [x * y for x in (a.low, a.high) for y in (b.low, b.high)]
        name = self.name(f"{a.name}*{b.name}")
        product = Digit(name, z3.Int(name, self.ctx), min(corners), max(corners))
        self.constraints += [product.var >= product.low, product.var <= product.high]
        for x in range(a.low, a.high + 1):
            value = x * x if a.name == b.name else x * b.var
            self.constraints.append(z3.Implies(a.var == x, product.var == value))
        self.partials[key] = product
        return 1, product

    @staticmethod
    def place(columns: dict[int, Column], position: int, coefficient: int, term: Digit) -> None:
        column = columns[position]
        column[term.name] = (column.get(term.name, (0, term))[0] + coefficient, term)

    def long_multiplication(self, first: list[Digit], second: list[Digit], coefficient: int,
                            columns: dict[int, Column]) -> None:
        """Add coefficient * first * second to the columns, one partial product per pair of digits."""
        for (i, a), (j, b) in itertools.product(enumerate(first), enumerate(second)):
            factor, product = self.partial(a, b)
            self.place(columns, i + j, coefficient * factor, product)

    def vector(self, words: Monomial) -> list[Digit]:
        """The digits of a product of words, lowest first: a word's letters, or fresh digits."""
        if len(words) == 1:
            return [self.digits[ch] for ch in reversed(words[0])]
        found = self.vectors.get(words)
        if found is not None:
            return found
        digits = []
        for _ in range(product_length(words, self.base)):
            name = self.name("digit")
            digits.append(Digit(name, z3.Int(name, self.ctx), 0, self.base - 1))
        self.constraints += [c for d in digits for c in (d.var >= 0, d.var <= self.base - 1)]
        columns: dict[int, Column] = defaultdict(dict)
        self.long_multiplication(self.vector(words[:-1]), self.vector(words[-1:]), 1, columns)
        for position, digit in enumerate(digits):
            self.place(columns, position, -1, digit)
        self.constraints += self.balance(columns, 0, "carry")
        self.vectors[words] = digits
        return digits

    def equation(self, poly: dict[Monomial, int], stem: str) -> None:
        columns: dict[int, Column] = defaultdict(dict)
        for words, coefficient in poly.items():
            if len(words) == 1:
                for position, digit in enumerate(self.vector(words)):
                    self.place(columns, position, coefficient, digit)
            elif len(words) > 1:
                self.long_multiplication(self.vector(words[:-1]), self.vector(words[-1:]), coefficient, columns)
        self.constraints += self.balance(columns, poly.get((), 0), stem)

    def balance(self, columns: dict[int, Column], constant: int, stem: str) -> list[z3.BoolRef]:
        """sum(base**p * column_p) + constant == 0, with one bounded carry per column."""
        terms = {position: list(column.values()) for position, column in columns.items()}
        plan = columns_by_carries(terms, constant, self.base, lambda digit: (digit.low, digit.high))
        if plan is None:
            return [z3.BoolVal(False, self.ctx)]
        constraints: list[z3.BoolRef] = []
        carry: z3.ArithRef | None = None
        for column in plan:
            parts = [c * d.var for c, d in column.terms] + [z3.IntVal(column.fixed, self.ctx)]
            total = z3.Sum(*parts, carry) if column.carry_in and carry is not None else z3.Sum(*parts)
            if column.carry_out is None:  # nothing may be carried out of the top column
                return constraints + [total == 0]
            carry = z3.Int(self.name(stem), self.ctx)
            low, high = column.carry_out
            constraints += [carry >= low, carry <= high, total == self.base * carry]
        return constraints

    def nonzero(self, word: str) -> None:
        """The word is not 0: it has a nonzero digit (implied by a letter that may not be 0)."""
        if any(self.digits[ch].low > 0 for ch in word):
            return
        # no letter (every digit literal, or fixed at 0): false, in this context (an empty z3.Or is made in
        # Z3's default context)
        choices = [self.letters[ch] != 0 for ch in set(word) if not ch.isdigit()]
        self.constraints.append(z3.Or(*choices) if choices else z3.BoolVal(False, self.ctx))


class ProductsEncoding:
    """Equations between polynomials of words, and quotients by products of words: long multiplication."""

    name = "products"

    def accepts(self, problem: Problem) -> bool:
        return analyse(problem) is not None

    def encode(self, problem: Problem, context: z3.Context) -> Encoded:
        analysis = analyse(problem)
        if analysis is None:
            raise ValueError(f"the products encoding does not accept {problem.source!r}")
        bounds = Bounds(analysis.polynomials, problem.rules.base, problem.distinctness == "all")
        allowed = {letter: tuple(sorted(allowed_digits(problem, letter))) for letter in problem.letters}
        # leading-digit bounds first, in Python (see split.py): faster on NAUGHT ** 2 = ZERO ** 3, unsplit
        domains = bounds.narrow(allowed) if all(allowed.values()) else None
        if domains is None:
            return Encoded(context, letter_variables(problem, context), [z3.BoolVal(False, context)], "linear")
        builder = _Builder(problem, context, domains)
        for word in sorted(analysis.nonzero):
            builder.nonzero(word)
        for number, poly in enumerate(analysis.polynomials):
            builder.equation(poly, f"carry{number}")
        return Encoded(context, builder.letters, builder.constraints, "linear",
                       digits_only=not problem.unknowns, indicators=True,
                       split=lambda stopped=lambda: False: bounds.cases(domains, stopped=stopped))
