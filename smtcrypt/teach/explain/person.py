"""The person's steps: the reasoning's trace retold as the deductions a person makes.

The reasoner (`reasoner.py`) proves one small conclusion at a time: a carry, a letter narrowed, a
tie. Read in full that is a solver's trace (SEND + MORE = MONEY in 18 steps, where a puzzle book
takes about 7), so it is kept (`Explanation.trace`, `--terse`) and retold here:

- A step ends where a letter gets its digit (or where the reasoning turns to a case split or
  ends): what the trace found on the way, carries included, is one deduction, proved again as one
  by Z3 from the facts stated before it. Its conclusions are the letters' digits (or the digits
  ruled out, or a tie) and the carries' values, said inside the step; at most `MAX_PARTS` columns a
  step, so that it stays one thought.
- A step names only what its proof needs: the rules and facts of Z3's unsat core, made minimal
  by leaving out each in turn while the proof still holds (the step of Bogaerts, Gamba and Guns's
  step-wise explanations, AIJ 2021, and of Demystify: a small unsatisfiable subset). It names each
  column once: a column that a pair of columns in the step states too is left out, and a pair's
  column said before is not said again.
- A column's arithmetic is no step of its own: a letter's digit found by one column whose other
  letters and carries are all known (`O + c6 = C, with O = 2 and c6 = 1. So C = 3.`) is said in
  the step whose digits made it possible ("So G = 8, R = 3 and E = 4"), or, after a case's
  assumption or the last digit left, with the next step; proved with it as one.
- A case refuted by at most `MAX_CASE_PARTS` columns is one step ("Suppose S = 8: then column 4
  cannot hold ... So S ≠ 8."); the last digit left then follows in the same step. A case with
  cases inside is shown as today, its steps indented.

Where a proof fails (Z3's limit), the trace's own steps are shown for that stretch, each already
proved. Every step shown is proved: the trace's facts are the steps' conclusions, so a step's
premises were all said before it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import z3

from smtcrypt.core.check import Problem
from smtcrypt.core.numerals import digit_char
from smtcrypt.core.tree import BinOp, Compare, Unary
from smtcrypt.teach.explain.prover import Budget, OutOfTime, proof_solver
from smtcrypt.teach.explain.rules import Basis, Facts, Rule, Variables
from smtcrypt.teach.explain.steps import Step, StepKind, condition, tie_text

MAX_PARTS = 4  # columns (or other rules) a step of reasoning takes together at most
MAX_CASE_PARTS = 5  # columns (or other rules) a case refuted in one step takes together at most
# Z3's resource units (the same on every machine; what they cost in seconds: docs/explain.md)
TOLD_RLIMIT = 500_000  # for a step told again (a quarter of a trace step's): past it, its parts are told apart
LEAVING_OUT_RLIMIT = 100_000  # for a proof with one rule or fact left out
MINIMAL_RLIMIT = 600_000  # for all of one step's proofs with one left out: past it, the rest is named as found
MAX_PROOFS = 3000  # proofs made again for the person's steps; past these the trace's own steps are shown


@dataclass
class _Block:
    """A case in the trace: its opening, its steps (cases inside included) and its closing."""

    opening: Step
    inner: list[Item]
    closing: Step


Item = Step | _Block
Flag = tuple[z3.BoolRef, "Rule | str"]  # a rule or a fact's text, and the Boolean that turns it on in a proof


class _Unsaid:
    """What the trace found that no step said (carries found on the way to no letter): the values
    said before, which the steps' premises keep, and the rules that found more, which the steps
    after name where they need it."""

    def __init__(self, domains: dict[str, tuple[int, ...]] | None = None, rules: list[Rule] | None = None):
        self.domains = domains or {}  # a variable -> the values last said of it
        self.rules = rules or []

    def copy(self) -> _Unsaid:
        return _Unsaid(dict(self.domains), list(self.rules))

    def premises(self, before: Facts) -> Facts:
        """The trace's facts as said: an unsaid variable at the values said of it."""
        if not self.domains:
            return before
        return Facts({**before.domains, **{var: kept for var, kept in self.domains.items() if var in before.domains}},
                     before.relations)

    def add(self, changes: Sequence[tuple[str, tuple[int, ...]]], before: Facts, rules: Sequence[Rule]) -> None:
        for var, _ in changes:
            self.domains.setdefault(var, tuple(before.domains[var]))
        self.rules += [rule for rule in rules if all(rule is not known for known in self.rules)]

    def said(self, var: str) -> None:
        self.domains.pop(var, None)


