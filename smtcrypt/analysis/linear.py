"""Linear forms: an expression as sum(weight * variable) + constant, read by one walk of the tree.

`SEND + MORE - MONEY` is 1000*S + 91*E - 90*N + D - 9000*M - 900*O + 10*R - Y. A variable may be a
letter (the linear backend's equation), a letter in a column (the column encoding's and the explainer's
sums), or an integer unknown with the letters fixed: the walk over signs, sums, differences and
constant factors is the same for all, so it is written once (`walk_linear`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import TypeVar

from smtcrypt.analysis.equations import equation_chains, equation_sides
from smtcrypt.analysis.facts import problem_fact
from smtcrypt.core.check import Problem, constant
from smtcrypt.core.intervals import plus, scaled
from smtcrypt.core.numerals import place_values
from smtcrypt.core.tree import BinOp, Call, Expr, Number, Unary, Word

Variable = TypeVar("Variable", bound=Hashable)
Exact = int | Fraction  # an integer where it is one: Python's ints add far faster than fractions
# integers where every factor is one (the columns), fractions (the unknowns), or either as it comes (letters)
Weight = TypeVar("Weight", int, Fraction, Exact)
Form = tuple[dict[Variable, Weight], Weight]  # (weights, constant)
LinearForm = Form[str, Exact]  # "2*AB + 1" -> ({"A": 20, "B": 2}, 1)
Cell = tuple[str, int]  # a letter in a column (0 the units)
ColumnForm = dict[Cell, int]  # (letter, column) -> coefficient; ("", 0) holds the constant


def walk_linear(node: Expr, leaf: Callable[[Expr], Form[Variable, Weight] | None],
                factor: Callable[[Expr], Weight | None],
                reciprocal: Callable[[Weight], Weight] | None = None) -> Form[Variable, Weight] | None:
    """The node as a linear form: signs, sums, differences and products by a `factor` (a constant,
    on either side) walked here, and quotients by one where a `reciprocal` is given; every other
    node is a `leaf` (None: not linear)."""
    if isinstance(node, Unary):
        inner = walk_linear(node.operand, leaf, factor, reciprocal)
        return inner if inner is None or node.op == "+" else _negated(inner)
    if isinstance(node, BinOp) and node.op in ("+", "-"):
        left = walk_linear(node.left, leaf, factor, reciprocal)
        right = walk_linear(node.right, leaf, factor, reciprocal)
        return None if left is None or right is None else form_sum(left, _negated(right) if node.op == "-" else right)
    if isinstance(node, BinOp) and node.op == "*":
        for first, other in ((node.left, node.right), (node.right, node.left)):
            if (value := factor(first)) is not None:
                inner = walk_linear(other, leaf, factor, reciprocal)
                return None if inner is None else _scale(inner, value)
        return None
    if isinstance(node, BinOp) and node.op == "/" and reciprocal is not None:
        value = factor(node.right)
        if value is None or value == 0:
            return None
        inner = walk_linear(node.left, leaf, factor, reciprocal)
        return None if inner is None else _scale(inner, reciprocal(value))
    return leaf(node)


def _scale(form: Form[Variable, Weight], factor: Weight) -> Form[Variable, Weight]:
    return {variable: weight * factor for variable, weight in form[0].items()}, form[1] * factor


def _negated(form: Form[Variable, Weight]) -> Form[Variable, Weight]:
    return {variable: -weight for variable, weight in form[0].items()}, -form[1]


def form_sum(first: Form[Variable, Weight], second: Form[Variable, Weight]) -> Form[Variable, Weight]:
    weights = dict(first[0])
    for variable, weight in second[0].items():
        weights[variable] = weights[variable] + weight if variable in weights else weight
    return weights, first[1] + second[1]


def difference(first: Form[Variable, Weight], second: Form[Variable, Weight]) -> Form[Variable, Weight]:
    """first - second: an equation `first == second` as one form that must be 0."""
    return form_sum(first, _negated(second))


def linear_form(node: Expr, base: int, allowed: Mapping[str, frozenset[int]] | None = None) -> LinearForm | None:
    """The value of `node` as sum(weight * letter) + constant, or None if it is not one. With each
    letter's `allowed` digits, `dsum` of a word and `rev` of a word that cannot start with 0 are too."""
    def leaf(part: Expr) -> LinearForm | None:
        if isinstance(part, Word):
            weights, fixed = place_values(part.letters, base)
            return dict(weights), fixed
        if isinstance(part, Number):
            return {}, _exact(part.value)
        if isinstance(part, Call) and allowed is not None and len(part.args) == 1 and isinstance(part.args[0], Word):
            return _word_function(part.name, part.args[0].letters, base, allowed)
        return None

    def factor(part: Expr) -> Exact | None:
        value = constant(part)
        return None if value is None else _exact(value)
    return walk_linear(node, leaf, factor)


def _exact(value: Fraction) -> Exact:
    """An integral fraction as an int."""
    return value.numerator if value.denominator == 1 else value


