"""The plan of the digit search: which letter each loop gives digits to, and what is checked where.

Steps, in order: `Try` a letter's digits, `Solve` a letter from an equation's column, check a
`Congruence` (an equation modulo base**k) or `RangeCut` (the sides' ranges), or that a constraint
`Holds` exactly. The planner places each check as early as the letters it needs allow.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable
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


@dataclass(eq=False)
class _Track:
    """An equation as the planner follows it, its letters as bits of the planner's masks: the same
    columns are asked about at every step of every lookahead, so each is read once."""

    equation: WordEquation
    index: int  # its place in the lists of the columns reached
    length: int  # its last column
    columns: list[int]  # by column (1 = units, to length + 1, which has none): its letters' bits
    letters: int  # the bits of all its letters
    count: int  # how many letters it has
    monotone: bool  # both sides grow with each digit: its sides' ranges bound it
    leading: int  # the bits of its words' first letters
    bounded: int = 0  # its letters with digits at its last RangeCut


@dataclass
class Planner:
    """Orders the letters and places each check as early as its letters allow. Each equation goes
    right to left at its own pace: its next column is checked (a congruence) once its letters have
    digits, or solves its one letter without a digit yet; where no equation can, a letter of some
    equation's next column is tried, the one after which the most letters are solved. Looking ahead
    costs about the cube of the letters (minutes for a long division's skeleton of a hundred
    columns), so `halted()` is read at each step. A set of letters is an int, a bit each (`bits`):
    which letters of a column have no digit yet, asked many times a plan, is one operation."""

    problem: Problem
    equations: dict[Expr, WordEquation]  # constraint -> its columns, for the polynomial equations
    halted: Callable[[], bool] = lambda: False
    steps: list[Step] = field(default_factory=list)
    assigned: int = 0  # the letters with digits so far, as bits
    pending: list[tuple[Expr, int]] = field(default_factory=list)  # constraints not checked exactly yet, their letters
    bits: dict[str, int] = field(default_factory=dict)  # by letter: its bit
    names: list[str] = field(default_factory=list)  # by bit's place: its letter
    tracks: dict[Expr, _Track] = field(default_factory=dict)  # by constraint: its equation as followed
    reached: list[int] = field(default_factory=list)  # by track's index: its columns checked so far
    opened: list[_Track] = field(default_factory=list)  # the tracks of the equations not yet checked exactly
    ties: dict[str, tuple[int, int]] = field(default_factory=dict)  # `_ties()`'s answers, by letter

    def plan(self) -> list[Step]:
        self._start()
        self._checks()  # constraints without letters
        while True:
            self._advance()
            if (solving := self._solving(self.assigned, self.reached)) is not None:
                track, letter, column = solving
                self.reached[track.index] = column
                self._assign(Solve(letter, track.equation, column))
                continue
            frontier = self._frontier()
            if not frontier:
                break
            self._bounds()
            self._assign(Try(max(frontier, key=self._worth_trying)))
        rest = [letter for letter in self.problem.letters if not self.bits[letter] & self.assigned]
        for letter in sorted(rest, key=lambda letter: len(self.problem.allowed[letter])):
            self._assign(Try(letter))
        return self.steps

    def _start(self) -> None:
        """Each letter's bit, each equation's track, each constraint's letters (an equation's are its track's)."""
        self.names = list(self.problem.letters)
        self.bits = {letter: 1 << place for place, letter in enumerate(self.names)}
        for index, (constraint, equation) in enumerate(self.equations.items()):
            columns = [self._mask(letters) for letters in equation.column_letters]
            letters = functools.reduce(operator.or_, columns)
            self.tracks[constraint] = _Track(equation, index, equation.length, columns, letters, letters.bit_count(),
                                             monotone(equation.left) and monotone(equation.right),
                                             self._mask(word[0] for word, _ in equation.words if not word[0].isdigit()))
        self.reached = [0] * len(self.tracks)
        self.pending = [(constraint, self.tracks[constraint].letters if constraint in self.tracks
                         else self._mask(letters_of(constraint))) for constraint in conjuncts(self.problem)]
        self.opened = [self.tracks[constraint] for constraint, _ in self.pending if constraint in self.tracks]

    def _mask(self, letters: Iterable[str]) -> int:
        """The letters' bits."""
        return functools.reduce(operator.or_, (self.bits[letter] for letter in letters), 0)

    def _bounds(self) -> None:
        """Before a letter is tried: the ranges of each monotone equation that has letters with digits
        and letters without, if it has more letters with digits than at its last such check, one of
        them a word's first (the ranges of words whose first letters have no digit yet are too wide
        to cut: such cuts cut none of 61,000 assignments of the collection's products)."""
        for track in self.opened:
            known = (track.letters & self.assigned).bit_count()
            if track.monotone and 0 < known < track.count and known > track.bounded and track.leading & self.assigned:
                track.bounded = known
                self.steps.append(RangeCut(track.equation))

    def _frontier(self) -> list[str]:
        """The letters without digits yet of each equation's next column, each once, in order."""
        return list(dict.fromkeys(letter for track in self.opened
                                  for letter in track.equation.column_letters[self.reached[track.index] + 1]
                                  if not self.bits[letter] & self.assigned))

    def _advance(self) -> None:
        """Each equation's next columns checked while their letters all have digits."""
        for track in self.opened:
            column = self.reached[track.index]
            while column < track.length and not track.columns[column + 1] & ~self.assigned:
                column += 1
                self.steps.append(Congruence(track.equation, column))
            self.reached[track.index] = column

    def _solving(self, assigned: int, reached: list[int]) -> tuple[_Track, str, int] | None:
        """The first equation whose next column, once past the columns whose letters all have digits,
        solves its one letter without a digit yet: it, the letter, the column. (Each equation is
        moved on as it is reached: past the first that solves, the next call does it, to the same
        columns, as its letters only gain digits.)"""
        if self.halted():
            raise Halted
        for track in self.opened:
            column, columns = reached[track.index] + 1, track.columns
            while not columns[column] & ~assigned and column <= track.length:
                column += 1
            reached[track.index] = column - 1
            missing = columns[column] & ~assigned
            if missing and not missing & (missing - 1):  # a single bit: one letter
                letter = self.names[missing.bit_length() - 1]
                if track.equation.solvable(letter, column):
                    return track, letter, column
        return None

    def _worth_trying(self, letter: str) -> tuple[int, int, int]:
        """How good a letter is to try next: by the letters then solved (looked ahead), then `_ties()`."""
        assigned, reached = self.assigned | self.bits[letter], list(self.reached)
        solved = 0
        while (solving := self._solving(assigned, reached)) is not None:
            track, solved_letter, column = solving
            assigned |= self.bits[solved_letter]
            reached[track.index] = column
            solved += 1
        return (solved, *self._ties(letter))

    def _ties(self, letter: str) -> tuple[int, int]:
        """Between letters that solve as many: by the products it is a factor of (a factor is seldom
        solved: better tried), then by how few digits it may take. Worked out once a letter: neither
        changes as letters get digits."""
        if letter not in self.ties:
            factors = sum(1 for track in self.tracks.values()
                          if track.letters & self.bits[letter] and not track.equation.solvable(letter, track.length))
            self.ties[letter] = factors, -len(self.problem.allowed[letter])
        return self.ties[letter]

    def _assign(self, step: Try | Solve) -> None:
        self.steps.append(step)
        self.assigned |= self.bits[step.letter]
        self._checks()

    def _checks(self) -> None:
        """Each constraint whose letters all have digits now, checked exactly (and no longer by congruences)."""
        if all(letters & ~self.assigned for _, letters in self.pending):
            return  # none yet, the usual answer
        self.steps.extend(Holds(constraint) for constraint, letters in self.pending if not letters & ~self.assigned)
        self.pending = [(constraint, letters) for constraint, letters in self.pending if letters & ~self.assigned]
        self.opened = [self.tracks[constraint] for constraint, _ in self.pending if constraint in self.tracks]
