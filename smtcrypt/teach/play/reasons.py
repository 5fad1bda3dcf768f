"""Why a decision is wrong, and what follows from the decisions: the explainer's proved steps.

A rejection's reason is the first of these that holds:
- the puzzle's own rules, read before any search (`Reasons.rule_reason`): a letter left no digit,
  a carry given a value its column cannot make, two letters that must differ given one digit;
- when the game's complete search finds no solution, the explainer's shortest chain of proved
  steps from the decisions to a contradiction: local reasoning, else letters split into cases (at
  most CASE_DEPTH deep) each refuted by it, cut back to the steps the contradiction stands on
  (`Reasons.refutation`);
- else the game says "no solution has ..." on the strength of its search.
A hint is the explainer's next proved step from the decisions that says something about a letter,
told as an explanation tells it (`Reasons.hint`). The
explainer's work is bounded (REASON_WORK, REASON_SECONDS) so that a move is answered promptly.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import z3

from smtcrypt.core.check import Problem
from smtcrypt.core.numerals import digit_char
from smtcrypt.teach.explain import Explainer, Step, StepKind, condition
from smtcrypt.teach.explain.prover import Budget, OutOfTime, ProofBasis, Prover
from smtcrypt.teach.explain.reasoner import Contradiction
from smtcrypt.teach.explain.rules import Facts, Rule, Variables
from smtcrypt.teach.play.decisions import Decision, digits_text, listed

REASON_SECONDS = 2.0  # seconds (at most) spent looking for the explainer's chain behind a rejection
HINT_STEPS = 50  # steps of reasoning a hint runs on at most to reach a letter
CASE_DEPTH = 2  # a rejection's reason may split letters into cases, and cases inside them
REASON_WORK = 400_000  # the explainer's work (search nodes, proofs) behind one rejection or hint


class RecordingProver(Prover):
    """The explainer's prover, keeping each proof it makes, in the order of the steps they make."""

    def __init__(self, variables: Variables, letters: Sequence[str], groups: Sequence[Sequence[str]],
                 budget: Budget):
        super().__init__(variables, letters, groups, budget)
        self.proofs: list[ProofBasis] = []

    def prove(self, rules: Sequence[Rule], facts: Facts, conclusion: z3.BoolRef) -> ProofBasis | None:
        proof = super().prove(rules, facts, conclusion)
        if proof is not None and not self.dry:
            self.proofs.append(proof)
        return proof