def _word_function(name: str, cells: str, base: int, allowed: Mapping[str, frozenset[int]]) -> LinearForm | None:
    """dsum of a word's cells (its letters and literal digits added); rev of them where the first cell
    is not 0 (`rev(ABCD)` = 1000D + 100C + 10B + A when A cannot be 0), so that its digits read backwards
    are its reversal; else None."""
    if name == "dsum":
        weights: dict[str, Exact] = dict(Counter(cell for cell in cells if not cell.isdigit()))
        return weights, sum(int(cell) for cell in cells if cell.isdigit())
    first = cells.lstrip("0")[:1]
    if name != "rev" or not first or (not first.isdigit() and 0 in allowed[first]):
        return None
    reversed_weights, fixed = place_values(cells.lstrip("0")[::-1], base)
    return dict(reversed_weights), fixed


@problem_fact
def integer_equation(problem: Problem) -> tuple[dict[str, int], int] | None:
    """The formula's linear equations as one (integer weights and constant, = 0): a single one as it
    is, several `combined` into one that holds exactly where all of them do; None if none is linear."""
    forms = []
    for left, right in equation_sides(problem):
        first = linear_form(left, problem.rules.base, problem.allowed)
        second = linear_form(right, problem.rules.base, problem.allowed)
        if first is None or second is None:
            continue
        weights, fixed = difference(first, second)
        scale = math.lcm(*(value.denominator for value in [*weights.values(), fixed]))
        forms.append(({letter: int(weight * scale) for letter, weight in weights.items() if weight},
                      int(fixed * scale)))
    if not forms:
        return None
    return forms[0] if len(forms) == 1 else combined(forms, problem.allowed)


def combined(forms: list[tuple[dict[str, int], int]],
             allowed: Mapping[str, frozenset[int]]) -> tuple[dict[str, int], int]:
    """Equations e1 = 0, e2 = 0, ... over digits as one: e1 + m1 * e2 + m1 * m2 * e3 + ... = 0, where
    m = B + 1 and B bounds |e| over the allowed digits (`core.intervals`). The sum is zero only where
    every e is: then e1 is a multiple of m1 smaller than m1 in size, so 0, and so on with the rest; so
    the one equation holds exactly where they all do, and the sum kernel cuts by all of them at once."""
    weights: dict[str, int] = {}
    fixed, scale = 0, 1
    for form, constant_term in forms:
        for letter, weight in form.items():
            weights[letter] = weights.get(letter, 0) + scale * weight
        fixed += scale * constant_term
        low, high = constant_term, constant_term
        for letter, weight in form.items():  # the values e takes over the allowed digits lie within low..high
            digits = allowed[letter] or frozenset({0})
            low, high = plus((low, high), scaled(weight, (min(digits), max(digits))))
        scale *= max(-low, high, 0) + 1
    return {letter: weight for letter, weight in weights.items() if weight}, fixed


def integer_factor(node: Expr) -> int | None:
    """A literal integer, or one with signs (`-3`); anything else is no column factor."""
    if isinstance(node, Number) and node.value.denominator == 1:
        return int(node.value)
    if isinstance(node, Unary):
        inner = integer_factor(node.operand)
        return None if inner is None else (-inner if node.op == "-" else inner)
    return None


def column_form(node: Expr, base: int) -> ColumnForm | None:
    """`2*TWO - 1` as {("T", 2): 2, ("W", 1): 2, ("O", 0): 2, ("", 0): -1}: each letter by its
    column, literal digits in the constant; None if not a sum of integer multiples of words."""
    def leaf(part: Expr) -> Form[Cell, int] | None:
        if isinstance(part, Word):  # literal digits inside a word, as in 7AB, go to the constant
            cells = list(enumerate(reversed(part.letters)))
            weights = {(char, column): 1 for column, char in cells if not char.isdigit()}
            return weights, sum(int(char) * base ** column for column, char in cells if char.isdigit())
        if isinstance(part, Number) and part.value.denominator == 1:
            return {}, int(part.value)
        return None
    found = walk_linear(node, leaf, integer_factor)
    if found is None:
        return None
    form, fixed = found
    if fixed:
        form[("", 0)] = fixed
    return form


def column_equations(problem: Problem) -> list[ColumnForm] | None:
    """Each constraint as column forms that must equal zero (a chain `A = B = C` gives A - B and
    B - C), or None if any constraint is not of that shape."""
    chains = equation_chains(problem)
    if chains is None:
        return None
    base = problem.rules.base
    result: list[ColumnForm] = []
    for chain in chains:
        found = [column_form(operand, base) for operand in chain.operands]
        forms = [form for form in found if form is not None]
        if len(forms) != len(found):
            return None
        result += [difference((first, 0), (second, 0))[0] for first, second in zip(forms, forms[1:])]
    return result


def letter_weights(form: ColumnForm, base: int) -> dict[str, int]:
    """The form as one weighted sum of letters, their columns' place values added up, zero weights
    left out: SEND + MORE - MONEY -> {"S": 1000, "E": 91, ..., "M": -9000, ...}."""
    weight: dict[str, int] = {}
    for (letter, column), coefficient in form.items():
        if letter:
            weight[letter] = weight.get(letter, 0) + coefficient * base ** column
    return {letter: w for letter, w in weight.items() if w}
