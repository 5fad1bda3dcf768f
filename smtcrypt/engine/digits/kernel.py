"""The plan's executable form, a table of integers, and the one function that walks it depth first.

The plan (plan.py) becomes data: a row per step, each side of each equation a short program for
a stack machine, each word's cells, the digits each letter may take, the tables of roots. One
function, `search_plan`, written in the subset of Python that numba compiles, walks the steps. It
runs two ways, step for step alike: as plain Python on lists of ints (no numpy, no numba: the
browser's path), or compiled by numba on int64 arrays where the table fits them (`Machine.int64`:
a base of at most 62, every column's modulus below 3 * 10**9 and every number below 2**62, so
that no intermediate overflows). Which runs is the caller's choice (`Executor`, in `Means`).

The stack machine computes integers: the equations' columns (`Congruence`; `Solve`, whose letter's
digits a table of the roots of `c * x = t (mod base)` lists), the sides' ranges (`RangeCut`) and a
comparison of two polynomials below 2**62 (`A * B = C`, `A < B`). Any other constraint (a quotient,
a call, `or`, a larger value) the host checks: the walk stops at it with CHECK, the host evaluates
it with the compiled formula's code (compiled.py: exact, a zero divisor fails the candidate) and
writes the verdict into the memory. The walk also stops after a budget of steps or with its buffer
of solutions full, its place kept in the memory, so that the caller can read the clock, drain the
solutions and go on.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from smtcrypt.analysis.bounds import polynomial_bound
from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, Compare, Expr, Number, Unary, Word
from smtcrypt.engine.compiled import define_scan
from smtcrypt.engine.compiled_writer import NotCompilable, Writer
from smtcrypt.engine.digits.equations import WordEquation
from smtcrypt.engine.digits.plan import Congruence, Holds, RangeCut, Solve, Step, Try

__all__ = ["Machine", "NotCompilable", "encode", "load", "projected", "scan", "search_plan"]

# step kinds (a step row's first cell); a step row is STEP cells: kind, letter, then by kind (see `_Encoder._step`)
TRY, SOLVE, CONGRUENCE, RANGE, HOLDS = 0, 1, 2, 3, 4  # TRY and SOLVE first: `kind <= SOLVE` gives digits
STEP = 7
HOST = -1  # a HOLDS step's relation where the host checks the constraint
# a relation as bits of the outcomes it admits: 1 left below right, 2 equal, 4 above
RELATIONS = MappingProxyType({"<": 1, "==": 2, "<=": 3, ">": 4, "!=": 5, ">=": 6})
# stack machine operations (an operation is 3 cells: operation, word or constant or exponent, the word's shift)
WORD, CONSTANT, ADD, SUBTRACT, MULTIPLY, NEGATE, POWER = 0, 1, 2, 3, 4, 5, 6
OPERATIONS = MappingProxyType({"+": ADD, "-": SUBTRACT, "*": MULTIPLY})
# a whole word's running totals (4 cells): letters without a digit as 0, at their least, greatest; the weights
# of its places without a digit
DIGITS, LEAST, GREATEST, UNSET = 0, 1, 2, 3
# what `search_plan` returns
FINISHED, BUDGET_SPENT, BUFFER_FULL, CHECK = 0, 1, 2, 3

# the table's header: where each part starts, then numbers; then the parts
(STEPS, EQUATIONS, OPS, ROOTS, ROOT_STARTS, ROOT_SIZES, USES, USE_WORDS, USE_WEIGHTS, LEAST_DIGIT, GREATEST_DIGIT,
 POWERS, GROUP_USES, GROUP_IDS, BASE, COUNT, WIDTH, LETTERS, WHOLE) = range(19)
HEADER = 19
# the memory's header: the walk's state, then where each part starts
(POSITION, CHOICES, CORNERS, DIGIT_AT, NOW, STACK, OTHER, MASKS, FOUND, LEVEL, TAKEN, HITS, VERDICT,
 CAPACITY_AT) = range(14)
MEMORY_HEADER = 14

SAFE = 1 << 62  # bound on any value the machine computes exactly in int64
LARGEST_MODULUS = 3_000_000_000  # M with M * M < 2**63: a congruence's arithmetic cannot overflow int64
BUDGET = 1 << 13  # steps between two looks at the clock and the stop flag (about a millisecond compiled)
PLAIN_BUDGET = 1 << 6  # the same, walked as plain Python (a few milliseconds)
CAPACITY = 256  # solutions the walk writes before the caller drains them

Table = Any  # a list of ints (plain), or an int64 numpy array (compiled)
Scan = Callable[[list[tuple[int, ...]]], Generator[int, None, int]]


def search_plan(table: Table, memory: Table, budget: int) -> int:  # noqa: C901, PLR0912, PLR0915
    """Walk the plan from where the memory says, for at most `budget` more steps, writing each
    solution's digits (letters alphabetically) into a row of the memory's FOUND. Returns FINISHED,
    BUDGET_SPENT, BUFFER_FULL or CHECK, its state kept in the memory to go on.

    memory[POSITION + i] is -1 where step i is to be entered, else the index of its current choice
    among (first, count) at CHOICES + 2i of the table's ROOTS (a Try's digits, or a Solve's roots). NOW holds
    each whole word's running totals as letters get and lose digits (USES: each letter's words and
    weights); MASKS the digits taken in each group of letters that must differ (GROUP_USES).

    The stack machine evaluates each side once for two values where it needs four (STACK and
    OTHER: a Solve's letter at 0 and at 1, a range cut's least and greatest): a word is read off
    its running totals where whole (k = 0), else cut to its last k digits.

    A Try whose letter x is first met, linearly, in the column k of the Solve that follows (the
    Try's cell 5: how many rows on) evaluates that Solve once for all of x's digits: the sides'
    differences at x = 0 and 1 give column k's digit and slope, each c + x * d modulo the base, into
    CORNERS; at each digit of x the Try reads the Solve's digits off them, and gives no digit that
    leaves the Solve none.

    One function, without calls: numba passes each array to a function it calls with a reference
    count, which cost more than the search itself."""
    base, steps, count, equations, width = table[BASE], table[STEPS], table[COUNT], table[EQUATIONS], table[WIDTH]
    ops, roots, root_starts, root_sizes = table[OPS], table[ROOTS], table[ROOT_STARTS], table[ROOT_SIZES]
    uses, use_words, use_weights = table[USES], table[USE_WORDS], table[USE_WEIGHTS]
    least, greatest, powers = table[LEAST_DIGIT], table[GREATEST_DIGIT], table[POWERS]
    group_uses, group_ids, letters, whole = table[GROUP_USES], table[GROUP_IDS], table[LETTERS], table[WHOLE]
    position, choices, corners, digits = memory[POSITION], memory[CHOICES], memory[CORNERS], memory[DIGIT_AT]
    now, stack, other, masks, found = memory[NOW], memory[STACK], memory[OTHER], memory[MASKS], memory[FOUND]
    level = memory[LEVEL]
    taken = memory[TAKEN]
    stop = taken + budget
    status = FINISHED
    while level >= 0:
        if level == count:  # every step passed: a solution
            row = found + memory[HITS] * letters
            for letter in range(letters):
                memory[row + letter] = memory[digits + letter]
            memory[HITS] += 1
            level -= 1
            if memory[HITS] == memory[CAPACITY_AT]:
                status = BUFFER_FULL
                break
            continue
        step = steps + level * STEP
        kind = table[step]
        letter = table[step + 1]
        entering = memory[position + level] < 0
        if not entering and kind > SOLVE:  # back from the steps after a check it passed
            memory[position + level] = -1
            level -= 1
            continue
        if not entering:  # back from the steps after a Try or Solve: its letter's digit taken back
            digit = memory[digits + letter]
            for use in range(table[uses + letter], table[uses + letter + 1]):
                word, weight = now + 4 * table[use_words + use], table[use_weights + use]
                memory[word + DIGITS] -= digit * weight
                memory[word + LEAST] -= (digit - table[least + letter]) * weight
                memory[word + GREATEST] -= (digit - table[greatest + letter]) * weight
                memory[word + UNSET] += weight
            for group in range(table[group_uses + letter], table[group_uses + letter + 1]):
                memory[masks + table[group_ids + group]] ^= 1 << digit
        elif kind <= SOLVE:  # a Try or a Solve entered
            if taken >= stop:
                status = BUDGET_SPENT
                break
            if kind == TRY:
                memory[choices + 2 * level], memory[choices + 2 * level + 1] = table[step + 2], table[step + 3]
        elif kind == HOLDS and table[step + 3] == HOST:  # the host's verdict, once it has given it
            if memory[VERDICT] < 0:
                status = CHECK
                break
            passed = memory[VERDICT] > 0
            memory[VERDICT] = -1
        if entering and (kind == TRY) == (table[step + 5] >= 0) and table[step + 3] != HOST:
            # a check, a Solve its Try did not pair with, or a Try's paired Solve: evaluate the programs
            target = level + table[step + 5] if kind == TRY else level  # the step whose equation is evaluated
            row = steps + target * STEP
            equation = equations + table[row + 2] * width
            k = table[row + 3] if kind != RANGE and kind != HOLDS else 0
            modulus = table[powers + k] if k > 0 and table[equation + 4 + k] else 0
            paired = kind != HOLDS and kind != CONGRUENCE  # two values a side, in one pass: STACK and OTHER
            solving = table[row + 1] if kind <= SOLVE else -1
            varied = letter if kind == TRY else -1  # the Try's letter, at 0 and then at 1
            lowest, highest = 0, base - 1  # the least and greatest digit not taken (any, unless every letter differs)
            if kind == RANGE and whole:
                taken_digits = memory[masks]
                while lowest < base - 1 and (taken_digits >> lowest) & 1:
                    lowest += 1
                while highest > 0 and (taken_digits >> highest) & 1:
                    highest -= 1
            left = right = left_other = right_other = 0
            for at in range(2 if kind == TRY else 1):
                for side in range(2):
                    first_reading = DIGITS if kind != RANGE else GREATEST if side == 0 else LEAST
                    second_reading = LEAST if side == 0 else GREATEST  # a range cut's
                    top = 0
                    for index in range(table[equation + 2 * side], table[equation + 2 * side + 1]):
                        operation = ops + 3 * index
                        op = table[operation]
                        if op == WORD:
                            word = table[operation + 1]
                            totals = now + 4 * word
                            if k == 0:
                                first, second = memory[totals + first_reading], memory[totals + second_reading]
                                if kind == RANGE:  # no place without a digit above the greatest digit free, nor below
                                    low = memory[totals + DIGITS] + lowest * memory[totals + UNSET]  # the least
                                    high = memory[totals + DIGITS] + highest * memory[totals + UNSET]
                                    if side == 0:
                                        first, second = min(first, high), max(second, low)
                                    else:
                                        first, second = max(first, low), min(second, high)
                                memory[stack + top], memory[other + top] = first, second
                            else:  # its last digits, the letter solved at 0 (STACK) and at 1 (OTHER: `lift` more)
                                limit = table[powers + max(0, k - table[operation + 2])]
                                total = memory[totals + DIGITS] % limit  # the rest have digits (see the plan)
                                lift = 0
                                if solving >= 0:
                                    for use in range(table[uses + solving], table[uses + solving + 1]):
                                        if table[use_words + use] == word and table[use_weights + use] < limit:
                                            lift += table[use_weights + use]
                                if varied >= 0:
                                    for use in range(table[uses + varied], table[uses + varied + 1]):
                                        if table[use_words + use] == word and table[use_weights + use] < limit:
                                            total += at * table[use_weights + use]
                                memory[stack + top], memory[other + top] = total, total + lift
                            top += 1
                        elif op == CONSTANT:
                            constant = table[operation + 1] % modulus if modulus else table[operation + 1]
                            memory[stack + top], memory[other + top] = constant, constant
                            top += 1
                        elif op == NEGATE:
                            memory[stack + top - 1] = -memory[stack + top - 1]
                            memory[other + top - 1] = -memory[other + top - 1]
                        elif op == POWER and not modulus:
                            memory[stack + top - 1] = memory[stack + top - 1] ** table[operation + 1]
                            memory[other + top - 1] = memory[other + top - 1] ** table[operation + 1]
                        elif op == POWER:  # each product reduced, so that none overflows
                            result = 1
                            second = 1
                            for _ in range(table[operation + 1]):
                                result = result * memory[stack + top - 1] % modulus
                                second = second * memory[other + top - 1] % modulus
                            memory[stack + top - 1], memory[other + top - 1] = result, second
                        else:
                            top -= 1
                            below_first, below_second = memory[stack + top - 1], memory[other + top - 1]
                            if op == ADD:
                                result = below_first + memory[stack + top]
                                second = below_second + memory[other + top]
                            elif op == SUBTRACT:
                                result = below_first - memory[stack + top]
                                second = below_second - memory[other + top]
                            else:
                                result = below_first * memory[stack + top]
                                second = below_second * memory[other + top] if paired else 0
                            memory[stack + top - 1] = result % modulus if modulus else result
                            memory[other + top - 1] = second % modulus if modulus else second
                    if side == 0:
                        left, left_other = memory[stack], memory[other]
                    else:
                        right, right_other = memory[stack], memory[other]
                if kind == TRY:  # the differences at x = at: the Solve's letter at 0, at 1
                    corner = corners + 4 * target + 2 * at
                    memory[corner] = (left - right) % table[powers + k]
                    memory[corner + 1] = (left_other - right_other) % table[powers + k]
            if kind == TRY:  # column k's digit of the difference, less, and its slope, each of x: c + x * d
                corner, power, below = corners + 4 * target, table[powers + k], table[powers + k - 1]
                at_zero, at_one = memory[corner], memory[corner + 1]
                moved, turned = memory[corner + 2] - at_zero, memory[corner + 3] - memory[corner + 2] - at_one + at_zero
                memory[corner] = (-(at_zero // below)) % base
                memory[corner + 1] = (-(moved % power // below)) % base
                memory[corner + 2] = (at_one - at_zero) % power // below
                memory[corner + 3] = turned % power // below
            if kind == SOLVE:  # the digits x with c * x + t = 0 (mod base) in column k
                power, below = table[powers + k], table[powers + k - 1]
                at_zero = (left - right) % power
                slope = ((left_other - right_other) % power - at_zero) % power // below
                key = table[step + 4] + slope * base + (-(at_zero // below)) % base
                memory[choices + 2 * level] = table[root_starts + key]
                memory[choices + 2 * level + 1] = table[root_sizes + key]
            elif kind != TRY:
                if kind == CONGRUENCE:
                    passed = (left - right) % table[powers + k] == 0
                elif kind == RANGE:  # the sides' ranges meet
                    passed = left >= right and left_other <= right_other
                else:  # HOLDS: the sides compared as the constraint says (RELATIONS)
                    passed = table[step + 3] >> (0 if left < right else 1 if left == right else 2) & 1 == 1
        if kind > SOLVE:  # a check entered: on to the next step if it passed, else back
            if passed:
                memory[position + level] = 0
                level += 1
            else:
                level -= 1
            continue
        # a Try or Solve: its letter's next digit, if any
        next_choice = 0 if entering else memory[position + level] + 1
        first, size = memory[choices + 2 * level], memory[choices + 2 * level + 1]
        digit = -1
        while next_choice < size:
            digit = table[roots + first + next_choice]
            if whole:  # one group of every letter: one mask
                free = (memory[masks] >> digit) & 1 == 0
            else:
                free = True
                for group in range(table[group_uses + letter], table[group_uses + letter + 1]):
                    if (memory[masks + table[group_ids + group]] >> digit) & 1:
                        free = False
                        break
            if free:
                if kind == SOLVE or table[step + 5] < 0:
                    break
                # a Try whose Solve comes next: the digit only if that Solve then has a digit left to
                # give, its digits set here (read off the corners: the Solve evaluates nothing)
                solve = level + table[step + 5]
                row, corner = steps + solve * STEP, corners + 4 * solve
                key = (table[row + 4] + (memory[corner + 2] + digit * memory[corner + 3]) % base * base
                       + (memory[corner] + digit * memory[corner + 1]) % base)
                solved, root = table[row + 1], table[root_starts + key]
                end = root + table[root_sizes + key]
                while root < end:
                    candidate = table[roots + root]
                    busy = candidate == digit and table[row + 6] == 1  # the Solve's letter must differ from the Try's
                    for group in range(table[group_uses + solved], table[group_uses + solved + 1]):
                        if (memory[masks + table[group_ids + group]] >> candidate) & 1:
                            busy = True
                            break
                    if not busy:
                        break
                    root += 1
                if root < end:
                    memory[choices + 2 * solve] = table[root_starts + key]
                    memory[choices + 2 * solve + 1] = table[root_sizes + key]
                    break
            next_choice += 1
        if next_choice == size:
            memory[position + level] = -1
            level -= 1
            continue
        memory[position + level] = next_choice
        memory[digits + letter] = digit
        for use in range(table[uses + letter], table[uses + letter + 1]):
            word, weight = now + 4 * table[use_words + use], table[use_weights + use]
            memory[word + DIGITS] += digit * weight
            memory[word + LEAST] += (digit - table[least + letter]) * weight
            memory[word + GREATEST] += (digit - table[greatest + letter]) * weight
            memory[word + UNSET] -= weight
        for group in range(table[group_uses + letter], table[group_uses + letter + 1]):
            memory[masks + table[group_ids + group]] |= 1 << digit
        taken += 1
        level += 1
    memory[LEVEL] = level
    memory[TAKEN] = taken
    return status


@dataclass
class Machine:
    """The plan as `search_plan`'s table, with what the host keeps: the letters, the memory's size,
    the constraints it checks itself (by a HOLDS step's cell 4) and whether int64 holds the table."""

    table: list[int]
    letters: list[str]
    memory: list[int]  # the memory before the walk, with room for CAPACITY solutions
    checks: list[Callable[[list[int]], bool]] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # the checks' generated code, for tests and the curious
    int64: bool = True
    _arrays: Any = None  # the table as an int64 array, once made

    def arrays(self, memory: Table) -> tuple[Any, Any]:
        """The table and the memory as int64 arrays, for the compiled walk."""
        import numpy as np  # only where the compiled walk runs

        if self._arrays is None:
            self._arrays = np.array(self.table, np.int64)
        return self._arrays, np.array(memory, np.int64)


def encode(problem: Problem, steps: list[Step]) -> Machine:
    """The plan as a table; `NotCompilable` where the host cannot compile a constraint it checks."""
    return _Encoder(problem).encode(steps)


class _Encoder:
    """Writes a plan's steps, equations and words into rows of integers, noting whether int64 holds them."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.base = problem.rules.base
        self.letters = sorted(problem.letters)
        self.index = {letter: position for position, letter in enumerate(self.letters)}
        self.rows: list[int] = []
        self.equation_rows: list[list[int]] = []
        self.equation_index: dict[tuple[int, int], int] = {}  # by ids of an equation's sides: its row
        self.ops: list[int] = []
        self.tables: dict[tuple[int, ...], int] = {}
        self.roots: list[int] = []
        self.root_starts: list[int] = []
        self.root_sizes: list[int] = []
        self.depth = 1
        self.columns = 1  # the furthest column a step reads
        self.least = [min(problem.allowed[letter], default=0) for letter in self.letters]
        self.greatest = [max(problem.allowed[letter], default=0) for letter in self.letters]
        self.places: dict[int, list[tuple[int, int]]] = {}  # by letter: its (word, weight) in whole words
        self.totals: list[int] = []  # by word: its running totals before any digit
        self.tried: tuple[int, str] | None = None  # the last step that gave a letter digits, if a Try: its row, letter
        self.checks: list[Callable[[list[int]], bool]] = []
        self.sources: list[str] = []
        self.groups = [[number for number, group in enumerate(problem.groups) if letter in group]
                       for letter in self.letters]

    def encode(self, steps: list[Step]) -> Machine:
        for step in steps:
            self._step(step)
        width = 4 + self.columns + 1
        equations = [cell for row in self.equation_rows for cell in row + [0] * (width - len(row))]
        places = [self.places.get(letter, []) for letter in range(len(self.letters))]  # CSR: offsets, then the rows
        parts = [self.rows, equations, self.ops, self.roots, self.root_starts, self.root_sizes,
                 [0, *itertools.accumulate(map(len, places))], [word for row in places for word, _ in row],
                 [weight for row in places for _, weight in row], self.least, self.greatest,
                 [self.base ** k for k in range(self.columns + 1)], [0, *itertools.accumulate(map(len, self.groups))],
                 [group for groups in self.groups for group in groups]]
        table = [0] * BASE + [self.base, len(self.rows) // STEP, width, len(self.letters),
                              int(self.problem.distinctness == "all")]
        for at, part in enumerate(parts):  # in the header's order
            table[at] = len(table)
            table += part
        memory = self._memory(table[COUNT], len(self.problem.groups))
        fits = (self.base <= 62 and self.base ** self.columns <= LARGEST_MODULUS
                and min(table) > -SAFE and max(table) < SAFE and max(self.totals, default=0) < SAFE)
        return Machine(table, self.letters, memory, self.checks, self.sources, fits)

    def _memory(self, count: int, groups: int) -> list[int]:
        """The memory before the walk: every step to be entered, each word's totals before any digit."""
        parts = [[-1] * count, [0] * 2 * count, [0] * 4 * count, [0] * len(self.letters), self.totals,
                 [0] * (self.depth + 1), [0] * (self.depth + 1), [0] * groups, [0] * CAPACITY * len(self.letters)]
        memory = [0] * LEVEL + [0, 0, 0, -1, CAPACITY]  # LEVEL, TAKEN, HITS, VERDICT, CAPACITY_AT
        for at, part in enumerate(parts):  # in the header's order
            memory[at] = len(memory)
            memory += part
        return memory

    def _step(self, step: Step) -> None:
        """A row: TRY, letter, its first digit in ROOTS, how many, 0, how many rows on its paired Solve
        is (or -1), 0; SOLVE, letter, equation, column, its root table, its paired Try's letter (or -1),
        whether that letter must differ from it; CONGRUENCE, -1, equation, column; RANGE, -1, equation;
        HOLDS, -1, equation (or 0), relation (or HOST), the host's check."""
        if isinstance(step, Try):
            digits = sorted(self.problem.allowed[step.letter])
            self.tried = (len(self.rows), step.letter)
            self.rows += [TRY, self.index[step.letter], len(self.roots), len(digits), 0, -1, 0]
            self.roots += digits
        elif isinstance(step, Solve):
            table = self._table(tuple(sorted(self.problem.allowed[step.letter])))
            equation = self._equation(step.equation, step.column)
            row = [SOLVE, self.index[step.letter], equation, step.column, table, -1, 0]
            if self.tried is not None and step.equation.first_linear(self.tried[1], step.column):  # `search_plan`
                tried = self.index[self.tried[1]]
                self.rows[self.tried[0] + 5] = (len(self.rows) - self.tried[0]) // STEP
                row[5], row[6] = tried, int(bool(set(self.groups[tried]) & set(self.groups[row[1]])))
            self.tried = None
            self.rows += row
        elif isinstance(step, Congruence):
            self.rows += [CONGRUENCE, -1, self._equation(step.equation, step.column), step.column, 0, -1, 0]
        elif isinstance(step, RangeCut):
            if all(self._magnitude(side) < SAFE for side in (step.equation.left, step.equation.right)):  # else no cut
                self.rows += [RANGE, -1, self._equation(step.equation, 0), 0, 0, -1, 0]
        elif isinstance(step, Holds):
            self.rows += self._holds(step.constraint)

    def _magnitude(self, node: Expr) -> int:
        """A bound on every value met evaluating the node whole; SAFE where it is no polynomial."""
        found = polynomial_bound(node, lambda word: self.base ** len(word.letters), self.problem.constant_exponents)
        return SAFE if found is None else found

    def _equation(self, equation: WordEquation, column: int) -> int:
        """The equation's row (written once): its programs' bounds, 0, then for each column k up to
        the steps' furthest whether its congruence reduces each operation modulo base**k (where the
        values could pass 2**62)."""
        self.columns = max(self.columns, column)
        key = (id(equation.left), id(equation.right))
        if key not in self.equation_index:
            self.equation_index[key] = len(self.equation_rows)
            self.equation_rows.append([*self._programs(equation.left, equation.right, equation), 0])
        row = self.equation_rows[self.equation_index[key]]
        for k in range(len(row) - 4, column + 1):
            row.append(int(self._truncated(equation, k) >= SAFE))
        return self.equation_index[key]

    def _truncated(self, equation: WordEquation, k: int) -> int:
        """A bound on every value met evaluating the equation's sides, their words cut to their last k digits."""
        word = lambda node: self.base ** max(0, k - equation.shifts[id(node)])
        return sum(polynomial_bound(side, word, self.problem.constant_exponents) or SAFE
                   for side in (equation.left, equation.right))

    def _holds(self, constraint: Expr) -> list[int]:
        """The row of a constraint checked exactly: by the machine, a comparison of polynomials below the
        bound; else by the host."""
        if isinstance(constraint, Compare) and len(constraint.ops) == 1 and constraint.ops[0] in RELATIONS:
            left, right = constraint.operands
            if self._magnitude(left) < SAFE and self._magnitude(right) < SAFE:
                written = self.equation_index.get((id(left), id(right)))
                if written is None:  # else the equation's row, written for its columns, serves (k = 0)
                    written = len(self.equation_rows)
                    self.equation_rows.append([*self._programs(left, right, None), 0])
                return [HOLDS, -1, written, RELATIONS[constraint.ops[0]], 0, -1, 0]
        self.checks.append(self._host_check(constraint))
        return [HOLDS, -1, 0, HOST, len(self.checks) - 1, -1, 0]

    def _host_check(self, constraint: Expr) -> Callable[[list[int]], bool]:
        """The compiled formula's code for the constraint, on the digits of every letter (alphabetically)."""
        writer = Writer(self.problem, {letter: f"v{index}" for letter, index in self.index.items()})
        test = writer.write(constraint)
        read = "".join(f"v{index}, " for index in range(len(self.letters)))
        source = (f"def _scan(_d):\n    {read}= _d\n    try:\n        return bool({test})\n"
                  "    except ArithmeticError:\n        return False\n")
        check: Callable[[list[int]], bool] = define_scan(source, writer.constants, {"bool": bool}, "<smtcrypt check>")
        self.sources.append(source)
        return check

    def _programs(self, left: Expr, right: Expr, equation: WordEquation | None) -> list[int]:
        bounds = []
        for side in (left, right):
            begin = len(self.ops) // 3
            self.depth = max(self.depth, self._program(side, equation))
            bounds += [begin, len(self.ops) // 3]
        return bounds

    def _program(self, node: Expr, equation: WordEquation | None) -> int:
        """Append the polynomial's operations (postfix); returns the stack depth they need."""
        if isinstance(node, Word):
            self.ops += [WORD, self._word(node.letters), equation.shifts[id(node)] if equation else 0]
            return 1
        if isinstance(node, Number):
            self.ops += [CONSTANT, int(node.value), 0]
            return 1
        if isinstance(node, Unary):
            depth = self._program(node.operand, equation)
            if node.op == "-":
                self.ops += [NEGATE, 0, 0]
            return depth
        assert isinstance(node, BinOp)  # equations.py's `polynomial`, or a side `polynomial_bound` bounds
        if node.op == "**":
            depth = self._program(node.left, equation)
            self.ops += [POWER, int(self.problem.constant_exponents[node]), 0]
            return depth
        left = self._program(node.left, equation)
        right = self._program(node.right, equation)
        self.ops += [OPERATIONS[node.op], 0, 0]
        return max(left, right + 1)

    def _word(self, letters: str) -> int:
        """A word's running totals before any letter has a digit, and its letters' places in it."""
        number = len(self.totals) // 4
        totals = [0, 0, 0, 0]
        weight = 1
        for char in reversed(letters):
            if char.isdigit():
                for at in (DIGITS, LEAST, GREATEST):
                    totals[at] += int(char) * weight
            else:
                position = self.index[char]
                totals[LEAST] += self.least[position] * weight
                totals[GREATEST] += self.greatest[position] * weight
                totals[UNSET] += weight
                self.places.setdefault(position, []).append((number, weight))
            weight *= self.base
        self.totals += totals
        return number

    def _table(self, digits: tuple[int, ...]) -> int:
        """The offset of the keys of this set of digits' root table (made once a set)."""
        if digits not in self.tables:
            flat, sizes = root_table(digits, self.base)
            self.tables[digits] = len(self.root_starts)
            self.root_starts += itertools.accumulate(sizes[:-1], initial=len(self.roots))
            self.root_sizes += sizes
            self.roots += flat
        return self.tables[digits]


@functools.cache
def root_table(digits: tuple[int, ...], base: int) -> tuple[list[int], list[int]]:
    """The digits x with c * x = t (mod base), flattened by key c * base + t, and how many each key has."""
    keyed = [[x for x in digits if (c * x - t) % base == 0] for c in range(base) for t in range(base)]
    return [x for roots in keyed for x in roots], [len(roots) for roots in keyed]


def scan(machine: Machine, compiled: Callable[[], Callable[[Table, Table, int], int]] | None = None,
         hand_over: Callable[[Machine, Table], bool] = lambda machine, memory: True,
         ran: list[str] | None = None) -> Scan:
    """The walk with the protocol the backend drives: each solution's digits appended to `hits` (every
    BUDGET steps or so, at either speed, so that a listing's batches are alike), the steps taken so far
    yielded between runs of about BUDGET steps (PLAIN_BUDGET plain), their number returned at the end.
    `search_plan` runs as plain Python on lists; where `compiled` is given (`load`), it goes on
    compiled on the machine's int64 arrays from the same state as soon as `hand_over(machine,
    memory)` says so, asked before each run. `ran` gets the name of each walk as it starts."""

    def run(hits: list[tuple[int, ...]]) -> Generator[int, None, int]:
        table: Table = machine.table
        memory: Table = list(machine.memory)
        walk: Callable[[Table, Table, int], int] = search_plan
        width, steps, found, looked, handed = len(machine.letters), table[STEPS], memory[FOUND], 0, 0
        pending: list[tuple[int, ...]] = []  # solutions not yet handed to the caller
        while True:
            if walk is search_plan and compiled is not None and hand_over(machine, memory):
                (table, memory), walk = machine.arrays(memory), compiled()  # the compiled walk goes on from here
            if ran is not None and (not ran or ran[-1] != ("plain" if walk is search_plan else "compiled")):
                ran.append("plain" if walk is search_plan else "compiled")
            budget = PLAIN_BUDGET if walk is search_plan else BUDGET
            status = walk(table, memory, budget)
            if memory[HITS]:
                flat = plain(memory[found:found + memory[HITS] * width])
                pending.extend(tuple(flat[at:at + width]) for at in range(0, len(flat), width))
                memory[HITS] = 0
            if status == CHECK:  # the host's check of the constraint at the walk's step
                check = machine.checks[table[steps + memory[LEVEL] * STEP + 4]]
                memory[VERDICT] = int(check(plain(memory[memory[DIGIT_AT]:memory[DIGIT_AT] + width])))
                if memory[TAKEN] - looked < budget:
                    continue
            if status == FINISHED or memory[TAKEN] - handed >= BUDGET:  # in batches of BUDGET steps at either speed
                hits += pending
                pending.clear()
                handed = memory[TAKEN]
            if status == FINISHED:
                return int(memory[TAKEN])
            looked = memory[TAKEN]
            yield int(looked)
    return run


def projected(machine: Machine, memory: Table) -> int | None:
    """The steps the whole walk is likely to take, from the steps taken and the share of the search it
    has passed: the digits behind each Try or Solve on the walk's path, as the share of its choices,
    within the share of the step above (as a tree of equal branches). None while it is on its first
    path, which tells nothing."""
    table = machine.table
    passed, share = Fraction(0), Fraction(1)
    for level in range(min(memory[LEVEL], table[COUNT])):
        at, size = memory[memory[POSITION] + level], memory[memory[CHOICES] + 2 * level + 1]
        if table[table[STEPS] + level * STEP] <= SOLVE and size > 0 and at >= 0:
            passed += share * Fraction(at, size)
            share /= size
    return int(memory[TAKEN] / passed) if passed else None


def plain(values: Sequence[int]) -> list[int]:
    """Python ints, from a list or an int64 array's slice."""
    return values if isinstance(values, list) else values.tolist()  # type: ignore[attr-defined]


@functools.cache
def load() -> Callable[[Table, Table, int], int]:
    """`search_plan` compiled by numba (or loaded from its cache), once a process. Ctrl-C waits
    until it is done (see `engine.sums.compiled.interrupts_held`)."""
    import numpy as np

    from smtcrypt.engine.sums.compiled import interrupts_held, jit

    with interrupts_held():
        search = jit(search_plan, error_model="numpy")  # no check of a divisor: none is 0
        table, memory = np.zeros(HEADER, np.int64), np.zeros(MEMORY_HEADER, np.int64)  # no step: one empty solution
        memory[CAPACITY_AT] = 1
        search(table, memory, BUDGET)  # the argument types of every later call
    return search
