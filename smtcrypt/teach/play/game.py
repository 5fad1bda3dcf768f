"""The game: a checked puzzle, the player's accepted decisions and pencil marks, and the moves.

Moves are answered from the solutions of a complete search, kept (at most `MAX_KEPT`) and
filtered for each decision; a decision that narrows a letter past a search that did not finish
searches again with the narrower domains. A rejection's reason and a hint come from `reasons`;
reading a decision from `decisions`; the position as drawn from `drawing`.
"""

from __future__ import annotations

import dataclasses
import html
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from smtcrypt.core.check import Problem
from smtcrypt.core.longhand import Layout
from smtcrypt.core.numerals import digit_char
from smtcrypt.core.rules import is_wildcard
from smtcrypt.search import DEFAULT_TIMEOUT, Search
from smtcrypt.teach.explain.rules import Equation
from smtcrypt.teach.play.decisions import Decision, Move, MoveVerdict, digits_text, listed, parse_decision, parse_marks
from smtcrypt.teach.play.drawing import filled_in, lines_layout, position_layout
from smtcrypt.teach.play.reasons import Reasons

MAX_KEPT = 10_000  # solutions kept to answer moves by filtering; past this, each move searches again
MOVE_TIMEOUT = DEFAULT_TIMEOUT  # seconds a move's search may take by default before it is answered `unknown`


@dataclass
class _Pool:
    """The solutions of one search under narrowed letter domains: all of them, when `complete`."""

    domains: dict[str, frozenset[int]]
    solutions: list[tuple[dict[str, int], str]]  # the letters' and carries' values, and the solution's text
    complete: bool
    reason: str = ""  # why it is not complete

    def covers(self, domains: Mapping[str, frozenset[int]]) -> bool:
        return self.complete and all(domains[letter] <= self.domains[letter] for letter in domains)


class Game:
    """One puzzle being solved by hand: decisions, pencil marks, undo and hints, every answer proved."""

    def __init__(self, problem: Problem, *, timeout: float | None = MOVE_TIMEOUT, drawing: str | None = None):
        self.problem = problem
        self.timeout = timeout
        self.drawing = drawing  # the puzzle as printed (a layout's text), drawn with the known digits in place
        self.letters = tuple(letter for letter in problem.letters if not is_wildcard(letter))
        self.reasons = Reasons(problem)
        self.explainer, self.prover = self.reasons.explainer, self.reasons.prover
        self.carries = tuple(sorted(self.explainer.variables.carries, key=carry_order))
        self._equations: list[Equation] = [eq for rule in self.explainer.rules if rule.width == 1
                                           for eq in rule.equations]
        self.decisions: list[Decision] = []
        self.marks: dict[str, tuple[int, ...]] = {}
        self.history: list[Move] = []  # the accepted moves, undone from the end
        self._pools: list[_Pool] = []
        self._running: Search | None = None  # the search answering the move now, for `request_stop`
        # the letters the puzzle alone fixes: not said to be forced
        # (all of them when that search does not finish: then a letter said to be forced may be one the
        # puzzle alone fixes, which is still true of every solution the decisions allow)
        start = self._consistent([])
        self._fixed_by_puzzle = self._fixed(start[0]) if start[1] else {}

    # --- reading decisions ------------------------------------------------------------------------

    def parse(self, text: str) -> Decision:
        """A decision from its text (`S = 9`, `E >= 2`, `c2 = 1`); DecisionError with a caret if it is not one."""
        return parse_decision(text, self.letters, self.carries)

    def parse_marks(self, text: str) -> tuple[str, tuple[int, ...]] | None:
        """`S: 1 2 9` as the letter and its marked digits (`S:` clears them); None if the text is no marks line."""
        return parse_marks(text, self.letters, self.carries, self.problem.rules.base)

    # --- moves ------------------------------------------------------------------------------------

    def decide(self, decision: Decision | str) -> Move:
        """Answer one decision (a `Decision` or its text): accepted (and kept), rejected with the
        reason, or unknown; accepted moves say which letters the decisions now force."""
        if isinstance(decision, str):
            decision = self.parse(decision)
        trial = [*self.decisions, decision]
        broken = self.reasons.rule_reason(trial, self._domains(trial))
        if broken:
            return Move(decision, MoveVerdict.REJECTED, broken)
        solutions, complete, why = self._consistent(trial)
        if solutions:
            before = self._forced(self.decisions)
            self.decisions.append(decision)
            forced = self._forced(self.decisions) if complete else {}
            new = tuple(sorted((k, v) for k, v in forced.items() if k not in before))
            if complete and self._solved(forced):
                shown = solutions[0][1] if len(solutions) == 1 else \
                    f"{solutions[0][1]} (and {len(solutions) - 1:,} more that differ only in the ?s)"
                move = Move(decision, MoveVerdict.SOLVED, forced=new, solution=shown)
            else:
                move = Move(decision, MoveVerdict.ACCEPTED, forced=new)
            self.history.append(move)
            return move
        if not complete:
            return Move(decision, MoveVerdict.UNKNOWN, f"the search ended ({why}) before it found a solution with "
                                                   f"{listed(trial)} or proved there is none")
        steps = self.reasons.refutation(trial, self.timeout)
        if steps:
            return Move(decision, MoveVerdict.REJECTED, " ".join(step.text for step in steps), steps=tuple(steps))
        return Move(decision, MoveVerdict.REJECTED, f"no solution has {listed(trial)} (a complete search finds none)")

    def request_stop(self) -> None:
        """End the move being answered soon: its search stops (the move answers unknown, nothing is
        kept of it) and its reasons are not looked for any longer. Safe from another thread and from
        a signal handler (Ctrl-C during a move)."""
        search = self._running
        if search is not None:
            search.request_stop()
        self.reasons.stop()

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
        return bool(self.history) and self.history[-1].verdict is MoveVerdict.SOLVED

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
        solutions, complete, _ = self._consistent(self.decisions)
        if complete and not solutions and not self.decisions:
            return "the puzzle has no solution: a complete search finds none, so no digit can be right"
        step = self.reasons.hint(self.decisions, self.timeout)
        if step is not None:
            return step.text
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
                f"{digits_text(domains[letter])}")

    def marks_text(self) -> str:
        """The pencil marks, one letter a line with its digits; digits no solution allows in brackets."""
        if not self.marks:
            return "no pencil marks"
        lines = []
        for letter, digits in sorted(self.marks.items()):
            possible = self.possible(letter)
            shown = [digit_char(d) if possible is None or d in possible else f"({digit_char(d)})" for d in digits]
            lines.append(f"{letter}: {' '.join(shown)}")
        return "\n".join(lines)

    def layout(self) -> Layout:
        """The puzzle long-hand with the fixed letters' digits in place and the others as letters."""
        if self.drawing is not None:
            return lines_layout(filled_in(self.drawing, self.fixed(), lowercase=True))
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
        search = self._running = Search(problem, limit=MAX_KEPT + 1, timeout=self.timeout)
        solutions = []
        try:
            for solution in search:
                values = {**solution.mapping, **dict(zip(self.problem.wildcards, solution.wildcards))}
                values.update(self._carry_values(values))
                solutions.append((values, str(solution)))
        finally:
            self._running = None
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


def carry_order(name: str) -> tuple[int, int]:
    """c2 before c10, and the second equation's c2' after the first equation's carries."""
    digits = name[1:].rstrip("'")
    return (len(name) - len(name.rstrip("'")), int(digits) if digits.isdigit() else 0)

