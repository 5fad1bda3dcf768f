"""Python source for each node of a checked formula: the body of the compiled formula's loop.

The source holds only names it makes itself (letters as `v0`, unknowns as `u0`, the helpers of
compiled_runtime.py such as `_F`, constants as `_K[i]`) and integers it computed: no text of the
formula reaches `compile`. Quotients in a comparison are written as integer (numerator,
denominator) pairs, which cost far less per candidate than Fractions.
"""

from __future__ import annotations

import itertools
from types import MappingProxyType
from typing import Any, cast

from smtcrypt.core.check import Problem, power_word_exponent
from smtcrypt.core.numerals import place_values, repeating_scale
from smtcrypt.core.tree import BinOp, BoolOp, Call, Collection, Compare, Expr, Name, Not, Number, Repeating, Unary, Word

Pair = tuple[str, str]  # code for a numerator and a denominator
MAX_PAIR_CODE = 2000  # characters: a longer (numerator, denominator) pair is left to Fraction
# operators written without brackets inside a chain of their own kind
PRECEDENCE = MappingProxyType({"+": 1, "-": 1, "*": 2})


class NotCompilable(ValueError):
    """The problem cannot be searched exhaustively (integer unknowns the formula leaves unbounded),
    or its code is too deep."""


def _times(x: str, y: str) -> str:
    return y if x == "1" else x if y == "1" else f"({x}*{y})"


def _raised(x: str, k: int) -> str:
    return x if k == 1 or x == "1" else f"({x}**{k})"


