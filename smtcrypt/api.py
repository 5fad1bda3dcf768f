"""The Python API: parse and check once, then solve, count or decide uniqueness.

    >>> import smtcrypt
    >>> smtcrypt.verdict("ODD * ODD = FREAKY").status
    <Status.MULTIPLE: 'multiple'>

A facade: `Puzzle` reads a puzzle through its notation's door (`smtcrypt.notations`), parsed and
checked under its rules, and hands the problem to the search loop (`smtcrypt.search`) or to a tool
(answers, explanations, play).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from numbers import Real
from typing import TYPE_CHECKING, Any

from smtcrypt.core.clock import Clock
from smtcrypt.core.results import FormulaText, Solution, Verdict, join
from smtcrypt.core.rules import DigitSpec, make_rules
from smtcrypt.core.verify import satisfies
from smtcrypt.engine.base import Executor
from smtcrypt.errors import FormulaError, ParameterError
from smtcrypt.notations import Reading, View, read
from smtcrypt.search import Search
from smtcrypt.setters.answers import Answers, answers
from smtcrypt.setters.optimum import Optimum, optimize

if TYPE_CHECKING:
    from smtcrypt.notations.cryptator import CryptatorPuzzle
    from smtcrypt.notations.layout import PrintedLayout
    from smtcrypt.teach.explain import Explanation, StopSwitch
    from smtcrypt.teach.play import Game


def checked_timeout(timeout: float | None) -> float | None:
    """`timeout` if it is None or a positive number of seconds, as the command line's `--timeout`
    takes; else a `ParameterError` naming it (0 or -1 would end every search at once, as unknown, and
    look like a puzzle too hard for any time)."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, Real) or math.isnan(timeout) or not timeout > 0:
        raise ParameterError(f"timeout must be a positive number of seconds (or None: no limit), not {timeout!r}")
    return timeout


def checked_formula(formula: object) -> FormulaText:
    """`formula` if it is a text or a sequence of texts (one constraint each); else a `ParameterError`
    naming it, before a reader fails on it somewhere deeper."""
    if isinstance(formula, str):
        return formula
    if isinstance(formula, Sequence) and all(isinstance(part, str) for part in formula):  # (none: the reader says)
        return list(formula)
    shown = repr(formula) if len(repr(formula)) <= 60 else repr(formula)[:57] + "..."
    raise ParameterError(f"formula must be a text such as \"SEND + MORE = MONEY\" or a list of such texts "
                         f"(one constraint each), not {type(formula).__name__} {shown}")


