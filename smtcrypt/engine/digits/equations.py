"""The equations the digit search works on: polynomials in words, and what each column of them holds.

An equation's words are read right to left; a word under a constant multiple of a power of the
base (`ABC * 10`, a layout's shifted partial product) starts that many columns further left.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from smtcrypt.analysis.equations import conjuncts
from smtcrypt.analysis.facts import problem_fact
from smtcrypt.core.check import Problem, constant
from smtcrypt.core.tree import BinOp, Compare, Expr, Number, Unary, Word, walk
from smtcrypt.engine.base import letters_of


def polynomial(node: Expr, problem: Problem) -> bool:
    """True for a sum, difference or product of words and integers, or such a thing to a constant
    non-negative integer power: an expression whose value modulo base**k its words' last k digits fix."""
    if isinstance(node, Word):
        return True
    if isinstance(node, Number):
        return node.value.denominator == 1
    if isinstance(node, Unary):
        return node.op in ("-", "+") and polynomial(node.operand, problem)
    if not isinstance(node, BinOp):
        return False
    if node.op == "**":
        exponent = problem.constant_exponents.get(node)
        return exponent is not None and exponent.denominator == 1 and exponent >= 0 and polynomial(node.left, problem)
    return node.op in ("+", "-", "*") and polynomial(node.left, problem) and polynomial(node.right, problem)


def nonlinear(node: Expr, problem: Problem) -> bool:
    """True if the polynomial multiplies two factors that hold letters, or raises one to a power above one."""
    for part in walk(node):
        if isinstance(part, BinOp) and part.op == "*" and letters_of(part.left) and letters_of(part.right):
            return True
        if isinstance(part, BinOp) and part.op == "**" and letters_of(part.left):
            exponent = problem.constant_exponents.get(part)
            if exponent is not None and exponent > 1:
                return True
    return False


def _valuation(value: int, base: int) -> int:
    """The largest s with base**s dividing value (0 for 0: no shift claimed)."""
    shift = 0
    while value and value % base == 0:
        value //= base
        shift += 1
    return shift


def word_shifts(node: Expr, base: int, shift: int = 0, found: dict[int, int] | None = None) -> dict[int, int]:
    """Each word's shift, by id: the power of the base that the constant factors over it carry
    (`ABC * 10`: 1), so that modulo base**k only its last k - shift digits count. A layout's
    partial products are shifted so."""
    found = {} if found is None else found
    if isinstance(node, Word):
        found[id(node)] = shift
    elif isinstance(node, Unary):
        word_shifts(node.operand, base, shift, found)
    elif isinstance(node, BinOp):
        for factor, other in ((node.left, node.right), (node.right, node.left)):
            value = constant(factor) if node.op == "*" else None
            if value is not None and value.denominator == 1:
                word_shifts(other, base, shift + _valuation(int(value), base), found)
                return found
        word_shifts(node.left, base, shift, found)
        word_shifts(node.right, base, shift, found)
    return found


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
        found: dict[str, int] = {}
        for word, shift in self.words:
            for char in word:
                found[char] = max(shift, found.get(char, shift))
        return found

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
        found: dict[str, int] = {}
        for k, letters in enumerate(self.column_letters):
            for letter in letters:
                found.setdefault(letter, k)
        return found

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
            if node.op == "**":
                return 2 * left
            return max(left, right)
        return 0


@problem_fact
def polynomial_equations(problem: Problem) -> list[tuple[Expr, WordEquation]]:
    """The conjuncts that are equations between polynomials (or quotients of them, cross-multiplied),
    each with its columns."""
    found: list[tuple[Expr, WordEquation]] = []
    for part in conjuncts(problem):
        sides = cross_multiplied(part, problem) if isinstance(part, Compare) and part.ops == ("==",) else None
        if sides is not None:
            base = problem.rules.base
            shifts = word_shifts(sides[1], base, 0, word_shifts(sides[0], base))
            words = [(node.letters, shifts[id(node)]) for side in sides for node in walk(side)
                     if isinstance(node, Word)]
            if words:
                found.append((part, WordEquation(sides[0], sides[1], words, shifts)))
    return found


def cross_multiplied(equation: Compare, problem: Problem) -> tuple[Expr, Expr] | None:
    """The sides of `LEFT = RIGHT` as polynomials: as they are, or, where a side is a quotient of
    polynomials (`NORTH / SOUTH = EAST / WEST`), multiplied by the other side's divisor. Where a
    divisor is 0 the equation is undefined, no solution, so the congruences of the cross-multiplied
    equation cut no solution; the equation itself is still checked as written."""
    parts: list[tuple[Expr, Expr | None]] = []
    for side in equation.operands:
        if isinstance(side, BinOp) and side.op == "/" and polynomial(side.left, problem) and polynomial(side.right,
                                                                                                         problem):
            parts.append((side.left, side.right))
        elif polynomial(side, problem):
            parts.append((side, None))
        else:
            return None
    (left, left_divisor), (right, right_divisor) = parts
    if right_divisor is not None:
        left = BinOp("*", left, right_divisor, equation.span)
    if left_divisor is not None:
        right = BinOp("*", right, left_divisor, equation.span)
    return left, right


def monotone(node: Expr) -> bool:
    """True for sums, products and powers of words and non-negative integers: the value grows with each digit."""
    if isinstance(node, Word):
        return True
    if isinstance(node, Number):
        return node.value >= 0
    return isinstance(node, BinOp) and node.op in ("+", "*", "**") and monotone(node.left) and monotone(node.right)
