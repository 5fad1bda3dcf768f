"""Play: a person solves a puzzle by hand, and every move is checked and answered with a reason.

A `Game` holds a checked puzzle, the player's accepted decisions (`S = 9`, `E < 5`, `N != 3`,
`c2 = 1` for a carry, named as the explanations name them) and pencil marks (`S: 1 2 9`, notes that
decide nothing). Each new decision is

- **accepted** when some solution satisfies every accepted decision and this one: proved by
  finding one (a solution of the search, re-checked exactly as every solution is);
- **rejected** when none does: proved by a complete search of the puzzle with the decisions'
  digits as the letters' domains (`Problem.allowed`), the carries read off each solution; the
  reason is the shortest chain of the explainer's proved steps from the decisions to a
  contradiction where local reasoning finds one, else "no solution has ...";
- **unknown** when the search could not finish in the time limit: never guessed.

After an accepted move the game names the letters the decisions now *force*: those that every
solution consistent with the decisions gives one digit, and that the puzzle alone does not fix
(a puzzle with one solution fixes every letter; telling the player so would give the answer
away). The game is *solved* when the decisions (and the letters they force) fix every letter.
A hint is the explainer's next proved step from the decisions.

Moves are answered from the solutions of a complete search, kept (at most `MAX_KEPT`) and
filtered for each decision; a decision that narrows a letter past a search that did not finish
searches again with the narrower domains.
"""

from __future__ import annotations

import dataclasses
import enum
import html
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import z3

from smtcrypt.core.check import Problem
from smtcrypt.core.rules import is_wildcard
from smtcrypt.core.tree import BinOp, Compare, Expr, Word
from smtcrypt.errors import FormulaError
from smtcrypt.search import DEFAULT_TIMEOUT, Search
from smtcrypt.teach.explain import Explainer, Step, StepKind, condition
from smtcrypt.teach.explain.prover import Budget, OutOfTime, Proof, Prover
from smtcrypt.teach.explain.reasoner import Contradiction
from smtcrypt.teach.explain.rules import Equation, Facts, Rule, Variables
from smtcrypt.teach.longhand import DIGITS, Layout, Row

