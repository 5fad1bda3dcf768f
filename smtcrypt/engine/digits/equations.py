"""The equations the digit search works on: polynomials in words, and what each column of them holds.

Each equation is analysis' one polynomial form of it (analysis/polynomials.py: expanded,
quotients cross-multiplied, rational coefficients cleared), written back as `LEFT = RIGHT`: the
terms of positive coefficient on the left, the others negated on the right, each a coefficient
times a product of words, so both sides grow with every digit. An equation's words are read right
to left; a word in a term whose coefficient is a multiple of a power of the base (`ABC * 10`, a
layout's shifted partial product) starts that many columns further left.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from smtcrypt.analysis.equations import conjuncts
from smtcrypt.analysis.facts import problem_fact
from smtcrypt.analysis.polynomials import Polynomial, equation_polynomials
from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, Expr, Number, Span, Unary, Word, walk
from smtcrypt.engine.base import letters_of


def nonlinear(node: Expr, problem: Problem) -> bool:
    """True if the polynomial multiplies two factors that hold letters, or raises one to a power above one."""
    return any(isinstance(part, BinOp) and (
        part.op == "*" and letters_of(part.left) and letters_of(part.right)
        or part.op == "**" and (problem.constant_exponents.get(part) or 0) > 1 and letters_of(part.left))
        for part in walk(node))


def _valuation(value: int, base: int) -> int:
    """The largest s with base**s dividing value (0 for 0: no shift claimed)."""
    shift = 0
    while value and value % base == 0:
        value //= base
        shift += 1
    return shift


@dataclass(eq=False)
class WordEquation:
    """A constraint `LEFT = RIGHT` between polynomials in words: what the columns check."""

    left: Expr
    right: Expr
    words: list[tuple[str, int]]  # each word's digits as written (letters and literal digits) and its shift
    shifts: dict[int, int]  # by id of the word node
    # the planner asks the same few questions many times while it looks ahead: each answered once
    _solvable: dict[tuple[str, int], bool] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def length(self) -> int:
        """Its last column: past it, nothing more to learn modulo base**k."""
        return max(len(word) + shift for word, shift in self.words)

    @functools.cached_property
    def column_letters(self) -> list[list[str]]:
        """By column k (1 = units; 0 and length + 1 hold none): the letters of its words in that column,
        each once, in order (lists not to change), all read in one pass over the words."""
        found: list[list[str]] = [[] for _ in range(self.length + 2)]
        for word, shift in self.words:
            for k, char in enumerate(reversed(word), start=shift + 1):
                if not char.isdigit() and char not in found[k]:
                    found[k].append(char)
        return found

    @functools.cached_property
    def _widest(self) -> dict[str, int]:
        """Each letter's largest shift among the words it is in (`solvable()` asks it for every letter)."""
        return {char: shift for word, shift in sorted(self.words, key=lambda item: item[1]) for char in word}

    def solvable(self, letter: str, k: int) -> bool:
        """True if, modulo base**k, the equation is of degree one in the letter (its first column being
        k): then the letter is solved, not tried. Past the units column that holds where the letter's
        words carry a shift of at most k - 2 (the module explains why); anywhere, where the letter
        enters the equation linearly."""
        if k >= 2 + self._widest[letter]:
            return True
        answer = self._solvable.get((letter, k))
        if answer is None:
            answer = self._solvable[letter, k] = max(
                self._degree(self.left, letter, k), self._degree(self.right, letter, k)) == 1
        return answer

    @functools.cached_property
    def _first(self) -> dict[str, int]:
        """Each letter's first column (`first_linear()` asks it)."""
        return {letter: k for k, letters in reversed(list(enumerate(self.column_letters))) for letter in letters}

    def first_linear(self, letter: str, k: int) -> bool:
        """True if the letter is first met in column k and enters the equation linearly modulo base**k
        (`solvable` there): then, the columns before checked, the equation's column k is affine in its
        digit, the rest fixed."""
        return self._first.get(letter) == k and self.solvable(letter, k)

    def _degree(self, node: Expr, letter: str, k: int) -> int:
        """The degree of the letter in the expression (counting only the words where it is in the
        first k columns): a power counted as twice its base's, so never one."""
        if isinstance(node, Word):
            kept = k - self.shifts[id(node)]  # the digits that count modulo base**k
            return int(kept > 0 and letter in node.letters[-kept:])
        if isinstance(node, Unary):
            return self._degree(node.operand, letter, k)
        if isinstance(node, BinOp):
            left, right = self._degree(node.left, letter, k), self._degree(node.right, letter, k)
            if node.op == "*":
                return left + right
            return 2 * left if node.op == "**" else max(left, right)
        return 0


@problem_fact
def polynomial_equations(problem: Problem) -> list[tuple[Expr, WordEquation]]:
    """The conjuncts that are equations between polynomials (or quotients of them, cross-multiplied),
    each with its columns. Where a divisor is 0 the equation is undefined, no solution, so the
    congruences of the cross-multiplied equation cut no solution; the equation itself is still
    checked as written."""
    read = equation_polynomials(problem)
    found = [(part, word_equation(analysis.polynomials[0], problem.rules.base, part.span, analysis.words))
             for part in conjuncts(problem)
             if (analysis := read.get(part)) is not None and analysis.plain and len(analysis.polynomials) == 1]
    return [(part, equation) for part, equation in found if equation is not None]


def word_equation(polynomial: Polynomial, base: int, span: Span, read: Sequence[str] = ()) -> WordEquation | None:
    """The polynomial that must be 0 as `LEFT = RIGHT` (see the module), or None if it holds no word.
    Words `read` in the equation that its polynomial lost (`A ** 0`) are among its words all the same,
    in the units column on: their letters are the equation's, tried there, as every letter must be
    given its digit by some equation."""
    sides: tuple[list[Expr], list[Expr]] = ([], [])
    shifts: dict[int, int] = {}
    for product, coefficient in polynomial.items():
        size = abs(coefficient)
        factors: list[Expr] = [Word(letters, span) for letters in product]
        for node in factors:
            shifts[id(node)] = _valuation(size, base)
        if size != 1 or not factors:
            factors.insert(0, Number(Fraction(size), str(size), span))
        sides[coefficient < 0].append(functools.reduce(lambda a, b: BinOp("*", a, b, span), factors))
    if not shifts:
        return None
    left, right = (functools.reduce(lambda a, b: BinOp("+", a, b, span), side) if side
                   else Number(Fraction(0), "0", span) for side in sides)
    words = [(node.letters, shifts[id(node)]) for side in (left, right) for node in walk(side)
             if isinstance(node, Word)]
    kept = {word for word, _ in words}
    words += [(word, 0) for word in dict.fromkeys(read) if word not in kept]
    return WordEquation(left, right, words, shifts)


def monotone(node: Expr) -> bool:
    """True for sums, products and powers of words and non-negative integers: the value grows with each digit."""
    if isinstance(node, Word):
        return True
    if isinstance(node, Number):
        return node.value >= 0
    return isinstance(node, BinOp) and node.op in ("+", "*", "**") and monotone(node.left) and monotone(node.right)
