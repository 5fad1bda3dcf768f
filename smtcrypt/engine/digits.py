"""The digits backend: products (any equation of sums, products and powers of words) searched
column by column from the right, as a long multiplication is checked by hand.

The last k digits of a product depend only on the last k digits of its factors, so an equation
whose sides are polynomials in words (`THETA * XI = ETA * NU * PHI`, `ABC ** 2 = ...`, a layout's
partial products) holds modulo base**k as soon as the letters of its last k columns have digits.
The search gives the letters digits column by column, right to left, and cuts every assignment
whose sides differ modulo base**k. Where solutions are rare, few assignments survive a column.

Past the units column a letter first met in column k enters each side linearly modulo base**k
(its square carries base**(2k-2), a multiple of base**k), so each equation solves one letter of
its column instead of trying every digit: with the rest of the column known, `c * x + t = 0
(mod base)`, whose solutions a table lists (one, where c is a unit). In the units column that
holds for a letter of degree one (`... = FREAKY`).

Congruences do not make an equation: each constraint of the formula (each equation in full, and
the inequalities, quotients and rules of a layout) is checked exactly, as the compiled formula
checks it (compiled.py), as soon as its letters all have digits; letters in no such equation are
tried last. Every assignment the rules allow is thus either visited or cut by a congruence it
fails: a bounded search, and its solutions are the exact evaluation's own.

The search is generated as one Python generator of nested loops, a loop per letter (compiled.py
explains why generated code: a step costs a fraction of a microsecond); the code holds only names
it makes (`v3`, `_m2`, `_S4`) and integers it computed, never the formula's text.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.core.check import Problem, constant
from smtcrypt.core.tree import BinOp, Compare, Expr, Number, Unary, Word, walk
from smtcrypt.engine.base import Assignment, Backend, Ending, Proof, SearchEnd
from smtcrypt.engine.compiled import NotCompilable, Writer, define_scan
from smtcrypt.engine.join import conjuncts

NODES_BETWEEN_LOOKS = 4096  # loop steps between two looks at the clock and the stop flag (a power of 2)
FREE_TABLES_UP_TO = 12  # bases whose free digits are looked up by the mask of digits taken (tables of 2**base)
LOOPS_PER_FUNCTION = 16  # nested loops in one generated function: Python refuses more than 20 nested blocks
YIELDED_WHEN_COUNTING = 100  # solutions yielded (for the caller's re-check) before a count goes on in bulk


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


def _has_letters(node: Expr) -> bool:
    return any(isinstance(part, Word) for part in walk(node))


def nonlinear(node: Expr, problem: Problem) -> bool:
    """True if the polynomial multiplies two factors that hold letters, or raises one to a power above one."""
    for part in walk(node):
        if isinstance(part, BinOp) and part.op == "*" and _has_letters(part.left) and _has_letters(part.right):
            return True
        if isinstance(part, BinOp) and part.op == "**" and _has_letters(part.left):
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
class Equation:
    """A constraint `LEFT = RIGHT` between polynomials in words: what the columns check."""

    left: Expr
    right: Expr
    words: list[tuple[str, int]]  # each word's digits as written (letters and literal digits) and its shift
    shifts: dict[int, int]  # by id of the word node

    @property
    def length(self) -> int:
        """Its last column: past it, nothing more to learn modulo base**k."""
        return max(len(word) + shift for word, shift in self.words)

    def column(self, k: int) -> list[str]:
        """The letters in column k (1 = units) of its words, each once, in order."""
        found = [word[-(k - shift)] for word, shift in self.words
                 if 0 < k - shift <= len(word) and not word[-(k - shift)].isdigit()]
        return list(dict.fromkeys(found))

    def solvable(self, letter: str, k: int) -> bool:
        """True if, modulo base**k, the equation is of degree one in the letter (its first column being
        k): then the letter is solved, not tried. Past the units column that holds where the letter's
        words carry a shift of at most k - 2 (the module explains why); anywhere, where the letter
        enters the equation linearly."""
        shifts = [shift for word, shift in self.words if letter in word]
        if k >= 2 + max(shifts):
            return True
        return max(self._degree(self.left, letter, k), self._degree(self.right, letter, k)) == 1

    def _degree(self, node: Expr, letter: str, k: int) -> int:
        """The degree of the letter in the expression (counting only the words where it is in the
        first k columns): a power counted as twice its base's, so never one."""
        if isinstance(node, Word):
            return int(letter in node.letters[-max(0, k - self.shifts[id(node)]):] if k > self.shifts[id(node)] else 0)
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


