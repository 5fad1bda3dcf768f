"""The local rules of a puzzle: pieces small enough for a person to hold in mind at once.

Sums and differences give one rule per digit column, with the carries as small unknowns
(`D + E = Y + 10·c2`), and one per pair of neighbouring columns; products, powers and quotients
give the columns of the long multiplication and the sizes of the numbers; any other formula gives
each constraint's bounds, and a constraint over few letters is also tried digit by digit. Each rule
is both Python (to search its digits) and a Z3 term (to prove what the search finds).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import z3

from smtcrypt.analysis.bounds import Box, truth_bounds
from smtcrypt.analysis.linear import column_equations
from smtcrypt.analysis.polynomials import Polynomial, analyse
from smtcrypt.analysis.split import Bounds
from smtcrypt.core.check import Problem
from smtcrypt.core.intervals import times
from smtcrypt.core.letters import shown
from smtcrypt.core.rules import is_wildcard
from smtcrypt.core.tree import Constraints, Expr, to_text
from smtcrypt.core.tree import letters as tree_letters
from smtcrypt.core.verify import Undefined, evaluate
from smtcrypt.search.terms import formula_term
from smtcrypt.teach.explain.steps import TRYING

# a constraint (not a sum or a product) over letters with at most this many digit combinations is also tried
# digit by digit
MAX_TRIED = 2000
PAIR_LETTERS = 6  # two columns of a long multiplication are taken together only with this few letters

Monomial = tuple[str, ...]  # a product of variables (letters, carries), repeats allowed; () is 1
Equation = tuple[dict[Monomial, int], int]  # sum(coefficient * product) + constant == 0
Naming = Callable[[int], tuple[str, str]]  # a column's number -> its name, and its name without what it belongs to


@dataclass
class Rule:
    """A small piece of the puzzle a person can take in at once, in Python and in Z3."""

    name: str  # "column 2", "the last digit", "the sizes of the numbers"
    statement: str  # "E + O + c2 = N + 10·c3"
    variables: tuple[str, ...]  # letters and carries
    term: z3.BoolRef
    width: int = 1
    equations: tuple[Equation, ...] = ()  # for column rules: each must hold
    holds: Callable[[Mapping[str, int]], bool] | None = None  # for other rules: on a full assignment
    possible: Callable[[Box], bool] | None = None  # interval rules: could it hold?
    parts: tuple[str, ...] = ()  # what a step with the rule uses, when not the rule's name (a pair: its columns)
    short: str = ""  # the name without what the rule belongs to ("column 2", not "column 2 of equation 1")
    pieces: tuple[str, ...] = ()  # the statements of its equations, when it has several (a pair: its columns')

    @property
    def uses(self) -> tuple[str, ...]:
        return self.parts or (self.name,)

    @property
    def said(self) -> tuple[str, ...]:
        """Its statement, one piece an equation (a pair's columns each), so that a step names each once."""
        return self.pieces or (self.statement,)

    def check(self, values: Mapping[str, int]) -> bool:
        if self.equations:
            return all(sum(c * math.prod(values[v] for v in m) for m, c in terms.items()) + const == 0
                       for terms, const in self.equations)
        if self.holds is not None:
            return self.holds(values)
        assert self.possible is not None, "a rule has equations, a test on digits or bounds"
        return self.possible({v: (values[v], values[v]) for v in self.variables})


class Facts:
    """What is known: the values each letter and carry may still take, and fixed differences."""

    def __init__(self, domains: dict[str, tuple[int, ...]], relations: tuple[tuple[str, str, int], ...] = ()):
        self.domains = domains
        self.relations = relations  # (x, y, k): x = y + k

    def copy(self) -> Facts:
        return Facts(dict(self.domains), self.relations)


@dataclass(frozen=True)
class Basis:
    """What one step of the reasoning was proved from and concluded: kept with the step, so that
    several steps can be proved again as one (the person's steps: `person.py`)."""

    rules: tuple[Rule, ...]
    before: Facts  # the facts the step started from (a case: before its assumption)
    changes: tuple[tuple[str, tuple[int, ...]], ...] = ()  # a variable and the values it keeps
    tie: tuple[str, str, int] | None = None  # (x, y, k): x = y + k
    case: tuple[str, int] | None = None  # a case's assumption: the letter and its digit


def span(monomial: Monomial, coefficient: int, domains: Mapping[str, Sequence[int]]) -> tuple[int, int]:
    """The least and greatest value of coefficient * product over the variables' digits (ends of each)."""
    bounds = coefficient, coefficient
    for var in monomial:
        digits = domains[var]
        bounds = times(bounds, (digits[0], digits[-1]))
    return bounds


class Variables:
    """The puzzle's variables: its letters and the carries its rules add, each a Z3 integer with
    the values it may take and how a step shows it."""

    def __init__(self, problem: Problem, context: z3.Context):
        self.ctx = context
        self.base = problem.rules.base
        self.vars: dict[str, z3.ArithRef] = {}
        self.domains: dict[str, tuple[int, ...]] = {}
        self.display: dict[str, str] = {}
        self.carries: set[str] = set()
        self.wide_carries: set[str] = set()  # the carries of long multiplications
        cells = {letter: f"?{index + 1}" for index, letter in enumerate(problem.wildcards)}
        for letter in problem.letters:
            self.vars[letter] = z3.Int(letter, context)
            self.domains[letter] = tuple(sorted(problem.allowed[letter]))
            # a `?` by its place (?1 is the first), a combining mark alone on a dotted circle (◌्)
            self.display[letter] = cells.get(letter) or shown(letter)

    def add_carry(self, name: str, low: int, high: int, wide: bool) -> None:
        self.vars[name] = z3.Int(name, self.ctx)
        self.domains[name] = tuple(range(low, high + 1))
        self.display[name] = name
        self.carries.add(name)
        if wide:
            self.wide_carries.add(name)

    def product(self, monomial: Monomial, coefficient: int) -> z3.ArithRef:
        total: Any = z3.IntVal(coefficient, self.ctx)
        for var in monomial:
            total = total * self.vars[var]
        return total

    def word(self, word: str) -> z3.ArithRef:
        total: Any = z3.IntVal(0, self.ctx)
        for ch in word:
            total = total * self.base + (int(ch) if ch.isdigit() else self.vars[ch])
        return total

    def poly(self, poly: Polynomial) -> z3.ArithRef:
        terms = []
        for monomial, coefficient in poly.items():
            product: Any = z3.IntVal(coefficient, self.ctx)
            for word in monomial:
                product = product * self.word(word)
            terms.append(product)
        return z3.Sum(terms)

    def equation_text(self, terms: Mapping[Monomial, int], const: int) -> str:
        """sum(c * product) + const == 0 as `D + E = Y + 10·c2`: positive terms left, negative right."""
        def side(items: list[tuple[Monomial, int]], number: int) -> str:
            texts = []
            for monomial, c in items:
                product = "·".join(self.display[v] for v in monomial)
                texts.append(product if c == 1 else f"{c}·{product}")
            if number:
                texts.append(str(number))
            return " + ".join(texts) if texts else "0"
        left = [(m, c) for m, c in terms.items() if c > 0]
        right = [(m, -c) for m, c in terms.items() if c < 0]
        return f"{side(left, max(const, 0))} = {side(right, max(-const, 0))}"

    def spread(self, constant: int) -> dict[int, int]:
        """A constant's digits by column, with its sign."""
        sign, value, column, fixed = (-1 if constant < 0 else 1), abs(constant), 0, {}
        while value:
            value, digit = divmod(value, self.base)
            if digit:
                fixed[column] = sign * digit
            column += 1
        return fixed


def local_rules(problem: Problem, variables: Variables) -> list[Rule]:
    """The puzzle's rules, in the order a person would look at them: a sum's columns, else a
    product's long multiplication, else each constraint's bounds."""
    if problem.unknowns:  # integer unknowns have no digits to reason about
        return []
    rules = sum_rules(problem, variables)
    if rules is None:
        rules = product_rules(problem, variables)
    if rules is None:
        rules = constraint_rules(problem, variables)
    return rules


# --- digit columns, for sums and for long multiplications -----------------------------------------------


def column_rules(variables: Variables, columns: Mapping[int, Mapping[Monomial, int]], fixed: Mapping[int, int],
                 mark: str, naming: Naming, wide: bool = False) -> list[Rule]:
    """One rule per digit column of `sum(columns[k] * base**k) + sum(fixed[k] * base**k) = 0`: the
    column's terms and the carry in equal the base times the carry out (the carries `wide` for a
    long multiplication)."""
    top = max([*columns, *fixed, 0])
    rules: list[Rule] = []
    carry_in: str | None = None
    for column in range(top + 1):
        terms = {m: c for m, c in columns.get(column, {}).items() if c}
        constant = fixed.get(column, 0)
        carry_out = None
        if column < top:
            carry_out = f"c{column + 2}{mark}"
            low, high = _carry_range(variables, terms, constant, carry_in)
            variables.add_carry(carry_out, low, high, wide)
        full = dict(terms)
        if carry_in is not None:
            full[(carry_in,)] = full.get((carry_in,), 0) + 1
        if carry_out is not None:
            full[(carry_out,)] = full.get((carry_out,), 0) - variables.base
        carry_in = carry_out
        if full or constant:
            rules.append(_column_rule(variables, full, constant, *naming(column + 1)))
    return rules


def _carry_range(variables: Variables, terms: Mapping[Monomial, int], constant: int,
                 carry_in: str | None) -> tuple[int, int]:
    """The values a column's carry out may take: its terms' least and greatest sum, over the base."""
    parts = [span(m, c, variables.domains) for m, c in terms.items()]
    if carry_in is not None:
        parts.append(span((carry_in,), 1, variables.domains))
    smallest = constant + sum(low for low, _ in parts)
    largest = constant + sum(high for _, high in parts)
    low_out, high_out = -(-smallest // variables.base), largest // variables.base
    return min(low_out, high_out), max(low_out, high_out)


def _column_rule(variables: Variables, full: dict[Monomial, int], constant: int, name: str, short: str) -> Rule:
    names = tuple(dict.fromkeys(v for monomial in full for v in monomial))
    term = z3.Sum([variables.product(m, c) for m, c in full.items()] + [z3.IntVal(constant, variables.ctx)]) == 0
    return Rule(name, variables.equation_text(full, constant), names, term, 1, ((full, constant),), short=short)


def pair_rules(group: Sequence[Rule], carries: set[str], most_letters: int | None = None) -> list[Rule]:
    """Each two neighbouring columns that share a carry, as one rule (at most `most_letters` letters)."""
    pairs = []
    for first, second in zip(group, group[1:]):
        if not set(first.variables) & set(second.variables) & carries:
            continue
        pair = _pair(second, first)
        if most_letters is None or sum(1 for v in pair.variables if v not in carries) <= most_letters:
            pairs.append(pair)
    return pairs


def _pair(first: Rule, second: Rule) -> Rule:
    variables = tuple(dict.fromkeys(first.variables + second.variables))
    return Rule(f"{first.short} and {second.name}", f"{first.statement} and {second.statement}", variables,
                z3.And(first.term, second.term), 2, first.equations + second.equations,
                parts=(first.short, second.name), pieces=first.said + second.said)


def _belonging(count: int, index: int) -> tuple[str, str]:
    """What an equation's rules are named with (` of equation 2`) and its carries marked with (`'`)."""
    return ("", "") if count == 1 else (f" of equation {index + 1}", "'" * index)


# --- sums: one rule per column, and per pair of neighbouring columns -----------------------------------


def sum_rules(problem: Problem, variables: Variables) -> list[Rule] | None:
    """A sum's columns, the leftmost first (where a person starts on a sum), then pairs; None if not a
    sum. In any base: a column's carry out is worth the base."""
    forms = column_equations(problem)
    if forms is None:
        return None
    singles: list[list[Rule]] = []
    for index, form in enumerate(forms):
        suffix, mark = _belonging(len(forms), index)
        columns: dict[int, dict[Monomial, int]] = {}
        for (letter, column), coefficient in form.items():
            if letter and coefficient:
                terms = columns.setdefault(column, {})
                terms[(letter,)] = terms.get((letter,), 0) + coefficient
        fixed = variables.spread(form.get(("", 0), 0))
        singles.append(column_rules(variables, columns, fixed, mark, partial(_column_name, suffix)))
    rules: list[Rule] = []
    for group in singles:
        rules += reversed(group)
    for group in singles:
        rules += reversed(pair_rules(group, variables.carries))
    return rules


def _column_name(suffix: str, k: int) -> tuple[str, str]:
    return f"column {k}{suffix}", f"column {k}"


# --- products: the columns of the long multiplication (the last digit first), and the sizes ---------------


def product_rules(problem: Problem, variables: Variables) -> list[Rule] | None:
    """Each product equation's long multiplication, its pairs of columns and the sizes of its
    numbers; None if the puzzle is not of that shape."""
    analysis = analyse(problem)
    if analysis is None:
        return None
    order = {letter: index for index, letter in enumerate(problem.letters)}
    rules: list[Rule] = []
    for index, poly in enumerate(analysis.polynomials):
        suffix, mark = _belonging(len(analysis.polynomials), index)
        columns, fixed = _long_multiplication(_products_left(poly), order, variables)
        long_hand = column_rules(variables, columns, fixed, mark, partial(_long_column_name, suffix), wide=True)
        rules += long_hand
        rules += pair_rules(long_hand, variables.carries, PAIR_LETTERS)
        rules.append(_sizes_rule(variables, poly, list(analysis.nonzero), suffix))
    return rules


def _long_column_name(suffix: str, k: int) -> tuple[str, str]:
    if k == 1:
        return f"the last digit{suffix}", "the last digit"
    return f"column {k} of the long multiplication{suffix}", f"column {k}"


def _products_left(poly: Polynomial) -> Polynomial:
    """The products on the left, making the carries, and the words they equal on the right (ABC / DE = F
    as E·F = C + 10·c2, not C = E·F + 10·c2 with carries below zero)."""
    degree = max(len(words) for words in poly)
    if sum(c for words, c in poly.items() if len(words) == degree) < 0:
        return {words: -c for words, c in poly.items()}
    return poly


def _long_multiplication(poly: Polynomial, order: Mapping[str, int],
                         variables: Variables) -> tuple[dict[int, dict[Monomial, int]], dict[int, int]]:
    """The equation's digit columns as in a long multiplication: in column k, every product of a
    digit of one factor by a digit of the other whose places add up to k (the rows' digits in that
    column, before the rows' own carries); and the constant's digits by column."""
    columns: dict[int, dict[Monomial, int]] = {}
    fixed: dict[int, int] = {}
    for words, coefficient in poly.items():
        if not words:
            for column, digit in variables.spread(coefficient).items():
                fixed[column] = fixed.get(column, 0) + digit
            continue
        places = [[(ch, place) for place, ch in enumerate(reversed(word))] for word in words]
        for combination in itertools.product(*places):
            column = sum(place for _, place in combination)
            value = coefficient * math.prod(int(ch) for ch, _ in combination if ch.isdigit())
            letters = [ch for ch, _ in combination if not ch.isdigit()]
            if not value:
                continue
            if letters:
                key = tuple(sorted(letters, key=order.__getitem__))
                terms = columns.setdefault(column, {})
                terms[key] = terms.get(key, 0) + value
            else:
                fixed[column] = fixed.get(column, 0) + value
    return columns, fixed


def _sizes_rule(variables: Variables, poly: Polynomial, nonzero: Sequence[str], suffix: str) -> Rule:
    """The equation with every word an interval (its leading digits): how large the numbers can be."""
    bounds = Bounds([poly], variables.base, distinct=False)
    letters = tuple(dict.fromkeys(ch for monomial in poly for word in monomial for ch in word if not ch.isdigit()))
    term = variables.poly(poly) == 0
    nonzero_terms = [variables.word(word) != 0 for word in nonzero]
    return Rule(f"the sizes of the numbers{suffix}", _poly_text(poly) + " = 0", letters,
                z3.And(term, *nonzero_terms) if nonzero_terms else term, 1, possible=partial(_sizes_possible, bounds))


def _sizes_possible(bounds: Bounds, box: Box) -> bool:
    return bounds.possible({letter: (low, high) for letter, (low, high) in box.items()})


def _poly_text(poly: Polynomial) -> str:
    parts = []
    for monomial, coefficient in poly.items():
        words = ["".join("?" if is_wildcard(ch) else ch for ch in word) for word in monomial]
        body = "·".join(words) if words else str(abs(coefficient))
        if words and abs(coefficient) != 1:
            body = f"{abs(coefficient)}·{body}"
        parts.append(("- " if coefficient < 0 else "+ ") + body)
    text = " ".join(parts)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]


# --- anything else: each constraint's bounds, and trying the digits of a small one ---------------------------


def constraint_rules(problem: Problem, variables: Variables) -> list[Rule]:
    """Each constraint's bounds with every word an interval, and, over few letters, trying their digits."""
    rules: list[Rule] = []
    constraints = list(problem.formula.constraints)
    for index, constraint in enumerate(constraints):
        letters = tree_letters(Constraints((constraint,), problem.source))
        if not letters:
            continue
        term = formula_term(_alone(problem, constraint, letters), variables.ctx)
        if term is None:
            continue
        name = "the bounds" if len(constraints) == 1 else f"the bounds of constraint {index + 1}"
        rules.append(Rule(name, to_text(constraint), letters, term, 1,
                          possible=partial(_bounds_possible, constraint, variables.base)))
        if math.prod(len(variables.domains[letter]) for letter in letters) <= MAX_TRIED:
            name = "trying the digits" if len(constraints) == 1 else f"trying the digits in constraint {index + 1}"
            rules.append(Rule(name, to_text(constraint), letters, term, TRYING,
                              holds=partial(_evaluates_true, constraint, variables.base)))
    return rules


def _alone(problem: Problem, constraint: Expr, letters: tuple[str, ...]) -> Problem:
    """The puzzle with only this constraint, under the same rules."""
    return Problem(Constraints((constraint,), problem.source), problem.rules, letters, problem.leading,
                   problem.constant_exponents, problem.exponent_ranges, (), problem.allowed)


def _bounds_possible(constraint: Expr, base: int, box: Box) -> bool:
    return truth_bounds(constraint, box, base) is not False


def _evaluates_true(constraint: Expr, base: int, values: Mapping[str, int]) -> bool:
    """A constraint over few letters, decided by trying the digits they may take (what a person
    with a calculator does when no bound helps): exact, by the independent evaluator."""
    try:
        return evaluate(constraint, values, base) != 0
    except Undefined:
        return False
