"""The Z3 backend: enumerate every model with blocking clauses, and say how the search ended.

The loop stops only on `unsat` (complete: a proof that no other solution exists) or on `unknown` (time
limit or the solver gave up: never read as "no more solutions"). A specialised solver that gives up is
replaced by Z3's general solver, with the blocking clauses so far, before `unknown` is reported. A search
whose checks run long may go on case by case (analysis/split.py), complete once every case is `unsat`.
"""

from __future__ import annotations

import abc
import collections
import contextlib
import enum
import itertools
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import z3

from smtcrypt.core.check import MAX_EXPONENT_CASES, Problem, large_exponents
from smtcrypt.encode import Encoded, EncodingStopped, encode, indicator, watched
from smtcrypt.engine.base import THREADS, Assignment, Backend, Ending, Fit, Means, Proof, SearchEnd, Statistics, past
from smtcrypt.engine.memory import retain_freed_memory_once as retain_freed_memory_once

UNBOUNDED_MODEL_CAP = 1000  # models enumerated over unbounded unknowns before the search stops as unknown
SPLIT_AFTER_CONFLICTS = 2000  # a check that takes more conflicts splits the search into cases, if it can
CASE_CONFLICTS = 1000  # a case's first budget: a case that needs more waits for the others, then gets twice as many
NO_CONFLICT_LIMIT = 2**32 - 1
TIME_IS_UP_SLACK = 0.05  # seconds before the deadline from which a solver's `unknown` is put down to the time limit


def solvers(encoded: Encoded) -> tuple[str, ...]:
    """Z3's solvers to try, in order, before the general one, for what the encoding's terms are.
    Linear terms over bounded integers go to the finite-domain solver (incremental: each further
    model is cheap), then, where If-terms may make it give up, to bit-blasting; bounded nonlinear
    terms are bit-blasted; unbounded ones only the general solver takes."""
    if encoded.terms == "bit-vector":
        return ("bit-vector",)
    if encoded.terms == "linear" and not encoded.unbounded:
        return ("finite-domain", "bit-blast") if encoded.if_terms and encoded.bounded else ("finite-domain",)
    return ("bit-blast",) if encoded.bounded else ()


def make_solver(strategy: str, context: z3.Context) -> z3.Solver:
    """A solver for a strategy an encoding asks for: "finite-domain" (QF_FD: linear, bounded integers),
    "bit-blast" (bounded nonlinear terms, the tactic run at every check), "bit-vector" (incremental QF_BV,
    keeping learned clauses between models) or "general". Z3's Ctrl-C handler is off: it swaps the SIGINT
    handler around every check, and a signal landing as a short check ends is lost (see `request_stop`)."""
    if strategy in ("finite-domain", "bit-vector"):
        solver = z3.SolverFor("QF_FD" if strategy == "finite-domain" else "QF_BV", ctx=context)
    elif strategy == "bit-blast":
        steps = [z3.Tactic(name, ctx=context) for name in ("simplify", "propagate-values", "nla2bv", "qfbv")]
        solver = z3.Then(*steps).solver()
    else:
        solver = z3.Solver(ctx=context)
    solver.set("ctrl_c", False)
    return solver


def disjunction(literals: list[z3.BoolRef], context: z3.Context) -> z3.BoolRef:
    """The literals' Or (false for none), made in one call: z3.Or's coercions cost more than the solver's check."""
    array = (z3.Ast * len(literals))(*[literal.as_ast() for literal in literals])
    return z3.BoolRef(z3.Z3_mk_or(context.ref(), len(literals), array), context)


def interrupt(context: z3.Context) -> None:
    """Stop the context's running call, from any thread or a signal handler. The wrapper then
    reads the context's last error, which may belong to the call being stopped: not ours to raise."""
    with contextlib.suppress(z3.Z3Exception):
        context.interrupt()


STOP_REPEAT_SECONDS = 0.005  # how often a stop interrupts the context again until the search has ended
STOP_REPEAT_FOR = 1.0  # seconds: by then the search is past its next check (or was left unfinished, as a race loser)


@contextlib.contextmanager
def watchdog(due: Callable[[], float | None], context: z3.Context) -> Iterator[None]:
    """A backstop for solvers that do not watch the timeout parameter (tactic pipelines): one thread
    interrupts the context itself at the time `due()` says, read again when it comes (it may have moved later)."""
    done = threading.Event()

    def watch() -> None:
        # a deadline past what a timer can wait (a share of an astronomical price) is no deadline
        while (until := due()) is not None and (left := until - time.monotonic()) < threading.TIMEOUT_MAX:
            if left <= 0:
                interrupt(context)
                return
            if done.wait(left):
                return

    if THREADS and due() is not None:
        threading.Thread(target=watch, name="smtcrypt-watchdog", daemon=True).start()
    try:
        yield
    finally:
        done.set()


