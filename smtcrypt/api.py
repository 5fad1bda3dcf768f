"""The Python API: parse and check once, then solve, count or decide uniqueness.

    >>> import smtcrypt
    >>> smtcrypt.verdict("ODD * ODD = FREAKY").status
    <Status.MULTIPLE: 'multiple'>

Only wiring lives here: parse -> check -> encode -> solve -> verify, with
results as `Solution` and `Verdict` values.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

from .check import DigitSpec, Problem, check, make_rules
from .parse import parse
from .stats import Clock, search_space
from .tree import Name, Repeating, Word, walk
from .verify import confirm

if TYPE_CHECKING:
    from .explain import Explanation
    from .longhand import Layout

PROCESS_WIDE = {"memory", "max memory", "num allocs"}  # Z3 counters about the process, not the search
DIGIT_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"  # digits of bases up to 36, lowercase to differ from letters

FormulaText = str | Sequence[str]  # "NUM + BER = PLAY", or several constraints


class Status(str, enum.Enum):
    """What a search established."""

    UNIQUE = "unique"  # one solution, and the solver proved there is no other
    MULTIPLE = "multiple"  # at least two solutions
    NONE = "none"  # the solver proved there is no solution
    UNKNOWN = "unknown"  # the search could not finish (time limit, solver gave up)
    FOUND = "found"  # stopped early, as asked, with at least one solution
    INFINITE = "infinite"  # infinitely many solutions, proved; the first few are shown


INTERRUPTED = "interrupted"  # the reason given when the user stops a search
RECHECKED_EXACT = 100  # solutions of the exhaustive backend re-checked all the same: a guard on its generated code
SHOWN_OF_INFINITE = 10  # solutions listed once a search has proved there are infinitely many
DEFAULT_MEMORY_MB = 4096
MIN_MEMORY_MB = 256  # below this Z3 may abort the whole process instead of giving up (seen at 20 MB)
_memory_limit_mb = DEFAULT_MEMORY_MB


def set_memory_limit(megabytes: int) -> None:
    """Cap the memory Z3 may use, in MB, for every search in this process (Z3 keeps one such limit
    per process); a search that reaches it ends as `unknown` with the reason "memory limit"."""
    global _memory_limit_mb
    if megabytes < MIN_MEMORY_MB:
        raise ValueError(f"the memory limit must be at least {MIN_MEMORY_MB} MB")
    _memory_limit_mb = int(megabytes)


class IncompleteSearch(RuntimeError):
    """The search could not finish, so the answer is unknown (never "no solution")."""

    def __init__(self, reason: str, found: int):
        self.reason = reason
        self.found = found
        super().__init__(f"search incomplete ({reason}) after {found} solution(s): the answer is unknown")


class InfinitelyMany(IncompleteSearch):
    """The search proved there are infinitely many solutions (over integer unknowns)."""

    def __init__(self, reason: str, found: int):
        super().__init__(reason, found)
        self.args = (f"{reason} (the first {found} listed)",)


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

    def layout(self) -> "Layout":
        """The long-hand layout (see `smtcrypt.longhand`): rows a page can draw."""
        from .longhand import Layout, Row, layout

        if self.problem is None:
            return Layout("line", (Row(self.text, "number"),))
        digits = {**self.mapping, **dict(zip(self.problem.wildcards, self.wildcards))}  # `?`s are digits too
        return layout(self.problem, digits, self.text)

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
            f"{name}={DIGIT_CHARS[value] if name.isupper() else value}" for name, value in self.mapping.items())


@dataclass(frozen=True)
class Verdict:
    """How a search ended: its status, the solutions found, and whether it was complete."""

    formula: str
    status: Status
    solutions: tuple[Solution, ...]
    complete: bool  # the solver proved there are no solutions beyond these
    reason: str | None  # why the search is incomplete, if it is
    seconds: float
    stats: dict[str, Any] | None = None  # search space, Z3's counters, seconds per stage, models found
    found: int | None = None  # solutions counted, for a search that counted without keeping them

    @property
    def count(self) -> int:
        return len(self.solutions) if self.found is None else self.found

    def _repr_html_(self) -> str:
        import html

        proof = (self.stats or {}).get("proof")
        head = f"<p><code>{html.escape(self.formula)}</code>: <b>{self.status.value}</b>"
        head += f", proved by {html.escape(str(proof))}" if proof and self.complete else ""
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
    source, pieces, position = problem.source, [], 0
    nodes = [node for constraint in problem.formula.constraints for node in walk(constraint)
             if isinstance(node, (Word, Repeating, Name))]
    for node in sorted(nodes, key=lambda node: node.span.start):
        pieces += [source[position:node.span.start], (node, source[node.span.start:node.span.end])]
        position = node.span.end
    pieces.append(source[position:])

    if not any(isinstance(piece, tuple) and isinstance(piece[0], Name) for piece in pieces):
        # digits only: one str.format per solution ("{O}{D}{D} * ..."), the source's braces doubled
        letters = sorted(problem.letters)
        place = {letter: "{" + str(index) + "}" for index, letter in enumerate(letters)}
        template = "".join(piece.replace("{", "{{").replace("}", "}}") if isinstance(piece, str) else
                           "".join(place.get(ch, ch) for ch in _digits_of(*piece)) for piece in pieces)
        digit = DIGIT_CHARS.__getitem__
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
                filled.append("".join(DIGIT_CHARS[mapping[ch]] if ch.isalpha() else ch for ch in _digits_of(*piece)))
        return "".join(filled)
    return fill


def _digits_of(node: Word | Repeating, text: str) -> str:
    """What to fill in for a numeral: a word's letters (a `?` is there by its hidden name), a repeating
    decimal as written."""
    return node.letters if isinstance(node, Word) else text


class Search:
    """One search over a puzzle: iterate to get solutions as they are found, then ask for the verdict.

    `limit` stops after that many solutions (status `found`); `decide` stops after two, which is
    enough to decide uniqueness (status `multiple`); `timeout` bounds the whole search in seconds.
    """

    def __init__(self, problem: Problem, *, limit: int | None = None, timeout: float | None = None,
                 decide: bool = False, clock: Clock | None = None, strategy: str = "auto", keep: bool = True,
                 fill: Callable[[dict[str, int]], str] | None = None):
        from .engine.portfolio import STRATEGIES, Portfolio, StrategyError

        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ValueError(f"limit must be a positive integer, not {limit!r}")
        if strategy not in STRATEGIES:
            raise StrategyError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
        if strategy in ("cubes", "linear") and problem.unknowns:  # the exhaustive one says for itself (bounded ones it takes)
            raise StrategyError(f"the {strategy} strategy cannot search a puzzle with integer unknowns "
                                "(they have no finite set of values to try)")
        self.problem = problem
        self.clock = Clock() if clock is None else clock
        self.limit = 2 if decide else limit
        self.keep = keep  # False: count the solutions without making `Solution`s (and yield none)
        # made here, so that a strategy that cannot search this puzzle is refused before iterating
        self.engine = Portfolio(problem, limit=self.limit, strategy=strategy, listing=keep, clock=self.clock)
        self.stop_requested = False
        self.decide = decide
        self.timeout = timeout
        self.strategy = strategy
        self.fill = fill  # how a solution's text is made (a layout's own); by default the formula filled in
        self.formula = problem.source  # as shown in the verdict (a layout's own text)
        self.solutions: list[Solution] = []
        self.found = 0
        self.complete = False
        self.reason: str | None = None
        self.stopped_early = False
        self.family: Any = None  # a proof of infinitely many solutions, once found
        self.seconds = 0.0
        self._started = False

    def __iter__(self) -> Iterator[Solution]:
        if self._started:
            raise RuntimeError("a Search can be iterated once; start a new one")
        self._started = True
        import z3

        start = time.monotonic()
        deadline = None if self.timeout is None else start + self.timeout
        try:
            z3.set_param("memory_max_size", _memory_limit_mb)
            engine = self.engine
            engine.deadline = deadline
            fill = self.fill or filler(self.problem)
            wildcards = self.problem.wildcards
            names = sorted([*self.problem.letters, *self.problem.unknowns])  # a mapping lists them alphabetically
            if wildcards:  # the `?`s are shown in the text and apart, not in the mapping
                names = [name for name in names if name not in wildcards]
            base, unbounded = self.problem.rules.base, engine.unbounded
            batches = iter(engine)
            clock, solving = time.perf_counter, 0.0  # the solve stage timed by hand: a with-block per solution costs
            while True:
                before = clock()
                batch = next(batches, None)
                solving += clock() - before
                if batch is None:
                    break
                exact = engine.exact
                for index, assignment in enumerate(batch):
                    if index & 1023 == 1023 and self._stop_in_batch(deadline):
                        self._add_solving(solving)
                        return
                    if not exact or self.found < RECHECKED_EXACT:
                        with self.clock("verify"):
                            confirm(self.problem, assignment)
                    self.found += 1
                    if unbounded and self.found == 1 and (self.limit is None or self.decide):
                        from .family import find_family

                        with self.clock("solve"):
                            self.family = find_family(self.problem, assignment)
                    if self.keep:
                        if wildcards:
                            solution = Solution({name: assignment[name] for name in names}, fill(assignment), base,
                                                tuple(assignment[name] for name in wildcards), self.problem)
                        else:
                            mapping = assignment if exact else {name: assignment[name] for name in names}
                            solution = Solution(mapping, fill(mapping), base, problem=self.problem)
                        self.solutions.append(solution)
                        yield solution
                    if self.family is not None:  # no end to the models: show a few of the family, say why
                        self._add_solving(solving)
                        yield from self._family_members(names, wildcards, fill)
                        return
                    if self.limit is not None and self.found >= self.limit:
                        self._add_solving(solving)
                        self.stopped_early = True
                        return
            self._add_solving(solving)
            self.found += engine.bulk  # solutions counted by cubes, never listed
            assert engine.end is not None
            self.complete, self.reason = engine.end.complete, engine.end.reason
        finally:
            self.seconds = time.monotonic() - start

    def _family_members(self, names: list[str], wildcards: Sequence[str],
                        fill: Callable[[dict[str, int]], str]) -> Iterator[Solution]:
        """The proved family's next members (start + t * step), up to SHOWN_OF_INFINITE solutions
        in all (two when deciding uniqueness), so that the rows shown walk as its summary says. Each
        passes the exact re-check; a member that fails a `!=` (at most one does) is left out."""
        from .verify import satisfies

        assert self.family is not None
        self.reason = self.family.describe()
        shown = 2 if self.decide else SHOWN_OF_INFINITE
        t = 0
        while self.found < shown and not self.stop_requested:
            t += 1
            member = self.family.member(t)
            if not satisfies(self.problem, member):
                continue
            with self.clock("verify"):
                confirm(self.problem, member)
            self.found += 1
            if self.keep:
                solution = Solution({name: member[name] for name in names}, fill(member), self.problem.rules.base,
                                    tuple(member[name] for name in wildcards), self.problem)
                self.solutions.append(solution)
                yield solution

    def _stop_in_batch(self, deadline: float | None) -> bool:
        """A large batch is long work for this loop too: stop in it when asked or out of time."""
        if self.stop_requested:
            self.reason = INTERRUPTED
        elif deadline is not None and time.monotonic() >= deadline:
            self.reason = "time limit"
        return self.reason is not None

    def _add_solving(self, seconds: float) -> None:
        """The engine's time, less the stages it timed itself inside (compile, encode)."""
        seconds -= sum(self.clock.seconds.get(stage, 0.0) for stage in ("compile", "encode"))
        self.clock.seconds["solve"] = self.clock.seconds.get("solve", 0.0) + max(seconds, 0.0)

    def request_stop(self) -> None:
        """End the search soon, with what it found so far: the running solver call is interrupted.
        Safe from a signal handler and from another thread."""
        self.stop_requested = True
        self.engine.request_stop()

    def raise_if_incomplete(self) -> None:
        """`IncompleteSearch` (or `InfinitelyMany`) unless the search finished or stopped as asked."""
        if not self.complete and not self.stopped_early:
            if self.family is not None:
                raise InfinitelyMany(self.reason or self.family.describe(), self.found)
            raise IncompleteSearch(self.reason or "unknown", self.found)

    def run(self) -> "Search":
        """Search to the end (or the limit) without looking at solutions on the way."""
        for _ in self:
            pass
        return self

    def verdict(self) -> Verdict:
        if not self._started:
            self.run()
        count = self.found
        if self.family is not None:
            status = Status.INFINITE
        elif self.stopped_early:
            status = Status.MULTIPLE if self.decide and count >= 2 else Status.FOUND
        elif not self.complete:
            status = Status.UNKNOWN
        else:
            status = Status.NONE if count == 0 else Status.UNIQUE if count == 1 else Status.MULTIPLE
        return Verdict(self.formula, status, tuple(self.solutions), self.complete, self.reason,
                       self.seconds, self.statistics(), None if self.keep else self.found)

    def statistics(self) -> dict[str, Any]:
        """What the search cost: the brute-force space, models found, Z3's counters, seconds per stage."""
        space, exact = search_space(self.problem)
        engine = self.engine.statistics() if self.engine is not None else {}
        z3_counters = engine.pop("z3_counters", {})
        return {
            "search_space": space,  # None: infinite (integer unknowns)
            "search_space_exact": exact,  # False: distinct assignments too many to count; product of domains
            "strategy": engine.pop("strategy", None),  # the backends that searched: "z3", "exhaustive", "z3 -> exhaustive"
            "proof": engine.pop("proof", None),  # for a complete search: "unsat", "every assignment tried", ...
            "models": self.found,
            "solver_checks": engine.pop("solver_checks", 0),
            **engine,  # the exhaustive backend's candidates, and its price estimate
            "z3": {key: (round(value, 6) if isinstance(value, float) else value)
                   for key, value in sorted(z3_counters.items()) if key not in PROCESS_WIDE},
            "seconds": {stage: round(self.clock.seconds.get(stage, 0.0), 6)
                        for stage in ("parse", "check", "compile", "encode", "solve", "verify")},
        }


