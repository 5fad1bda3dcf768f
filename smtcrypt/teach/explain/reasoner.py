"""The reasoning: rules applied until nothing more follows, then case splits.

One rule at a time first, then pairs of rules; when nothing local follows, a case split on the
letter with the fewest digits left: each wrong digit is refuted by local reasoning under the
assumption (cases inside cases if needed). The search's own solutions only choose which cases to
show; every case shown is refuted by proved steps.
"""

from __future__ import annotations

import enum
import itertools
import math
import time
from collections.abc import Mapping, Sequence

import z3

from smtcrypt.core.check import Problem
from smtcrypt.core.rules import is_wildcard
from smtcrypt.core.verify import satisfies
from smtcrypt.search.terms import formula_term, proof_context
from smtcrypt.teach.explain.digit_search import RuleSearch
from smtcrypt.teach.explain.person import Teller
from smtcrypt.teach.explain.prover import MAX_WORK, Budget, OutOfTime, ProofBasis, Prover, interrupt
from smtcrypt.teach.explain.rules import Basis, Facts, Rule, Variables, local_rules
from smtcrypt.teach.explain.steps import TRYING, Step, StepKind, tie_text

MAX_STEPS = 20000  # steps tried (shown or not) before an explanation stops and lists what the search finds
SPLIT_CANDIDATES = 4  # letters tried for a case split, those with the fewest digits left
MAX_DEPTH = 3  # cases inside cases, at most this deep
# the widths of reasoning in the order they are tried, each first for what fixes a variable (strong)
ROUNDS = ((1, True), (1, False), (2, True), (2, False), (TRYING, False))


class ReasoningEnd(enum.Enum):
    """How the reasoning ended."""

    DONE = "done"  # it reached the solution, or a contradiction
    STUCK = "stuck"  # nothing more follows
    OUT_OF_TIME = "out of time"  # its budget of work (or time) is spent
    UNSUPPORTED = "unsupported"  # the puzzle has integer unknowns: no digits to reason about


class Contradiction(Exception):
    """The facts (and the open cases' assumptions) cannot all hold: the steps that show it."""

    def __init__(self, steps: list[Step]):
        self.steps = steps


def distinct_text(problem: Problem) -> str:
    """How a step says it used distinctness: every letter, or --distinct's groups."""
    named = [letter for letter in problem.letters if not is_wildcard(letter)]
    if len(problem.groups) == 1 and set(problem.groups[0]) == set(named):
        return "the letters all different"
    if not problem.groups:  # no letters must differ
        return ""
    groups = ["".join(group) for group in problem.groups]
    if len(groups) == 1:
        return f"{groups[0]} all different"
    return f"{', '.join(groups[:-1])} and {groups[-1]} each all different"