class Z3Backend(Backend):
    """A backend whose checks are Z3's, in `context`: a stop interrupts the running check, and a
    watchdog holds the deadline for solvers that do not watch their timeout."""

    context: z3.Context

    def request_stop(self) -> None:
        """End the search: before the next check, and the running check at once, interrupted again every few
        milliseconds until the search has ended (an interrupt landing between two solver calls, while Python
        reads a model or adds a clause, is lost). Safe from a signal handler and another thread (Z3's interrupt is)."""
        if self.stop_requested:
            return
        self.stop_requested = True
        interrupt(self.context)

        def repeat() -> None:
            until = time.monotonic() + STOP_REPEAT_FOR
            while self.end is None and time.monotonic() < until:
                time.sleep(STOP_REPEAT_SECONDS)
                if self.end is None:
                    interrupt(self.context)

        if THREADS:
            threading.Thread(target=repeat, name="smtcrypt-stop", daemon=True).start()

    def batches(self) -> Iterator[list[Assignment]]:
        with watchdog(self.due, self.context):
            yield from self._enumerate()

    def due(self) -> float | None:
        """When the watchdog interrupts the running check: the deadline."""
        return self.deadline

    @abc.abstractmethod
    def _enumerate(self) -> Iterator[list[Assignment]]:
        """The batches, the deadline held by the watchdog."""


