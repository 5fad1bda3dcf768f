"""What every encoding shares: the protocol, its result, the puzzle's rules as Z3 terms, and the
stop that reaches an encoder while it builds terms."""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import z3

from smtcrypt.core.check import Problem

if TYPE_CHECKING:
    from smtcrypt.analysis.split import Case

Ok: TypeAlias = z3.BoolRef | bool  # where a term is defined: Python True when always


_CONTEXTS = threading.RLock()  # Z3 contexts are made and freed one at a time, process-wide


class Context(z3.Context):
    """A Z3 context made and freed under one process-wide (re-entrant) lock: the garbage collector
    frees contexts on whichever thread it runs, and Z3 can crash when one thread frees a context while
    another makes one. Every context smtcrypt makes is one of these."""

    def __init__(self) -> None:
        self.ctx, self.owner = None, False  # what `__del__` reads, should the context not be made
        with _CONTEXTS:
            ready = _fresh_context()
            if ready is None:  # z3 calls on without looking, and the process ends in a segmentation fault
                raise MemoryError("Z3 could not make a context: the memory it may use (--max-memory) is taken")
            self.ctx, self.owner = ready, True
            self.eh = z3.Z3_set_error_handler(ready, z3.z3.z3_error_handler)
            z3.Z3_set_ast_print_mode(ready, z3.Z3_PRINT_SMTLIB2_COMPLIANT)

    def __del__(self) -> None:
        with _CONTEXTS:
            super().__del__()


def _fresh_context() -> z3.ContextObj | None:
    """A new Z3 context as `z3.Context` makes one, or None where Z3 made none: past its memory cap
    (`memory_max_size`, counted over the whole process) it returns no context rather than an error."""
    config = z3.Z3_mk_config()
    try:
        made = z3.Z3_mk_context_rc(config)
    finally:
        z3.Z3_del_config(config)
    return made or None


class Unsupported(Exception):
    """The problem needs something this encoding does not express (another encoding will)."""


class EncodingStopped(Exception):
    """The search was stopped, or ran out of time, while its encoding was being built (see
    `stop_encoding` and `watched`)."""


_stopped_contexts: weakref.WeakSet[z3.Context] = weakref.WeakSet()


def stop_encoding(context: z3.Context) -> None:
    """Make the encoders building terms in `context` give up at their next `checkpoint`: an
    encoding may take a tenth of a second, too long for a stop to wait. Safe from another thread."""
    _stopped_contexts.add(context)


_watching = threading.local()  # the `halted` test of the search building terms on this thread, if any


@contextlib.contextmanager
def watched(halted: Callable[[], bool]) -> Iterator[None]:
    """While this thread builds terms, in whatever context, `checkpoint` also gives up once `halted()`
    is true (the search's stop, or its deadline passed): building an encoding can take longer than a
    whole search may."""
    previous = getattr(_watching, "halted", None)
    _watching.halted = halted
    try:
        yield
    finally:
        _watching.halted = previous


def checkpoint(context: z3.Context) -> None:
    """Raise `EncodingStopped` if the search that owns `context` was stopped, or the one building
    terms on this thread must end (see `watched`); cheap enough for the encoders' loops."""
    halted = getattr(_watching, "halted", None)
    if context in _stopped_contexts or (halted is not None and halted()):
        raise EncodingStopped


@dataclass
class Encoded:
    """The Z3 side of a problem: one variable per letter and per integer unknown (Z3 Ints, or
    bit-vectors in the bit-vector encoding), the constraints, and what the search needs to pick Z3's solvers."""

    context: z3.Context
    letters: dict[str, z3.ExprRef]
    constraints: list[z3.BoolRef]
    terms: str = "nonlinear"  # "linear" (integers, + and constant *), "nonlinear", or "bit-vector"
    if_terms: bool = False  # If-terms over integers (and/or, abs, min, max): the finite-domain solver may give up
    bounded: bool = True  # every variable has finite bounds (so bit-blasting is possible)
    interchangeable: tuple[tuple[str, ...], ...] = ()  # letter groups ordered by value (see engine/z3search)
    unbounded: bool = False  # some unknowns have no bounds: the models may never run out
    digits_only: bool = False  # every variable is a letter's digit, 0..35: models may be read back packed
    indicators: bool = False  # the constraints define every `indicator(A, d)` as A == d for each digit d A may take
    # cases that together hold every solution (needs indicators); given a `stopped()` test, cut short once it is true
    split: Callable[..., list[Case]] | None = None
    determined: frozenset[str] = frozenset()  # letters the others' digits fix: blocking clauses leave them out


class Encoding(Protocol):
    """One way to turn problems into Z3 terms."""

    name: str

    def accepts(self, problem: Problem) -> bool:
        """True if this encoding can express the problem exactly."""

    def encode(self, problem: Problem, context: z3.Context) -> Encoded:
        """The problem as Z3 constraints over one variable per letter, in `context`."""


@dataclass
class FormulaTerms:
    """The formula as one Bool over the letters, apart from the rules: what proofs about the formula
    itself need ("no completion of these digits violates it" is `rules and side and not formula`
    unsat). Every auxiliary unknown in `side` is a function of the letters."""

    context: z3.Context
    letters: dict[str, z3.ExprRef]
    rules: list[z3.BoolRef]
    side: list[z3.BoolRef]  # definitions of auxiliary unknowns (products of letters, powers)
    formula: z3.BoolRef
    linear: bool  # no product of unknowns: the finite-domain solver may take it
    cases: bool  # If-terms over integers
    solver: str = ""  # the solver these terms are made for (engine/z3search.make_solver), if not by the two above


def letter_variables(problem: Problem, context: z3.Context) -> dict[str, z3.ArithRef]:
    """One Z3 Int per letter, named after it."""
    return {letter: z3.Int(letter, context) for letter in problem.letters}


def indicator_name(letter: str, digit: int) -> str:
    """The name of the Boolean `A=1` that stands for letter == digit, for terms and SMT-LIB text alike."""
    return f"{letter}={digit}"


def indicator(letter: str, digit: int, context: z3.Context) -> z3.BoolRef:
    """The Boolean `A=1` that stands for letter == digit: encodings define it (see `Encoded.indicators`),
    the solver blocks models and states cases with it."""
    return z3.Bool(indicator_name(letter, digit), context)


def rule_constraints(problem: Problem, letters: Mapping[str, Any],
                     within: Callable[[Any, int, int], list[z3.BoolRef]] | None = None) -> list[z3.BoolRef]:
    """The puzzle's rules: each letter's digits (`within` states a range, of Z3 Ints by default, or
    a set), distinct digits where asked. A letter with one digit is stated equal to it, which Z3's
    simplifiers substitute."""
    constraints: list[z3.BoolRef] = []
    for letter, var in letters.items():
        allowed = problem.allowed[letter]
        if not allowed:
            return [z3.BoolVal(False, var.ctx)]
        low, high = min(allowed), max(allowed)
        if low == high:
            constraints.append(var == low)
            continue
        constraints += within(var, low, high) if within else [var >= low, var <= high]
        if len(allowed) != high - low + 1:
            constraints.append(z3.Or(*[var == digit for digit in sorted(allowed)]))
    constraints += [z3.Distinct(*(letters[letter] for letter in group)) for group in problem.groups]
    return constraints