def polynomial_equations(problem: Problem) -> list[tuple[Expr, Equation]]:
    """The conjuncts that are equations between polynomials, each with its columns."""
    found: list[tuple[Expr, Equation]] = []
    for part in conjuncts(problem):
        if isinstance(part, Compare) and part.ops == ("==",) and all(polynomial(side, problem)
                                                                    for side in part.operands):
            base = problem.rules.base
            shifts = word_shifts(part.operands[1], base, 0, word_shifts(part.operands[0], base))
            words = [(node.letters, shifts[id(node)]) for node in walk(part) if isinstance(node, Word)]
            if words:
                found.append((part, Equation(part.operands[0], part.operands[1], words, shifts)))
    return found


# --- the plan: which letter each loop assigns, and what is checked where --------------------------

@dataclass(frozen=True)
class Try:
    """Give the letter each digit it may take."""

    letter: str


@dataclass(frozen=True)
class Solve:
    """Give the letter the digits that make the equation hold modulo base**column (see the module)."""

    letter: str
    equation: Equation
    column: int


@dataclass(frozen=True)
class Congruence:
    """Cut the assignment unless the equation holds modulo base**column."""

    equation: Equation
    column: int


@dataclass(frozen=True)
class Holds:
    """Cut the assignment unless the constraint holds, exactly."""

    constraint: Expr


@dataclass(frozen=True)
class Bounds:
    """Cut the assignment if the sides' ranges, each letter without a digit yet anywhere in its
    digits, cannot meet (left to right: the leading digits bound a product's size)."""

    equation: Equation


Step = Try | Solve | Congruence | Holds | Bounds


def monotone(node: Expr) -> bool:
    """True for sums, products and powers of words and non-negative integers: the value grows with each digit."""
    if isinstance(node, Word):
        return True
    if isinstance(node, Number):
        return node.value >= 0
    return isinstance(node, BinOp) and node.op in ("+", "*", "**") and monotone(node.left) and monotone(node.right)