class ModelSearch(Z3Backend):
    """The letter assignments of every model, lazily, a batch per model (the model and its
    variants); `end` is set once iteration finishes. Its models are a solver's: never `exact`."""

    name = "z3"

    def __init__(self, encoded: Encoded, deadline: float | None = None,
                 split_after: int | None = SPLIT_AFTER_CONFLICTS, blocked: Iterable[Assignment] = ()):
        self.encoded = encoded
        self.context = encoded.context
        self.deadline = deadline
        # every model so far (and those given), each blocked
        self.models: list[Assignment] = [dict(model) for model in blocked]
        self.indicators: dict[tuple[str, int], z3.BoolRef] = {}  # (letter, value) -> letter != value
        self.propositional = False  # block through Boolean indicators (finite-domain solver only)
        self.solver: z3.Solver | None = None
        self.spent: dict[str, float] = {}  # statistics of solvers replaced during the search
        # a finite-domain check past `split_after` conflicts (0: at once; None: never) goes on case by case
        self.split_after = split_after if encoded.split is not None and encoded.indicators else None
        # once split: the cases still open, each as its literals and the conflicts its next check may take
        self.cases: collections.deque[tuple[tuple[z3.BoolRef, ...], int]] | None = None
        self.budgets = False  # the solver takes a conflict budget per check (the finite-domain one does)

    @classmethod
    def fit(cls, problem: Problem, means: Means) -> Fit:
        """Takes every problem its encodings can write: all but a power whose variable exponent takes
        more values than they split a power into (the compiled formula computes those)."""
        large = large_exponents(problem)
        if not large:
            return Fit.taken()
        low, high = problem.exponent_ranges[large[0]]
        return Fit.refused(f"a variable exponent takes values {low}..{high}, more than the {MAX_EXPONENT_CASES} "
                           "cases Z3's encodings split a power into", "the exhaustive strategy (and auto) computes it")

    @classmethod
    def start(cls, problem: Problem, made: Any, means: Means) -> ModelSearch:
        """The problem encoded in a new context of `means`; an encoding stopped before it is built
        leaves a search that ends before its first check. Splitting a hard search into cases speeds
        up proving there is nothing more, but the cases are searched in a fixed order, so a first
        solution may come much later: a search for one solution (`means.limit`) does not split."""
        context = means.context()
        try:
            with means.clock("encode"), watched(means.halted):
                encoded = encode(problem, context)
        except EncodingStopped:
            encoded = Encoded(context, {}, [])
        return cls(encoded, split_after=None if means.limit == 1 else SPLIT_AFTER_CONFLICTS)

    def statistics(self, stats: Statistics) -> None:
        """Z3's own counters (conflicts, decisions, ...), summed over every solver the search used."""
        counters = dict(self.spent)
        stats.z3 = _counted(self.solver, counters) if self.solver is not None else counters

    def _solver(self, strategy: str) -> z3.Solver:
        solver = make_solver(strategy, self.context)
        self.budgets = strategy == "finite-domain" and self.split_after is not None
        if self.budgets and self.cases is None and self.split_after:
            solver.set("max_conflicts", self.split_after)
        solver.add(*self.encoded.constraints)
        self.indicators = {}
        self.propositional = strategy in ("finite-domain", "bit-vector")
        for model in self.models:
            self._block(solver, model)
        return solver

    def _block(self, solver: z3.Solver, model: Assignment) -> None:
        """Exclude this model. On the finite-domain solver, through a Boolean per (letter, digit):
        a clause of Booleans adds nothing the solver must translate back in every later model."""
        letters = self.encoded.letters
        if self.encoded.determined:
            model = {letter: value for letter, value in model.items() if letter not in self.encoded.determined}
        if not model:  # no letters, or all of them fixed by the constraints: this was the only model
            solver.add(z3.BoolVal(False, self.context))
        elif not self.propositional:
            solver.add(z3.Or(*[letters[letter] != value for letter, value in model.items()]))
        else:
            literals = []
            for letter, value in model.items():
                literal = self.indicators.get((letter, value))
                if literal is None:  # "letter != value", defined once and reused by every later clause
                    named = indicator(letter, value, self.context)
                    if not self.encoded.indicators:
                        solver.add(named == (letters[letter] == value))
                    literal = self.indicators[(letter, value)] = z3.Not(named)
                literals.append(literal)
            solver.add(disjunction(literals, self.context))

    def _reader(self) -> Callable[[z3.ModelRef], Assignment]:
        """How to read the letters' values from a model. Digits are read all at once, packed six
        bits each into one number: one evaluation instead of one per letter."""
        variables = list(self.encoded.letters.items())
        if not self.encoded.digits_only or not variables:
            return lambda model: {letter: model.eval(var, model_completion=True).as_long() for letter, var in variables}
        packed = z3.Sum(*[var * (1 << 6 * place) for place, (_, var) in enumerate(variables)])

        def read(model: z3.ModelRef) -> Assignment:
            value = model.eval(packed, model_completion=True).as_long()
            return {letter: value >> 6 * place & 63 for place, (letter, _) in enumerate(variables)}
        return read

    def _split(self) -> None:
        """Go on case by case: each case's digits as assumption literals over the `A=1` Booleans."""
        assert self.encoded.split is not None
        context = self.context
        # the split, and the literals, take a while: both look at the stop flag
        self.cases = collections.deque(
            (tuple([indicator(letter, digit, context) for letter, digit in case.fixed]
                   + [z3.Not(indicator(letter, digit, context)) for letter, digit in case.excluded]), CASE_CONFLICTS)
            for case in self.encoded.split(lambda: self.stop_requested) if not self.stop_requested)
        if self.stop_requested:  # the cases were cut short: they no longer hold every solution
            self.end = SearchEnd(Ending.INTERRUPTED)

    def variants(self, model: Assignment) -> Iterator[Assignment]:
        """The model and every permutation of digits within its interchangeable letter groups."""
        groups = self.encoded.interchangeable
        choices = [sorted(set(itertools.permutations([model[letter] for letter in group]))) for group in groups]
        for picked in itertools.product(*choices):
            variant = dict(model)
            for group, values in zip(groups, picked):
                variant.update(zip(group, values))
            yield variant

    @property
    def _current(self) -> z3.Solver:
        """The solver searching now (there is one once the enumeration has begun)."""
        assert self.solver is not None
        return self.solver

    def _enumerate(self) -> Iterator[list[Assignment]]:
        """Check, read and block a model, until a check (or, once split, every case) is unsat or
        the search must end; `end` says which."""
        strategies = [*solvers(self.encoded), "general"]
        if self.split_after == 0:
            self._split()
        self.solver = self._solver(strategies.pop(0))
        read = self._reader()
        while self._may_check():
            result = self._current.check(*self._assumptions())
            if result == z3.sat:
                if (assignment := self._take_model(read)) is not None:
                    yield list(self.variants(assignment))
            elif result == z3.unsat:
                if self.cases:  # this case holds no more solutions: the next one
                    self.cases.popleft()
                else:
                    self.end = SearchEnd(Ending.COMPLETE, proof=Proof.UNSAT)
            else:
                self._unknown(strategies)

    def _may_check(self) -> bool:
        """True if the search goes on to another check (its time limit set); otherwise `end` says why not."""
        if self.end is not None:
            return False
        if self.stop_requested:  # first: a split cut short by the stop holds no proof
            self.end = SearchEnd(Ending.INTERRUPTED)
        elif self.cases is not None and not self.cases:  # split, and every case searched
            self.end = SearchEnd(Ending.COMPLETE, proof=Proof.UNSAT)
        elif self.encoded.unbounded and len(self.models) >= UNBOUNDED_MODEL_CAP:
            self.end = SearchEnd(Ending.CAPPED, f"more than {UNBOUNDED_MODEL_CAP} solutions over unbounded integer "
                                                "unknowns: there may be infinitely many")
        elif past(self.deadline):
            self.end = SearchEnd(Ending.TIME)
        elif self.deadline is not None:
            self._current.set("timeout", max(1, int((self.deadline - time.monotonic()) * 1000)))
        self.checks += self.end is None
        return self.end is None

    def _assumptions(self) -> tuple[z3.BoolRef, ...]:
        """The open case's literals (with its conflict budget set), or none before a split."""
        if not self.cases:
            return ()
        literals, budget = self.cases[0]
        if self.budgets:
            self._current.set("max_conflicts", budget)
        return literals

    def _take_model(self, read: Callable[[z3.ModelRef], Assignment]) -> Assignment | None:
        """The model's letters, blocked; None (with `end` set) if the search was stopped meanwhile: a
        `sat` from an interrupted check is not trusted (Z3's general solver has answered it with a wrong model)."""
        if self._stopping():
            return None
        try:
            assignment = read(self._current.model())
        except z3.Z3Exception:  # the context was interrupted just after the check
            if not self.stop_requested and not self._time_is_up():
                raise
            self.end = SearchEnd(Ending.INTERRUPTED if self.stop_requested else Ending.TIME)
            return None
        self.models.append(assignment)
        self._block(self._current, assignment)
        return assignment

    def _unknown(self, strategies: list[str]) -> None:
        """After `unknown`: split, postpone the case, replace the solver, or end the search, as its reason says."""
        solver = self._current
        reason = solver.reason_unknown()
        why = unknown_reason(reason)
        if why is Unknown.BUDGET and self.cases is None:  # a hard search: go on case by case
            self._split()
        elif why is Unknown.BUDGET and self.cases:  # a hard case blocks none: after the others, with twice the budget
            literals, budget = self.cases.popleft()
            self.cases.append((literals, min(2 * budget, NO_CONFLICT_LIMIT)))
        elif self.stop_requested:
            self.end = SearchEnd(Ending.INTERRUPTED)
        elif why is Unknown.TIME or self._time_is_up():
            self.end = SearchEnd(Ending.TIME)
        elif why is Unknown.MEMORY:
            self.end = SearchEnd(Ending.MEMORY)
        elif strategies:  # a specialised solver gave up: retry on the next, the general one last
            _counted(solver, self.spent)
            self.solver = self._solver(strategies.pop(0))
        else:
            self.end = SearchEnd(Ending.GAVE_UP, reason)

    def _time_is_up(self) -> bool:
        """True within TIME_IS_UP_SLACK of the deadline: an `unknown` or an exception then is the time limit's doing."""
        return self.deadline is not None and time.monotonic() >= self.deadline - TIME_IS_UP_SLACK


class Unknown(enum.Enum):
    """Why a check answered `unknown`, in the terms the search acts on."""

    BUDGET = "conflict budget spent"
    TIME = "time limit"
    CANCELED = "interrupted"  # the context was interrupted: a stop, or the watchdog at the deadline
    MEMORY = "memory limit"
    OTHER = "gave up"


def unknown_reason(reason: str) -> Unknown:
    """Z3 says why it gave up only in words: this is the one place that reads them."""
    if "max.conflicts" in reason:
        return Unknown.BUDGET
    if reason == "timeout":
        return Unknown.TIME
    if reason == "canceled":
        return Unknown.CANCELED
    if "memory" in reason:
        return Unknown.MEMORY
    return Unknown.OTHER


def _counted(solver: z3.Solver, totals: dict[str, float]) -> dict[str, float]:
    """`totals` with the solver's counters added."""
    statistics = solver.statistics()
    for key in statistics.keys():  # noqa: SIM118 (not a dict: z3's Statistics has no __iter__ over keys)
        totals[key] = totals.get(key, 0) + statistics.get_key_value(key)
    return totals
