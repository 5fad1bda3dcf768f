"""Proofs by Z3, and the budget of work an explanation may spend.

No step is shown before Z3 has answered `unsat` to the rule, the facts so far, the puzzle's digit
rules and the negation of the step's conclusion. The budget counts work rather than time (search
nodes, and proofs by Z3's resource units), so that an explanation and its difficulty are the same
on every machine; a deadline in seconds may bound it as well.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import z3

from smtcrypt.teach.explain.rules import Facts, Rule, Variables
from smtcrypt.teach.explain.steps import condition, tie_text

PROOF_TIMEOUT_MS = 5000  # a step Z3 cannot prove in this time is not shown (a safety net: see PROOF_RLIMIT)
PROOF_RLIMIT = 2_000_000  # nor one past this many of Z3's resource units: the same limit on every machine
MAX_WORK = 6_000_000  # search nodes (and proofs) before an explanation stops and lists the solutions
PROOF_WORK = 1000  # a proof counts this many nodes, and one more for every RLIMIT_PER_NODE of Z3's resource units
RLIMIT_PER_NODE = 15  # Z3's resource units worth one node of the digit search (docs/explain.md)


class OutOfTime(Exception):
    """The explanation ran past its budget or its length."""


@dataclass
class Budget:
    """The work an explanation has done (search nodes and proofs) and may do, and its deadline."""

    max_work: int = MAX_WORK
    deadline: float = math.inf  # time.monotonic()'s, or none
    work: int = 0

    def spent(self, pending: int = 0) -> bool:
        """Past the deadline, or past the work allowed counting `pending` nodes not yet added."""
        return self.late() or self.work + pending > self.max_work

    def late(self) -> bool:
        """Past the deadline (or stopped): what ends the proofs as well as the search."""
        return time.monotonic() > self.deadline

    def stop(self) -> None:
        """Past the deadline from now on: the reasoning ends at its next look at the budget. Safe
        from another thread and from a signal handler (a float written at once)."""
        self.deadline = -math.inf


@dataclass
class StopSwitch:
    """A request to end an explanation soon, from another thread or a signal handler (Ctrl-C): the
    stage running when it comes is told (its search's `request_stop`, the reasoning's budget spent
    and its Z3 call interrupted), and so is any stage that starts after it.

    A plain flag and list, no lock: a signal handler runs in the main thread, which may hold a lock."""

    requested: bool = False
    _actions: list[Callable[[], None]] = field(default_factory=list)

    def request(self) -> None:
        self.requested = True
        for action in list(self._actions):
            action()

    @contextlib.contextmanager
    def acting(self, action: Callable[[], None]) -> Iterator[None]:
        """While the block runs, a request calls `action` (at once if one came before)."""
        self._actions.append(action)
        try:
            if self.requested:
                action()
            yield
        finally:
            self._actions.remove(action)


def interrupt(context: z3.Context) -> None:
    """Stop the context's running call, from any thread or a signal handler (Z3 raises nothing
    for it here: the call being stopped reads the error, as unknown)."""
    with contextlib.suppress(z3.Z3Exception):
        context.interrupt()


def proof_solver(context: z3.Context) -> z3.Solver:
    """A solver for one proof, bounded by PROOF_TIMEOUT_MS and PROOF_RLIMIT. Z3's own Ctrl-C
    handler is switched off: it swaps the process's SIGINT handler in for every check and takes
    the signal itself, ending only that check (as unknown, a step not proved) while the command
    never hears of it and goes on for seconds. Ctrl-C belongs to the command (cli/interrupt.py),
    which stops an explanation by its `StopSwitch`."""
    solver = z3.Solver(ctx=context)
    solver.set("ctrl_c", False)
    solver.set("timeout", PROOF_TIMEOUT_MS)
    solver.set("rlimit", PROOF_RLIMIT)
    return solver


class ProofBasis(NamedTuple):
    """What a proof used: the facts (their texts, in the facts' order) and whether distinctness."""

    used: list[str]
    distinct: bool


class Prover:
    """Z3's proofs of a rule's conclusions from the facts, within the budget."""

    def __init__(self, variables: Variables, letters: Sequence[str], groups: Sequence[Sequence[str]],
                 budget: Budget):
        self.variables = variables
        self.ctx = variables.ctx
        self.letters = letters
        self.groups = groups  # the letters that must differ
        self.universe = dict(variables.domains)  # each carry's values before any fact
        self.all_digits = tuple(range(variables.base))
        self.budget = budget
        self.dry = False  # while case splits are only being tried, nothing is proved
        self.rlimit_seen = 0

    def fact_text(self, name: str, kept: Sequence[int]) -> str:
        universe = self.all_digits if name in self.letters else self.universe[name]
        return condition(self.variables.display[name], kept, universe)

    def fact_terms(self, facts: Facts) -> list[tuple[str, z3.BoolRef]]:
        """Each known fact (a letter's or carry's values, a difference) with its text; "" for no news."""
        terms = [self.domain_term(name, digits) for name, digits in facts.domains.items()]
        for x, y, k in facts.relations:
            terms.append((tie_text(x, y, k), self.variables.vars[x] == self.variables.vars[y] + k))
        return terms

    def domain_term(self, name: str, digits: tuple[int, ...]) -> tuple[str, z3.BoolRef]:
        var = self.variables.vars[name]
        universe = self.all_digits if name in self.letters else self.universe[name]
        if list(digits) == list(universe):
            return "", z3.And(var >= digits[0], var <= digits[-1]) if digits else z3.BoolVal(False, self.ctx)
        text = condition(self.variables.display[name], digits, universe)
        if not digits:
            return text, z3.BoolVal(False, self.ctx)
        if list(digits) == list(range(digits[0], digits[-1] + 1)):
            return text, z3.And(var >= digits[0], var <= digits[-1])
        return text, z3.Or(*[var == d for d in digits])

    def prove(self, rules: Sequence[Rule], facts: Facts, conclusion: z3.BoolRef) -> ProofBasis | None:
        """Z3's unsat for rules + facts + not conclusion: the facts used and whether distinctness was
        (first tried without it); None if not proved. While case splits are only being tried (`dry`),
        nothing is proved: the split chosen is made again with every step proved.

        Which facts Z3's unsat core names depends on the ids of the terms in its context, and so on
        the order in which terms are made and freed (here the facts' terms held to the end and every
        flag made again; a deduction's conclusion held until its step is made): kept as it is, so
        that explanations stay the same. Whether a step is proved does not depend on it."""
        if self.dry:
            return ProofBasis([], False)
        self.budget.work += PROOF_WORK
        for with_distinct in ((False, True) if self.groups else (False,)):
            if self.budget.late():  # stopped (Ctrl-C) or past the deadline: no proof is begun
                raise OutOfTime
            solver = proof_solver(self.ctx)
            for rule in rules:
                solver.add(rule.term)
            if with_distinct:
                for group in self.groups:
                    solver.add(z3.Distinct(*[self.variables.vars[letter] for letter in group]))
            tracked: dict[int, str] = {}  # a flag's id -> its fact's text
            known = self.fact_terms(facts)
            for index, (text, term) in enumerate(known):
                if not text:
                    solver.add(term)
                    continue
                flag = z3.Bool(f"fact{index}", self.ctx)
                tracked[flag.get_id()] = text
                solver.add(z3.Implies(flag, term))
            solver.add(z3.Not(conclusion))
            flags = [z3.Bool(f"fact{i}", self.ctx) for i in range(len(known))]
            flags = [f for f in flags if f.get_id() in tracked]
            answer = solver.check(*flags)
            self._count_work(solver)
            if answer == z3.unsat:
                core = {f.get_id() for f in solver.unsat_core()}
                return ProofBasis([text for key, text in tracked.items() if key in core], with_distinct)  # facts' order
            if answer == z3.unknown:
                return None
        return None

    def _count_work(self, solver: z3.Solver) -> None:
        """Z3's resource units spent so far in this context (a count, not a time: the same on every
        machine), added to the work as search nodes."""
        statistics = solver.statistics()
        keys = statistics.keys()  # z3's statistics are not a dict
        spent = statistics.get_key_value("rlimit count") if "rlimit count" in keys else 0
        self.budget.work += max(0, spent - self.rlimit_seen) // RLIMIT_PER_NODE
        self.rlimit_seen = max(self.rlimit_seen, spent)