@dataclass
class Planner:
    """Orders the letters and places each check as early as its letters allow. Each equation goes
    right to left at its own pace: its next column is checked (a congruence) once its letters have
    digits, or solves its one letter without a digit yet; where no equation can, a letter of some
    equation's next column is tried, the one after which the most letters are solved."""

    problem: Problem
    equations: dict[Expr, Equation]  # constraint -> its columns, for the polynomial equations
    steps: list[Step] = field(default_factory=list)
    assigned: set[str] = field(default_factory=set)
    pending: list[Expr] = field(default_factory=list)  # constraints not yet checked exactly
    reached: dict[int, int] = field(default_factory=dict)  # by id of equation: its columns checked so far
    bounded: dict[int, int] = field(default_factory=dict)  # by id of equation: letters with digits at its last Bounds

    def plan(self) -> list[Step]:
        self.pending = conjuncts(self.problem)
        self.reached = {id(equation): 0 for equation in self.equations.values()}
        self._checks()  # constraints without letters
        while True:
            self._advance(self.assigned, self.reached, self.steps)
            solving = self._solvable(self.assigned, self.reached)
            if solving is not None:
                equation, letter, column = solving
                self.reached[id(equation)] = column
                self._assign(Solve(letter, equation, column))
                continue
            frontier = list(dict.fromkeys(letter for equation in self._open()
                                          for letter in self._next(equation, self.assigned, self.reached)))
            if not frontier:
                break
            self._bounds()
            self._assign(Try(max(frontier, key=self._worth_trying)))
        rest = [letter for letter in self.problem.letters if letter not in self.assigned]
        for letter in sorted(rest, key=lambda letter: len(self.problem.allowed[letter])):
            self._assign(Try(letter))
        return self.steps

    def _bounds(self) -> None:
        """Before a letter is tried: the ranges of each monotone equation that has letters with digits
        and letters without, if it has more letters with digits than at its last such check."""
        for equation in self._open():
            letters = {x for word, _ in equation.words for x in word if not x.isdigit()}
            known = len(letters & self.assigned)
            if monotone(equation.left) and monotone(equation.right) and 0 < known < len(letters) and (
                    known > self.bounded.get(id(equation), 0)):
                self.bounded[id(equation)] = known
                self.steps.append(Bounds(equation))

    def _open(self) -> list[Equation]:
        """The equations not yet checked exactly."""
        return [self.equations[constraint] for constraint in self.pending if constraint in self.equations]

    @staticmethod
    def _next(equation: Equation, assigned: set[str], reached: dict[int, int]) -> list[str]:
        """The letters of the equation's next column without digits yet."""
        return [x for x in equation.column(reached[id(equation)] + 1) if x not in assigned]

    def _advance(self, assigned: set[str], reached: dict[int, int], steps: list[Step] | None) -> None:
        """Each equation's next columns checked while their letters all have digits."""
        for equation in self._open():
            while reached[id(equation)] < equation.length and not self._next(equation, assigned, reached):
                reached[id(equation)] += 1
                if steps is not None:
                    steps.append(Congruence(equation, reached[id(equation)]))

    def _solvable(self, assigned: set[str], reached: dict[int, int]) -> tuple[Equation, str, int] | None:
        """An equation whose next column solves its one letter without a digit yet: it, the letter, the column."""
        for equation in self._open():
            letters, column = self._next(equation, assigned, reached), reached[id(equation)] + 1
            if len(letters) == 1 and equation.solvable(letters[0], column):
                return equation, letters[0], column
        return None

    def _worth_trying(self, letter: str) -> tuple[int, int, int]:
        """How good a letter is to try next: by the letters then solved (looked ahead), then by the
        products it is a factor of (a factor is seldom solved: better tried), then by how few digits
        it may take."""
        assigned, reached = self.assigned | {letter}, dict(self.reached)
        solved = 0
        while True:
            self._advance(assigned, reached, None)
            solving = self._solvable(assigned, reached)
            if solving is None:
                break
            assigned.add(solving[1])
            reached[id(solving[0])] = solving[2]
            solved += 1
        factors = sum(not equation.solvable(letter, equation.length) for equation in self.equations.values()
                      if any(letter in word for word, _ in equation.words))
        return solved, factors, -len(self.problem.allowed[letter])

    def _assign(self, step: Try | Solve) -> None:
        self.steps.append(step)
        self.assigned.add(step.letter)
        self._checks()

    def _checks(self) -> None:
        """Each constraint whose letters all have digits now, checked exactly (and no longer by congruences)."""
        for constraint in list(self.pending):
            if set(_letters(constraint)) <= self.assigned:
                self.pending.remove(constraint)
                self.steps.append(Holds(constraint))


def _letters(node: Expr) -> list[str]:
    return [char for part in walk(node) if isinstance(part, Word) for char in part.letters if not char.isdigit()]


# --- the generated code ---------------------------------------------------------------------------

@functools.cache
def free_digits(digits: tuple[int, ...], base: int) -> tuple[tuple[int, ...], ...]:
    """table[mask]: the digits not in the bit mask (bit d set: digit d taken). Made once per set of digits."""
    return tuple(tuple(x for x in digits if not mask >> x & 1) for mask in range(1 << base))


