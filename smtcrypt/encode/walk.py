"""The tree walk the general and bit-vector encoders share: one case per node type, over a value
algebra each implements. Every node yields a value (a fraction `R` or a Bool) and `ok`, where Python
would evaluate it without error; `and`, `or` and comparison chains short-circuit as Python does. A
constraint holds when it is `ok` and its value is true. This is the one place those rules are written.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Generic, TypeVar

import z3

from smtcrypt.core.check import Problem, splits
from smtcrypt.core.intervals import interval
from smtcrypt.core.numerals import place_values
from smtcrypt.core.rules import NUMBER_WORDS
from smtcrypt.core.tree import BinOp, BoolOp, Call, Collection, Compare, Expr, Not, Number, Unary, Word
from smtcrypt.encode.base import Ok, Unsupported, checkpoint

R = TypeVar("R")  # an exact fraction of the encoder's terms
I = TypeVar("I")  # noqa: E741 (an integer term, as R's type parameter says)

# on Python ints, and on Z3 terms (bit-vectors as signed numbers)
COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}

FUNCTIONS = ("abs", "min", "max", "gcd", *NUMBER_WORDS)  # besides sum(range(...)), which reads its range


def conj(*conditions: Ok) -> Ok:
    """The conjunction, folding away truth values (Python's and Z3's)."""
    rest = [c for c in conditions if c is not True and not (isinstance(c, z3.BoolRef) and z3.is_true(c))]
    if any(c is False or z3.is_false(c) for c in rest):
        return False
    return True if not rest else rest[0] if len(rest) == 1 else z3.And(*rest)


def disj(first: z3.BoolRef, second: Ok) -> Ok:
    """first or second, folding Python truth values of `second`."""
    return True if second is True else first if second is False else z3.Or(first, second)


class TreeEncoder(ABC, Generic[R, I]):
    """The node cases; a subclass gives the value algebra and the cases of its own (`encode_repeating`,
    `encode_name`), found by the node's class name."""

    problem: Problem
    ctx: z3.Context

    # --- the value algebra ------------------------------------------------------------------------

    @abstractmethod
    def fraction(self, value: Fraction) -> R: ...

    @abstractmethod
    def letters_value(self, weights: dict[str, int], literal: int) -> R: ...  # sum(weight * letter) + literal

    @abstractmethod
    def rat(self, value: R | z3.BoolRef) -> R:
        """A value as a fraction (a Bool as 0 or 1)."""

    @abstractmethod
    def truthy(self, value: R | z3.BoolRef) -> z3.BoolRef:
        """A value as Python's truth: nonzero."""

    @abstractmethod
    def choose(self, condition: z3.BoolRef, then: R | z3.BoolRef, otherwise: R | z3.BoolRef) -> R | z3.BoolRef:
        """`then` where the condition holds, else `otherwise`."""

    @abstractmethod
    def compare(self, op: str, a: R, b: R) -> z3.BoolRef:
        """a op b for one of COMPARISONS."""

    @abstractmethod
    def integral(self, value: R) -> tuple[I, Ok]:
        """The value as an integer term, and the condition that it is an integer."""

    @abstractmethod
    def within(self, whole: I, start: I, stop: I) -> z3.BoolRef: ...  # start <= whole < stop

    @abstractmethod
    def add(self, a: R, b: R) -> R: ...

    @abstractmethod
    def negate(self, a: R) -> R: ...

    @abstractmethod
    def multiply(self, a: R, b: R) -> R: ...

    @abstractmethod
    def power_of(self, node: BinOp, base: R, exponent: R) -> tuple[R, Ok]:
        """base ** exponent, and where it is defined."""

    @abstractmethod
    def power(self, a: R, k: int) -> tuple[R, Ok]:
        """a ** k for an integer k, and where it is defined (a != 0 for k < 0)."""

    @abstractmethod
    def division(self, op: str, a: R, b: R) -> tuple[R, Ok]:
        """a / b, a // b or a % b, and the condition that it is defined (b != 0)."""

    @abstractmethod
    def range_sum(self, start: I, stop: I) -> R: ...

    @abstractmethod
    def gcd(self, nodes: Sequence[Expr], wholes: list[I]) -> tuple[R, Ok]:
        """math.gcd of the integers the nodes evaluate to, and where the terms are right."""

    @abstractmethod
    def absolute(self, value: R) -> R: ...

    @abstractmethod
    def number_word(self, node: Call, wholes: list[I]) -> tuple[R | z3.BoolRef, Ok]:
        """A number-theory word (`is_prime`, `dsum`, ...: rules.NUMBER_WORDS) of the integers its
        arguments evaluate to: a Bool for a predicate, an integer for dsum and rev; and where it is defined."""

    # --- the node cases ---------------------------------------------------------------------------

    def holds(self) -> list[z3.BoolRef]:
        """Each constraint as one Bool: defined, and true."""
        constraints = []
        for constraint in self.problem.formula.constraints:
            value, ok = self.encode(constraint)
            holds = conj(ok, self.truthy(value))
            constraints.append(z3.BoolVal(holds, self.ctx) if isinstance(holds, bool) else holds)
        return constraints

    def encode(self, node: Expr) -> tuple[R | z3.BoolRef, Ok]:
        checkpoint(self.ctx)
        method = getattr(self, "encode_" + type(node).__name__.lower(), None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node)

    def encode_word(self, node: Word) -> tuple[R, Ok]:
        return self.letters_value(*place_values(node.letters, self.problem.rules.base)), True

    def encode_number(self, node: Number) -> tuple[R, Ok]:
        return self.fraction(node.value), True

    def encode_unary(self, node: Unary) -> tuple[R | z3.BoolRef, Ok]:
        value, ok = self.encode(node.operand)
        rat = self.rat(value)
        return (self.negate(rat) if node.op == "-" else rat), ok

    def encode_not(self, node: Not) -> tuple[R | z3.BoolRef, Ok]:
        value, ok = self.encode(node.operand)
        return z3.Not(self.truthy(value)), ok

    def encode_binop(self, node: BinOp) -> tuple[R | z3.BoolRef, Ok]:
        (left, left_ok), (right, right_ok) = self.encode(node.left), self.encode(node.right)
        a, b = self.rat(left), self.rat(right)
        ok = conj(left_ok, right_ok)
        if node.op == "+":
            return self.add(a, b), ok
        if node.op == "-":
            return self.add(a, self.negate(b)), ok
        if node.op == "*":
            return self.multiply(a, b), ok
        value, defined = self.power_of(node, a, b) if node.op == "**" else self.division(node.op, a, b)
        return value, conj(ok, defined)

    def encode_compare(self, node: Compare) -> tuple[R | z3.BoolRef, Ok]:
        first, ok = self.encode(node.operands[0])
        left = self.rat(first)
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

    def membership(self, item: R, container: Expr) -> tuple[z3.BoolRef, Ok]:
        if isinstance(container, Collection):  # Python builds the whole literal first
            encoded = [self.encode(element) for element in container.items]
            if not encoded:
                return z3.BoolVal(False, self.ctx), True
            found = z3.Or(*[self.compare("==", item, self.rat(value)) for value, _ in encoded])
            return found, conj(*[ok for _, ok in encoded])
        start, stop, ok = self.range_bounds(container)
        whole, is_integer = self.integral(item)
        found = conj(is_integer, self.within(whole, start, stop))
        return (z3.BoolVal(found, self.ctx) if isinstance(found, bool) else found), ok

    def range_bounds(self, call: Expr) -> tuple[I, I, Ok]:
        """range()'s start and stop, and the condition that both are defined integers."""
        if not (isinstance(call, Call) and call.name == "range"):
            raise Unsupported("a container that is not a literal or range()")
        parts, oks = [], []
        for arg in call.args:
            value, ok = self.encode(arg)
            whole, is_integer = self.integral(self.rat(value))
            parts.append(whole)
            oks += [ok, is_integer]
        if len(parts) == 1:
            parts.insert(0, self.integral(self.fraction(Fraction(0)))[0])
        return parts[0], parts[1], conj(*oks)

    def encode_boolop(self, node: BoolOp) -> tuple[R | z3.BoolRef, Ok]:
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

    def encode_call(self, node: Call) -> tuple[R | z3.BoolRef, Ok]:
        if node.name == "sum":
            start, stop, ok = self.range_bounds(node.args[0])
            return self.range_sum(start, stop), ok
        if node.name not in FUNCTIONS:
            raise Unsupported(f"the function {node.name}")
        encoded = [self.encode(arg) for arg in node.args]
        ok = conj(*[ok for _, ok in encoded])
        values = [self.rat(value) for value, _ in encoded]
        if node.name == "factorial":
            return self.factorial(node, values[0], ok)
        found = self.word_digits(node) if node.name in ("dsum", "rev", "is_palindrome") else None
        if found is not None:
            return found, ok
        if node.name == "gcd" or node.name in NUMBER_WORDS:  # of integers only, as Python's math.gcd
            wholes = [self.integral(value) for value in values]
            terms = [whole for whole, _ in wholes]
            result, defined = self.gcd(node.args, terms) if node.name == "gcd" else self.number_word(node, terms)
            return result, conj(ok, *[is_integer for _, is_integer in wholes], defined)
        if node.name == "abs":
            return self.absolute(values[0]), ok
        chosen: R | z3.BoolRef = values[0]  # min or max
        for value in values[1:]:
            smaller = self.compare("<=", self.rat(chosen), value)
            chosen = self.choose(smaller, chosen, value) if node.name == "min" else self.choose(smaller, value, chosen)
        return chosen, ok

    def factorial(self, node: Call, value: R, ok: Ok) -> tuple[R, Ok]:
        """n! as a table of the values n takes (core/check.py saw to their bounds, at most MAX_FACTORIAL):
        linear, and exact; undefined below 0, as math.factorial refuses."""
        bounds = interval(node.args[0], self.problem.rules)
        assert bounds is not None
        low, high = max(bounds[0], 0), max(bounds[1], 0)
        constant = lambda n: self.fraction(Fraction(n))  # noqa: E731
        options = [(self.compare("==", value, constant(n)), constant(math.factorial(n))) for n in range(low, high)]
        return self.chain(options, constant(math.factorial(high))), conj(ok, self.compare(">=", value, constant(0)))

    def chain(self, options: list[tuple[z3.BoolRef, R]], last: R) -> R:
        """The value of the first option whose condition holds, else `last`."""
        for condition, value in reversed(options):
            last = self.rat(self.choose(condition, value, last))
        return last

    def exponent_range(self, node: BinOp) -> tuple[int, int]:
        """The values of a variable exponent, where few enough to choose among its powers (core/check.splits)."""
        bounds = self.problem.exponent_ranges.get(node)
        if bounds is None or not splits(bounds):
            raise Unsupported("a variable exponent with more values than a power is split into")
        return bounds

    def power_choice(self, node: BinOp, base: R, exponent: R) -> tuple[R, Ok]:
        """base ** exponent for a variable exponent: a choice among its powers, each defined where it is."""
        low, high = self.exponent_range(node)
        cases = [(self.compare("==", exponent, self.fraction(Fraction(k))), *self.power(base, k))
                 for k in range(low, high + 1)]
        ok = conj(*[z3.Not(chosen) if defined is False else z3.Implies(chosen, defined)
                    for chosen, _, defined in cases if defined is not True])
        return self.chain([(chosen, value) for chosen, value, _ in cases[:-1]], cases[-1][1]), ok

    def word_digits(self, node: Call) -> R | z3.BoolRef | None:
        """dsum, rev or is_palindrome of a word, from its letters (`dsum(ABA)` = 2A + B, `rev(ABC)` =
        100C + 10B + A where A cannot be 0); None for another term."""
        word = node.args[0]
        if not isinstance(word, Word):
            return None
        if node.name == "dsum":  # every digit weighs 1
            return self.letters_value(*place_values(word.letters, 1))
        cells = word.letters
        while cells[:1] == "0":  # leading literal zeros left out: `0BA` is BA (sliced, a symbol stays whole)
            cells = cells[1:]
        options: list[tuple[z3.BoolRef, R]] = []  # (this letter is the first nonzero cell, the reversal from it)
        for start, cell in enumerate(cells):
            value = self.letters_value(*place_values(cells[start:][::-1], self.problem.rules.base))
            if cell.isdigit() or 0 not in self.problem.allowed[cell]:
                break
            options.append((self.truthy(self.letters_value({cell: 1}, 0)), value))
        else:
            value = self.fraction(Fraction(0))
        reversal = self.chain(options, value)
        if node.name == "rev":
            return reversal
        return self.compare("==", reversal, self.letters_value(*place_values(word.letters, self.problem.rules.base)))

