"""What every reader returns (`Reading`) and how a notation shows its solutions (`View`).

A reader is the one door of a notation: it takes the puzzle's text and the notation's own
options, and hands back the checked problem with its typed rules. Everything after the door
(the search, the exact re-check, the proofs) is the same for every notation; only the way a
solution is shown differs, and that is the view's job.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.core.check import Problem
from smtcrypt.core.results import Solution, Verdict, filler
from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import Constraints
from smtcrypt.notations.options import NoOptions


class View:
    """How solutions are shown: the formula language's own way (its letters, the formula filled in).
    A notation whose user writes other symbols, or a layout, overrides what differs."""

    drawing: str | None = None  # the puzzle as printed (a long multiplication or division), if it is one
    formula: str | None = None  # what a verdict names as the formula searched, if not the checked source
    # an answer the notation's own command asks for (enigma.py's --answer): in our formula, or its tree
    answer: str | Constraints | None = None

    def fill(self, problem: Problem) -> Callable[[dict[str, int]], str]:
        """A solution's text from its digits: the formula filled in (a layout: the layout filled in)."""
        return filler(problem)

    def symbols(self, mapping: Mapping[str, int]) -> dict[str, int]:
        """A solution's digits by the user's own symbols."""
        return dict(mapping)

    def searched(self, problem: Problem) -> str:
        """The formula searched, as text (`Puzzle.formula`): the checked source, but where a notation
        says it otherwise (a layout's source is the layout as printed; its view says the equations)."""
        return problem.source

    def line(self, solution: Solution, answer: str | None = None) -> str:
        """One solution as the notation prints it, as it is found (with `answer`'s value, shown, if it has one)."""
        return str(solution).replace("\n", "; ")

    def header(self) -> str | None:
        """A line printed before the first solution, or None."""
        return None

    def fields(self) -> dict[str, Any]:
        """What the JSON object says of the puzzle as written, besides the verdict."""
        return {}

    def solution_fields(self, solution: Solution, answer: str | None = None) -> dict[str, Any] | None:
        """A solution in the JSON object, or None for the usual (`mapping` and `text`)."""
        return None

    def summary(self, verdict: Verdict, answers: Sequence[tuple[str, int]]) -> list[str] | None:
        """The lines that end a run in the notation's own words (the verdict, and each answer shown
        with how many solutions give it), or None for the usual summary."""
        return None


@dataclass(frozen=True)
class Reading:
    """A puzzle read through its notation's door: the checked problem under its typed rules, and the
    view that shows its solutions in the user's symbols and layout.

    `strategy` is the search the notation's puzzles want unless the user names one; `first` says the
    notation's own command asked for one solution only (enigma.py's `--first`); `impossible` says why
    there is no solution, known before any search (enigma.py's check that more symbols must differ
    than there are digits); `seconds` is the time the door took, by stage.
    """

    syntax: str
    text: str  # the puzzle as the user wrote it
    problem: Problem
    rules: Rules
    view: View = field(default_factory=View)
    seconds: Mapping[str, float] = field(default_factory=dict)
    strategy: str = "auto"
    first: bool = False
    impossible: str | None = None


# The one signature of every notation's door: the text, the notation's options record (its `Notation.options`,
# made and checked by `notations.read`), and the shared rules (typed; None for a notation whose rules are its own).
Reader = Callable[[Any, Any, Rules | None], Reading]


@dataclass(frozen=True)
class Notation:
    """A notation's row of the door's table (`notations.NOTATIONS`): its name, its reader, what the
    command line's `--syntax` help says of it, what its text is called, and whether a user names it (the command line's
    `--syntax`, the web page's `syntax`; a layout comes by `--layout FILE` instead). The command line
    and the web page take their lists of notations from the table, so a new notation is its module
    and one row: its reader and the record of its options."""

    name: str
    read: Reader
    help: str
    noun: str  # what its text is called in a message ("Cryptator formula of 100,001 characters")
    named: bool = True
    options: type = NoOptions  # the record of its own options (`smtcrypt.notations.options`)
    rules: bool = False  # whether it takes the rules every command shares (`rules=` or `make_rules`'s keywords)
    own_rules: str = ""  # for a notation that does not: where its rules are, said when a shared one is given