class Explainer:
    """The reasoning about one puzzle: its rules, what follows from them, and the steps that say so."""

    def __init__(self, problem: Problem, budget: float | None = None, max_work: int = MAX_WORK):
        self.problem = problem
        self.variables = Variables(problem, proof_context())
        self.rules = local_rules(problem, self.variables)
        self.distinct_text = distinct_text(problem)
        self.letters = problem.letters
        # the `?`s are digits to find, but not letters: no fact, case or tie is stated about them
        self.named = tuple(letter for letter in problem.letters if not is_wildcard(letter))
        self.groups = problem.groups  # the letters that must differ (all but the `?`s, or --distinct's groups)
        self.budget = Budget(max_work, math.inf if budget is None else time.monotonic() + budget)
        self.prover = Prover(self.variables, self.letters, self.groups, self.budget)
        self.rule_search = RuleSearch(self.variables, self.letters, self.groups, self.budget)
        self.steps_made = 0

    def effective(self, facts: Facts, names: Sequence[str]) -> dict[str, tuple[int, ...]]:
        return self.rule_search.effective(facts, names)

    def person_steps(self, trace: Sequence[Step]) -> list[Step]:
        """The trace retold as a person's steps, each proved again (`person.py`); the trace itself
        if the explanation is stopped (or past its deadline) while it is told."""
        teller = Teller(self.variables, self.letters, self.named, self.groups, self.distinct_text,
                        self.prover.domain_term, self.budget)
        try:
            return teller.tell(trace, self.rules)
        except OutOfTime:
            return list(trace)

    def request_stop(self) -> None:
        """End the reasoning (or its retelling) soon: the budget is spent and the running proof is
        interrupted. Safe from another thread and from a signal handler (Ctrl-C)."""
        self.budget.stop()
        interrupt(self.variables.ctx)

    # applying a rule: the digits each variable can still take, and fixed differences

    def apply(self, rule: Rule, facts: Facts, assuming: tuple[str, ...], depth: int,
              strong: bool = False) -> list[Step]:
        """The steps that `rule` gives from `facts` (updating them); [] if none; raises Contradiction.
        With `strong`, only what fixes a letter or a carry, or ties two letters."""
        found = self.rule_search.supports(rule, facts)
        if found is None:
            return []
        supported, everything = found
        effective = self.effective(facts, rule.variables)
        # what distinctness alone takes from a letter (another letter's fixed digit) is no step of its own
        changes = [(v, tuple(sorted(supported[v]))) for v in rule.variables if supported[v] < set(effective[v])]
        if any(not kept for _, kept in changes) or (everything is not None and not everything):
            return self.contradiction(rule, facts, assuming, depth)
        if strong:
            changes = [(v, kept) for v, kept in changes if len(kept) == 1]
        # a long multiplication's carries range widely: said only once one value is left
        changes = [(v, kept) for v, kept in changes if len(kept) == 1 or v not in self.variables.wide_carries]
        # letters first, then carries (a carry's value is said once with what it gives)
        changes.sort(key=lambda change: (change[0] not in self.letters, self.letters.index(change[0])
                                         if change[0] in self.letters else 0))
        steps: list[Step] = []
        for var, kept in changes:
            step = self.deduce(rule, facts, var, kept, assuming, depth)
            if step is not None:
                steps.append(step)
                facts.domains[var] = kept
        if steps or everything is None:
            return steps
        return self.tie(rule, facts, everything, assuming, depth)

    def tie(self, rule: Rule, facts: Facts, everything: list[dict[str, int]], assuming: tuple[str, ...],
            depth: int) -> list[Step]:
        """The first two open letters of the rule whose difference is the same in all its assignments."""
        for x, y in itertools.combinations([v for v in rule.variables if v in self.named], 2):
            if len(facts.domains[x]) == 1 or len(facts.domains[y]) == 1:
                continue
            differences = {values[x] - values[y] for values in everything}
            if len(differences) != 1:
                continue
            k = differences.pop()
            if k < 0:
                x, y, k = y, x, -k
            if (x, y, k) in facts.relations:
                continue
            step = self.relate(rule, facts, x, y, k, assuming, depth)
            if step is not None:
                facts.relations += ((x, y, k),)
                return [step]
        return []

    def _with(self, proof: ProofBasis) -> str:
        parts = list(proof.used) + ([self.distinct_text] if proof.distinct else [])
        if not parts:
            return ""
        return f" with {', '.join(parts[:-1]) + ' and ' + parts[-1] if len(parts) > 1 else parts[0]}"

    def _uses(self, rule: Rule, proof: ProofBasis) -> tuple[str, ...]:
        return rule.uses + (("distinctness",) if proof.distinct else ())

    def _said(self, rule: Rule, proof: ProofBasis) -> str:
        """The rule's statement and what its proof used: `E + L = 10·c2 with c2 = 1 and the letters all different`."""
        return f"{rule.statement}{self._with(proof)}"

    def deduce(self, rule: Rule, facts: Facts, var: str, kept: Sequence[int], assuming: tuple[str, ...],
               depth: int) -> Step | None:
        term = z3.Or(*[self.variables.vars[var] == d for d in kept])  # held to the end: see Prover.prove
        proof = self.prover.prove([rule], facts, term)
        if proof is None:
            return None
        text = self.prover.fact_text(var, kept)
        self.count_step()
        fact = text if var in self.named else None
        return Step(StepKind.DEDUCE, f"{rule.name.capitalize()}: {self._said(rule, proof)}. So {text}.",
                    self._uses(rule, proof), fact, assuming, rule.width, depth,
                    basis=Basis((rule,), facts.copy(), ((var, tuple(kept)),)))

    def relate(self, rule: Rule, facts: Facts, x: str, y: str, k: int, assuming: tuple[str, ...],
               depth: int) -> Step | None:
        proof = self.prover.prove([rule], facts, self.variables.vars[x] == self.variables.vars[y] + k)
        if proof is None:
            return None
        text = tie_text(x, y, k)
        self.count_step()
        return Step(StepKind.DEDUCE, f"{rule.name.capitalize()}: {self._said(rule, proof)}. So {text}.",
                    self._uses(rule, proof), text, assuming, rule.width, depth,
                    basis=Basis((rule,), facts.copy(), tie=(x, y, k)))

    def contradiction(self, rule: Rule, facts: Facts, assuming: tuple[str, ...], depth: int) -> list[Step]:
        proof = self.prover.prove([rule], facts, z3.BoolVal(False, self.variables.ctx))
        if proof is None:
            return []
        raise Contradiction([Step(StepKind.CONTRADICTION, f"{rule.name.capitalize()} cannot hold: "
                                  f"{self._said(rule, proof)}.", self._uses(rule, proof), None, assuming,
                                  rule.width, depth, basis=Basis((rule,), facts.copy()))])

    def count_step(self) -> None:
        self.steps_made += 1
        if self.steps_made > MAX_STEPS or self.budget.spent():
            raise OutOfTime

    # propagation: single rules first, then pairs, each change starting again from the first rule

    def propagate(self, facts: Facts, assuming: tuple[str, ...], depth: int) -> list[Step]:
        """Every step that follows without a case split; raises Contradiction with the steps before it."""
        steps: list[Step] = []
        try:
            while True:
                if self.budget.spent():
                    raise OutOfTime
                if self.all_fixed(facts):
                    self.check_complete(facts, assuming, depth)
                    return steps
                found = self.next_steps(facts, assuming, depth)
                if not found:
                    return steps
                steps += found
        except Contradiction as stop:
            stop.steps[:0] = steps
            raise

    def next_steps(self, facts: Facts, assuming: tuple[str, ...], depth: int) -> list[Step]:
        """The steps of the first rule that gives any, the narrowest reasoning first."""
        for width, strong in ROUNDS:
            for rule in self.rules:
                if rule.width == width:
                    found = self.apply(rule, facts, assuming, depth, strong)
                    if found:
                        return found
        return []

    def all_fixed(self, facts: Facts) -> bool:
        """Every letter has one digit left (a letter's last digit may be the one the others left it)."""
        return all(len(digits) == 1 for digits in self.effective(facts, self.letters).values())

    def check_complete(self, facts: Facts, assuming: tuple[str, ...], depth: int) -> None:
        """Every letter fixed: if the local rules do not cover the whole formula, check the formula."""
        mapping = {letter: digits[0] for letter, digits in self.effective(facts, self.letters).items()}
        distinct = all(len({mapping[letter] for letter in group}) == len(group) for group in self.groups)
        if distinct and satisfies(self.problem, mapping):  # else distinctness is part of every proof below
            return
        term = formula_term(self.problem, self.variables.ctx)
        if term is None:
            raise OutOfTime
        whole = Rule("the formula", self.problem.source.replace("\n", ", "), self.letters, term, 1)
        steps = self.contradiction(whole, facts, assuming, depth)
        if not steps:
            raise OutOfTime

    # case splits

    def refute(self, facts: Facts, letter: str, digit: int, assuming: tuple[str, ...], depth: int,
               limit: int) -> list[Step] | None:
        """Steps that show `letter` cannot be `digit` under the facts: a case ending in a
        contradiction; None if local reasoning (with cases inside, fewer than `limit` deep) does not get there."""
        case = f"{letter} = {digit}"
        inner = assuming + (case,)
        trial = facts.copy()
        trial.domains[letter] = (digit,)
        opening = Step(StepKind.CASE, f"Suppose {case}.", (), case, inner, 1, depth + 1,
                       basis=Basis((), facts.copy(), case=(letter, digit)))
        try:
            self.propagate(trial, inner, depth + 1)
            while depth + 1 < limit:
                if not self.split(trial, inner, depth + 1, None, limit):
                    break
                self.propagate(trial, inner, depth + 1)
        except Contradiction as stop:
            last = stop.steps[-1]
            closing = Step(StepKind.CONTRADICTION, last.text + f" So {letter} != {digit}.", last.uses,
                           f"not ({case})", assuming, last.width, depth, last.split, basis=last.basis)
            return [opening, *stop.steps[:-1], closing]
        return None

    def candidates(self, facts: Facts) -> list[str]:
        """The letters a case split may be on: those with the fewest digits left first."""
        return sorted((letter for letter in self.named if len(self.effective(facts, [letter])[letter]) > 1),
                      key=lambda letter: (len(self.effective(facts, [letter])[letter]), self.letters.index(letter)))

    def choose(self, facts: Facts, assuming: tuple[str, ...], depth: int, wanted: Mapping[str, int] | None,
               limit: int) -> str | None:
        """The letter whose split is shortest, tried without proofs (the split is then made again with them)."""
        self.prover.dry = True
        try:
            chosen = self.split(facts.copy(), assuming, depth, wanted, limit,
                                self.candidates(facts)[:SPLIT_CANDIDATES])
        except Contradiction as stop:
            chosen = [stop.steps[-1]]
        finally:
            self.prover.dry = False
        return chosen[-1].split if chosen else None

    def split(self, facts: Facts, assuming: tuple[str, ...], depth: int, wanted: Mapping[str, int] | None,
              limit: int, only: Sequence[str] | None = None) -> list[Step]:
        """One case split that refutes every digit of a letter but the one in `wanted` (the solution,
        if any; inside a case every digit must go, and the case itself is refuted). Of the few letters
        with the fewest digits left, the one whose refutation is shortest (`only`: among these)."""
        if not self.prover.dry:  # try the candidates without proofs, then make the best split again with them
            letter = self.choose(facts, assuming, depth, wanted, limit)
            if letter is None:
                return []
            candidates = [letter]
        else:
            candidates = list(only) if only is not None else self.candidates(facts)
        best: tuple[list[Step], Facts, str] | None = None
        for letter in candidates[:SPLIT_CANDIDATES]:
            refuted = self.refute_all(facts, letter, assuming, depth, limit, wanted)
            if refuted is not None and (best is None or len(refuted[0]) < len(best[0])):
                best = (*refuted, letter)
            if refuted is not None and depth > 0:  # inside a case the first split that works will do
                break
        if best is None:
            return []
        return self.decide(facts, *best, assuming, depth, wanted)

    def refute_all(self, facts: Facts, letter: str, assuming: tuple[str, ...], depth: int, limit: int,
                   wanted: Mapping[str, int] | None) -> tuple[list[Step], Facts] | None:
        """The refutations of every digit of `letter` but the wanted one, and the facts after them;
        None if one digit is not refuted."""
        steps: list[Step] = []
        trial = facts.copy()
        keep = None if wanted is None else wanted.get(letter)
        for digit in self.effective(facts, [letter])[letter]:
            if digit == keep:
                continue
            refutation = self.refute(trial, letter, digit, assuming, depth, limit)
            if refutation is None:
                return None
            steps += refutation
            trial.domains[letter] = tuple(d for d in trial.domains[letter] if d != digit)
        return steps, trial

    def decide(self, facts: Facts, steps: list[Step], trial: Facts, letter: str, assuming: tuple[str, ...],
               depth: int, wanted: Mapping[str, int] | None) -> list[Step]:
        """The split's last step: the letter's one digit left, or, with none left, a contradiction."""
        keep = None if wanted is None else wanted.get(letter)
        if keep is None:  # every digit refuted: the case itself is impossible
            raise Contradiction(steps + [Step(StepKind.CONTRADICTION, f"{letter} can take no digit.", ("cases",),
                                              None, assuming, 1, depth, letter, basis=Basis((), facts.copy()))])
        facts.domains.update(trial.domains)
        facts.domains[letter] = (keep,)
        text = f"{letter} = {keep}"
        self.count_step()
        return [*steps, Step(StepKind.DEDUCE, f"Every other digit of {letter} failed. So {text}.", ("cases",), text,
                             assuming, 1, depth, letter, basis=Basis((), facts.copy(), ((letter, (keep,)),)))]

    def run(self, solutions: Sequence[dict[str, int]]) -> tuple[list[Step], ReasoningEnd]:
        """The explanation's steps, and how it ended."""
        facts = Facts(dict(self.variables.domains))
        steps: list[Step] = []
        if not self.rules:
            return steps, ReasoningEnd.STUCK
        try:
            while True:
                steps += self.propagate(facts, (), 0)
                if self.all_fixed(facts):
                    return steps, ReasoningEnd.DONE
                if len(solutions) > 1:
                    return steps, ReasoningEnd.STUCK
                found = self.shallowest_split(facts, solutions[0] if solutions else None)
                if not found:
                    return steps, ReasoningEnd.STUCK
                steps += found
        except Contradiction as stop:
            return steps + stop.steps, ReasoningEnd.DONE
        except OutOfTime:
            return steps, ReasoningEnd.OUT_OF_TIME

    def shallowest_split(self, facts: Facts, wanted: Mapping[str, int] | None) -> list[Step]:
        """A case split with cases as shallow as they can be."""
        for limit in range(1, MAX_DEPTH + 1):
            found = self.split(facts, (), 0, wanted, limit)
            if found:
                return found
        return []