class Puzzle:
    """A puzzle read and checked once, under its rules; solve, count or decide it as often as needed.

        >>> Puzzle("SEND + MORE = MONEY").count()
        1

    Every notation comes in through the same door (`smtcrypt.notations`): `Puzzle(formula, **rules)`
    for the formula language, `Puzzle.read(text, syntax, **options)` for any notation, and the
    shortcuts `from_layout`, `from_enigma` and `from_cryptator`, which read through it.
    """

    def __init__(self, formula: FormulaText | Reading, *, distinct: bool | str | Iterable[str] = True,
                 allow_leading_zeros: bool = False,
                 base: int = 10, digits: DigitSpec | None = None,
                 domains: Mapping[str, DigitSpec] | Iterable[str] | None = None,
                 assign: Mapping[str, int] | Iterable[str] | None = None,
                 nonzero_single_letters: bool = False):
        if isinstance(formula, Reading):  # read already, in any notation, under its own rules
            given = (distinct, allow_leading_zeros, base, digits, domains, assign, nonzero_single_letters)
            if given != (True, False, 10, None, None, None, False):
                raise TypeError("a Reading carries its own rules: give no rule keywords with it")
            self.reading = formula
        else:
            self.reading = read(checked_formula(formula), rules=make_rules(
                distinct=distinct, allow_leading_zeros=allow_leading_zeros, base=base, digits=digits,
                domains=domains, assign=assign, nonzero_single_letters=nonzero_single_letters))
        self.rules = self.reading.rules
        self.problem = self.reading.problem
        self.clock = Clock()  # the door's parse and check here, the later stages in each search
        self.clock.seconds.update(self.reading.seconds)

    @classmethod
    def read(cls, text: Any, syntax: str = "smtcrypt", **options: Any) -> Puzzle:
        """The puzzle `text` in notation `syntax` ("smtcrypt", "layout", "enigma" or "cryptator"), with
        that notation's own options (see `smtcrypt.notations`)."""
        return cls(read(text, syntax, **options))

    @classmethod
    def from_layout(cls, text: str, conditions: FormulaText | None = None, *, nonzero_remainders: bool = False,
                    conditions_allow_leading_zeros: bool = False, **rules: Any) -> Puzzle:
        """A long multiplication or long division pasted as printed (see `smtcrypt.notations.layout`):
        its rows become equations between words, and each solution's text is the layout filled in.

        `conditions` (a formula, or several as `Puzzle` takes them) must hold too; they name the
        layout's letters in capitals, and a letter the layout lacks is one more letter of the puzzle.
        `nonzero_remainders`: no remainder row of a division starts with 0, a one-digit one included
        (enigma.py's rule). `conditions_allow_leading_zeros`: the conditions' words may start with 0,
        the layout's rows keeping the rule (enigma.py's `--extra` under a division)."""
        return cls.read(text, "layout", conditions=conditions, nonzero_remainders=nonzero_remainders,
                        conditions_allow_leading_zeros=conditions_allow_leading_zeros, **rules)

    @classmethod
    def from_enigma(cls, command: str | Sequence[str]) -> Puzzle:
        """An enigma.py command line, as a list (`["SubstitutedExpression", "TOM * 13 = DALEY"]`) or as
        text (a line, or a run file), read as enigma.py reads it (see `smtcrypt.notations.enigma`)."""
        return cls.read(command, "enigma")

    @classmethod
    def from_cryptator(cls, text: str, *, base: int = 10, allow_leading_zeros: bool = False,
                       assign: Mapping[str, int] | Iterable[str] | None = None, relax_min: int = 0,
                       relax_max: int = 0) -> Puzzle:
        """A formula in Cryptator's notation (`send+more=money`, `a*a=b && b=a+a`, `r='36'`) under
        Cryptator's rules and options (see `smtcrypt.notations.cryptator`); `assign` names the
        puzzle's own symbols (`{"a": 1}` or `["a=1"]`). Its `cryptator` attribute shows solutions
        in those symbols."""
        return cls.read(text, "cryptator", base=base, allow_leading_zeros=allow_leading_zeros, assign=assign,
                        relax_min=relax_min, relax_max=relax_max)

    @property
    def view(self) -> View:
        """How the puzzle's notation shows a solution: in the user's symbols and layout."""
        return self.reading.view

    @property
    def layout(self) -> PrintedLayout | None:
        """The printed long multiplication or division it was read from, if any."""
        return getattr(self.reading.view, "layout", None)

    @property
    def conditions(self) -> str:
        """The conditions added to a layout, one a line (see `from_layout`)."""
        return getattr(self.reading.view, "conditions", "")

    @property
    def cryptator(self) -> CryptatorPuzzle | None:
        """The Cryptator formula it was read from (see `from_cryptator`), which shows solutions in its symbols."""
        return getattr(self.reading.view, "translated", None)

    @property
    def formula(self) -> str:
        """The formula searched (for a layout, the equations made from its rows)."""
        return self.view.searched(self.problem)

    @property
    def letters(self) -> tuple[str, ...]:
        return self.problem.letters

    def __repr__(self) -> str:
        return f"Puzzle({self.formula!r})"

    def search(self, *, limit: int | None = None, timeout: float | None = None, decide: bool = False,
               strategy: str = "auto", keep: bool = True, executor: Executor = Executor.AUTO) -> Search:
        """A search to iterate; `strategy` (a name, or a `smtcrypt.engine.Strategy`) forces one
        backend: "z3" (the solver, model by model), "cubes" (the solver, a cube of solutions at a
        time), "linear" (a sum's equation, digit by digit), "digits" (equations of products, column
        by column from the right), "join" (an equation's two sides apart),
        "exhaustive" (every assignment, compiled), or "auto" (by cost, switching while running;
        a notation may prefer another: Cryptator's digit counts go to Z3 alone, far faster).
        `executor` says how the kernel searches run (`smtcrypt.engine.Executor`): `AUTO`, `PLAIN`
        (the interpreter alone, no numba or numpy) or `COMPILED` (numba's kernels, where installed:
        worth their load, about a second, for many puzzles)."""
        timeout = checked_timeout(timeout)
        if strategy == "auto":
            strategy = self.reading.strategy
        clock = Clock()
        clock.seconds.update(self.clock.seconds)
        search = Search(self.problem, limit=limit, timeout=timeout, decide=decide, clock=clock, strategy=strategy,
                        keep=keep, fill=self.view.fill(self.problem) if keep else None,  # a count shows none
                        executor=executor)
        if self.view.formula is not None:  # a layout as given, then its conditions, one a line
            search.formula = self.view.formula
        return search

    def answers(self, expression: str, *, unique: bool = False, timeout: float | None = None,
                strategy: str = "auto") -> Answers:
        """The values `expression` (a formula expression over the puzzle's letters, or a tuple such as
        "(A, BC)") takes over the solutions, each with how many give it: an `answers.Answers`.
        `unique=True` decides only whether the answer is unique, without listing every solution."""
        return answers(self.reading, expression, unique=unique, timeout=checked_timeout(timeout), strategy=strategy)

    def optimize(self, objective: str, *, sense: str = "maximize", unique: bool = False,
                 timeout: float | None = None, strategy: str = "auto") -> Optimum:
        """The largest (`sense="maximize"`) or smallest (`"minimize"`) value of `objective`, an
        expression over the puzzle's letters and unknowns, over its solutions, with a solution that
        attains it: an `optimum.Optimum`, its status `optimal` (proved), `none` or `unknown` (the best
        found, a bound, where the time ran out). `unique=True` also decides whether one solution only
        attains it (`attained`).

            >>> Puzzle("SEND + MOST = MONEY").optimize("MONEY").value
            10876
        """
        return optimize(self.reading, objective, sense=sense, unique=unique, timeout=checked_timeout(timeout),
                        strategy=strategy)

    def solve(self, *, limit: int | None = None, timeout: float | None = None,
              strategy: str = "auto") -> Iterator[Solution]:
        """Every solution, lazily; raises `IncompleteSearch` at the end if the search could not finish."""
        search = self.search(limit=limit, timeout=timeout, strategy=strategy)
        yield from search
        search.raise_if_incomplete()

    def first(self, *, timeout: float | None = None, strategy: str = "auto") -> Solution | None:
        """The first solution, or None if the search proved there is none."""
        return next(self.solve(limit=1, timeout=timeout, strategy=strategy), None)

    def count(self, *, timeout: float | None = None, strategy: str = "auto",
              executor: Executor = Executor.AUTO) -> int:
        """The number of solutions; raises `IncompleteSearch` rather than guess (`InfinitelyMany`
        if there is no end to them, proved). `executor` as for `search`."""
        search = self.search(timeout=timeout, strategy=strategy, keep=False, executor=executor).run()
        search.raise_if_incomplete()
        return search.found

    def verdict(self, *, timeout: float | None = None, strategy: str = "auto") -> Verdict:
        """`unique`, `multiple` (two shown), `none`, or `unknown` with the reason."""
        return self.search(timeout=timeout, decide=True, strategy=strategy).verdict()

    def explain(self, *, timeout: float | None = None, stop: StopSwitch | None = None) -> Explanation:
        """A step-by-step explanation, every step proved (see `smtcrypt.teach.explain`).
        `stop.request()`, from a signal handler or another thread, ends it soon (Ctrl-C)."""
        from smtcrypt.teach.explain import explain  # z3 loads with the first search, not on import

        return explain(self.problem, timeout=checked_timeout(timeout), stop=stop)

    def play(self, *, timeout: float | None = 10.0) -> Game:
        """A game to solve the puzzle by hand (see `smtcrypt.teach.play`): `game.decide("S = 9")`
        answers accepted, rejected with the reason, or unknown (a move's search past `timeout`
        seconds); also `undo()`, `hint()`, `mark("S", [1, 2])`; it shows itself long-hand."""
        from smtcrypt.teach.play import Game  # z3 loads with the first search, not on import

        return Game(self.problem, timeout=checked_timeout(timeout), drawing=self.view.drawing)

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


def solve_all(formulas: Iterable[FormulaText], **options: Any) -> Iterator[tuple[str, Verdict | FormulaError]]:
    """The verdict of each formula in turn, for scripts that work through a list: a formula that cannot
    be read gives its `FormulaError` (with its caret) in place of a verdict, and the others go on, as
    `smtcrypt batch` answers each line. Options that are wrong for every formula (`timeout=0`) are a
    `ParameterError` at once, before any formula."""
    checked_timeout(options.get("timeout"))
    for formula in formulas:
        result: Verdict | FormulaError
        try:
            result = verdict(formula, **options)
        except ParameterError:  # misuse (a formula that is no text, a rule of the wrong type): the caller's to fix
            raise
        except FormulaError as error:
            result = error
        yield join(formula), result
