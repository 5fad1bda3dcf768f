"""The Python API: parse and check once, then solve, count or decide uniqueness.

    >>> import smtcrypt
    >>> smtcrypt.verdict("ODD * ODD = FREAKY").status
    <Status.MULTIPLE: 'multiple'>

A facade: `Puzzle` parses and checks a formula under its rules and hands the problem to the
search loop (`smtcrypt.search`) or to a tool (answers, explanations, layouts).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from smtcrypt.analysis.stats import Clock
from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.results import FormulaText, Solution, Verdict, join
from smtcrypt.core.rules import DigitSpec, make_rules
from smtcrypt.core.verify import satisfies
from smtcrypt.notations.cryptator import translate as translate_cryptator
from smtcrypt.notations.layout import LayoutFormula, parse_layout
from smtcrypt.search import Search
from smtcrypt.setters.answers import Answers, answers

if TYPE_CHECKING:
    from smtcrypt.teach.explain import Explanation
    from smtcrypt.teach.play import Game


class Puzzle:
    """A formula parsed and checked once, under its rules; solve, count or decide it as often as needed.

        >>> Puzzle("SEND + MORE = MONEY").count()
        1
    """

    layout: Any = None  # the printed long multiplication or division it was made from (see from_layout)
    conditions: str = ""  # the conditions added to the layout, one a line (see from_layout)
    cryptator: Any = None  # the Cryptator formula it was read from (see from_cryptator)

    def __init__(self, formula: FormulaText, *, distinct: bool | str | Iterable[str] = True,
                 allow_leading_zeros: bool = False,
                 base: int = 10, digits: DigitSpec | None = None,
                 domains: Mapping[str, DigitSpec] | Iterable[str] | None = None,
                 assign: Mapping[str, int] | Iterable[str] | None = None,
                 nonzero_single_letters: bool = False):
        self.rules = make_rules(distinct=distinct, allow_leading_zeros=allow_leading_zeros, base=base,
                                digits=digits, domains=domains, assign=assign,
                                nonzero_single_letters=nonzero_single_letters)
        self.clock = Clock()  # parse and check here, the later stages in each search
        with self.clock("parse"):
            tree = parse(join(formula))
        with self.clock("check"):
            self.problem = check(tree, self.rules)

    @property
    def formula(self) -> str:
        """The formula searched (for a layout, the equations made from its rows)."""
        return self.problem.source

    @property
    def letters(self) -> tuple[str, ...]:
        return self.problem.letters

    def __repr__(self) -> str:
        return f"Puzzle({self.formula!r})"

    def search(self, *, limit: int | None = None, timeout: float | None = None, decide: bool = False,
               strategy: str = "auto", keep: bool = True) -> Search:
        """A search to iterate; `strategy` (a name, or a `smtcrypt.engine.Strategy`) forces one
        backend: "z3" (the solver, model by model), "cubes" (the solver, a cube of solutions at a
        time), "linear" (a sum's equation, digit by digit), "digits" (equations of products, column
        by column from the right), "join" (an equation's two sides apart),
        "exhaustive" (every assignment, compiled), or "auto" (by cost, switching while running)."""
        if strategy == "auto" and self.cryptator is not None:  # its digit counts: Z3 alone, far faster than auto
            strategy = self.cryptator.strategy
        clock = Clock()
        clock.seconds.update(self.clock.seconds)
        search = Search(self.problem, limit=limit, timeout=timeout, decide=decide, clock=clock, strategy=strategy,
                        keep=keep, fill=None if self.layout is None else self.layout.filler(self.problem))
        if self.layout is not None:  # the layout as given, then its conditions, one a line
            search.formula = self.layout.text + (f"\n{self.conditions}" if self.conditions else "")
        return search

    @classmethod
    def from_layout(cls, text: str, conditions: FormulaText | None = None, *, nonzero_remainders: bool = False,
                    conditions_allow_leading_zeros: bool = False, **rules: Any) -> Puzzle:
        """A long multiplication or long division pasted as printed (see `smtcrypt.layout`): its rows
        become equations between words, and each solution's text is the layout filled in.

        `conditions` (a formula, or several as `Puzzle` takes them) must hold too; they name the
        layout's letters in capitals, and a letter the layout lacks is one more letter of the puzzle.
        `nonzero_remainders`: no remainder row of a division starts with 0, a one-digit one included
        (enigma.py's rule). `conditions_allow_leading_zeros`: the conditions' words may start with 0,
        the layout's rows keeping the rule (enigma.py's `--extra` under a division)."""
        layout = parse_layout(text, nonzero_remainders=nonzero_remainders)
        puzzle = cls.__new__(cls)
        puzzle.rules = make_rules(**rules)
        puzzle.clock = Clock()
        with puzzle.clock("parse"):
            joined = LayoutFormula(layout, conditions, puzzle.rules.base)
            tree = joined.parse()
        with puzzle.clock("check"):
            puzzle.problem = joined.check(tree, puzzle.rules,
                                          conditions_allow_leading_zeros=conditions_allow_leading_zeros)
        puzzle.layout = layout
        puzzle.conditions = joined.conditions
        return puzzle

    @classmethod
    def from_cryptator(cls, text: str, *, base: int = 10, allow_leading_zeros: bool = False,
                       assign: Mapping[str, int] | Iterable[str] | None = None, relax_min: int = 0,
                       relax_max: int = 0) -> Puzzle:
        """A formula in Cryptator's notation (`send+more=money`, `a*a=b && b=a+a`, `r='36'`) under
        Cryptator's rules and options (see `smtcrypt.notations.cryptator`); `assign` names the
        puzzle's own symbols (`{"a": 1}` or `["a=1"]`). Its `cryptator` attribute shows solutions
        in those symbols."""
        translated = translate_cryptator(text, base=base, allow_leading_zeros=allow_leading_zeros, assign=assign,
                                         relax_min=relax_min, relax_max=relax_max)
        puzzle = cls(translated.formulas, **translated.rules)
        puzzle.cryptator = translated
        return puzzle

    def answers(self, expression: str, *, unique: bool = False, timeout: float | None = None,
                strategy: str = "auto") -> Answers:
        """The values `expression` (a formula expression over the puzzle's letters, or a tuple such as
        "(A, BC)") takes over the solutions, each with how many give it: an `answers.Answers`.
        `unique=True` decides only whether the answer is unique, without listing every solution."""
        return answers(self, expression, unique=unique, timeout=timeout, strategy=strategy)

    def solve(self, *, limit: int | None = None, timeout: float | None = None,
              strategy: str = "auto") -> Iterator[Solution]:
        """Every solution, lazily; raises `IncompleteSearch` at the end if the search could not finish."""
        search = self.search(limit=limit, timeout=timeout, strategy=strategy)
        yield from search
        search.raise_if_incomplete()

    def first(self, *, timeout: float | None = None, strategy: str = "auto") -> Solution | None:
        """The first solution, or None if the search proved there is none."""
        return next(self.solve(limit=1, timeout=timeout, strategy=strategy), None)

    def count(self, *, timeout: float | None = None, strategy: str = "auto") -> int:
        """The number of solutions; raises `IncompleteSearch` rather than guess (`InfinitelyMany`
        if there is no end to them, proved)."""
        search = self.search(timeout=timeout, strategy=strategy, keep=False).run()
        search.raise_if_incomplete()
        return search.found

    def verdict(self, *, timeout: float | None = None, strategy: str = "auto") -> Verdict:
        """`unique`, `multiple` (two shown), `none`, or `unknown` with the reason."""
        return self.search(timeout=timeout, decide=True, strategy=strategy).verdict()

    def explain(self, *, timeout: float | None = None) -> Explanation:
        """A step-by-step explanation, every step proved (see `smtcrypt.explain`)."""
        from smtcrypt.teach.explain import explain  # z3 loads with the first search, not on import

        return explain(self.problem, timeout=timeout)

    def play(self, *, timeout: float | None = 10.0) -> Game:
        """A game to solve the puzzle by hand (see `smtcrypt.teach.play`): `game.decide("S = 9")`
        answers accepted, rejected with the reason, or unknown (a move's search past `timeout`
        seconds); also `undo()`, `hint()`, `mark("S", [1, 2])`; it shows itself long-hand."""
        from smtcrypt.teach.play import Game  # z3 loads with the first search, not on import

        return Game(self.problem, timeout=timeout, drawing=None if self.layout is None else self.layout.text)

    def difficulty(self, *, timeout: float | None = None) -> int:
        """1 (one column at a time) to 5 (cases inside cases), from the explanation."""
        return self.explain(timeout=timeout).difficulty

    def is_solution(self, mapping: dict[str, int]) -> bool:
        """True if `mapping` (letter -> digit) solves the puzzle, by the exact checker."""
        return satisfies(self.problem, mapping)


def solve(formula: FormulaText, *, limit: int | None = None, timeout: float | None = None,
          strategy: str = "auto", **rules: Any) -> Iterator[Solution]:
    """Every solution of "NUM + BER = PLAY", lazily (the first arrives before the rest are searched)."""
    return Puzzle(formula, **rules).solve(limit=limit, timeout=timeout, strategy=strategy)


def count(formula: FormulaText, *, timeout: float | None = None, strategy: str = "auto", **rules: Any) -> int:
    """The number of solutions of "NUM + BER = PLAY" (96)."""
    return Puzzle(formula, **rules).count(timeout=timeout, strategy=strategy)


def verdict(formula: FormulaText, *, timeout: float | None = None, strategy: str = "auto", **rules: Any) -> Verdict:
    """Is "SEND + MORE = MONEY" unique? (It is: status `unique`, proved by the solver.)"""
    return Puzzle(formula, **rules).verdict(timeout=timeout, strategy=strategy)


def solve_all(formulas: Iterable[FormulaText], **options: Any) -> Iterator[tuple[str, Verdict]]:
    """The verdict of each formula in turn: for scripts that work through a list."""
    for formula in formulas:
        yield join(formula), verdict(formula, **options)
