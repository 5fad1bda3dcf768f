"""The plan as generated Python: one generator function of nested loops, a loop per letter.

compiled.py explains why generated code (a step costs a fraction of a microsecond); this code
holds only names it makes (`v3`, `_m2`, `_S4`) and integers it computed, never the formula's text.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, Expr, Number, Unary, Word
from smtcrypt.engine.compiled_writer import Writer
from smtcrypt.engine.digits.equations import WordEquation
from smtcrypt.engine.digits.plan import Congruence, Holds, RangeCut, Solve, Step, Try

NODES_BETWEEN_LOOKS = 4096  # loop steps between two looks at the clock and the stop flag (a power of 2)
FREE_TABLES_UP_TO = 12  # bases whose free digits are looked up by the mask of digits taken (tables of 2**base)
LOOPS_PER_FUNCTION = 16  # nested loops in one generated function: Python refuses more than 20 nested blocks


@functools.cache
def free_digits(digits: tuple[int, ...], base: int) -> tuple[tuple[int, ...], ...]:
    """table[mask]: the digits not in the bit mask (bit d set: digit d taken). Made once per set of digits."""
    return tuple(tuple(x for x in digits if not mask >> x & 1) for mask in range(1 << base))


@functools.cache
def congruence_roots(digits: tuple[int, ...], base: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """table[c][t]: the digits x with c * x = t (mod base). Made once per set of digits."""
    return tuple(tuple(tuple(x for x in digits if (c * x - t) % base == 0) for t in range(base)) for c in range(base))


class LoopWriter:
    """The plan as the source of one generator function `_scan(_hits)`: nested loops that append
    each solution (digits in alphabetical order of the letters) to `_hits`, yielding the steps
    taken so far every NODES_BETWEEN_LOOKS loop steps and returning their number at the end.
    Python refuses more than 20 nested blocks, so every LOOPS_PER_FUNCTION loops the nest goes on
    in a function of its own (`_seg1`, ...), called with the digits assigned so far."""

    def __init__(self, problem: Problem, steps: list[Step]):
        self.problem = problem
        self.base = problem.rules.base
        self.letters = sorted(problem.letters)
        self.names = {letter: f"v{index}" for index, letter in enumerate(self.letters)}
        self.writer = Writer(problem, self.names)
        self.tables: dict[str, Any] = {}
        self.lines: list[str] = []
        self.functions: list[list[str]] = []
        self.mask = "0"  # the digits taken so far, where every letter differs
        self.order: list[str] = []  # letters in the order the loops assign them
        self._function("_scan(_hits)")
        for step in steps:
            self._step(step)
        self.line(f"_hits.append(({''.join(self.names[letter] + ', ' for letter in self.letters)}))")
        self.functions.append(self.lines)
        self.source = "\n".join(line for lines in self.functions for line in [*lines, "    return _n"]) + "\n"

    def line(self, text: str) -> None:
        self.lines.append(self.indent + text)

    def fail(self) -> str:
        return "continue" if self.loops else "return _n"

    def _function(self, signature: str) -> None:
        self.lines = [f"def {signature}:"] + (["    _n = 0"] if signature.startswith("_scan(") else [])
        self.indent = "    "
        self.loops = 0  # in this function

    def _go_on_in_a_new_function(self) -> None:
        name = f"_seg{len(self.functions) + 1}"
        known = [self.names[letter] for letter in self.order] + ([self.mask] if self.mask != "0" else [])
        arguments = ", ".join(["_hits", "_n", *known])  # one count of steps, so that the looks stay regular
        self.line(f"_n = yield from {name}({arguments})")
        self.functions.append(self.lines)
        self._function(f"{name}({arguments})")

    def _step(self, step: Step) -> None:
        if isinstance(step, Holds):
            self._holds(step.constraint)
        elif isinstance(step, RangeCut):
            left, right = step.equation.left, step.equation.right
            self.line(f"if {self._extreme(left, max)} < {self._extreme(right, min)} or "
                      f"{self._extreme(left, min)} > {self._extreme(right, max)}:")
            self.line(f"    {self.fail()}")
        elif isinstance(step, Congruence):
            modulus = self.base ** step.column
            self.line(f"if ({self._difference(step.equation, step.column)}) % {modulus}:")
            self.line(f"    {self.fail()}")
        else:
            self._loop(step)

    def _holds(self, constraint: Expr) -> None:
        self.writer.may_fail = False
        test = self.writer.write(constraint)
        if self.writer.may_fail:  # a zero divisor or an irrational root: not a solution
            self.line("try:")
            self.line(f"    _ok = {test}")
            self.line("except ArithmeticError:")
            self.line("    _ok = False")
            test = "_ok"
        self.line(f"if not {test}:")
        self.line(f"    {self.fail()}")

    def _loop(self, step: Try | Solve) -> None:
        letter = step.letter
        name = self.names[letter]
        if self.loops == LOOPS_PER_FUNCTION:
            self._go_on_in_a_new_function()
        self.loops += 1
        digits = sorted(self.problem.allowed[letter])
        free = isinstance(step, Try) and self.problem.distinctness == "all" and self.base <= FREE_TABLES_UP_TO
        if free and self.order:  # the digits no other letter has taken, looked up by the mask of those taken
            table = f"_F{len(self.tables)}"
            self.tables[table] = free_digits(tuple(digits), self.base)
            self.line(f"for {name} in {table}[{self.mask}]:")
        elif isinstance(step, Try):
            self.line(f"for {name} in {tuple(digits)!r}:")
        else:
            self._solve(step, name, digits)
        self.indent += "    "
        self.line("_n += 1")
        self.line(f"if not _n & {NODES_BETWEEN_LOOKS - 1}:")
        self.line("    yield _n")
        self._distinct(letter, name, checked=free)
        self.order.append(letter)

    def _solve(self, step: Solve, name: str, digits: list[int]) -> None:
        base, k = self.base, step.column
        modulus, below = base ** k, base ** (k - 1)
        table = f"_S{len(self.tables)}"
        self.tables[table] = congruence_roots(tuple(digits), base)
        at_zero = self._difference(step.equation, k, (step.letter, "0"))
        at_one = self._difference(step.equation, k, (step.letter, "1"))
        self.line(f"_a = ({at_zero}) % {modulus}")
        self.line(f"_c = ({at_one} - _a) % {modulus}")
        if below == 1:
            self.line(f"for {name} in {table}[_c][-_a % {base}]:")
        else:
            self.line(f"for {name} in {table}[_c // {below}][-(_a // {below}) % {base}]:")

    def _distinct(self, letter: str, name: str, checked: bool) -> None:
        """Skip a digit another letter that must differ has taken (unless the loop's digits were `checked`)."""
        if self.problem.distinctness == "all":
            if self.order and not checked:
                self.line(f"if {self.mask} >> {name} & 1:")
                self.line("    continue")
            mask = f"_m{len(self.order)}"
            self.line(f"{mask} = {'' if self.mask == '0' else self.mask + ' | '}1 << {name}")
            self.mask = mask
            return
        rivals = sorted({self.names[other] for group in self.problem.groups if letter in group
                         for other in group if other in self.order})
        if rivals:
            self.line(f"if {name} in ({', '.join(rivals)},):")
            self.line("    continue")

    def _extreme(self, node: Expr, extreme: Callable[[frozenset[int]], int]) -> str:
        """The code of a monotone expression's least (`min`) or greatest (`max`) value, each letter
        without a digit yet at its least or greatest digit."""
        if isinstance(node, Word):
            terms, fixed = [], 0
            for place, char in enumerate(reversed(node.letters)):
                weight = self.base ** place
                if char.isdigit():
                    fixed += int(char) * weight
                elif char in self.order:
                    terms.append(f"{self.names[char]}*{weight}")
                else:
                    fixed += extreme(self.problem.allowed[char] or frozenset({0})) * weight
            return "(" + "+".join([*terms, str(fixed)]) + ")"
        if isinstance(node, Number):
            return f"({int(node.value)})"
        assert isinstance(node, BinOp)
        if node.op == "**":
            return f"({self._extreme(node.left, extreme)} ** {int(self.problem.constant_exponents[node])})"
        return f"({self._extreme(node.left, extreme)} {node.op} {self._extreme(node.right, extreme)})"

    def _difference(self, equation: WordEquation, k: int, solved: tuple[str, str] | None = None) -> str:
        """The code of LEFT - RIGHT with each word cut to its last k digits (`solved`: one letter
        written as a given digit)."""
        left, right = (self._truncated(side, equation, k, solved) for side in (equation.left, equation.right))
        return f"{left} - {right}"

    def _truncated(self, node: Expr, equation: WordEquation, k: int, solved: tuple[str, str] | None) -> str:
        if isinstance(node, Word):
            kept = k - equation.shifts[id(node)]  # the digits that count modulo base**k
            if kept <= 0:
                return "(0)"
            terms, fixed = [], 0
            for place, char in enumerate(reversed(node.letters[-kept:])):
                weight = self.base ** place
                if char.isdigit():
                    fixed += int(char) * weight
                    continue
                name = solved[1] if solved is not None and char == solved[0] else self.names[char]
                terms.append(name if weight == 1 else f"{name}*{weight}")
            return "(" + "+".join([*terms, str(fixed)] if fixed or not terms else terms) + ")"
        if isinstance(node, Number):
            return f"({int(node.value)})"
        if isinstance(node, Unary):
            return f"({node.op}{self._truncated(node.operand, equation, k, solved)})"
        assert isinstance(node, BinOp)
        if node.op == "**":
            power = int(self.problem.constant_exponents[node])
            return f"({self._truncated(node.left, equation, k, solved)} ** {power})"
        parts: list[str] = []
        ops: list[str] = []
        operand: Expr = node  # a chain of + and - unbracketed (Python's parser limits nesting)
        while isinstance(operand, BinOp) and operand.op != "**" and (operand.op == "*") == (node.op == "*"):
            parts.append(self._truncated(operand.right, equation, k, solved))
            ops.append(operand.op)
            operand = operand.left
        text = self._truncated(operand, equation, k, solved)
        for op, part in zip(reversed(ops), reversed(parts)):
            text += f" {op} {part}"
        return f"({text})"