class Writer:
    """Python source for each node, the helpers and constants it needs."""

    def __init__(self, problem: Problem, names: dict[str, str]):
        self.problem = problem
        self.base = problem.rules.base
        self.names = names  # letter -> "v3" or a digit
        self.constants: list[Any] = []
        self.temporaries = itertools.count()
        self.may_fail = False  # some node can raise ArithmeticError: the loop needs a try

    def constant(self, value: Any) -> str:
        if isinstance(value, int):
            return f"({int(value)})"
        self.constants.append(value)
        return f"_K[{len(self.constants) - 1}]"

    def digits(self, letters: str) -> str:
        """A word's value as a sum of place values: 'ODD' -> (v0*100+v1*10+v1)."""
        weights, fixed = place_values(letters, self.base)
        terms = []
        for letter, weight in weights.items():
            name = self.names[letter]
            if name.isdigit():
                fixed += int(name) * weight
            else:
                terms.append(name if weight == 1 else f"{name}*{weight}")
        if fixed or not terms:
            terms.append(str(fixed))
        return "(" + "+".join(terms) + ")"

    def write(self, node: Expr) -> str:
        if isinstance(node, Word):
            return self.digits(node.letters)
        if isinstance(node, Repeating):
            return "_F({}, {})".format(*cast(Pair, self._pair(node)))
        if isinstance(node, Number):
            return self.constant(node.value.numerator if node.value.denominator == 1 else node.value)
        if isinstance(node, Name):
            return self.names[node.name]  # "u0": the unknown's own loop variable
        if isinstance(node, Unary):
            return f"({node.op}{self.write(node.operand)})"
        if isinstance(node, BinOp):
            return self.binary(node)
        if isinstance(node, Compare):
            return self.comparison(node)
        if isinstance(node, BoolOp):
            return "(" + f" {node.op} ".join(self.write(operand) for operand in node.operands) + ")"
        if isinstance(node, Not):
            return f"(not {self.write(node.operand)})"
        if isinstance(node, Call):
            return self.call(node)
        raise NotCompilable(f"cannot compile {type(node).__name__} on its own")

    def binary(self, node: BinOp) -> str:
        if node.op in PRECEDENCE:
            return self.chain(node)
        left, right = self.write(node.left), self.write(node.right)
        exponent = self.problem.constant_exponents.get(node) if node.op == "**" else None
        if exponent is not None and exponent.denominator == 1 and exponent >= 0:
            return f"({left} ** {int(exponent)})"
        self.may_fail = True  # a zero divisor, or a power that is negative, irrational or variable
        if node.op != "**":
            return f"_F({left}, {right})" if node.op == "/" else f"({left} {node.op} {right})"
        if exponent is not None and exponent.denominator != 1:
            return f"_root({left}, {exponent.numerator}, {exponent.denominator})"
        return f"_pow({left}, {right if exponent is None else self.constant(exponent)})"

    def chain(self, node: BinOp) -> str:
        """A + B + C + ... unbracketed: Python's parser refuses deeply nested brackets."""
        rest = [f" {node.op} {self.write(node.right)}"]  # the operators and right operands, the last first
        operand = node.left
        while isinstance(operand, BinOp) and PRECEDENCE.get(operand.op) == PRECEDENCE[node.op]:
            rest.append(f" {operand.op} {self.write(operand.right)}")
            operand = operand.left
        return f"({self.write(operand)}{''.join(reversed(rest))})"

    def integral(self, node: Expr) -> bool:
        """True for an integer-valued expression that cannot fail: words, integers, + - * of them."""
        if isinstance(node, (Word, Name)):
            return True
        if isinstance(node, Number):
            return node.value.denominator == 1
        if isinstance(node, Unary):
            return self.integral(node.operand)
        return (isinstance(node, BinOp) and node.op in PRECEDENCE
                and self.integral(node.left) and self.integral(node.right))

    def quotient(self, node: Expr) -> Pair | None:
        """(numerator, denominator) code for a rational expression (words, numbers, repeating
        decimals, + - * /, non-negative integer powers), else None. The denominator is zero exactly
        where Python's evaluation divides by zero: a product of the divisors met, each nonzero
        otherwise (the divisor's own denominator, which is not a factor, is checked by `_nz`)."""
        pair = self._pair(node)
        return pair if pair is None or len(pair[0]) + len(pair[1]) <= MAX_PAIR_CODE else None

    def _pair(self, node: Expr) -> Pair | None:
        if isinstance(node, Repeating):  # whole.fixed(period) as the limit of its digits
            head = self.digits(node.whole + node.fixed)
            head_and_period = self.digits(node.whole + node.fixed + node.period)
            return f"({head_and_period}-{head})", f"({repeating_scale(node.fixed, node.period, self.base)})"
        if self.integral(node):
            return self.write(node), "1"
        if isinstance(node, Number):
            return f"({node.value.numerator})", f"({node.value.denominator})"
        if isinstance(node, Unary) and node.op in ("-", "+"):
            inner = self._pair(node.operand)
            return None if inner is None else (f"({node.op}{inner[0]})", inner[1])
        if not isinstance(node, BinOp) or node.op not in ("+", "-", "*", "/", "**"):
            return None
        if node.op == "**":  # (a/b) ** k for a constant integer k
            exponent = self.problem.constant_exponents.get(node)
            if exponent is None or exponent.denominator != 1 or (inner := self._pair(node.left)) is None:
                return None
            k, (a, b) = int(exponent), inner
            if k < 0:  # (a/b)**-k = b**k / a**k: zero exactly where a is, and b checked
                return _raised(b if b == "1" else f"_nz({b})", -k), _raised(a, -k)
            return _raised(a, k), _raised(b, k) if k else f"(1 if {b} else 0)"
        left, right = self._pair(node.left), self._pair(node.right)
        if left is None or right is None:
            return None
        (a, b), (c, d) = left, right
        if node.op == "*":
            return _times(a, c), _times(b, d)
        if node.op == "/":
            return _times(a, d if d == "1" else f"_nz({d})"), _times(b, c)
        return f"({_times(a, d)} {node.op} {_times(c, b)})", _times(b, d)

    def comparison(self, node: Compare) -> str:
        """A chain, evaluated as Python does: each operand once, left to right, stopping at the first
        false link; temporaries carry an operand from one link to the next."""
        if (quotients := self.quotient_comparison(node)) is not None:
            return quotients
        text: list[str] = []
        left = self.write(node.operands[0])
        last = len(node.ops) - 1
        for index, (op, operand) in enumerate(zip(node.ops, node.operands[1:])):
            if op in ("in", "not in"):
                text.append(self.membership(left, op, operand))
                continue  # `in` ends a chain (checked)
            right = self.write(operand)
            if index < last:
                name = f"_t{next(self.temporaries)}"
                text.append(f"({left} {op} ({name} := {right}))")
                left = name
            else:
                text.append(f"({left} {op} {right})")
        return "(" + " and ".join(text) + ")"

    def quotient_comparison(self, node: Compare) -> str | None:
        """One comparison of two rational expressions as integers (see `quotient`), or None."""
        if len(node.ops) != 1 or node.ops[0] in ("in", "not in") or all(
                self.integral(operand) for operand in node.operands):
            return None
        left, right = self.quotient(node.operands[0]), self.quotient(node.operands[1])
        if left is None or right is None:
            return None
        self.may_fail = True
        return f"(_q({left[0]}, {left[1]}, {right[0]}, {right[1]}) {node.ops[0]} 0)"

    def membership(self, item: str, op: str, container: Expr) -> str:
        """`item in {...}` or `item in range(...)` (integers only, whatever the bounds' type)."""
        if isinstance(container, Collection):
            items = "".join(self.write(element) + ", " for element in container.items)
            return f"({item} {op} ({items}))"
        self.may_fail = True
        args = ", ".join(self.write(arg) for arg in call_args(container))
        return f"({'not ' if op == 'not in' else ''}_in_range({item}, {args}))"

    def call(self, node: Call) -> str:
        """abs, min and max as Python's; any other call (of integers only: a fraction fails the
        candidate) by its helper."""
        args = ", ".join(self.write(arg) for arg in (call_args(node.args[0]) if node.name == "sum" else node.args))
        if node.name in ("abs", "min", "max"):
            return f"{node.name}({args})"
        self.may_fail = True
        if node.name in ("is_square", "is_cube"):
            return f"_is_power({args}, {2 if node.name == 'is_square' else 3})"
        if node.name == "is_power":
            return f"_is_power({self.write(node.args[0])}, {power_word_exponent(node)})"
        if node.name in ("dsum", "rev", "is_palindrome"):  # dsum and rev: analysis/arithmetic's, of a whole number
            return f"_{node.name}({args if node.name == 'is_palindrome' else f'_whole({args})'}, {self.base})"
        return f"_{node.name}({args})"


def call_args(node: Expr) -> tuple[Expr, ...]:
    """The arguments of `range(...)`, which the checker allows only where a call is."""
    if not isinstance(node, Call):
        raise NotCompilable(f"cannot compile {type(node).__name__} where range(...) belongs")
    return node.args


