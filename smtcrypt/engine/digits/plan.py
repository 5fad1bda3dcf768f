"""The plan of the digit search: which letter each loop gives digits to, and what is checked where.

Steps, in order: `Try` a letter's digits, `Solve` a letter from an equation's column, check a
`Congruence` (an equation modulo base**k) or `RangeCut` (the sides' ranges), or that a constraint
`Holds` exactly. The planner places each check as early as the letters it needs allow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from smtcrypt.analysis.equations import conjuncts
from smtcrypt.core.check import Problem
from smtcrypt.core.tree import Expr
from smtcrypt.engine.base import Halted, letters_of
from smtcrypt.engine.digits.equations import WordEquation, monotone


@dataclass(frozen=True)
class Try:
    """Give the letter each digit it may take."""

    letter: str


@dataclass(frozen=True)
class Solve:
    """Give the letter the digits that make the equation hold modulo base**column (see the module)."""

    letter: str
    equation: WordEquation
    column: int


@dataclass(frozen=True)
class Congruence:
    """Cut the assignment unless the equation holds modulo base**column."""

    equation: WordEquation
    column: int


@dataclass(frozen=True)
class Holds:
    """Cut the assignment unless the constraint holds, exactly."""

    constraint: Expr


@dataclass(frozen=True)
class RangeCut:
    """Cut the assignment if the sides' ranges, each letter without a digit yet anywhere in its
    digits, cannot meet (left to right: the leading digits bound a product's size)."""

    equation: WordEquation


Step = Try | Solve | Congruence | Holds | RangeCut


@dataclass
class Planner:
    """Orders the letters and places each check as early as its letters allow. Each equation goes
    right to left at its own pace: its next column is checked (a congruence) once its letters have
    digits, or solves its one letter without a digit yet; where no equation can, a letter of some
    equation's next column is tried, the one after which the most letters are solved.

    Looking ahead costs about the cube of the letters (each candidate solves what it can), which
    for a long division's skeleton of a hundred columns is minutes: `halted()` (the search's stop
    and clock) is read at each step, and `Halted` raised once it is true."""

    problem: Problem
    equations: dict[Expr, WordEquation]  # constraint -> its columns, for the polynomial equations
    halted: Callable[[], bool] = lambda: False
    steps: list[Step] = field(default_factory=list)
    assigned: set[str] = field(default_factory=set)
    pending: list[Expr] = field(default_factory=list)  # constraints not yet checked exactly
    reached: dict[int, int] = field(default_factory=dict)  # by id of equation: its columns checked so far
    bounded: dict[int, int] = field(default_factory=dict)  # by id of equation: letters with digits at its last RangeCut
    letters: dict[int, set[str]] = field(default_factory=dict)  # by id of constraint: its letters
    opened: list[WordEquation] | None = None  # `_open()`'s list, until a constraint is checked

    def plan(self) -> list[Step]:
        self.pending = conjuncts(self.problem)
        self.reached = {id(equation): 0 for equation in self.equations.values()}
        self._checks()  # constraints without letters
        while True:
            self._look()
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
                self.steps.append(RangeCut(equation))

    def _open(self) -> list[WordEquation]:
        """The equations not yet checked exactly (worked out again only once one is: asked very often)."""
        if self.opened is None:
            self.opened = [self.equations[constraint] for constraint in self.pending if constraint in self.equations]
        return self.opened

    @staticmethod
    def _next(equation: WordEquation, assigned: set[str], reached: dict[int, int]) -> list[str]:
        """The letters of the equation's next column without digits yet."""
        return [x for x in equation.column(reached[id(equation)] + 1) if x not in assigned]

    def _advance(self, assigned: set[str], reached: dict[int, int], steps: list[Step] | None) -> None:
        """Each equation's next columns checked while their letters all have digits."""
        for equation in self._open():
            key = id(equation)
            column = reached[key]
            while column < equation.length and all(x in assigned for x in equation.column(column + 1)):
                column += 1
                if steps is not None:
                    steps.append(Congruence(equation, column))
            reached[key] = column

    def _solvable(self, assigned: set[str], reached: dict[int, int]) -> tuple[WordEquation, str, int] | None:
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
            self._look()
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

    def _letters(self, constraint: Expr) -> set[str]:
        """The constraint's letters, walked once."""
        key = id(constraint)
        if key not in self.letters:
            self.letters[key] = letters_of(constraint)
        return self.letters[key]

    def _look(self) -> None:
        if self.halted():
            raise Halted

    def _assign(self, step: Try | Solve) -> None:
        self.steps.append(step)
        self.assigned.add(step.letter)
        self._checks()

    def _checks(self) -> None:
        """Each constraint whose letters all have digits now, checked exactly (and no longer by congruences)."""
        for constraint in list(self.pending):
            if self._letters(constraint) <= self.assigned:
                self.pending.remove(constraint)
                self.opened = None
                self.steps.append(Holds(constraint))
