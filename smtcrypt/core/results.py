"""The results of a search: how it ended (`Ending`, `Proof`), `Status`, `Solution` and `Verdict`
(with what the search cost: `Statistics`), and the formula filled in with digits.

They are plain values: the engine and the search loop make them, the output formats and the tools
read them. `Ending` and `Proof` are defined here, below the engine, so that a `Verdict` can carry
them; `smtcrypt.engine` re-exports them.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from smtcrypt.core import longhand
from smtcrypt.core.letters import is_letter, shown, spelled
from smtcrypt.core.numerals import digit_char, digit_writer
from smtcrypt.core.statistics import Statistics
from smtcrypt.core.tree import Name, Repeating, Word, walk

if TYPE_CHECKING:  # the checker is only named here: the options read the result types without it
    from smtcrypt.core.check import Problem

FormulaText = str | Sequence[str]  # "NUM + BER = PLAY", or several constraints


class Ending(str, enum.Enum):
    """Why a search ended: what code decides on (the text of each is what people read)."""

    COMPLETE = "complete"  # every solution was found, and that is proved (see Proof)
    LIMIT = "limit"  # the solutions asked for were found; more may exist
    TIME = "time limit"
    MEMORY = "memory limit"
    INTERRUPTED = "interrupted"  # the user stopped the search (Ctrl-C, `request_stop`)
    GAVE_UP = "solver gave up"
    CAPPED = "capped"  # many models over unbounded integer unknowns: perhaps infinitely many
    INFINITE = "infinitely many"  # a family of infinitely many solutions was proved; a few were shown


class Proof(str, enum.Enum):
    """How a complete search showed there is nothing more."""

    UNSAT = "unsat"  # Z3 answered unsat to "is there another solution?"
    EXHAUSTIVE = "every assignment tried"  # the compiled exact evaluator on every assignment the rules allow
    BOUNDED = "every assignment covered by a bounded search"  # a linear equation's digits, cut by its bounds
    CUBES = "unsat, each cube of solutions proved by unsat"  # blocking whole cubes, each proved to hold only solutions
    SYMBOLS = "more symbols that must differ than digits for them"  # no search: the notation's own check (enigma.py)
    OBJECTIVE_BOUND = "the objective's bound: no assignment the rules allow does better"  # an optimum at its bound


class Status(str, enum.Enum):
    """What a search established."""

    UNIQUE = "unique"  # one solution, and the solver proved there is no other
    MULTIPLE = "multiple"  # at least two solutions
    NONE = "none"  # the solver proved there is no solution
    UNKNOWN = "unknown"  # the search could not finish (time limit, solver gave up)
    FOUND = "found"  # stopped early, as asked, with at least one solution
    INFINITE = "infinite"  # infinitely many solutions, proved; the first few are shown
    OPTIMAL = "optimal"  # the best value of an objective, attained and proved best (setters/optimum.py)


INTERRUPTED = Ending.INTERRUPTED.value  # the reason given when the user stops a search (decide by `Verdict.ending`)


@dataclass(frozen=True)
class Solution:
    """One solution: letter -> digit (and integer unknown -> value), and the formula with them filled in."""

    mapping: dict[str, int]
    text: str
    base: int = 10
    wildcards: tuple[int, ...] = ()  # the digits of the formula's `?`s, in order of appearance
    problem: Problem | None = field(default=None, compare=False, repr=False)  # for the long-hand layout

    def __hash__(self) -> int:  # the mapping is a dict: hash what it holds
        return hash((tuple(self.mapping.items()), self.text, self.base, self.wildcards))

    def layout(self) -> longhand.Layout:
        """The long-hand layout (see `smtcrypt.core.longhand`): rows a page can draw."""
        if self.problem is None:
            return longhand.Layout("line", (longhand.Row(self.text, "number"),))
        digits = {**self.mapping, **dict(zip(self.problem.wildcards, self.wildcards))}  # `?`s are digits too
        return longhand.layout(self.problem, digits, self.text)

    def long_hand(self) -> str:
        """The solution as written on paper: a sum with its carries, long multiplication or long
        division; the plain line for other shapes."""
        return self.layout().text()

    def svg(self) -> str:
        """The long-hand layout as an SVG image."""
        return self.layout().svg()

    def _repr_svg_(self) -> str:
        return self.svg()

    def __str__(self) -> str:
        if self.wildcards and not self.mapping:  # only wildcards: the text says it all
            return self.text
        return f"{self.text}  /  " + " ".join(
            f"{shown(name)}={digit_char(value) if is_letter(name) else value}" for name, value in self.mapping.items())


@dataclass(frozen=True)
class Verdict:
    """How a search ended: its status, the solutions found, and whether it was complete."""

    formula: str
    status: Status
    solutions: tuple[Solution, ...]
    complete: bool  # the solver proved there are no solutions beyond these
    reason: str | None  # why the search is incomplete, if it is
    seconds: float
    stats: Statistics | None = None  # what the search cost: search space, models, Z3's counters, seconds per stage
    found: int | None = None  # solutions counted, for a search that counted without keeping them
    ending: Ending | None = None  # how the search ended, for code to decide on (`reason` is its text for people)
    proof: Proof | None = None  # how completeness was shown, for a complete search

    @property
    def count(self) -> int:
        return len(self.solutions) if self.found is None else self.found

    def _repr_html_(self) -> str:
        import html

        head = f"<p><code>{html.escape(self.formula)}</code>: <b>{self.status.value}</b>"
        head += f", proved by {html.escape(self.proof.value)}" if self.proof and self.complete else ""
        head += f" ({html.escape(self.reason)})" if self.reason else ""
        shown = "".join(f"<div style='display:inline-block;margin:0 1em'>{s.svg()}</div>" for s in self.solutions[:10])
        return f"<div class='smtcrypt-verdict'>{head}</p>{shown}</div>"


def join(formula: FormulaText) -> str:
    """Several constraints become one formula, one constraint a line."""
    return formula if isinstance(formula, str) else "\n".join(formula)


def fill_in(problem: Problem, mapping: dict[str, int]) -> str:
    """The source with letters replaced by digits of the base and unknowns by their values:
    "ODD * ODD" -> "677 * 677", "p + d = 19" -> "15 + 4 = 19"."""
    return filler(problem)(mapping)


def filler(problem: Problem) -> Callable[[dict[str, int]], str]:
    """`fill_in` for one problem, with the source cut into pieces once: a search that fills in
    thousands of solutions walks the tree once."""
    source, position = problem.source, 0
    pieces: list[str | tuple[Word | Repeating | Name, str]] = []
    nodes = [node for constraint in problem.formula.constraints for node in walk(constraint)
             if isinstance(node, (Word, Repeating, Name))]
    for node in sorted(nodes, key=lambda node: (node.span.start, -node.span.end)):
        if node.span.start < position:  # a part a reader repeats, or points at inside a word: filled once
            continue
        pieces += [source[position:node.span.start], (node, source[node.span.start:node.span.end])]
        position = node.span.end
    pieces.append(source[position:])

    if not any(isinstance(piece, tuple) and isinstance(piece[0], Name) for piece in pieces):
        # digits only: one str.format per solution ("{O}{D}{D} * ..."), the source's braces doubled
        letters = sorted(problem.letters)
        place = {letter: "{" + str(index) + "}" for index, letter in enumerate(letters)}
        template = "".join(piece.replace("{", "{{").replace("}", "}}") if isinstance(piece, str) else
                           "".join(place.get(ch, ch) for ch in _digits_of(piece[0], piece[1])) for piece in pieces)
        digit = digit_writer(problem.rules.base)
        return lambda mapping: template.format(*map(digit, map(mapping.__getitem__, letters)))

    def fill(mapping: dict[str, int]) -> str:
        filled = []
        for piece in pieces:
            if isinstance(piece, str):
                filled.append(piece)
            elif isinstance(piece[0], Name):
                value = mapping[piece[0].name]
                filled.append(str(value) if value >= 0 else f"({value})")
            else:
                filled.append("".join(digit_char(mapping[ch]) if ch in mapping and is_letter(ch) else ch
                                     for ch in _digits_of(piece[0], piece[1])))
        return "".join(filled)
    return fill


def _digits_of(node: Word | Repeating | Name, text: str) -> str:
    """What to fill in for a numeral: a word's letters (a `?` is there by its hidden name), a repeating
    decimal as written (a name is never a numeral: it is filled in with its value)."""
    return node.letters if isinstance(node, Word) else spelled(text)
