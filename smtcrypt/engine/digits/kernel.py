"""The plan run depth first by one function of integers and arrays, which numba compiles.

On arrays (arrays.py) a step costs a few numpy calls, a few microseconds each however few rows
the block has; a product of the published collection has a few thousand partial assignments, so
most of its search was those calls. Here the plan is data: a table of steps, each side of each
equation a short program for a stack machine, and one function (`search_plan`) walks the steps
depth first, as the generated loops do, without the interpreter in between once numba has
compiled it. A search runs it where its executor is the compiled one (`Executor.COMPILED`: a
batch of many puzzles, which pays for the load), loaded once a process (`load`).

It runs the plans it can run exactly: every letter in one distinctness (all different, or none),
every constraint checked exactly one comparison of polynomials as written (`LEFT = RIGHT`,
`A < B`; no quotient) whose values stay below 2**62, and every congruence's modulus below
3 * 10**9, so that no intermediate overflows int64 (the bounds are arrays.py's). Any other plan
runs on arrays (`NotKernel` says why). Its arithmetic is the arrays' step for step: a congruence
reduces each operation modulo base**k where the values could overflow, `Solve` looks the letter's
digits up in the same table of roots, a range cut puts each letter without a digit at its least
and greatest digit (and, letters all different, within the least and greatest digit no letter
has: the arrays do not, so the kernel cuts a little more).

The search stops after a budget of steps, or when its buffer of solutions is full, with its place
kept in the state arrays, so that the caller can read the clock, drain the solutions and go on.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

import numpy as np

from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, Compare, Expr, Number, Unary, Word
from smtcrypt.engine.digits.arrays import LARGEST_MODULUS, SAFE, magnitude, root_table, truncated_bound
from smtcrypt.engine.digits.equations import WordEquation
from smtcrypt.engine.digits.plan import Congruence, Holds, RangeCut, Solve, Step, Try

__all__ = ["KernelPlan", "NotKernel", "kernel_plan", "kernel_scan", "load", "search_plan"]

# step kinds (column 0 of the step table)
TRY, SOLVE, CONGRUENCE, RANGE, HOLDS = 0, 1, 2, 3, 4
# stack machine operations (column 0 of a program)
WORD, CONSTANT, ADD, SUBTRACT, MULTIPLY, NEGATE, POWER = 0, 1, 2, 3, 4, 5, 6
# the columns of a whole word's running totals (`now`): letters without a digit as 0, least, greatest
DIGITS, LEAST, GREATEST, UNSET = 0, 1, 2, 3  # UNSET: the weights of the places without a digit
# what `search_plan` returns
FINISHED, BUDGET_SPENT, BUFFER_FULL = 0, 1, 2


def search_plan(steps: Any, equations: Any, ops: Any, cells: Any, starts: Any, lengths: Any,  # noqa: C901, PLR0912, PLR0913, PLR0915
                allowed: Any, roots: Any, root_starts: Any, root_sizes: Any, uses: Any, use_words: Any,
                use_weights: Any, least: Any, greatest: Any, powers: Any, distinct: bool, state: Any, position: Any,
                choices: Any, digits: Any, now: Any, stack: Any, found: Any, corners: Any, budget: int) -> int:
    """Walk the plan depth first from where `state` says (state[0]: the step; state[1]: steps taken;
    state[2]: the mask of digits taken; state[3]: solutions in `found`), for at most `budget` more
    steps, writing each solution's digits (letters alphabetically) into a row of `found`. Returns
    FINISHED, BUDGET_SPENT or BUFFER_FULL, the state kept to go on.

    position[i] is -1 where step i is to be entered, else the index of its current choice among
    choices[i] = (first, count) of `allowed` (Try) or of `roots` (Solve). `now` holds each whole
    word's running totals, kept as letters get and lose digits (uses[letter]..uses[letter + 1] are
    the letter's places in words, a word and a weight each): column DIGITS its value with the
    letters without a digit as 0, LEAST and GREATEST with them at their least and greatest digit,
    UNSET the weights of its places without a digit (a range cut bounds them by the digits free).

    A check or a Solve evaluates its equation's two sides by one stack machine, each side once for
    two values at a time where it needs four (`stack` and `other`: a Solve's letter at 0 and at 1, a
    range cut's least and greatest): a word is read off its running totals where whole (k = 0),
    else digit by digit cut to its last k digits; each operation is reduced modulo base**k where
    the equation's row says so.

    A Solve right after a Try whose letter x is first met in the Solve's column k and enters it
    linearly (steps[., 5]: on the Try's row how many rows on the Solve is, on the Solve's the Try's
    letter) is evaluated once for all of x's digits: on entering the Try, the sides' differences
    modulo base**k at x = 0 and 1 (the Solve's letter at 0 and 1) give column k's digit of the
    difference and the Solve's slope, each c + x * d modulo the base, into `corners`; at each digit
    of x the Try reads off them the Solve's digits, and gives no digit that leaves it none. Most Solves follow
    a Try, and most found no digit: each such digit now costs a few operations, not the programs.

    One function, without calls: numba passes each array to a function it calls with a reference
    count, which cost more than the search itself."""
    base = powers[1]
    values = np.zeros(4, np.int64)
    other = np.zeros(len(stack), np.int64)
    level = state[0]
    taken = state[1]
    mask = state[2]
    stop = taken + budget
    count = len(steps)
    status = FINISHED
    while level >= 0:
        if level == count:  # every step passed: a solution
            found[state[3], :] = digits
            state[3] += 1
            level -= 1
            if state[3] == len(found):
                status = BUFFER_FULL
                break
            continue
        kind = steps[level, 0]
        letter = steps[level, 1]
        entering = position[level] < 0
        if not entering and kind != TRY and kind != SOLVE:  # back from the steps after a check it passed
            position[level] = -1
            level -= 1
            continue
        if not entering:  # back from the steps after a Try or Solve: its letter's digit taken back
            digit = digits[letter]
            for use in range(uses[letter], uses[letter + 1]):
                word, weight = use_words[use], use_weights[use]
                now[word, DIGITS] -= digit * weight
                now[word, LEAST] -= (digit - least[letter]) * weight
                now[word, GREATEST] -= (digit - greatest[letter]) * weight
                now[word, UNSET] += weight
            if distinct:
                mask ^= 1 << digit
        elif kind == TRY:
            if taken >= stop:
                status = BUDGET_SPENT
                break
            choices[level, 0], choices[level, 1] = steps[level, 2], steps[level, 3]
        elif kind == SOLVE and taken >= stop:
            status = BUDGET_SPENT
            break
        if entering and (kind == TRY) == (steps[level, 5] >= 0):
            # a check, a Solve its Try did not pair with, or a Try's paired Solve: evaluate the programs
            target = level + steps[level, 5] if kind == TRY else level  # the step whose equation is evaluated
            equation = steps[target, 2]
            k = steps[target, 3] if kind != RANGE and kind != HOLDS else 0
            modulus = powers[k] if k > 0 and equations[equation, 4 + k] else 0
            paired = kind != HOLDS and kind != CONGRUENCE  # two values a side, in one pass: `stack` and `other`
            solving = steps[target, 1] if kind in (SOLVE, TRY) else -1
            varied = letter if kind == TRY else -1  # the Try's letter, at 0 and then at 1
            lowest, highest = 0, base - 1  # the least and greatest digit not taken (any, letters not distinct)
            if kind == RANGE and distinct:
                while lowest < base - 1 and (mask >> lowest) & 1:
                    lowest += 1
                while highest > 0 and (mask >> highest) & 1:
                    highest -= 1
            for at in range(2 if kind == TRY else 1):
                for side in range(2):
                    first_reading = DIGITS if kind != RANGE else GREATEST if side == 0 else LEAST
                    second_reading = LEAST if side == 0 else GREATEST  # a range cut's
                    top = 0
                    for index in range(equations[equation, 2 * side], equations[equation, 2 * side + 1]):
                        op = ops[index, 0]
                        if op == WORD:
                            word = ops[index, 1]
                            if k == 0:
                                stack[top] = now[word, first_reading]
                                other[top] = now[word, second_reading]
                                if kind == RANGE:  # no place without a digit above the greatest digit free
                                    low = now[word, DIGITS] + lowest * now[word, UNSET]  # nor below the least
                                    high = now[word, DIGITS] + highest * now[word, UNSET]
                                    if side == 0:
                                        stack[top] = min(stack[top], high)
                                        other[top] = max(other[top], low)
                                    else:
                                        stack[top] = max(stack[top], low)
                                        other[top] = min(other[top], high)
                            else:  # the letter solved read as 0 (`stack`) and as 1 (`other`: `lift` more)
                                total = 0
                                lift = 0
                                for place in range(min(lengths[word], k - ops[index, 2])):
                                    cell = cells[starts[word] + place]
                                    if cell < 0:
                                        total += (-cell - 1) * powers[place]
                                    elif cell == solving:
                                        lift += powers[place]
                                    elif cell == varied:
                                        total += at * powers[place]
                                    else:
                                        total += digits[cell] * powers[place]
                                stack[top] = total
                                other[top] = total + lift
                            top += 1
                        elif op == CONSTANT:
                            stack[top] = ops[index, 1] % modulus if modulus else ops[index, 1]
                            other[top] = stack[top]
                            top += 1
                        elif op == NEGATE:
                            stack[top - 1] = -stack[top - 1]
                            other[top - 1] = -other[top - 1]
                        elif op == POWER:
                            result = 1
                            second = 1
                            for _ in range(ops[index, 1]):
                                result = result * stack[top - 1] % modulus if modulus else result * stack[top - 1]
                                if paired:
                                    second = second * other[top - 1] % modulus if modulus else second * other[top - 1]
                            stack[top - 1] = result
                            other[top - 1] = second
                        else:
                            top -= 1
                            if op == ADD:
                                result = stack[top - 1] + stack[top]
                                second = other[top - 1] + other[top]
                            elif op == SUBTRACT:
                                result = stack[top - 1] - stack[top]
                                second = other[top - 1] - other[top]
                            else:
                                result = stack[top - 1] * stack[top]
                                second = other[top - 1] * other[top] if paired else 0
                            stack[top - 1] = result % modulus if modulus else result
                            other[top - 1] = second % modulus if modulus else second
                    values[side] = stack[0]
                    values[2 + side] = other[0]
                if kind == TRY:  # the differences at x = at: the Solve's letter at 0, at 1
                    corners[target, 2 * at] = (values[0] - values[1]) % powers[k]
                    corners[target, 2 * at + 1] = (values[2] - values[3]) % powers[k]
            if kind == TRY:  # column k's digit of the difference, less, and its slope, each of x: c + x * d
                below = powers[k - 1]
                at_zero, at_one = corners[target, 0], corners[target, 1]
                moved, turned = corners[target, 2] - at_zero, corners[target, 3] - corners[target, 2] - at_one + at_zero
                corners[target, 0] = (-(at_zero // below)) % base
                corners[target, 1] = (-(moved % powers[k] // below)) % base
                corners[target, 2] = (at_one - at_zero) % powers[k] // below
                corners[target, 3] = turned % powers[k] // below
            if kind == SOLVE:  # the digits x with c * x + t = 0 (mod base) in column k
                below = powers[k - 1]
                at_zero = (values[0] - values[1]) % powers[k]
                slope = ((values[2] - values[3]) % powers[k] - at_zero) % powers[k] // below
                key = steps[level, 4] + slope * base + (-(at_zero // below)) % base
                choices[level, 0], choices[level, 1] = root_starts[key], root_sizes[key]
            elif kind != TRY:
                if kind == CONGRUENCE:
                    passed = (values[0] - values[1]) % powers[k] == 0
                elif kind == RANGE:  # the sides' ranges meet
                    passed = values[0] >= values[1] and values[2] <= values[3]
                else:  # HOLDS: the sides compared as the constraint says
                    relation = steps[level, 3]
                    passed = (values[0] == values[1] if relation == 0 else values[0] != values[1] if relation == 1
                              else values[0] < values[1] if relation == 2 else values[0] <= values[1] if relation == 3
                              else values[0] > values[1] if relation == 4 else values[0] >= values[1])
                if passed:
                    position[level] = 0
                    level += 1
                else:
                    level -= 1
                continue
        # a Try or Solve: its letter's next digit, if any
        next_choice = 0 if entering else position[level] + 1
        first, size = choices[level, 0], choices[level, 1]
        digit = -1
        while next_choice < size:
            digit = allowed[first + next_choice] if kind == TRY else roots[first + next_choice]
            if not distinct or (mask >> digit) & 1 == 0:
                if kind == SOLVE or steps[level, 5] < 0:
                    break
                # a Try whose Solve comes next: the digit only if that Solve then has a digit left to
                # give, its digits set here (read off the corners: the Solve evaluates nothing)
                solve = level + steps[level, 5]
                key = (steps[solve, 4] + (corners[solve, 2] + digit * corners[solve, 3]) % base * base
                       + (corners[solve, 0] + digit * corners[solve, 1]) % base)
                without = mask | (1 << digit) if distinct else 0
                root = root_starts[key]
                while root < root_starts[key] + root_sizes[key] and (without >> roots[root]) & 1:
                    root += 1
                if root < root_starts[key] + root_sizes[key]:
                    choices[solve, 0], choices[solve, 1] = root_starts[key], root_sizes[key]
                    break
            next_choice += 1
        if next_choice == size:
            position[level] = -1
            level -= 1
            continue
        position[level] = next_choice
        digits[letter] = digit
        for use in range(uses[letter], uses[letter + 1]):
            word, weight = use_words[use], use_weights[use]
            now[word, DIGITS] += digit * weight
            now[word, LEAST] += (digit - least[letter]) * weight
            now[word, GREATEST] += (digit - greatest[letter]) * weight
            now[word, UNSET] -= weight
        if distinct:
            mask |= 1 << digit
        taken += 1
        level += 1
    state[0], state[1], state[2] = level, taken, mask
    return status


@dataclass
class KernelPlan:
    """The plan as the arrays `search_plan` reads (its docstring and the module's say what each holds)."""

    steps: Any  # a row per step: kind, letter, first (Try) or equation, count (Try) or column, root table (Solve),
    # and a Try's Solve (rows on) or a Solve's Try (its letter) evaluated together, or -1 (see `search_plan`)
    equations: Any  # a row per equation: its programs' bounds, then at 4 + k whether column k's congruence reduces
    ops: Any  # the programs: operation, word or constant or exponent, the word's shift
    cells: Any  # each word's letters, units first: a letter's index, or -1 - digit for a literal digit
    starts: Any
    lengths: Any
    allowed: Any  # the digits each Try gives its letter, one run a step
    roots: Any  # the tables of `root_table`, one a set of digits, their keys offset by each table's start
    root_starts: Any
    root_sizes: Any
    uses: Any  # where each letter's places in whole words start in use_words and use_weights (and end)
    use_words: Any
    use_weights: Any
    now: Any  # each word's running totals before any letter has a digit: literal digits, least, greatest, weights
    least: Any  # each letter's least and greatest digit
    greatest: Any
    powers: Any  # base**k, for k up to the furthest column
    base: int
    distinct: bool
    letters: list[str]
    depth: int  # the stack the longest program needs


class NotKernel(ValueError):
    """The plan needs something `search_plan` does not do exactly (it runs on arrays instead)."""


def kernel_plan(problem: Problem, steps: list[Step]) -> KernelPlan:
    """The plan as `search_plan`'s arrays; `NotKernel`, saying why, where it does not fit (the module
    says what fits)."""
    return _Encoder(problem).encode(steps)


class _Encoder:
    """Writes a plan's steps, equations and words into rows of integers, checking every bound."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.base = problem.rules.base
        self.letters = sorted(problem.letters)
        self.index = {letter: position for position, letter in enumerate(self.letters)}
        self.rows: list[list[int]] = []
        self.equation_rows: list[list[int]] = []
        self.equation_index: dict[tuple[int, int], int] = {}  # by ids of an equation's sides: its row
        self.reducing: dict[tuple[int, int], bool] = {}  # by ids of an equation's sides: whether any column reduces
        self.ops: list[tuple[int, int, int]] = []
        self.cells: list[int] = []
        self.starts: list[int] = []
        self.lengths: list[int] = []
        self.allowed: list[int] = []
        self.tables: dict[tuple[int, ...], int] = {}
        self.roots: list[int] = []
        self.root_starts: list[int] = []
        self.root_sizes: list[int] = []
        self.depth = 1
        self.columns = 1  # the furthest column a step reads
        self.ranged: dict[int, bool] = {}  # by id of equation: whether its range cuts are made
        self.least = [min(problem.allowed[letter], default=0) for letter in self.letters]
        self.greatest = [max(problem.allowed[letter], default=0) for letter in self.letters]
        self.places: dict[int, list[tuple[int, int]]] = {}  # by letter: its (word, weight) in whole words
        self.totals: list[tuple[int, int, int, int]] = []  # by word: its running totals before any digit
        self.tried: tuple[int, str] | None = None  # the last step that gave a letter digits, if a Try: its row, letter

    def encode(self, steps: list[Step]) -> KernelPlan:
        if self.problem.distinctness == "some" or self.base > 62:
            raise NotKernel("distinct groups, or a base past a mask's bits")
        for step in steps:
            self._step(step)
        width = max((len(row) for row in self.equation_rows), default=4)
        equations = np.array([row + [0] * (width - len(row)) for row in self.equation_rows] or [[0] * width], np.int64)

        uses, use_words, use_weights = [0], [], []
        for letter in range(len(self.letters)):
            for word, weight in self.places.get(letter, []):
                use_words.append(word)
                use_weights.append(weight)
            uses.append(len(use_words))

        def array(values: list[int]) -> Any:
            return np.array(values or [0], np.int64)
        return KernelPlan(np.array(self.rows, np.int64).reshape(len(self.rows), 6), equations,
                          np.array(self.ops or [(CONSTANT, 0, 0)], np.int64).reshape(-1, 3), array(self.cells),
                          array(self.starts), array(self.lengths), array(self.allowed), array(self.roots),
                          array(self.root_starts), array(self.root_sizes), array(uses), array(use_words),
                          array(use_weights), np.array(self.totals or [(0, 0, 0, 0)], np.int64).reshape(-1, 4),
                          array(self.least), array(self.greatest),
                          np.array([self.base ** k for k in range(max(2, self.columns + 1))], np.int64), self.base,
                          self.problem.distinctness == "all", self.letters, self.depth)

    def _step(self, step: Step) -> None:
        if isinstance(step, Try):
            digits = sorted(self.problem.allowed[step.letter])
            self.tried = (len(self.rows), step.letter)
            self.rows.append([TRY, self.index[step.letter], len(self.allowed), len(digits), 0, -1])
            self.allowed += digits
        elif isinstance(step, Solve):
            table = self._table(tuple(sorted(self.problem.allowed[step.letter])))
            row = [SOLVE, self.index[step.letter], self._equation(step.equation, step.column), step.column, table, -1]
            if self.tried is not None and step.equation.first_linear(self.tried[1], step.column):  # `search_plan`
                self.rows[self.tried[0]][5] = len(self.rows) - self.tried[0]
                row[5] = self.index[self.tried[1]]
            self.tried = None
            self.rows.append(row)
        elif isinstance(step, Congruence):
            self.rows.append([CONGRUENCE, -1, self._equation(step.equation, step.column), step.column, 0, -1])
        elif isinstance(step, RangeCut):
            if id(step.equation) not in self.ranged:  # its values below 2**62 (else no cut, as on arrays)
                self.ranged[id(step.equation)] = all((magnitude(side, self.problem) or SAFE) < SAFE
                                                     for side in (step.equation.left, step.equation.right))
            if self.ranged[id(step.equation)]:
                self.rows.append([RANGE, -1, self._equation(step.equation, 0), 0, 0, -1])
        elif isinstance(step, Holds):
            relation = step.constraint.ops[0] if isinstance(step.constraint, Compare) else ""
            self.rows.append([HOLDS, -1, self._holds(step.constraint), RELATIONS.get(relation, -1), 0, -1])

    def _equation(self, equation: WordEquation, column: int) -> int:
        """The equation's row (written once): its programs' bounds, 0, then for each column k up to
        the steps' furthest whether its congruence reduces each operation modulo base**k (where the
        values could pass 2**62, by arrays.py's bound)."""
        if column and self.base ** column > LARGEST_MODULUS:
            raise NotKernel("a column's modulus too large for int64 arithmetic")
        self.columns = max(self.columns, column)
        key = (id(equation.left), id(equation.right))
        if key not in self.equation_index:
            self.equation_index[key] = len(self.equation_rows)
            self.equation_rows.append([*self._programs(equation.left, equation.right, equation), 0])
            # the bound grows with k: below 2**62 in the last column, no column's congruence reduces
            self.reducing[key] = self._truncated(equation, equation.length) >= SAFE
        row = self.equation_rows[self.equation_index[key]]
        for k in range(len(row) - 4, column + 1):
            row.append(int(self.reducing[key] and self._truncated(equation, k) >= SAFE))
        return self.equation_index[key]

    def _truncated(self, equation: WordEquation, k: int) -> int:
        return sum(truncated_bound(side, equation, k, self.problem) for side in (equation.left, equation.right))

    def _holds(self, constraint: Expr) -> int:
        """The row of a constraint checked exactly: a comparison of polynomials below the bound."""
        if not (isinstance(constraint, Compare) and len(constraint.ops) == 1 and constraint.ops[0] in RELATIONS):
            raise NotKernel("a constraint other than one comparison")
        left, right = constraint.operands
        if any((magnitude(side, self.problem) or SAFE) >= SAFE for side in (left, right)):
            raise NotKernel("values past 2**62, or not a polynomial")
        written = self.equation_index.get((id(left), id(right)))
        if written is not None:  # the equation's row, written for its columns, serves for its exact check (k = 0)
            return written
        self.equation_rows.append([*self._programs(left, right, None), 0])
        return len(self.equation_rows) - 1

    def _programs(self, left: Expr, right: Expr, equation: WordEquation | None) -> list[int]:
        bounds = []
        for side in (left, right):
            begin = len(self.ops)
            depth = self._program(side, equation)
            self.depth = max(self.depth, depth)
            bounds += [begin, len(self.ops)]
        return bounds

    def _program(self, node: Expr, equation: WordEquation | None) -> int:
        """Append the node's operations (postfix); returns the stack depth they need."""
        if isinstance(node, Word):
            self.ops.append((WORD, self._word(node.letters), equation.shifts[id(node)] if equation else 0))
            return 1
        if isinstance(node, Number):
            if node.value.denominator != 1 or abs(node.value) >= SAFE:
                raise NotKernel("a constant past int64, or not an integer")
            self.ops.append((CONSTANT, int(node.value), 0))
            return 1
        if isinstance(node, Unary) and node.op in ("-", "+"):
            depth = self._program(node.operand, equation)
            if node.op == "-":
                self.ops.append((NEGATE, 0, 0))
            return depth
        if isinstance(node, BinOp) and node.op == "**":
            exponent = self.problem.constant_exponents.get(node)
            if exponent is None or exponent.denominator != 1 or not 0 <= exponent <= 64:
                raise NotKernel("a power other than a small constant one")
            depth = self._program(node.left, equation)
            self.ops.append((POWER, int(exponent), 0))
            return depth
        if isinstance(node, BinOp) and node.op in OPERATIONS:
            left = self._program(node.left, equation)
            right = self._program(node.right, equation)
            self.ops.append((OPERATIONS[node.op], 0, 0))
            return max(left, right + 1)
        raise NotKernel("an operation other than + - * and constant powers")

    def _word(self, letters: str) -> int:
        """A word's cells, and, where its value fits (below 2**62), its places for the running totals."""
        number = len(self.starts)
        self.starts.append(len(self.cells))
        self.lengths.append(len(letters))
        self.cells += [-1 - int(char) if char.isdigit() else self.index[char] for char in reversed(letters)]
        totals = [0, 0, 0, 0]
        if self.base ** len(letters) < SAFE:
            weight = 1
            for char in reversed(letters):
                if char.isdigit():
                    totals[DIGITS] += int(char) * weight
                    totals[LEAST] += int(char) * weight
                    totals[GREATEST] += int(char) * weight
                else:
                    position = self.index[char]
                    totals[LEAST] += self.least[position] * weight
                    totals[GREATEST] += self.greatest[position] * weight
                    totals[UNSET] += weight
                    self.places.setdefault(position, []).append((number, weight))
                weight *= self.base
        self.totals.append((totals[0], totals[1], totals[2], totals[3]))
        return number

    def _table(self, digits: tuple[int, ...]) -> int:
        """The offset of the keys of this set of digits' root table (made once a set)."""
        if digits not in self.tables:
            flat, starts, sizes = root_lists(digits, self.base)
            self.tables[digits] = len(self.root_starts)
            offset = len(self.roots)
            self.root_starts += [start + offset for start in starts]
            self.root_sizes += sizes
            self.roots += flat
        return self.tables[digits]


@functools.cache
def root_lists(digits: tuple[int, ...], base: int) -> tuple[list[int], list[int], list[int]]:
    """`root_table` as lists: the roots flattened, where each key's start, how many it has."""
    flat, sizes = root_table(digits, base)
    return flat.tolist(), (np.cumsum(sizes) - sizes).tolist(), sizes.tolist()


OPERATIONS = {"+": ADD, "-": SUBTRACT, "*": MULTIPLY}
RELATIONS = {"==": 0, "!=": 1, "<": 2, "<=": 3, ">": 4, ">=": 5}  # a HOLDS step's column 3

BUDGET = 1 << 13  # steps between two looks at the clock and the stop flag (about a millisecond compiled)
CAPACITY = 256  # solutions the search writes before the caller drains them

Scan = Callable[[list[tuple[int, ...]]], Generator[int, None, int]]


def kernel_scan(plan: KernelPlan, search: Callable[..., int]) -> Scan:
    """The plan run by `search` (search_plan, compiled or not) with the generated loops' protocol:
    each solution's digits appended to `hits`, the steps taken so far yielded between runs of at
    most BUDGET steps, their number returned at the end."""

    def run(hits: list[tuple[int, ...]]) -> Generator[int, None, int]:
        size, width = max(1, len(plan.steps)), len(plan.letters)
        state = np.zeros(4, np.int64)
        position, choices = np.full(size, -1, np.int64), np.zeros((size, 2), np.int64)
        digits, now = np.zeros(width, np.int64), plan.now.copy()
        stack, found = np.zeros(plan.depth + 1, np.int64), np.zeros((CAPACITY, width), np.int64)
        corners = np.zeros((size, 4), np.int64)
        while True:
            status = search(plan.steps, plan.equations, plan.ops, plan.cells, plan.starts, plan.lengths, plan.allowed,
                            plan.roots, plan.root_starts, plan.root_sizes, plan.uses, plan.use_words, plan.use_weights,
                            plan.least, plan.greatest, plan.powers, bool(plan.distinct), state, position, choices,
                            digits, now, stack, found, corners, BUDGET)
            if state[3]:
                hits.extend(tuple(row) for row in found[:state[3]].tolist())
                state[3] = 0
            if status == FINISHED:
                return int(state[1])
            yield int(state[1])
    return run


@functools.cache
def load() -> Callable[..., int]:
    """`search_plan` compiled by numba (or loaded from its cache), once a process. Ctrl-C waits
    until it is done (see `engine.sums.compiled.interrupts_held`)."""
    from smtcrypt.engine.sums.compiled import interrupts_held, jit

    with interrupts_held():
        search = jit(search_plan, error_model="numpy")  # no check of a divisor: none is 0
        one, pair = np.zeros(1, np.int64), np.zeros((1, 2), np.int64)  # the argument types of every later call
        search(np.zeros((0, 6), np.int64), np.zeros((1, 5), np.int64), np.zeros((1, 3), np.int64), one, one, one,
               one, one, one, one, one, one, one, one, one, np.array([1, 10], np.int64), True,
               np.zeros(4, np.int64), one, pair, one, np.zeros((1, 4), np.int64), one, np.zeros((1, 1), np.int64),
               np.zeros((1, 4), np.int64), BUDGET)
    return search