class Reasons:
    """The explainer of one puzzle, with a prover that records its proofs, asked about decisions."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.explainer = Explainer(problem, max_work=REASON_WORK)
        self.prover = RecordingProver(self.explainer.variables, self.explainer.letters, self.explainer.groups,
                                      self.explainer.budget)
        self.explainer.prover = self.prover

    def rule_reason(self, decisions: Sequence[Decision], domains: Mapping[str, frozenset[int]]) -> str:
        """Why the decisions break the puzzle's own rules (a letter left no digit, two equal letters
        that must differ), without a search; "" if they do not. `domains`: each letter's digits
        under the rules and the decisions."""
        last = decisions[-1]
        if last.name in self.explainer.variables.carries:
            values = self.explainer.variables.domains[last.name]
            if not any(all(d.allows(v) for d in decisions if d.name == last.name) for v in values):
                if any(last.allows(v) for v in values):
                    before = [d for d in decisions[:-1] if d.name == last.name]
                    return f"{last} contradicts your decision{'s' if len(before) > 1 else ''} {listed(before)}"
                return f"{last.name} can only be {digits_text(values)}: the carries that column can make"
        if last.name in domains and not domains[last.name]:
            allowed = sorted(self.problem.allowed[last.name])
            before = [d for d in decisions[:-1] if d.name == last.name]
            if not before or not any(last.allows(d) for d in allowed):
                rule = condition(last.name, allowed, range(self.problem.rules.base))
                return f"{last.name} can only be {digits_text(allowed)} by the puzzle's rules ({rule})"
            return f"{last} contradicts your decision{'s' if len(before) > 1 else ''} {listed(before)}"
        if last.name in domains and len(domains[last.name]) == 1:
            digit = next(iter(domains[last.name]))
            for group in self.problem.groups:
                if last.name not in group:
                    continue
                for other in group:
                    if other != last.name and domains[other] == {digit}:
                        return f"{other} = {digit_char(digit)} already, and {last.name} and {other} must differ"
        return ""

    def facts(self, decisions: Sequence[Decision]) -> Facts:
        """The decisions as the explainer's facts: each letter's and carry's values."""
        domains = dict(self.explainer.variables.domains)
        for decision in decisions:
            domains[decision.name] = tuple(v for v in domains[decision.name] if decision.allows(v))
        return Facts(domains)

    def reset_budget(self, timeout: float | None) -> None:
        """A fresh budget of work for one question: REASON_SECONDS, or the move's timeout if shorter."""
        budget = self.explainer.budget
        budget.work = 0
        budget.deadline = time.monotonic() + (REASON_SECONDS if timeout is None else min(REASON_SECONDS, timeout))
        self.explainer.steps_made = 0
        self.prover.proofs.clear()

    def stop(self) -> None:
        """Spend the budget: the question being answered ends at the explainer's next look at it
        (the next question gets a fresh one). Safe from another thread and from a signal handler."""
        self.explainer.request_stop()

    def refutation(self, decisions: Sequence[Decision], timeout: float | None) -> list[Step]:
        """The explainer's shortest chain of proved steps from the decisions to a contradiction: local
        reasoning, else cases (as an explanation's, at most CASE_DEPTH deep) each refuted by it; [] if
        it does not get there within its budget."""
        facts = self.facts(decisions)
        self.reset_budget(timeout)
        steps: list[Step] = []
        try:
            steps = self.explainer.propagate(facts, (), 0)
            # nothing local refutes the decisions: a letter split into cases, each refuted (split raises)
            self.explainer.split(facts, (), 0, None, CASE_DEPTH)
        except Contradiction as stop:  # from propagate: all its steps; from split: the cases after `steps`
            return needed_steps(steps + stop.steps, self.prover.proofs)
        except OutOfTime:
            pass
        return []

    def next_steps(self, decisions: Sequence[Decision], timeout: float | None) -> list[Step]:
        """The explainer's next proved steps from the decisions; [] if none within its budget."""
        facts = self.facts(decisions)
        self.reset_budget(timeout)
        try:
            return self.explainer.next_steps(facts, (), 0)
        except (Contradiction, OutOfTime):
            return []

    def hint(self, decisions: Sequence[Decision], timeout: float | None) -> Step | None:
        """The next step a person makes from the decisions, as an explanation tells it: the reasoning
        run on until it says something about a letter (a carry alone is no hint), told as one step."""
        facts = self.facts(decisions)
        self.reset_budget(timeout)
        chain: list[Step] = []
        try:
            for _ in range(HINT_STEPS):
                found = self.explainer.next_steps(facts, (), 0)
                if not found:
                    break
                chain += found
                if any(step.fact is not None for step in found):
                    break
        except (Contradiction, OutOfTime):
            return None
        if not chain or all(step.fact is None for step in chain):
            return None
        told = self.explainer.person_steps(chain)
        return next((step for step in told if step.fact is not None), None)


def needed_steps(steps: list[Step], proofs: list[ProofBasis]) -> list[Step]:
    """The steps the last one (a contradiction) stands on, read back through the facts each proof used."""
    if len(steps) != len(proofs) or not steps or steps[-1].kind is not StepKind.CONTRADICTION:
        return steps
    needed = {len(steps) - 1}
    pending = [len(steps) - 1]
    while pending:
        index = pending.pop()
        for used in proofs[index].used:
            source = next((j for j in range(index - 1, -1, -1) if conclusion(steps[j]) == used), None)
            if source is not None and source not in needed:
                needed.add(source)
                pending.append(source)
    return [step for index, step in enumerate(steps) if index in needed]


def conclusion(step: Step) -> str:
    """What a step concludes, as its proofs name it later: the text after its last "So "."""
    return step.text.rsplit(" So ", 1)[-1].rstrip(".") if " So " in step.text else ""