def _parse(trace: Sequence[Step], start: int, depth: int) -> tuple[list[Item], int]:
    """The trace's items at one depth, from `start` up to the first step of a shallower one."""
    items: list[Item] = []
    index = start
    while index < len(trace):
        step = trace[index]
        if step.kind is StepKind.CASE and step.depth == depth + 1:
            inner, index = _parse(trace, index + 1, depth + 1)
            if index >= len(trace):  # a case the trace does not close (it should not happen): its steps as they are
                items.append(step)
                items.extend(inner)
                break
            items.append(_Block(step, inner, trace[index]))
            index += 1
        elif step.depth == depth:
            items.append(step)
            index += 1
        elif step.depth < depth:
            break
        else:  # deeper without an opening: kept as it is
            items.append(step)
            index += 1
    return items, index


@dataclass
class _Group:
    """Steps of the trace told as one: their rules, the facts before the first, and what they found."""

    steps: list[Step] = field(default_factory=list)

    @property
    def rules(self) -> list[Rule]:
        seen: dict[int, Rule] = {}
        for step in self.steps:
            for rule in step.basis.rules:
                seen.setdefault(id(rule), rule)
        return list(seen.values())

    def with_rules(self, step: Step) -> int:
        """How many columns (or other rules) the group takes with `step`: a pair of columns is two."""
        return len({part for s in [*self.steps, step] for rule in s.basis.rules for part in rule.uses})


def _apart(step: Step) -> bool:
    """A step of a rule that is no digit column (the sizes of the numbers, a constraint's bounds, trying
    digits): its proofs are nonlinear and hard for Z3 in company, so it is told on its own."""
    return any(not rule.equations for rule in step.basis.rules)


def _fixes_letter(step: Step, letters: Sequence[str]) -> bool:
    return any(var in letters and len(kept) == 1 for var, kept in step.basis.changes)


def _covered(rule: Rule, rules: Sequence[Rule]) -> bool:
    """Whether another of the rules states all the rule's equations and more (a pair, one of its columns)."""
    return bool(rule.equations) and any(
        len(other.equations) > len(rule.equations) and all(equation in other.equations for equation in rule.equations)
        for other in rules)


def _traced(step: Step) -> bool:
    """A step of the reasoning with what it was proved from (not a case's bookkeeping)."""
    return isinstance(step.basis, Basis) and bool(step.basis.rules) and "cases" not in step.uses


