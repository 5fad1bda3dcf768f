"""Equations between polynomials of words, read as integer polynomials that must be zero.

`NAUGHT ** 2 = ZERO ** 3`, `PI * R**2 = AREA` (rational constants) and `NORTH / SOUTH = EAST / WEST`
(quotients by products of words) are each brought to one integer polynomial: both sides over a
common denominator (a product of words, each required to be nonzero, exactly where Python would
divide by it), cross-multiplied, the rational coefficients cleared. Each equation is read once a
problem (`equation_polynomials`) for the product encoding, the bounds, the explainer and the digits backend.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from smtcrypt.analysis.equations import conjuncts, equation_chains, is_equation
from smtcrypt.analysis.facts import problem_fact
from smtcrypt.core.check import Problem
from smtcrypt.core.intervals import digit_count
from smtcrypt.core.tree import BinOp, Compare, Expr, Number, Repeating, Unary, Word

Monomial = tuple[str, ...]  # a product of words, as the sorted tuple of their letters: ("ODD", "ODD")
Poly = dict[Monomial, Fraction]  # monomial -> coefficient; () holds the constant
Polynomial = Mapping[Monomial, int]  # an equation's integer polynomial, that must be 0

MAX_EXPONENT = 8  # largest |k| of a word power W ** k
MAX_DEGREE = 8  # most words multiplied in one term
MAX_TERMS = 64  # most terms of an expanded polynomial
MAX_PARTIALS = 6000  # most digit-by-digit products of all multiplications together


class NotPolynomial(Exception):
    """The formula is not an equation between polynomials of words, or one too large to expand."""


@dataclass
class Quotient:
    """num / den: a polynomial over a product of words (each known to be nonzero where defined)."""

    num: Poly
    den: Monomial = ()


@dataclass
class Analysis:
    """The problem as integer polynomials equal to zero, the words that must be nonzero, and every
    word read (a word may vanish from its polynomial: `A ** 0`, `B - B`)."""

    polynomials: list[dict[Monomial, int]]
    nonzero: set[str] = field(default_factory=set)
    words: list[str] = field(default_factory=list)
    # each side as written an integer polynomial in words, or a quotient of two at its top (`NORTH /
    # SOUTH`): the shapes whose congruences the digits backend checks (not `AB / C + 1`, `0.(3)`, `PI * R`)
    plain: bool = True


def monomial(*parts: Monomial) -> Monomial:
    return tuple(sorted(itertools.chain(*parts)))


def trimmed(poly: Poly) -> Poly:
    result = {key: value for key, value in poly.items() if value}
    if len(result) > MAX_TERMS or any(len(key) > MAX_DEGREE for key in result):
        raise NotPolynomial("too large")
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
    return tuple(sorted((Counter(first) - Counter(second)).elements()))


def multiset_lcm(first: Monomial, second: Monomial) -> Monomial:
    return tuple(sorted((Counter(first) | Counter(second)).elements()))


def cancel(value: Quotient) -> Quotient:
    """Divide num and den by every word of den that divides each term of num (den is nonzero): 0 / den is 0."""
    num, den = dict(value.num), list(value.den)
    for word in sorted(set(den)):
        while word in den and all(word in key for key in num):
            den.remove(word)
            num = {multiset_minus(key, (word,)): coefficient for key, coefficient in num.items()}
    return Quotient(num, tuple(den))


class _Reader:
    """Reads a side of an equation as a quotient of polynomials, noting the words it divides by."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.nonzero: set[str] = set()
        self.words: list[str] = []
        self.plain = True

    def equation(self, node: Compare) -> Analysis:
        """An equation (or a chain of them) as one polynomial per `==`, with the words it divides by."""
        sides = [self.read(operand, top=True) for operand in node.operands]
        return Analysis([difference(a, b) for a, b in zip(sides, sides[1:])], self.nonzero, self.words, self.plain)

    def read(self, node: Expr, top: bool = False) -> Quotient:
        if isinstance(node, Word):
            self.words.append(node.letters)
            return Quotient({(node.letters,): Fraction(1)})
        if isinstance(node, Number):
            self.plain = self.plain and node.value.denominator == 1
            return Quotient(trimmed({(): node.value}))
        if isinstance(node, Repeating):
            self.plain = False
            return self.repeating(node)
        if isinstance(node, Unary):
            inner = self.read(node.operand)
            return inner if node.op == "+" else Quotient(poly_add({}, inner.num, Fraction(-1)), inner.den)
        if not isinstance(node, BinOp) or node.op not in ("+", "-", "*", "/", "**"):
            raise NotPolynomial(f"{type(node).__name__} is not a polynomial")
        if node.op == "**":
            return self.power(node)
        left, right = self.read(node.left), self.read(node.right)
        if node.op == "/":
            self.plain = self.plain and top
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
            raise NotPolynomial("digits beyond 9 in a repeating decimal")
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
            raise NotPolynomial("division by a sum (or by zero)")
        ((words, coefficient),) = value.num.items()
        self.nonzero.update(words)
        return Quotient({value.den: 1 / coefficient}, words)

    def power(self, node: BinOp) -> Quotient:
        exponent = self.problem.constant_exponents.get(node)
        if exponent is None or exponent.denominator != 1 or abs(exponent.numerator) > MAX_EXPONENT:
            raise NotPolynomial("not a small integer power")
        base = self.read(node.left)
        k = exponent.numerator
        if k < 0:
            self.plain = False
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


@problem_fact
def equation_polynomials(problem: Problem) -> dict[Expr, Analysis | None]:
    """Each conjunct that is an equation (or a chain of them), read once as integer polynomials that
    must be zero, with the words it divides by; None for one not of that shape or too large to expand."""
    found: dict[Expr, Analysis | None] = {}
    for part in conjuncts(problem):
        if isinstance(part, Compare) and is_equation(part):
            try:
                found[part] = _Reader(problem).equation(part)
            except (NotPolynomial, ZeroDivisionError):
                found[part] = None
    return found


@problem_fact
def analyse(problem: Problem) -> Analysis | None:
    """The problem's equations as integer polynomials (the last conjunct's first, as the encodings
    number them), or None if it is not of that shape or too big for a long multiplication."""
    chains = equation_chains(problem)
    if chains is None or problem.unknowns:
        return None
    read = equation_polynomials(problem)
    analysis = Analysis([], set())
    for chain in chains:
        equation = read[chain]
        if equation is None:
            return None
        analysis.polynomials += equation.polynomials
        analysis.nonzero |= equation.nonzero
        analysis.words += equation.words
        analysis.plain = analysis.plain and equation.plain
    return analysis if partial_count(analysis, problem.rules.base) <= MAX_PARTIALS else None


def product_length(words: Monomial, base: int) -> int:
    """Enough digits for any value of the product of these words."""
    return digit_count(math.prod(base ** len(word) - 1 for word in words), base)


def partial_count(analysis: Analysis, base: int) -> int:
    """How many digit-by-digit products the long multiplications take (shared prefixes counted once)."""
    steps = {words[:size] for poly in analysis.polynomials for words in poly for size in range(2, len(words) + 1)}
    return sum((len(words[0]) if len(words) == 2 else product_length(words[:-1], base)) * len(words[-1])
               for words in steps)
