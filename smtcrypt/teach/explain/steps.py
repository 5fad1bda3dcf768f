"""What an explanation is made of: its steps, how they read, and how hard they make the puzzle."""

from __future__ import annotations

import enum
import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from smtcrypt.core.check import Problem
from smtcrypt.core.results import Solution, Status

MAX_LISTED = 10  # solutions listed at the end of an explanation that cannot go further
TRYING = 3  # the width of trying a constraint's digits: after single rules and pairs, and rated with case splits
DEEP_CASES = 3  # cases this many deep inside each other rate a puzzle 5
MANY_CASES = 8  # more case splits than this rate a puzzle 4 (as do cases two deep)
LONG_CHAIN = 25  # more steps than this, even of one column each, rate a puzzle 2


class StepKind(str, enum.Enum):
    """What a step does; a str, so that it reads and compares as its name (`"deduce"`)."""

    DEDUCE = "deduce"  # a fact follows from a rule
    CASE = "case"  # an assumption opens a case
    CONTRADICTION = "contradiction"  # a rule cannot hold: the open case (or the puzzle) is impossible
    SOLUTION = "solution"  # the answer, or what a search found where reasoning stopped


@dataclass(frozen=True)
class Step:
    """One step of an explanation: what it uses and what follows, under the open case's assumptions.

    `fact` is a condition in the formula language over the puzzle's letters (`"M = 1"`,
    `"S in {8, 9}"`, `"not (E = 5)"`), None for a step about carries only."""

    kind: StepKind
    text: str
    uses: tuple[str, ...]
    fact: str | None
    assuming: tuple[str, ...] = ()
    width: int = 1  # how many columns (or digits) of reasoning the step needs at once
    depth: int = 0  # how many cases are open
    split: str = ""  # the letter a case split was on, for the step that ends it

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", StepKind(self.kind))  # a kind given by its name

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "text": self.text, "uses": list(self.uses), "fact": self.fact,
                "assuming": list(self.assuming)}


@dataclass(frozen=True)
class Explanation:
    """The steps from the puzzle to its solution (or to the cases that remain), and a difficulty 1-5."""

    formula: str
    status: Status  # unique | multiple | none | unknown (as a search's verdict)
    steps: tuple[Step, ...]
    solutions: tuple[dict[str, int], ...]  # every solution when few (at most MAX_LISTED), else the first ones
    complete: bool  # True when reasoning alone reached the end; False when the rest was left to a search
    count: int | None = None  # solutions in all, when known
    seconds: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status))  # a status given by its name

    @property
    def solution(self) -> dict[str, int] | None:
        return dict(self.solutions[0]) if self.status is Status.UNIQUE else None

    @property
    def difficulty(self) -> int:
        return difficulty(self.steps, self.complete)

    @property
    def case_splits(self) -> int:
        return sum(1 for step in self.steps if step.kind is StepKind.CASE)

    def text(self, hint: int | None = None) -> str:
        """The explanation as numbered lines; with `hint`, only the first `hint` steps."""
        steps = self.steps if hint is None else self.steps[:hint]
        lines = [f"{self.formula}  (difficulty {self.difficulty} of 5)"]
        for number, step in enumerate(steps, 1):
            lines.append(f"{number:>3}. {'    ' * step.depth}{step.text}")
        if hint is not None and hint < len(self.steps):
            lines.append(f"     ({len(self.steps) - hint} more steps)")
        elif not self.complete:
            lines.append("     (the reasoning above does not finish the puzzle: the rest was found by search)")
        return "\n".join(lines)

    def to_dict(self, hint: int | None = None) -> dict[str, Any]:
        steps = self.steps if hint is None else self.steps[:hint]
        result: dict[str, Any] = {"formula": self.formula, "status": self.status.value, "difficulty": self.difficulty,
                                  "complete": self.complete, "steps": [step.as_dict() for step in steps],
                                  "solution": self.solution}
        if self.status is not Status.UNIQUE:
            result["solutions"] = [dict(s) for s in self.solutions]
            result["count"] = self.count
        return result

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        items = "".join(
            f"<li style='margin-left:{2 * step.depth}em'><b>{html.escape(step.kind.value)}</b>: "
            f"{html.escape(step.text)}</li>" for step in self.steps)
        return (f"<div class='smtcrypt-explanation'><p><code>{html.escape(self.formula)}</code>: "
                f"{self.status.value}, difficulty {self.difficulty} of 5</p><ol>{items}</ol></div>")