class Puzzle:
    """A formula parsed and checked once, under its rules; solve, count or decide it as often as needed.

        >>> Puzzle("SEND + MORE = MONEY").count()
        1
    """

    layout: Any = None  # the printed long multiplication or division it was made from (see from_layout)

    def __init__(self, formula: FormulaText, *, distinct: bool | str | Iterable[str] = True,
                 allow_leading_zeros: bool = False,
                 base: int = 10, digits: DigitSpec | None = None,
                 domains: Mapping[str, DigitSpec] | Iterable[str] | None = None,
                 assign: Mapping[str, int] | Iterable[str] | None = None):
        self.rules = make_rules(distinct=distinct, allow_leading_zeros=allow_leading_zeros, base=base,
                                digits=digits, domains=domains, assign=assign)
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
        """A search to iterate; `strategy` forces one backend: "z3" (the solver, model by model),
        "exhaustive" (every assignment, compiled), or "auto" (by cost, switching while running)."""
        clock = Clock()
        clock.seconds.update(self.clock.seconds)
        search = Search(self.problem, limit=limit, timeout=timeout, decide=decide, clock=clock, strategy=strategy,
                        keep=keep, fill=None if self.layout is None else self.layout.filler(self.problem))
        if self.layout is not None:
            search.formula = self.layout.text
        return search

    @classmethod
    def from_layout(cls, text: str, **rules: Any) -> "Puzzle":
        """A long multiplication or long division pasted as printed (see `smtcrypt.layout`): its rows
        become equations between words, and each solution's text is the layout filled in."""
        from .layout import parse_layout

        layout = parse_layout(text)
        puzzle = cls.__new__(cls)
        puzzle.rules = make_rules(**rules)
        puzzle.clock = Clock()
        with puzzle.clock("parse"):
            tree = parse(layout.formula(puzzle.rules.base), named_cells=True)
        with puzzle.clock("check"):
            puzzle.problem = check(tree, puzzle.rules)
        puzzle.layout = layout
        return puzzle

    def answers(self, expression: str, *, unique: bool = False, timeout: float | None = None,
                strategy: str = "auto") -> Any:
        """The values `expression` (a formula expression over the puzzle's letters, or a tuple such as
        "(A, BC)") takes over the solutions, each with how many give it: an `answers.Answers`.
        `unique=True` decides only whether the answer is unique, without listing every solution."""
        from .answers import answers

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

    def explain(self, *, timeout: float | None = None) -> "Explanation":
        """A step-by-step explanation, every step proved (see `smtcrypt.explain`)."""
        from .explain import explain

        return explain(self.problem, timeout=timeout)

    def difficulty(self, *, timeout: float | None = None) -> int:
        """1 (one column at a time) to 5 (cases inside cases), from the explanation."""
        return self.explain(timeout=timeout).difficulty

    def is_solution(self, mapping: dict[str, int]) -> bool:
        """True if `mapping` (letter -> digit) solves the puzzle, by the exact checker."""
        from .verify import satisfies

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


def solve_all(formulas: Iterable[FormulaText], **options) -> Iterator[tuple[str, Verdict]]:
    """The verdict of each formula in turn: for scripts that work through a list."""
    for formula in formulas:
        yield join(formula), verdict(formula, **options)