class Teller:
    """The trace of one puzzle's reasoning retold as a person's steps (see the module)."""

    def __init__(self, variables: Variables, letters: Sequence[str], named: Sequence[str],
                 groups: Sequence[Sequence[str]], distinct_text: str,
                 domain_term: Callable[[str, tuple[int, ...]], tuple[str, z3.BoolRef]], budget: Budget):
        self.variables = variables
        self.ctx = variables.ctx
        self.letters = tuple(letters)
        self.named = tuple(named)
        self.groups = groups
        self.distinct_text = distinct_text
        self.domain_term = domain_term
        self.budget = budget  # its deadline (and a stop) ends the telling: OutOfTime
        self.universe = dict(variables.domains)
        self.digits = tuple(range(variables.base))
        self.proofs = 0

    # --- words --------------------------------------------------------------------------------------

    def digit(self, name: str) -> Callable[[int], str]:
        return digit_char if name in self.letters else str

    def value_text(self, name: str, kept: Sequence[int]) -> str:
        """`M = 1`, `E ≠ 0`, `2 ≤ E ≤ 6`, `Y is 1, 4 or 9`, in the puzzle's own digits."""
        universe = self.digits if name in self.letters else self.universe[name]
        return condition(self.variables.display[name], kept, universe, printed=True, digit=self.digit(name))

    def fact_text(self, name: str, kept: Sequence[int]) -> str:
        """The same in the formula language (a step's `fact`)."""
        universe = self.digits if name in self.letters else self.universe[name]
        return condition(self.variables.display[name], kept, universe)

    @staticmethod
    def listing(parts: Sequence[str]) -> str:
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    def rules_said(self, rules: Sequence[Rule]) -> tuple[str, str, bool]:
        """The rules' names (`Columns 3 and 1`), their statements, and whether there are several."""
        names = list(dict.fromkeys(part for rule in rules for part in rule.uses))
        if all(name.startswith("column ") and name[7:].isdigit() for name in names):
            numbers = [name[7:] for name in names]
            head = f"column {numbers[0]}" if len(numbers) == 1 else f"columns {self.listing(numbers)}"
        else:
            head = self.listing(names)
        statements: list[str] = []  # each rule's statement, what another said before left out: no fact twice
        seen: set[str] = set()
        for rule in rules:
            new = [piece for piece in dict.fromkeys(rule.said) if piece not in seen]
            seen.update(new)
            if new:
                statements.append(rule.statement if len(new) == len(rule.said) else " and ".join(new))
        return head, "; ".join(statements), len(names) > 1

    def given(self, facts: Sequence[str], distinct: bool) -> str:
        parts = list(facts) + ([self.distinct_text] if distinct and self.distinct_text else [])
        return f", with {self.listing(parts)}" if parts else ""

    def conclusions(self, changes: Sequence[tuple[str, tuple[int, ...]]],
                    ties: Sequence[tuple[str, str, int]]) -> tuple[str, str | None]:
        """What a step concludes, in words (`S = 9 and O = 0, and the carry c4 = 0`), and as a fact in
        the formula language over the named letters (None if none)."""
        letters = [(var, kept) for var, kept in changes if var in self.letters]
        letters.sort(key=lambda change: self.letters.index(change[0]))
        carries = [(var, kept) for var, kept in changes if var not in self.letters]
        said = [self.value_text(var, kept) for var, kept in letters] + [tie_text(*tie) for tie in ties]
        facts = [self.fact_text(var, kept) for var, kept in letters if var in self.named] + \
            [tie_text(*tie) for tie in ties]
        carried = [self.value_text(var, kept) for var, kept in carries]
        text = self.listing(said) if said else ""
        if carried:
            carry = f"the carr{'y' if len(carried) == 1 else 'ies'} {self.listing(carried)}"
            text = f"{text}, and {carry}" if text else carry
        return text, " and ".join(facts) if facts else None

    # --- proofs -------------------------------------------------------------------------------------

    def prove(self, rules: Sequence[Rule], before: Facts, conclusion: z3.BoolRef,
              assumption: z3.BoolRef | None = None) -> tuple[list[Rule], list[str], bool] | None:
        """Z3's unsat for the rules, the facts, the assumption and the conclusion's negation, with
        the fewest rules and facts: the core, then each left out in turn while the proof holds (rules
        and facts in their order; distinctness only if needed). None when not proved; OutOfTime once
        the explanation is stopped or past its deadline."""
        if self.proofs >= MAX_PROOFS:
            return None
        self.proofs += 1
        for with_distinct in ((False, True) if self.groups else (False,)):
            if self.budget.late():  # stopped (Ctrl-C) or past the deadline
                raise OutOfTime
            solver = proof_solver(self.ctx)
            solver.set("rlimit", TOLD_RLIMIT)
            if with_distinct:
                for group in self.groups:
                    solver.add(z3.Distinct(*[self.variables.vars[letter] for letter in group]))
            flags: list[Flag] = []
            for index, rule in enumerate(rules):
                flag = z3.Bool(f"rule{index}", self.ctx)
                solver.add(z3.Implies(flag, rule.term))
                flags.append((flag, rule))
            for name, digits in before.domains.items():
                text, term = self.domain_term(name, digits)
                if not text:
                    solver.add(term)
                    continue
                flag = z3.Bool(f"fact{len(flags)}", self.ctx)
                solver.add(z3.Implies(flag, term))
                flags.append((flag, self.value_text(name, digits)))
            for x, y, k in before.relations:
                flag = z3.Bool(f"fact{len(flags)}", self.ctx)
                solver.add(z3.Implies(flag, self.variables.vars[x] == self.variables.vars[y] + k))
                flags.append((flag, tie_text(self.variables.display[x], self.variables.display[y], k)))
            if assumption is not None:
                solver.add(assumption)
            solver.add(z3.Not(conclusion))
            answer = solver.check(*[flag for flag, _ in flags])
            if answer == z3.unknown:
                return None
            if answer != z3.unsat:
                continue
            kept = self.minimal(solver, flags)
            used_rules = [what for _, what in kept if isinstance(what, Rule)]
            used_facts = [what for _, what in kept if isinstance(what, str)]
            if not used_rules:  # a conclusion of the facts alone is no deduction of a rule: name the rules anyway
                used_rules = list(rules)
            used_rules = [rule for rule in used_rules if not _covered(rule, used_rules)]
            return used_rules, used_facts, with_distinct
        return None

    def minimal(self, solver: z3.Solver, flags: list[Flag]) -> list[Flag]:
        """The flags of the unsat core just found, made minimal: each left out in turn while the
        proof still holds (a proof without one that is hard to find is not looked for)."""
        core = {flag.get_id() for flag in solver.unsat_core()}
        kept = [(flag, what) for flag, what in flags if flag.get_id() in core]
        solver.set("rlimit", LEAVING_OUT_RLIMIT)
        start = _spent(solver)
        for candidate in list(kept):
            if self.budget.late():
                raise OutOfTime
            if _spent(solver) - start > MINIMAL_RLIMIT:  # what is left is named: a proof, if not the least one
                break
            trial = [pair for pair in kept if pair[0].get_id() != candidate[0].get_id()]
            if solver.check(*[flag for flag, _ in trial]) == z3.unsat:
                core = {flag.get_id() for flag in solver.unsat_core()}
                kept = [pair for pair in trial if pair[0].get_id() in core]
        return kept

    def term(self, name: str, kept: Sequence[int]) -> z3.BoolRef:
        var = self.variables.vars[name]
        return z3.Or(*[var == value for value in kept]) if kept else z3.BoolVal(False, self.ctx)

    # --- the retelling ------------------------------------------------------------------------------

    def tell(self, trace: Sequence[Step], rules: Sequence[Rule]) -> list[Step]:
        """The trace told as a person's steps. A puzzle with rules that are no linear digit columns (a
        long multiplication, the sizes of the numbers, a constraint's bounds) keeps the trace's own
        steps, printed: their proofs together are nonlinear, and Z3's resource limit does not bound
        its nonlinear solver's time (one such step took half a minute)."""
        if any(not rule.equations or any(len(monomial) > 1 for terms, _ in rule.equations for monomial in terms)
               for rule in rules):
            return [self.plain(step, None, True) for step in trace]
        items, _ = _parse(trace, 0, 0)
        return self.level(items, 0, _Unsaid(), last=True)

    def level(self, items: Sequence[Item], depth: int, unsaid: _Unsaid, *, last: bool = False,
              closing: tuple[str, int, tuple[str, ...]] | None = None) -> list[Step]:
        """One depth's items told as steps. `unsaid`: what the trace found that no step said;
        `closing`: the case (letter, digit, the assumptions outside it) whose last contradiction these
        items end in; `last`: the whole explanation."""
        out: list[Step] = []
        group = _Group()
        ended = False  # the group found a letter's digit: it ends, save for what that forces at once
        for position, item in enumerate(items):
            following = items[position + 1] if position + 1 < len(items) else None
            if ended:
                if isinstance(item, Step) and self.forced(item) and group.with_rules(item) <= MAX_PARTS:
                    group.steps.append(item)  # "So G = 8, ... and R = 3": said in the step that made it possible
                    continue
                if not all(self.forced(step) for step in group.steps) or not self.folds(item):
                    out += self.flush(group, depth, unsaid)
                    group = _Group()
                ended = False
            if isinstance(item, _Block):
                out += self.flush(group, depth, unsaid)
                group = _Group()
                out += self.block(item, depth, unsaid)
                continue
            if not _traced(item):
                if item.kind is not StepKind.SOLUTION:  # what is left before the solutions need not be said
                    out += self.flush(group, depth, unsaid)
                group = _Group()
                out.append(self.bookkeeping(item, out, last))
                continue
            apart = _apart(item)
            if group.steps and (apart or _apart(group.steps[0]) or
                                (group.with_rules(item) > MAX_PARTS and self.news(group, unsaid))):
                out += self.flush(group, depth, unsaid)
                group = _Group()
            group.steps.append(item)
            if item.kind is StepKind.CONTRADICTION:
                out += self.flush(group, depth, unsaid, contradiction=True, closing=closing, last=last)
                group = _Group()
            elif _fixes_letter(item, self.letters) and not (
                    isinstance(following, Step) and _traced(following) and following.kind is StepKind.DEDUCE
                    and following.basis.rules == item.basis.rules and _fixes_letter(following, self.letters)):
                ended = True
        out += self.flush(group, depth, unsaid)
        return out

    def forced(self, step: Step) -> bool:
        """A step of one column whose other letters and carries are all known: the digit it gives is
        the column's arithmetic, no thought of its own (`O + c6 = C, with O = 2 and c6 = 1. So C = 3`).
        It is said in the step that made it possible, or with the next (after a case's assumption)."""
        if not _traced(step) or step.kind is not StepKind.DEDUCE or _apart(step):
            return False
        rules, changes, known = step.basis.rules, step.basis.changes, step.basis.before.domains
        if len(rules) != 1 or len(rules[0].equations) != 1 or len(changes) != 1 or step.basis.tie is not None:
            return False
        var, kept = changes[0]
        return var in self.letters and len(kept) == 1 and \
            all(len(known[other]) == 1 for other in rules[0].variables if other != var)

    def folds(self, item: Item) -> bool:
        """Whether a group of forced steps is said with `item` (a step of reasoning)."""
        return isinstance(item, Step) and _traced(item) and item.kind is not StepKind.SOLUTION

    def found(self, group: _Group, premises: Facts) -> tuple[list[tuple[str, tuple[int, ...]]],
                                                             list[tuple[str, str, int]]]:
        """What the group's steps found beyond the premises: each variable's values, and ties."""
        final: dict[str, tuple[int, ...]] = {}
        ties: list[tuple[str, str, int]] = []
        for step in group.steps:
            for var, kept in step.basis.changes:
                final[var] = kept
            if step.basis.tie is not None:
                ties.append(step.basis.tie)
        changes = [(var, kept) for var, kept in final.items() if tuple(premises.domains[var]) != kept]
        ties = [(x, y, k) for x, y, k in ties if len(final.get(x, ())) != 1 or len(final.get(y, ())) != 1]
        return changes, ties

    def news(self, group: _Group, unsaid: _Unsaid) -> bool:
        """Whether the group found something about a letter (not only carries)."""
        if not group.steps:
            return False
        changes, ties = self.found(group, unsaid.premises(group.steps[0].basis.before))
        return bool(ties) or any(var in self.letters for var, _ in changes)

    def flush(self, group: _Group, depth: int, unsaid: _Unsaid, *, contradiction: bool = False,
              closing: tuple[str, int, tuple[str, ...]] | None = None, last: bool = False) -> list[Step]:
        """The group's steps of the trace as one step, proved again; else each as it was. A group
        that found only carries is no step: what it found stays unsaid, and the steps after it that
        need it name its rules."""
        if not group.steps:
            return []
        first = group.steps[0]
        before = unsaid.premises(first.basis.before)
        changes, ties = self.found(group, before)
        if not contradiction and not ties and all(var not in self.letters for var, _ in changes):
            unsaid.add(changes, before, group.rules)
            return []
        if contradiction:
            conclusion = z3.BoolVal(False, self.ctx)
        else:
            conclusion = z3.And(*[self.term(var, kept) for var, kept in changes],
                                *[self.variables.vars[x] == self.variables.vars[y] + k for x, y, k in ties])
        proof = self.prove(group.rules + ([] if _apart(first) else unsaid.rules), before, conclusion)
        if proof is None:
            if len(group.steps) == 1:
                return [self.plain(first, closing, last)]
            half = len(group.steps) // 2  # each half told as one, or split again
            return self.flush(_Group(group.steps[:half]), depth, unsaid) + \
                self.flush(_Group(group.steps[half:]), depth, unsaid, contradiction=contradiction, closing=closing,
                           last=last)
        for var, _ in changes:
            unsaid.said(var)
        rules, facts, distinct = proof
        head, statements, several = self.rules_said(rules)
        uses = tuple(dict.fromkeys(part for rule in rules for part in rule.uses)) + \
            (("distinctness",) if distinct else ())
        width = max(rule.width for rule in rules)
        assuming = first.assuming
        if contradiction:
            text = f"{head[0].upper()}{head[1:]} cannot {'all ' if several else ''}hold: {statements}" \
                   f"{self.given(facts, distinct)}."
            if closing is not None:
                letter, digit, outside = closing
                shown = self.value_text(letter, (digit,))
                return [Step(StepKind.CONTRADICTION, f"{text} So {shown.replace(' = ', ' ≠ ')}.", uses,
                             f"not ({self.fact_text(letter, (digit,))})", outside, width, max(depth - 1, 0))]
            if last and depth == 0:
                text += " So the puzzle has no solution."
            return [Step(StepKind.CONTRADICTION, text, uses, None, assuming, width, depth)]
        said, fact = self.conclusions(changes, ties)
        text = f"{head[0].upper()}{head[1:]}: {statements}{self.given(facts, distinct)}. So {said}."
        return [Step(StepKind.DEDUCE, text, uses, fact, assuming, width, depth)]

    def plain(self, step: Step, closing: tuple[str, int, tuple[str, ...]] | None, last: bool) -> Step:
        """A step of the trace as it is (its proof stands), its symbols as printed; a case's last
        contradiction closes the case (its text already says which digit it refutes)."""
        text = printed(step.text)
        if step.kind is StepKind.CASE and step.fact is not None:
            text = f"Suppose {printed(step.fact)}."
        if closing is not None and step.kind is StepKind.CONTRADICTION:
            letter, digit, outside = closing
            return Step(step.kind, text, step.uses, f"not ({self.fact_text(letter, (digit,))})", outside,
                        step.width, max(step.depth - 1, 0))
        if step.kind is StepKind.CONTRADICTION and last and step.depth == 0 and step.fact is None:
            text += " So the puzzle has no solution."
        return Step(step.kind, text, step.uses, step.fact, step.assuming, step.width, step.depth, step.split)

    def block(self, block: _Block, depth: int, unsaid: _Unsaid) -> list[Step]:
        """A case: one step when it is refuted by few rules and has no cases inside, else as in the trace."""
        letter, digit = block.opening.basis.case
        outside = block.closing.assuming
        case_text = self.value_text(letter, (digit,))
        not_text = case_text.replace(" = ", " ≠ ")
        fact = f"not ({self.fact_text(letter, (digit,))})"
        traced = [step for step in block.inner if isinstance(step, Step)]
        nested = len(traced) < len(block.inner) or any(not _traced(step) for step in traced)
        chain = [*traced, block.closing]
        by_id: dict[int, Rule] = {}  # the chain's rules, each once
        for step in chain:
            if isinstance(step.basis, Basis):
                for rule in step.basis.rules:
                    by_id.setdefault(id(rule), rule)
        apart = any(not rule.equations for rule in by_id.values())
        if not nested and block.closing.basis is not None and block.closing.basis.rules and \
                len({part for rule in by_id.values() for part in rule.uses}) <= (1 if apart else MAX_CASE_PARTS):
            proof = self.prove(list(by_id.values()) + ([] if apart else unsaid.rules),
                               unsaid.premises(block.opening.basis.before), z3.BoolVal(False, self.ctx),
                               self.variables.vars[letter] == digit)
            if proof is not None:
                used, facts, distinct = proof
                head, statements, several = self.rules_said(used)
                uses = tuple(dict.fromkeys(part for rule in used for part in rule.uses)) + \
                    (("distinctness",) if distinct else ())
                text = (f"Suppose {case_text}: then {head} cannot {'all ' if several else ''}hold: {statements}"
                        f"{self.given(facts, distinct)}. So {not_text}.")
                return [Step(StepKind.CONTRADICTION, text, uses, fact, outside, max(r.width for r in used), depth)]
        opening = Step(StepKind.CASE, f"Suppose {case_text}.", (), block.opening.fact, block.opening.assuming, 1,
                       depth + 1)
        inner = [*block.inner]
        closing_step = block.closing
        if closing_step.basis is not None and closing_step.basis.rules:
            inner.append(Step(StepKind.CONTRADICTION, closing_step.text, closing_step.uses, None,
                              block.opening.assuming, closing_step.width, depth + 1, basis=closing_step.basis))
            told = self.level(inner, depth + 1, unsaid.copy(), closing=(letter, digit, outside))
            return [opening, *told]
        told = self.level(inner, depth + 1, unsaid.copy())
        left = closing_step.split
        said = f"No digit of {self.variables.display[left]} is left. " if left else ""
        return [opening, *told, Step(StepKind.CONTRADICTION, f"{said}So {not_text}.", ("cases",), fact, outside, 1,
                                     depth)]

    def bookkeeping(self, step: Step, out: list[Step], last: bool) -> Step:
        """A case split's last word: the one digit left (said with the last case refuted when that is
        the step before), or no digit left."""
        if step.kind is StepKind.DEDUCE and step.split and step.fact is not None:
            kept = step.basis.changes[0][1] if isinstance(step.basis, Basis) and step.basis.changes else ()
            shown = self.value_text(step.split, kept) if kept else step.fact
            if out and out[-1].kind is StepKind.CONTRADICTION and out[-1].depth == step.depth and \
                    out[-1].fact is not None and out[-1].fact.startswith(f"not ({step.split} = "):
                previous = out.pop()
                refuted = sum(1 for s in out if s.depth == step.depth and s.fact is not None
                              and s.fact.startswith(f"not ({step.split} = "))
                lead = "every other digit of it failed too" if refuted else "no other digit is left"
                text = previous.text[:-1] + f": {lead}, so {shown}."
                return Step(StepKind.DEDUCE, text, previous.uses, step.fact, step.assuming, previous.width,
                            step.depth, step.split)
            return Step(step.kind, f"Every other digit of {step.split} failed. So {shown}.", step.uses, step.fact,
                        step.assuming, step.width, step.depth, step.split)
        if step.kind is StepKind.CONTRADICTION and step.split:
            text = f"No digit of {self.variables.display[step.split]} is left."
            if last and step.depth == 0:
                text += " So the puzzle has no solution."
            return Step(step.kind, text, step.uses, step.fact, step.assuming, step.width, step.depth, step.split)
        return self.plain(step, None, last)


