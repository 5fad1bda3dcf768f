"""Long multiplication for products and powers of words: `ODD * ODD = FREAKY` digit by digit.

Every constraint must be an equation (or a chain or an `and` of them) between polynomials of words,
possibly divided by products of words, each read as one integer polynomial that must be zero
(analysis/polynomials.py). It is written as a person multiplies by hand, linear in bounded integers
as the finite-domain solver needs: products of two digits are tables, longer products get fresh
digits, and every column is balanced by a bounded carry (the leading digits: analysis/split.py).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass

import z3

from smtcrypt.analysis.carries import columns_by_carries
from smtcrypt.analysis.polynomials import Monomial, analyse, product_length
from smtcrypt.analysis.split import Bounds, Domains
from smtcrypt.core.check import Problem
from smtcrypt.encode.base import Encoded, checkpoint, indicator, letter_variables


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
        self.digits = {letter: Digit(letter, var, domains[letter][0], domains[letter][-1])
                       for letter, var in self.letters.items()}
        self.digit_rules(domains)
        for value in range(self.base):  # literal digits inside words such as 7AB
            self.digits[str(value)] = self.constant(value)
        self.vectors: dict[Monomial, list[Digit]] = {}  # digits of a product, lowest first
        self.partials: dict[tuple[str, str], Digit] = {}
        self.fresh = itertools.count()

    def name(self, stem: str) -> str:
        return f"{stem}!{next(self.fresh)}"

    def digit_rules(self, domains: Domains) -> None:
        """Each letter within its digits, each (letter, digit) named by its `indicator`, and distinct
        digits as "each digit is used at most once", which the finite-domain solver reasons with better."""
        for letter, digits in domains.items():
            var = self.letters[letter]
            self.constraints += [var >= digits[0], var <= digits[-1]]
            self.constraints += [var != digit for digit in range(digits[0], digits[-1] + 1) if digit not in digits]
            self.constraints += [indicator(letter, digit, self.ctx) == (var == digit) for digit in digits]
        for group in self.problem.groups:  # each group's letters use each digit at most once
            used = sorted(set().union(*(domains[letter] for letter in group)))
            for digit in used:
                named = [indicator(letter, digit, self.ctx) for letter in group if digit in domains[letter]]
                if len(named) > 1:
                    self.constraints.append(z3.AtMost(*named, 1))
                if self.problem.distinctness == "all" and len(domains) == len(used):  # every digit is used
                    self.constraints.append(z3.Or(*named))

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
        if (found := self.partials.get(key)) is not None:
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

    def add_term(self, columns: dict[int, Column], words: Monomial, coefficient: int) -> None:
        """Add coefficient * (the product of the words) to the columns: a word's digits, or long
        multiplication, one partial product per pair of digits."""
        if len(words) == 1:
            for position, digit in enumerate(self.vector(words)):
                self.place(columns, position, coefficient, digit)
            return
        for (i, a), (j, b) in itertools.product(enumerate(self.vector(words[:-1])), enumerate(self.vector(words[-1:]))):
            factor, product = self.partial(a, b)
            self.place(columns, i + j, coefficient * factor, product)

    def vector(self, words: Monomial) -> list[Digit]:
        """The digits of a product of words, lowest first: a word's letters, or fresh digits."""
        if len(words) == 1:
            return [self.digits[ch] for ch in reversed(words[0])]
        if (found := self.vectors.get(words)) is not None:
            return found
        names = [self.name("digit") for _ in range(product_length(words, self.base))]
        digits = [Digit(name, z3.Int(name, self.ctx), 0, self.base - 1) for name in names]
        self.constraints += [c for d in digits for c in (d.var >= 0, d.var <= self.base - 1)]
        columns: dict[int, Column] = defaultdict(dict)
        self.add_term(columns, words, 1)
        for position, digit in enumerate(digits):
            self.place(columns, position, -1, digit)
        self.constraints += self.balance(columns, 0, "carry")
        self.vectors[words] = digits
        return digits

    def equation(self, poly: dict[Monomial, int], stem: str) -> None:
        columns: dict[int, Column] = defaultdict(dict)
        for words, coefficient in poly.items():
            if words:
                self.add_term(columns, words, coefficient)
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
        # no letter (every digit literal, or fixed at 0): false, made in this context (z3.Or() uses the default one)
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
        allowed = {letter: tuple(sorted(problem.allowed[letter])) for letter in problem.letters}
        # leading-digit bounds first, in Python (see analysis/split.py): faster on NAUGHT ** 2 = ZERO ** 3, unsplit
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