@functools.cache
def congruence_roots(digits: tuple[int, ...], base: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """table[c][t]: the digits x with c * x = t (mod base). Made once per set of digits."""
    return tuple(tuple(tuple(x for x in digits if (c * x - t) % base == 0) for t in range(base)) for c in range(base))


class Generator:
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
        self.shifts = {key: shift for step in steps if isinstance(step, (Solve, Congruence))
                       for key, shift in step.equation.shifts.items()}
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
        self.lines = [f"def {signature}:", "    _n = 0"]
        self.indent = "    "
        self.loops = 0  # in this function

    def _go_on_in_a_new_function(self) -> None:
        name = f"_seg{len(self.functions) + 1}"
        known = [self.names[letter] for letter in self.order] + ([self.mask] if self.mask != "0" else [])
        arguments = ", ".join(["_hits", *known])
        self.line(f"_n += yield from {name}({arguments})")
        self.functions.append(self.lines)
        self._function(f"{name}({arguments})")

    def _step(self, step: Step) -> None:
        if isinstance(step, Holds):
            self._holds(step.constraint)
        elif isinstance(step, Bounds):
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

    def _difference(self, equation: Equation, k: int, solved: tuple[str, str] | None = None) -> str:
        """The code of LEFT - RIGHT with each word cut to its last k digits (`solved`: one letter
        written as a given digit)."""
        return f"{self._truncated(equation.left, k, solved)} - {self._truncated(equation.right, k, solved)}"

    def _truncated(self, node: Expr, k: int, solved: tuple[str, str] | None) -> str:
        if isinstance(node, Word):
            kept = k - self.shifts[id(node)]  # the digits that count modulo base**k
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
            return f"({node.op}{self._truncated(node.operand, k, solved)})"
        assert isinstance(node, BinOp)
        if node.op == "**":
            return f"({self._truncated(node.left, k, solved)} ** {int(self.problem.constant_exponents[node])})"
        parts: list[str] = []
        ops: list[str] = []
        operand: Expr = node  # a chain of + and - unbracketed (Python's parser limits nesting)
        while isinstance(operand, BinOp) and operand.op != "**" and (operand.op == "*") == (node.op == "*"):
            parts.append(self._truncated(operand.right, k, solved))
            ops.append(operand.op)
            operand = operand.left
        text = self._truncated(operand, k, solved)
        for op, part in zip(reversed(ops), reversed(parts)):
            text += f" {op} {part}"
        return f"({text})"


# --- the backend ----------------------------------------------------------------------------------

@dataclass
class DigitPlan:
    """What the digits backend runs: the generated search and what it was made from."""

    problem: Problem
    steps: list[Step]
    source: str
    scan: Callable[[list[tuple[int, ...]]], Iterator[int]]
    letters: list[str]  # the letters of a solution tuple, alphabetically


def digit_plan(problem: Problem, products_only: bool = False) -> DigitPlan | None:
    """The digit search for this problem, or None where it does not fit: no equation between
    polynomials in words, integer unknowns, letters in no such equation, code too deep to compile
    (and, with `products_only`, no product or power of words in those equations)."""
    if problem.unknowns or not problem.letters:
        return None
    found = polynomial_equations(problem)
    if not found:
        return None
    covered = {letter for _, equation in found for word, _ in equation.words for letter in word if not letter.isdigit()}
    if covered != set(problem.letters):
        return None
    if products_only and not any(nonlinear(constraint, problem) for constraint, _ in found):
        return None
    steps = Planner(problem, dict(found)).plan()
    try:
        generator = Generator(problem, steps)
        scan = define_scan(generator.source, generator.writer.constants, generator.tables, "<smtcrypt digits>")
    except NotCompilable:  # a part the compiled formula does not write, or code too deep for Python
        return None
    return DigitPlan(problem, steps, generator.source, scan, generator.letters)


class DigitSearch(Backend):
    """The generated column search run in slices between looks at the clock and the stop flag.
    `listing=False` (counting) yields the first YIELDED_WHEN_COUNTING solutions and counts the rest."""

    name = "digits"
    exact = True  # every solution passed each constraint's exact evaluation

    def __init__(self, plan: DigitPlan, deadline: float | None = None, listing: bool = True):
        self.plan = plan
        self.deadline = deadline
        self.listing = listing
        self.bulk = 0
        self.found = 0
        self.nodes = 0
        self.end: SearchEnd | None = None
        self.stop_requested = False

    def statistics(self) -> dict[str, Any]:
        return {"digit_search_steps": self.nodes}

    def batches(self) -> Iterator[list[Assignment]]:
        hits: list[tuple[int, ...]] = []
        letters = self.plan.letters
        steps = self.plan.scan(hits)
        while not self._stopping():
            try:
                self.nodes = next(steps)
            except StopIteration as finished:
                self.nodes = finished.value
                self.end = SearchEnd(Ending.COMPLETE, proof=Proof.BOUNDED)
            if hits:
                batch = self._batch(hits, letters)
                hits.clear()
                if batch:
                    yield batch
            if self.end is not None:
                return

    def _batch(self, hits: list[tuple[int, ...]], letters: list[str]) -> list[Assignment]:
        if not self.listing and self.found >= YIELDED_WHEN_COUNTING:
            self.bulk += len(hits)
            return []
        keep = len(hits) if self.listing else YIELDED_WHEN_COUNTING - self.found
        batch = [dict(zip(letters, digits)) for digits in itertools.islice(hits, keep)]
        self.bulk += len(hits) - len(batch)
        self.found += len(batch)
        return batch