def _spent(solver: z3.Solver) -> int:
    """Z3's resource units spent so far in the solver's context."""
    statistics = solver.statistics()
    keys = statistics.keys()  # z3's statistics are not a dict
    return int(statistics.get_key_value("rlimit count")) if "rlimit count" in keys else 0


def printed(text: str) -> str:
    """The formula language's comparisons as printed: `!=` as ≠, `>=` as ≥, `<=` as ≤, `not in` as ∉."""
    for plain, shown in (("!=", "≠"), (">=", "≥"), ("<=", "≤"), (" not in ", " ∉ ")):
        text = text.replace(plain, shown)
    return text


def legend(problem: Problem, rules: Sequence[Rule], base: int) -> tuple[str, ...]:
    """How to read the steps, for a teacher or a twelve-year-old: what kind of sum it is, how the
    columns are counted and what a carry is, the base's digits, and the symbols."""
    names = {part for rule in rules for part in rule.uses}
    lines = []
    long_hand = any("long multiplication" in name or name.startswith("the last digit") for name in names)
    columns = any(name.startswith("column ") for name in names)
    if long_hand:
        if _has_division(problem):
            lines.append("A division, multiplied out (the quotient times the divisor) and worked as a long "
                         "multiplication, column by column, and by the sizes of the numbers.")
        else:
            lines.append("A product, worked as a long multiplication: column k holds every product of a digit of "
                         "one number by a digit of the other that lands there, plus the carry.")
    elif columns:
        kind = "sum" if not _has_product(problem) else "sum of multiples"
        lines.append(f"A {kind}, worked column by column as on paper.")
    else:
        lines.append("Each step reads a constraint with every number between its least and greatest value, "
                     "or tries the digits of its few letters.")
    if columns or long_hand:
        lines.append(f"Columns are counted from the right: column 1 holds the last digits. c2 is the carry into "
                     f"column 2 from column 1 (c3 into column 3, and so on): what a column's total has over "
                     f"{base}, carried to the next.")
    if base != 10:
        top = digit_char(base - 1)
        letters = "" if base <= 10 else f": a = 10{', b = 11' if base > 11 else ''}, ..., {top} = {base - 1}"
        lines.append(f"Digits are in base {base}{letters}.")
    lines.append("≠ means \"is not\", ≤ \"at most\", ≥ \"at least\", ∉ \"is none of\"; "
                 "each step names only what it uses.")
    return tuple(lines)


def _operators(problem: Problem) -> set[str]:
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, BinOp):
            found.add(node.op)
            walk(node.left)
            walk(node.right)
        elif isinstance(node, Compare):
            for operand in node.operands:
                walk(operand)
        elif isinstance(node, Unary):
            walk(node.operand)

    for constraint in problem.formula.constraints:
        walk(constraint)
    return found


def _has_division(problem: Problem) -> bool:
    return "/" in _operators(problem)


def _has_product(problem: Problem) -> bool:
    return bool({"*", "**"} & _operators(problem))