MAX_KEPT = 10_000  # solutions kept to answer moves by filtering; past this, each move searches again
MOVE_TIMEOUT = DEFAULT_TIMEOUT  # seconds a move's search may take by default before it is answered `unknown`
REASON_SECONDS = 2.0  # seconds (at most) spent looking for the explainer's chain behind a rejection
CASE_DEPTH = 2  # a rejection's reason may split letters into cases, and cases inside them
REASON_WORK = 400_000  # the explainer's work (search nodes, proofs) behind one rejection or hint
OPERATORS = {"=": "=", "==": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
DECISION = re.compile(r"\s*(?P<name>[A-Za-z][A-Za-z0-9]*'*)\s*(?P<op>==|!=|<=|>=|=|<|>)\s*(?P<value>\S*)\s*$")
MARKS = re.compile(r"\s*(?P<name>[A-Za-z][A-Za-z0-9]*'*)\s*:(?P<digits>.*)$")


class DecisionError(FormulaError):
    """A decision or a pencil mark that cannot be read: the message, the text and a caret."""


@dataclass(frozen=True)
class Decision:
    """`S = 9`, `E < 5`, `c2 = 1`: a letter (or a carry) compared with a number."""

    name: str
    op: str  # = != < <= > >=
    value: int

    def allows(self, value: int) -> bool:
        return {"=": value == self.value, "!=": value != self.value, "<": value < self.value,
                "<=": value <= self.value, ">": value > self.value, ">=": value >= self.value}[self.op]

    def __str__(self) -> str:
        return f"{self.name} {self.op} {self.value}"


class Verdict(str, enum.Enum):
    """How a move was answered; a str, so that it reads as its name."""

    ACCEPTED = "accepted"  # some solution satisfies every decision (proved by finding one)
    SOLVED = "solved"  # accepted, and now every letter is fixed
    REJECTED = "rejected"  # no solution does (proved by a complete search)
    UNKNOWN = "unknown"  # the search could not finish in time


@dataclass(frozen=True)
class Move:
    """The answer to one decision: the verdict, why, and what the decisions now force."""

    decision: Decision
    verdict: Verdict
    reason: str = ""
    forced: tuple[tuple[str, int], ...] = ()  # letters newly forced by the decisions, alphabetically
    steps: tuple[Step, ...] = ()  # a rejection's chain of proved steps, when the explainer gives one
    solution: str = ""  # the solution, once solved

    @property
    def line(self) -> str:
        """The move as `smtcrypt play` prints it: `accepted; forced: D=7 E=5`, `rejected: ...`."""
        if self.verdict is Verdict.SOLVED:
            return f"solved: {self.solution}"
        if self.verdict is Verdict.ACCEPTED:
            return "accepted" + (f"; forced: {_assignment_text(self.forced)}" if self.forced else "")
        return f"{self.verdict.value}: {self.reason}"

    def __str__(self) -> str:
        return self.line


def _assignment_text(pairs: Iterable[tuple[str, int]]) -> str:
    return " ".join(f"{name}={DIGITS[value]}" for name, value in pairs)


@dataclass
class _Pool:
    """The solutions of one search under narrowed letter domains: all of them, when `complete`."""

    domains: dict[str, frozenset[int]]
    solutions: list[tuple[dict[str, int], str]]  # the letters' and carries' values, and the solution's text
    complete: bool
    reason: str = ""  # why it is not complete

    def covers(self, domains: Mapping[str, frozenset[int]]) -> bool:
        return self.complete and all(domains[letter] <= self.domains[letter] for letter in domains)


class _RecordingProver(Prover):
    """The explainer's prover, keeping each proof it makes, in the order of the steps they make."""

    def __init__(self, variables: Variables, letters: Sequence[str], groups: Sequence[Sequence[str]],
                 budget: Budget):
        super().__init__(variables, letters, groups, budget)
        self.proofs: list[Proof] = []

    def prove(self, rules: Sequence[Rule], facts: Facts, conclusion: z3.BoolRef) -> Proof | None:
        proof = super().prove(rules, facts, conclusion)
        if proof is not None and not self.dry:
            self.proofs.append(proof)
        return proof


class Game:
    """One puzzle being solved by hand: decisions, pencil marks, undo and hints, every answer proved."""

    def __init__(self, problem: Problem, *, timeout: float | None = MOVE_TIMEOUT, drawing: str | None = None):
        self.problem = problem
        self.timeout = timeout
        self.drawing = drawing  # the puzzle as printed (a layout's text), drawn with the known digits in place
        self.letters = tuple(letter for letter in problem.letters if not is_wildcard(letter))
        self.explainer = Explainer(problem, max_work=REASON_WORK)
        self.prover = _RecordingProver(self.explainer.variables, self.explainer.letters, self.explainer.groups,
                                       self.explainer.budget)
        self.explainer.prover = self.prover
        self.carries = tuple(sorted(self.explainer.variables.carries, key=_carry_order))
        self._equations: list[Equation] = [eq for rule in self.explainer.rules if rule.width == 1
                                           for eq in rule.equations]
        self.decisions: list[Decision] = []
        self.marks: dict[str, tuple[int, ...]] = {}
        self.history: list[Move] = []  # the accepted moves, undone from the end
        self._pools: list[_Pool] = []
        # the letters the puzzle alone fixes: not said to be forced
        # (all of them when that search does not finish: then a letter said to be forced may be one the
        # puzzle alone fixes, which is still true of every solution the decisions allow)
        start = self._consistent([])
        self._fixed_by_puzzle = self._fixed(start[0]) if start[1] else {}

    # --- reading decisions ------------------------------------------------------------------------

    def parse(self, text: str) -> Decision:
        """A decision from its text (`S = 9`, `E >= 2`, `c2 = 1`); DecisionError with a caret if it is not one."""
        match = DECISION.match(text)
        if match is None:
            where = next((i for i, ch in enumerate(text) if not ch.isspace()), 0)
            raise DecisionError("a decision is a letter or a carry, a comparison and a digit, such as "
                                "'S = 9', 'E < 5' or 'c2 = 1'", text, where, max(1, len(text.strip())))
        name = match["name"]
        self._check_name(name, text, match.start("name"))
        value_text = match["value"]
        if not re.fullmatch(r"-?\d+", value_text):
            raise DecisionError("expected a number after the comparison", text, match.start("value"),
                                max(1, len(value_text)))
        return Decision(name, OPERATORS[match["op"]], int(value_text))

    def _check_name(self, name: str, text: str, position: int) -> None:
        if name in self.letters or name in self.carries:
            return
        known = f"its letters are {' '.join(self.letters)}"
        if self.carries:
            known += f" and its carries {self.carries[0]} to {self.carries[-1]}"
        raise DecisionError(f"the puzzle has no letter or carry {name!r}: {known}", text, position, len(name))

    def parse_marks(self, text: str) -> tuple[str, tuple[int, ...]] | None:
        """`S: 1 2 9` as the letter and its marked digits (`S:` clears them); None if the text is no marks line."""
        match = MARKS.match(text)
        if match is None:
            return None
        name = match["name"]
        if name not in self.letters:
            self._check_name(name, text, match.start("name"))
            raise DecisionError(f"pencil marks are for letters, not for the carry {name}", text,
                                match.start("name"), len(name))
        digits = []
        for token in re.finditer(r"[^\s,]+", match["digits"]):
            if not token[0].isdigit() or int(token[0]) >= self.problem.rules.base:
                raise DecisionError(f"a pencil mark is a digit 0-{self.problem.rules.base - 1}", text,
                                    match.start("digits") + token.start(), len(token[0]))
            digits.append(int(token[0]))
        return name, tuple(sorted(set(digits)))

    # --- moves ------------------------------------------------------------------------------------

    def decide(self, decision: Decision | str) -> Move:
        """Answer one decision (a `Decision` or its text): accepted (and kept), rejected with the
        reason, or unknown; accepted moves say which letters the decisions now force."""
        if isinstance(decision, str):
            decision = self.parse(decision)
        trial = [*self.decisions, decision]
        broken = self._rule_reason(trial)
        if broken:
            return Move(decision, Verdict.REJECTED, broken)
        solutions, complete, why = self._consistent(trial)
        if solutions:
            before = self._forced(self.decisions)
            self.decisions.append(decision)
            forced = self._forced(self.decisions) if complete else {}
            new = tuple(sorted((k, v) for k, v in forced.items() if k not in before))
            if complete and self._solved(forced):
                shown = solutions[0][1] if len(solutions) == 1 else \
                    f"{solutions[0][1]} (and {len(solutions) - 1:,} more that differ only in the ?s)"
                move = Move(decision, Verdict.SOLVED, forced=new, solution=shown)
            else:
                move = Move(decision, Verdict.ACCEPTED, forced=new)
            self.history.append(move)
            return move
        if not complete:
            return Move(decision, Verdict.UNKNOWN, f"the search ended ({why}) before it found a solution with "
                                                   f"{self._listed(trial)} or proved there is none")
        steps = self._refutation(trial)
        if steps:
            return Move(decision, Verdict.REJECTED, " ".join(step.text for step in steps), steps=tuple(steps))
        return Move(decision, Verdict.REJECTED, f"no solution has {self._listed(trial)} (a complete search finds none)")

    def undo(self) -> Decision | None:
        """Take back the last accepted decision (None if there is none)."""
        if not self.decisions:
            return None
        self.history.pop()
        return self.decisions.pop()

    def mark(self, letter: str, digits: Iterable[int]) -> None:
        """Pencil marks: the digits the player is considering for a letter (none: clear them). Notes only."""
        if letter not in self.letters:
            raise ValueError(f"the puzzle has no letter {letter!r}")
        kept = tuple(sorted(set(digits)))
        if any(not 0 <= digit < self.problem.rules.base for digit in kept):
            raise ValueError(f"a pencil mark is a digit 0-{self.problem.rules.base - 1}, not {kept}")
        if kept:
            self.marks[letter] = kept
        else:
            self.marks.pop(letter, None)

    def play(self, text: str) -> str:
        """One line of input answered as `smtcrypt play` answers it: a decision, marks, `undo`, `hint`,
        `marks` or `show`. Raises DecisionError for text that is none of these."""
        command = text.strip()
        if command == "undo":
            undone = self.undo()
            return f"undone: {undone}" if undone is not None else "nothing to undo"
        if command == "hint":
            return f"hint: {self.hint()}"
        if command == "marks":
            return self.marks_text()
        if command == "show":
            return self.layout().text()
        marks = self.parse_marks(text)
        if marks is not None:
            self.mark(*marks)
            return self.marks_text()
        return self.decide(text).line

    # --- what is known ----------------------------------------------------------------------------

    @property
    def solved(self) -> bool:
        return bool(self.history) and self.history[-1].verdict is Verdict.SOLVED

    def fixed(self) -> dict[str, int]:
        """The letters the decisions fix: decided (`S = 9`, or narrowed to one digit) or forced."""
        domains = self._domains(self.decisions)
        known = {letter: min(digits) for letter, digits in domains.items() if len(digits) == 1}
        known.update(self._forced(self.decisions))
        return dict(sorted(known.items()))

    def left(self) -> dict[str, tuple[int, ...]]:
        """The digits the rules and the decisions leave each letter, without a search (what a person
        sees on paper): a letter's digits by the rules, narrowed by the decisions on it, less the
        digits decided for the letters it must differ from."""
        domains = self._domains(self.decisions)
        taken = {letter: min(digits) for letter, digits in domains.items() if len(digits) == 1}
        result = {}
        for letter in self.letters:
            others = {taken[other] for group in self.problem.groups if letter in group
                      for other in group if other != letter and other in taken}
            result[letter] = tuple(sorted(domains[letter] - others)) if len(domains[letter]) > 1 else \
                tuple(domains[letter])
        return result

    def possible(self, letter: str) -> tuple[int, ...] | None:
        """The digits `letter` takes in some solution consistent with the decisions; None if unknown."""
        solutions, complete, _ = self._consistent(self.decisions)
        return tuple(sorted({values[letter] for values, _ in solutions})) if complete else None

    def hint(self) -> str:
        """The explainer's next proved step from the decisions; else a letter they fix; else a letter to try."""
        if self.solved:
            return "the puzzle is solved"
        facts = self._facts(self.decisions)
        self._reset_budget()
        try:
            steps = self.explainer.next_steps(facts, (), 0)
        except (Contradiction, OutOfTime):
            steps = []
        if steps:
            return steps[0].text
        solutions, complete, _ = self._consistent(self.decisions)
        known = self.fixed()
        if complete and solutions:
            for letter in self.letters:
                digits = {values[letter] for values, _ in solutions}
                if letter not in known and len(digits) == 1:
                    return (f"nothing follows column by column, but every solution with your decisions has "
                            f"{letter} = {digits.pop()} (a complete search)")
        open_letters = [letter for letter in self.letters if letter not in known]
        if not open_letters:
            return "every letter is fixed"
        domains = self._domains(self.decisions)
        letter = min(open_letters, key=lambda name: len(domains[name]))
        return (f"nothing follows column by column: try a digit of {letter}, which may be "
                f"{_digits_text(domains[letter])}")

    def marks_text(self) -> str:
        """The pencil marks, one letter a line with its digits; digits no solution allows in brackets."""
        if not self.marks:
            return "no pencil marks"
        lines = []
        for letter, digits in sorted(self.marks.items()):
            possible = self.possible(letter)
            shown = [DIGITS[d] if possible is None or d in possible else f"({DIGITS[d]})" for d in digits]
            lines.append(f"{letter}: {' '.join(shown)}")
        return "\n".join(lines)

    def layout(self) -> Layout:
        """The puzzle long-hand with the fixed letters' digits in place and the others as letters."""
        if self.drawing is not None:
            return _lines(_filled(self.drawing, self.fixed(), lowercase=True))
        return position_layout(self.problem, self.fixed())

    def __repr__(self) -> str:
        return self.layout().text()

    def _repr_pretty_(self, printer: object, cycle: bool) -> None:
        printer.text(repr(self))  # type: ignore[attr-defined]

    def _repr_html_(self) -> str:
        decided = ", ".join(map(str, self.decisions)) or "none"
        return (f"<div class='smtcrypt-play'><pre>{html.escape(self.layout().text())}</pre>"
                f"<p>decisions: {html.escape(decided)}{'; solved' if self.solved else ''}</p></div>")

    # --- the search behind the verdicts -------------------------------------------------------------

    def _domains(self, decisions: Sequence[Decision]) -> dict[str, frozenset[int]]:
        """Each letter's digits under the puzzle's rules and the decisions on letters."""
        domains = {letter: frozenset(self.problem.allowed[letter]) for letter in self.problem.letters}
        for decision in decisions:
            if decision.name in domains:
                domains[decision.name] = frozenset(d for d in domains[decision.name] if decision.allows(d))
        return domains

    def _rule_reason(self, decisions: Sequence[Decision]) -> str:
        """Why the decisions break the puzzle's own rules (a letter left no digit, two equal letters
        that must differ), without a search; "" if they do not."""
        domains = self._domains(decisions)
        last = decisions[-1]
        if last.name in self.carries:
            values = self.explainer.variables.domains[last.name]
            if not any(all(d.allows(v) for d in decisions if d.name == last.name) for v in values):
                if any(last.allows(v) for v in values):
                    before = [d for d in decisions[:-1] if d.name == last.name]
                    return f"{last} contradicts your decision{'s' if len(before) > 1 else ''} {self._listed(before)}"
                return f"{last.name} can only be {_digits_text(values)}: the carries that column can make"
        if last.name in domains and not domains[last.name]:
            allowed = sorted(self.problem.allowed[last.name])
            before = [d for d in decisions[:-1] if d.name == last.name]
            if not before or not any(last.allows(d) for d in allowed):
                rule = condition(last.name, allowed, range(self.problem.rules.base))
                return f"{last.name} can only be {_digits_text(allowed)} by the puzzle's rules ({rule})"
            return f"{last} contradicts your decision{'s' if len(before) > 1 else ''} {self._listed(before)}"
        if last.name in domains and len(domains[last.name]) == 1:
            digit = next(iter(domains[last.name]))
            for group in self.problem.groups:
                if last.name not in group:
                    continue
                for other in group:
                    if other != last.name and domains[other] == {digit}:
                        return f"{other} = {DIGITS[digit]} already, and {last.name} and {other} must differ"
        return ""

    def _consistent(self, decisions: Sequence[Decision]) -> tuple[list[tuple[dict[str, int], str]], bool, str]:
        """The solutions satisfying every decision (values of letters and carries, and text), whether
        that list is complete, and why not."""
        domains = self._domains(decisions)
        pool = next((pool for pool in self._pools if pool.covers(domains)), None)
        if pool is None:
            pool = self._search(domains)
            if pool.complete:
                self._pools.append(pool)
        kept = [(values, text) for values, text in pool.solutions
                if all(decision.allows(values[decision.name]) for decision in decisions)]
        return kept, pool.complete, pool.reason

    def _search(self, domains: dict[str, frozenset[int]]) -> _Pool:
        """Every solution with the letters in `domains` (at most MAX_KEPT), each re-checked by the search."""
        problem = dataclasses.replace(self.problem, allowed=domains)
        search = Search(problem, limit=MAX_KEPT + 1, timeout=self.timeout)
        solutions = []
        for solution in search:
            values = {**solution.mapping, **dict(zip(self.problem.wildcards, solution.wildcards))}
            values.update(self._carry_values(values))
            solutions.append((values, str(solution)))
        if search.complete:
            return _Pool(domains, solutions, True)
        reason = f"more than {MAX_KEPT:,} solutions" if len(solutions) > MAX_KEPT else (search.reason or "unknown")
        return _Pool(domains, solutions, False, reason)

    def _carry_values(self, values: Mapping[str, int]) -> dict[str, int]:
        """The carries of a solution, column by column: each column's one unknown carry from the rest."""
        known = dict(values)
        progress = True
        while progress:
            progress = False
            for terms, constant in self._equations:
                unknown = {v for monomial in terms for v in monomial if v not in known}
                if len(unknown) != 1:
                    continue
                carry = unknown.pop()
                if (carry,) not in terms or any(carry in m and m != (carry,) for m in terms):
                    continue
                rest = constant + sum(c * math.prod(known[v] for v in m) for m, c in terms.items() if m != (carry,))
                if rest % terms[(carry,)] == 0:
                    known[carry] = -rest // terms[(carry,)]
                    progress = True
        return {carry: known[carry] for carry in self.carries if carry in known}

    def _fixed(self, solutions: Sequence[tuple[dict[str, int], str]]) -> dict[str, int]:
        """The letters every one of `solutions` gives the same digit."""
        if not solutions:
            return {}
        first = solutions[0][0]
        return {letter: first[letter] for letter in self.letters
                if all(values[letter] == first[letter] for values, _ in solutions)}

    def _forced(self, decisions: Sequence[Decision]) -> dict[str, int]:
        """The letters the decisions force: fixed in every consistent solution, not by the puzzle alone,
        and not decided outright; {} while the search is incomplete."""
        solutions, complete, _ = self._consistent(decisions)
        if not complete:
            return {}
        domains = self._domains(decisions)
        return {letter: digit for letter, digit in self._fixed(solutions).items()
                if letter not in self._fixed_by_puzzle and len(domains[letter]) > 1}

    def _solved(self, forced: Mapping[str, int]) -> bool:
        domains = self._domains(self.decisions)
        return all(len(domains[letter]) == 1 or letter in forced for letter in self.letters)

    # --- reasons --------------------------------------------------------------------------------------

    def _facts(self, decisions: Sequence[Decision]) -> Facts:
        """The decisions as the explainer's facts: each letter's and carry's values."""
        domains = dict(self.explainer.variables.domains)
        for decision in decisions:
            domains[decision.name] = tuple(v for v in domains[decision.name] if decision.allows(v))
        return Facts(domains)

    def _reset_budget(self) -> None:
        budget = self.explainer.budget
        budget.work = 0
        budget.deadline = time.monotonic() + (REASON_SECONDS if self.timeout is None
                                              else min(REASON_SECONDS, self.timeout))
        self.explainer.steps_made = 0
        self.prover.proofs.clear()

    def _refutation(self, decisions: Sequence[Decision]) -> list[Step]:
        """The explainer's shortest chain of proved steps from the decisions to a contradiction: local
        reasoning, else cases (as an explanation's, at most CASE_DEPTH deep) each refuted by it; [] if
        it does not get there within its budget."""
        facts = self._facts(decisions)
        self._reset_budget()
        steps: list[Step] = []
        try:
            steps = self.explainer.propagate(facts, (), 0)
            # nothing local refutes the decisions: a letter split into cases, each refuted (split raises)
            self.explainer.split(facts, (), 0, None, CASE_DEPTH)
        except Contradiction as stop:  # from propagate: all its steps; from split: the cases after `steps`
            return _needed(steps + stop.steps, self.prover.proofs)
        except OutOfTime:
            pass
        return []

    def _listed(self, decisions: Sequence[Decision]) -> str:
        texts = [str(d) for d in decisions]
        return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def _needed(steps: list[Step], proofs: list[Proof]) -> list[Step]:
    """The steps the last one (a contradiction) stands on, read back through the facts each proof used."""
    if len(steps) != len(proofs) or not steps or steps[-1].kind is not StepKind.CONTRADICTION:
        return steps
    needed = {len(steps) - 1}
    pending = [len(steps) - 1]
    while pending:
        index = pending.pop()
        for used in proofs[index].used:
            source = next((j for j in range(index - 1, -1, -1) if _conclusion(steps[j]) == used), None)
            if source is not None and source not in needed:
                needed.add(source)
                pending.append(source)
    return [step for index, step in enumerate(steps) if index in needed]


def _conclusion(step: Step) -> str:
    """What a step concludes, as its proofs name it later: the text after its last "So "."""
    return step.text.rsplit(" So ", 1)[-1].rstrip(".") if " So " in step.text else ""


def _carry_order(name: str) -> tuple[int, int]:
    """c2 before c10, and the second equation's c2' after the first equation's carries."""
    digits = name[1:].rstrip("'")
    return (len(name) - len(name.rstrip("'")), int(digits) if digits.isdigit() else 0)


def _digits_text(digits: Iterable[int]) -> str:
    return "{" + ", ".join(DIGITS[d] for d in sorted(digits)) + "}"


# --- the position long-hand ---------------------------------------------------------------------------


def position_layout(problem: Problem, known: Mapping[str, int]) -> Layout:
    """The puzzle as on paper with the known letters' digits written in: a sum (or difference) of
    words right-aligned, a product of two words as a multiplication; any other formula as its line."""
    def word(node: Expr) -> str | None:
        if not isinstance(node, Word):
            return None
        return "".join(DIGITS[known[ch]] if ch in known else ("?" if is_wildcard(ch) else ch)
                       for ch in node.letters)

    constraints = problem.formula.constraints
    if len(constraints) == 1 and isinstance(constraints[0], Compare) and constraints[0].ops == ("==",):
        left, right = constraints[0].operands
        for side, result in ((left, right), (right, left)):
            total = word(result)
            if total is None:
                continue
            rows = _sum_rows(side, word) or _product_rows(side, word)
            if rows:
                width = max(len(total), *(len(text) for text in rows))
                return Layout("position", (*(Row(text, "number") for text in rows), Row("-" * width, "rule"),
                                           Row(total, "result")))
    return _lines(_filled(problem.source, known))


def _lines(text: str) -> Layout:
    """Text as a layout of its lines, each kept where it stands (the layout right-aligns its rows)."""
    lines = text.split("\n")
    width = max(len(line) for line in lines)
    return Layout("line", tuple(Row(line.ljust(width), "number") for line in lines))


def _filled(text: str, known: Mapping[str, int], lowercase: bool = False) -> str:
    """A puzzle's text with the known letters' digits written in and the `?`s as `?`; with `lowercase`
    (a layout as printed) a lowercase letter is its capital, else a lowercase name is no letter."""
    def cell(ch: str) -> str:
        letter = ch.upper() if lowercase else ch
        if letter.isupper() and letter in known:
            return DIGITS[known[letter]]
        return "?" if ch.isupper() and is_wildcard(ch) else ch

    return "".join(map(cell, text))


def _sum_rows(side: Expr, word: Callable[[Expr], str | None]) -> list[str]:
    terms: list[tuple[str, Expr]] = []

    def collect(node: Expr, sign: str) -> None:
        """A chain of + and - as signed operands (the sign of a term inside `A - (B - C)` flipped)."""
        if isinstance(node, BinOp) and node.op in ("+", "-"):
            collect(node.left, sign)
            collect(node.right, node.op if sign == "+" else ("-" if node.op == "+" else "+"))
        else:
            terms.append((sign, node))

    collect(side, "+")
    texts = [word(node) for _, node in terms]
    shown = [text for text in texts if text is not None]
    if len(terms) < 2 or len(shown) < len(texts):
        return []
    return [shown[0], *(f"{sign} {text}" for (sign, _), text in zip(terms[1:], shown[1:]))]


def _product_rows(side: Expr, word: Callable[[Expr], str | None]) -> list[str]:
    if not (isinstance(side, BinOp) and side.op == "*"):
        return []
    first, second = word(side.left), word(side.right)
    if first is None or second is None:
        return []
    return [first, f"× {second}"]