def difficulty(steps: Sequence[Step], complete: bool = True) -> int:
    """1 one column at a time; 2 two columns at once, or a long chain of single columns; 3 a case
    split one deep, few, or trying the digits of a constraint; 4 many case splits or cases inside
    cases; 5 deeper still, or the reasoning does not finish."""
    if not complete:
        return 5
    width = max((step.width for step in steps), default=1)
    depth = max((step.depth for step in steps), default=0)
    cases = sum(1 for step in steps if step.kind is StepKind.CASE)
    if depth >= DEEP_CASES:
        return 5
    if depth == DEEP_CASES - 1 or cases > MANY_CASES:
        return 4
    if cases or width >= TRYING:
        return 3
    if width >= 2 or len(steps) > LONG_CHAIN:
        return 2
    return 1


# --- the formula language, for the steps' facts --------------------------------------------------------


def digits_text(values: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, sorted(values))) + "}"


def condition(name: str, kept: Sequence[int], universe: Sequence[int]) -> str:
    """`X = 3`, `X != 0`, `X >= 5`, `2 <= X <= 4`, `X in {1, 3}` or `X not in {0, 5}`: the shortest
    way to say that X takes one of `kept` out of `universe`, in the formula language."""
    kept = sorted(kept)
    dropped = sorted(set(universe) - set(kept))
    if len(kept) == 1:
        return f"{name} = {kept[0]}"
    if len(dropped) == 1:
        return f"{name} != {dropped[0]}"
    if kept == list(range(kept[0], kept[-1] + 1)):
        if kept[-1] == max(universe):
            return f"{name} >= {kept[0]}"
        if kept[0] == min(universe):
            return f"{name} <= {kept[-1]}"
        return f"{kept[0]} <= {name} <= {kept[-1]}"
    if len(dropped) < len(kept):
        return f"{name} not in {digits_text(dropped)}"
    return f"{name} in {digits_text(kept)}"


def signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def tie_text(x: str, y: str, k: int) -> str:
    """`N = E + 1`: two letters a fixed difference apart."""
    return f"{x} = {y} {signed(k)}" if k else f"{x} = {y}"


# --- the closing steps ----------------------------------------------------------------------------------


def solution_text(solution: Solution, problem: Problem) -> str:
    """`D=7 E=5 M=1`; with `?`s, the formula filled in as well (`10 + 91 = 101  /  A=1`)."""
    if problem.wildcards:
        return str(solution)
    return " ".join(f"{k}={v}" for k, v in sorted(solution.mapping.items()))


def solution_step(shown: str, letters: dict[str, int]) -> Step:
    """The last step of a puzzle that reasoning solved: its solution, with the letters' digits as the fact."""
    fact = " and ".join(f"{k} = {v}" for k, v in sorted(letters.items()))
    return Step(StepKind.SOLUTION, f"Solution: {shown}.", (), fact or None, (), 1, 0)


def closing_steps(found: Sequence[str], count: int | None, reasoned: bool) -> list[Step]:
    """What the reasoning left open, said as such: the solutions a complete search finds (as `solution_text`)."""
    if not found:
        return [Step(StepKind.SOLUTION,
                     "No further step follows by local reasoning; a complete search finds no solution.",
                     ("search",), None, (), 1, 0)]
    listed = found[:MAX_LISTED]
    many = "" if count is not None else f" (the first {MAX_LISTED} of more)"
    lead = ("No further step follows by local reasoning. " if not reasoned else "Several cases remain. ") + \
        f"A complete search finds {count if count is not None else 'more than ' + str(MAX_LISTED)} " \
        f"solution{'' if count == 1 else 's'}{many}:"
    steps = [Step(StepKind.SOLUTION, lead, ("search",), None, (), 1, 0)]
    for text in listed:
        steps.append(Step(StepKind.SOLUTION, f"Solution: {text}.", ("search",), None, (), 1, 0))
    return steps
