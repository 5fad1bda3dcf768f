"""The plan run breadth first on arrays: each step applied to every partial assignment at once.

The generated loops (generated.py) pay the interpreter for every partial assignment; here a step
is a few numpy operations over a block of them (a column of int64 per letter), which costs a few
nanoseconds an assignment. `Try` repeats each row once per digit still free, `Solve` looks the
letter's digits up in the table of `c * x = t (mod base)` and repeats each row once per root,
`Congruence`, `RangeCut` and `Holds` keep the rows that pass. Blocks are cut to at most BLOCK rows
before a step that multiplies them, so memory stays bounded. The caller reads the clock between
steps (each yields), and `halted()` is read within a constraint checked row by row (a second per
quarter-million rows), so that a search ends on time and when stopped.

Exactness: every value is an int64 that cannot overflow. A congruence is computed modulo
M = base**k with each operation reduced modulo M, so no intermediate exceeds M**2 < 2**63 (a plan
whose columns need a larger M is not run here). A constraint checked exactly is evaluated on
arrays only where a bound on every intermediate value (from the words' lengths) stays below
2**62; any other, and any constraint beyond + - * ** and comparisons, is evaluated row by row by
the compiled formula's Python code (compiled.py), as the generated loops do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterator
from typing import Any

import numpy as np

from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, BoolOp, Compare, Expr, Not, Number, Unary, Word
from smtcrypt.engine.base import Halted, letters_of
from smtcrypt.engine.compiled import define_scan
from smtcrypt.engine.compiled_writer import NotCompilable, Writer
from smtcrypt.engine.digits.equations import WordEquation
from smtcrypt.engine.digits.generated import congruence_roots
from smtcrypt.engine.digits.plan import Congruence, Holds, RangeCut, Solve, Step, Try

BLOCK = 1 << 18  # rows at most after a step that multiplies them (about 20 MB of columns)
ROWS_BETWEEN_LOOKS = 1 << 13  # rows a constraint checked row by row evaluates between two looks at `halted()`
LARGEST_MODULUS = 3_000_000_000  # M with M * M < 2**63: the congruences' arithmetic cannot overflow
SAFE = 1 << 62  # bound on any value evaluated exactly on arrays

Array = Any  # an int64 (or bool) numpy array, or a Python int where a value is constant


class AssignmentBlock:
    """A block of partial assignments: one int64 table, a row each, a column per letter (and one,
    "", for the mask of digits taken where every letter differs), so that choosing rows is one
    gather, not one per letter. `rows[letter]` is that letter's column; `letter in rows` says
    whether it has digits yet."""

    def __init__(self, table: Array, columns: dict[str, int], assigned: frozenset[str]):
        self.table = table
        self.columns = columns
        self.assigned = assigned

    def __getitem__(self, letter: str) -> Array:
        return self.table[:, self.columns[letter]]

    def __contains__(self, letter: str) -> bool:
        return letter in self.assigned

    def take(self, chosen: Array) -> AssignmentBlock:
        return AssignmentBlock(self.table[chosen], self.columns, self.assigned)

    def extended(self, letter: str, chosen: Array | None, digits: Array, masked: bool) -> AssignmentBlock:
        """The rows `chosen` (None: all of them, changed in place: no other block shares them), with
        the letter given `digits` (and, if `masked`, the digits taken)."""
        table = self.table if chosen is None else self.table[chosen]
        table[:, self.columns[letter]] = digits
        if masked:
            table[:, self.columns[""]] |= np.int64(1) << digits
        return AssignmentBlock(table, self.columns, self.assigned | {letter})


class NotVectorizable(ValueError):
    """The plan needs values that int64 arrays cannot hold exactly (the generated loops run it)."""


def truth_bound(node: Expr, problem: Problem) -> int | None:
    """For a condition the arrays evaluate (comparisons of integer expressions, joined by `and`,
    `or`, `not` only where their truth alone counts), a bound on every value in it; else None
    (`(A or B) = C` uses the value of `or`, a truth value may be added: row by row)."""
    if isinstance(node, Compare):
        if any(op in ("in", "not in") for op in node.ops):
            return None
        parts = [magnitude(part, problem) for part in node.operands]
    elif isinstance(node, (BoolOp, Not)):
        parts = [truth_bound(part, problem) for part in (node.operands if isinstance(node, BoolOp) else [node.operand])]
    else:
        return None
    return None if any(part is None for part in parts) else max([1, *(part for part in parts if part is not None)])


def magnitude(node: Expr, problem: Problem) -> int | None:
    """A bound on the absolute value of an integer expression (words, integers, + - * and constant
    powers) and of everything inside it, or None for any other expression."""
    base = problem.rules.base
    if isinstance(node, Word):
        return base ** len(node.letters)
    if isinstance(node, Number):
        return abs(int(node.value)) + 1 if node.value.denominator == 1 else None
    if isinstance(node, Unary):
        return magnitude(node.operand, problem) if node.op in ("-", "+") else None
    if isinstance(node, BinOp):
        left, right = magnitude(node.left, problem), magnitude(node.right, problem)
        if left is None or right is None:
            return None
        if node.op in ("+", "-"):
            return left + right
        if node.op == "*":
            return left * right
        exponent = problem.constant_exponents.get(node)
        if node.op == "**" and exponent is not None and exponent.denominator == 1 and 0 <= exponent <= 64:
            return max(left, 1) ** int(exponent)
    return None


def truncated_bound(node: Expr, equation: WordEquation, k: int, problem: Problem) -> int:
    """A bound on every value met evaluating the polynomial with its words cut to their last k digits."""
    base = problem.rules.base
    if isinstance(node, Word):
        return base ** max(0, k - equation.shifts[id(node)])
    if isinstance(node, Number):
        return abs(int(node.value)) + 1
    if isinstance(node, Unary):
        return truncated_bound(node.operand, equation, k, problem)
    assert isinstance(node, BinOp)
    left = truncated_bound(node.left, equation, k, problem)
    if node.op == "**":
        return left ** int(problem.constant_exponents[node]) + 1
    right = truncated_bound(node.right, equation, k, problem)
    return left * right if node.op == "*" else left + right


class ArraySearch:
    """The plan's steps over blocks of rows; `run(hits)` has the generated function's protocol: it
    appends each solution's digits (letters alphabetically) to `hits`, yields the rows handled so
    far between blocks, and returns their number."""

    def __init__(self, problem: Problem, steps: list[Step], halted: Callable[[], bool] = lambda: False):
        self.problem = problem
        self.halted = halted  # read inside a long step; `Halted` is raised once it is true
        self.base = problem.rules.base
        self.steps = steps
        self.letters = sorted(problem.letters)
        self.distinct = problem.distinctness
        self.checks: dict[int, Callable[[AssignmentBlock, int], Array]] = {}  # by step index: the exact test of a Holds
        for index, step in enumerate(steps):
            if isinstance(step, (Solve, Congruence)) and self.base ** step.column > LARGEST_MODULUS:
                raise NotVectorizable("a column's modulus too large for int64 arithmetic")
            if isinstance(step, Holds):
                self.checks[index] = self._exact_test(step.constraint)
        self.rows_handled = 0
        self.reduce: dict[tuple[int, int], int | None] = {}  # by equation and column: the modulus to reduce by
        self.ranged = {id(step.equation) for step in steps if isinstance(step, RangeCut)
                       and all((magnitude(side, problem) or SAFE) < SAFE for side in (step.equation.left,
                                                                                      step.equation.right))}

    # --- running -----------------------------------------------------------------------------

    def run(self, hits: list[tuple[int, ...]]) -> Generator[int, None, int]:
        self.rows_handled = 0
        columns = {name: index for index, name in enumerate([*self.letters, ""])}
        start = AssignmentBlock(np.zeros((1, len(columns)), dtype=np.int64), columns, frozenset())
        yield from self._steps(0, start, 1, hits)
        return self.rows_handled

    def _steps(self, index: int, rows: AssignmentBlock, count: int, hits: list[tuple[int, ...]]) -> Iterator[int]:
        """Apply steps from `index` on; a block that would grow past BLOCK rows is cut first."""
        while index < len(self.steps) and count:
            step = self.steps[index]
            if isinstance(step, (Try, Solve)) and count > BLOCK // self.base:
                size = max(1, BLOCK // self.base)
                for begin in range(0, count, size):
                    part = AssignmentBlock(rows.table[begin:begin + size], rows.columns, rows.assigned)
                    yield from self._steps(index, part, min(size, count - begin), hits)
                    yield self.rows_handled
                return
            rows, count = self._apply(index, step, rows, count)
            self.rows_handled += count
            index += 1
            yield self.rows_handled  # a step over a block may take a while: the caller reads the clock
        if count:  # sorted here, where it costs least
            columns = [rows[letter] for letter in self.letters]
            order = np.lexsort(columns[::-1])
            hits.extend(zip(*(column[order].tolist() for column in columns)))

    def _apply(self, index: int, step: Step, rows: AssignmentBlock, count: int) -> tuple[AssignmentBlock, int]:
        if isinstance(step, Try):
            return self._try(step.letter, rows, count)
        if isinstance(step, Solve):
            return self._solve(step, rows, count)
        if isinstance(step, Congruence):
            keep = self._residue_of_difference(step.equation, step.column, rows, None) == 0
        elif isinstance(step, RangeCut):
            keep = self._bounds(step.equation, rows)
        else:
            keep = self.checks[index](rows, count)
        return self._keep(rows, count, keep)

    @staticmethod
    def _keep(rows: AssignmentBlock, count: int, keep: Array) -> tuple[AssignmentBlock, int]:
        keep = np.asarray(keep)
        if keep.ndim == 0:  # a test without letters
            return (rows, count) if keep else (rows.take(slice(0, 0)), 0)
        chosen = np.flatnonzero(keep)
        if len(chosen) == count:  # nothing cut: no copy
            return rows, count
        return rows.take(chosen), len(chosen)

    # --- giving a letter digits ----------------------------------------------------------------

    def _try(self, letter: str, rows: AssignmentBlock, count: int) -> tuple[AssignmentBlock, int]:
        """Each row once per digit the letter may take there: a (row, digit) table of what is free."""
        digits = np.array(sorted(self.problem.allowed[letter]), dtype=np.int64)
        if self.distinct == "all":
            free = (rows[""][:, None] >> digits[None, :]) & 1 == 0
        else:
            free = np.ones((count, len(digits)), dtype=bool)
            for other in self._rivals(letter, rows):
                free &= rows[other][:, None] != digits[None, :]
        chosen, which = np.nonzero(free)
        return self._extend(letter, rows, chosen, digits[which])

    def _rivals(self, letter: str, rows: AssignmentBlock) -> set[str]:
        """The letters with digits that `letter` must differ from (where only some letters must differ)."""
        return {other for group in self.problem.groups if letter in group for other in group
                if other != letter and other in rows}

    def _free(self, letter: str, digit: Array, rows: AssignmentBlock, chosen: Array) -> Array:
        """Whether the rows `chosen` may give `letter` the digit (one digit, or an array of one per
        chosen row): no letter that must differ has it."""
        if self.distinct == "all":
            return (rows[""][chosen] >> digit) & 1 == 0
        free = np.ones(len(chosen), dtype=bool)
        for other in self._rivals(letter, rows):
            free &= rows[other][chosen] != digit
        return free

    def _extend(self, letter: str, rows: AssignmentBlock, chosen: Array, digits: Array) -> tuple[AssignmentBlock, int]:
        return rows.extended(letter, chosen, digits, self.distinct == "all"), len(chosen)

    def _solve(self, step: Solve, rows: AssignmentBlock, count: int) -> tuple[AssignmentBlock, int]:
        """The letter's digits x with c * x + t = 0 (mod base): the table of roots flattened, each row
        repeated once per root, less the roots another letter that must differ has."""
        base, below = self.base, self.base ** (step.column - 1)
        words: dict[int, Array] = {}  # the words without the letter: the same at 0 and at 1
        at_zero = self._residue_of_difference(step.equation, step.column, rows, (step.letter, 0), words)
        at_one = self._residue_of_difference(step.equation, step.column, rows, (step.letter, 1), words)
        slope = (at_one - at_zero) % base ** step.column // below
        key = np.broadcast_to(slope * base + (-(at_zero // below)) % base, (count,))
        flat, sizes = root_table(tuple(sorted(self.problem.allowed[step.letter])), base)
        starts = np.cumsum(sizes) - sizes
        repeats = sizes[key]
        single = bool(count) and repeats.max() <= 1
        if single:  # one root or none, as where c is a unit: no row repeated, `chosen` increasing
            chosen = np.flatnonzero(repeats)
            digits = flat[starts[key[chosen]]]
        else:
            chosen = np.repeat(np.arange(count), repeats)
            offsets = np.arange(len(chosen)) - np.repeat(np.cumsum(repeats) - repeats, repeats)
            digits = flat[np.repeat(starts[key], repeats) + offsets]
        if self.distinct != "none":
            free = self._free(step.letter, digits, rows, chosen)
            chosen, digits = chosen[free], digits[free]
        in_place = single and len(chosen) == count  # every row, once each, in order
        return rows.extended(step.letter, None if in_place else chosen, digits, self.distinct == "all"), len(chosen)

    # --- values ----------------------------------------------------------------------------------

    def _residue_of_difference(self, equation: WordEquation, k: int, rows: AssignmentBlock,
                               solved: tuple[str, int] | None, words: dict[int, Array] | None = None) -> Array:
        modulus = self.base ** k
        key = (id(equation), k)
        if key not in self.reduce:  # each operation reduced only where the values could overflow
            largest = sum(truncated_bound(side, equation, k, self.problem) for side in (equation.left, equation.right))
            self.reduce[key] = modulus if largest >= SAFE else None
        reduce = self.reduce[key]
        return (self._residue(equation.left, equation, k, rows, solved, reduce, words)
                - self._residue(equation.right, equation, k, rows, solved, reduce, words)) % modulus

    def _residue(self, node: Expr, equation: WordEquation, k: int, rows: AssignmentBlock,
                 solved: tuple[str, int] | None, reduce: int | None, words: dict[int, Array] | None = None) -> Array:
        """The value of a polynomial, its words cut to their last k digits: modulo base**k where
        `reduce` says so (each operation reduced, see the module), else exact (the bound holds).
        `words` keeps the values of the words without the solved letter, for another call alike."""
        modulus = reduce or 0
        if isinstance(node, Word):
            kept = k - equation.shifts[id(node)]
            cells = node.letters[-kept:] if kept > 0 else ""
            kept_words = words if words is not None and (solved is None or solved[0] not in cells) else None
            if kept_words is not None and id(node) in kept_words:
                return kept_words[id(node)]
            value: Array = 0
            for place, char in enumerate(reversed(cells)):
                weight = self.base ** place
                if char.isdigit():
                    value = value + int(char) * weight
                elif solved is not None and char == solved[0]:
                    value = value + solved[1] * weight
                else:
                    value = value + rows[char] * weight
            if kept_words is not None:
                kept_words[id(node)] = value
            return value
        if isinstance(node, Number):
            return int(node.value) % modulus if reduce else int(node.value)
        if isinstance(node, Unary):
            inner = self._residue(node.operand, equation, k, rows, solved, reduce, words)
            return -inner if node.op == "-" else inner
        assert isinstance(node, BinOp)
        left = self._residue(node.left, equation, k, rows, solved, reduce, words)
        if node.op == "**":
            result: Array = 1
            for _ in range(int(self.problem.constant_exponents[node])):
                result = result * left % modulus if reduce else result * left
            return result
        right = self._residue(node.right, equation, k, rows, solved, reduce, words)
        value = left * right if node.op == "*" else left + right if node.op == "+" else left - right
        return value % modulus if reduce else value

    def _bounds(self, equation: WordEquation, rows: AssignmentBlock) -> Array:
        if id(equation) not in self.ranged:  # its greatest values could overflow: no cut
            return True
        left, right = self._range(equation.left, rows), self._range(equation.right, rows)
        return (left[1] >= right[0]) & (left[0] <= right[1])

    def _range(self, node: Expr, rows: AssignmentBlock) -> tuple[Array, Array]:
        """The least and greatest value of a monotone expression, letters without digits at their
        least and greatest digits (the caller checked that nothing overflows)."""
        if isinstance(node, Word):
            low: Array = 0
            high: Array = 0
            for place, char in enumerate(reversed(node.letters)):
                weight = self.base ** place
                if char.isdigit():
                    low, high = low + int(char) * weight, high + int(char) * weight
                elif char in rows:
                    low, high = low + rows[char] * weight, high + rows[char] * weight
                else:
                    allowed = self.problem.allowed[char] or frozenset({0})
                    low, high = low + min(allowed) * weight, high + max(allowed) * weight
            return low, high
        if isinstance(node, Number):
            return int(node.value), int(node.value)
        assert isinstance(node, BinOp)
        left, right = self._range(node.left, rows), self._range(node.right, rows)
        if node.op == "**":
            power = int(self.problem.constant_exponents[node])
            return left[0] ** power, left[1] ** power
        if node.op == "*":
            return left[0] * right[0], left[1] * right[1]
        return left[0] + right[0], left[1] + right[1]

    # --- the exact tests ---------------------------------------------------------------------------

    def _exact_test(self, constraint: Expr) -> Callable[[AssignmentBlock, int], Array]:
        bound = truth_bound(constraint, self.problem)
        if bound is not None and bound < SAFE:
            return lambda rows, count: self._exact(constraint, rows)
        return self._row_by_row(constraint)

    def _exact(self, node: Expr, rows: AssignmentBlock) -> Array:
        """The exact value on arrays (the bound checked: nothing overflows)."""
        if isinstance(node, Word):
            value: Array = 0
            for place, char in enumerate(reversed(node.letters)):
                value = value + (int(char) if char.isdigit() else rows[char]) * self.base ** place
            return value
        if isinstance(node, Number):
            return int(node.value)
        if isinstance(node, Unary):
            inner = self._exact(node.operand, rows)
            return -inner if node.op == "-" else inner
        if isinstance(node, Not):
            return ~np.asarray(self._exact(node.operand, rows), dtype=bool)
        if isinstance(node, BoolOp):
            parts = [np.asarray(self._exact(part, rows), dtype=bool) for part in node.operands]
            result = parts[0]
            for part in parts[1:]:
                result = result & part if node.op == "and" else result | part
            return result
        if isinstance(node, Compare):
            values = [self._exact(part, rows) for part in node.operands]
            result = np.asarray(True)
            for op, left, right in zip(node.ops, values, values[1:]):
                result = result & COMPARISONS[op](left, right)
            return result
        assert isinstance(node, BinOp)
        left, right = self._exact(node.left, rows), self._exact(node.right, rows)
        if node.op == "**":
            return left ** int(self.problem.constant_exponents[node])
        return left * right if node.op == "*" else left + right if node.op == "+" else left - right

    def _row_by_row(self, constraint: Expr) -> Callable[[AssignmentBlock, int], Array]:
        """The compiled formula's code for the constraint, run on each row (Python ints: exact)."""
        letters = sorted(letters_of(constraint))
        writer = Writer(self.problem, {letter: f"v{index}" for index, letter in enumerate(letters)})
        test = writer.write(constraint)
        target = "(" + "".join(f"v{index}, " for index in range(len(letters))) + ")"
        source = "\n".join(["def _scan(_rows):", "    _out = []", f"    for {target} in _rows:", "        try:",
                            f"            _out.append(bool({test}))", "        except ArithmeticError:",
                            "            _out.append(False)", "    return _out"]) + "\n"
        scan = define_scan(source, writer.constants, {"bool": bool})

        def test_rows(rows: AssignmentBlock, count: int) -> Array:
            if not letters:
                return np.array(scan([()]) * count, dtype=bool)
            kept: list[bool] = []
            for begin in range(0, count, ROWS_BETWEEN_LOOKS):
                if self.halted():
                    raise Halted
                end = begin + ROWS_BETWEEN_LOOKS
                kept += scan(zip(*(rows[letter][begin:end].tolist() for letter in letters)))
            return np.array(kept, dtype=bool)
        return test_rows


@functools.cache
def root_table(digits: tuple[int, ...], base: int) -> tuple[Any, Any]:
    """The roots of c * x = t (mod base) among the digits, flattened by key c * base + t, and how
    many each key has."""
    roots = congruence_roots(digits, base)
    flat = np.array([root for row in roots for target in row for root in target], dtype=np.int64)
    sizes = np.array([len(target) for row in roots for target in row], dtype=np.int64)
    return flat, sizes


COMPARISONS: dict[str, Callable[[Array, Array], Array]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}

__all__ = ["ArraySearch", "NotCompilable", "NotVectorizable"]
