"""What an explanation is made of: its steps, how they read, and how hard they make the puzzle."""

from __future__ import annotations

import enum
import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.core.check import Problem
from smtcrypt.core.numerals import digit_char
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
    # what the step was proved from (a `rules.Basis`): what the person's steps are made again from
    basis: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", StepKind(self.kind))  # a kind given by its name

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "text": self.text, "uses": list(self.uses), "fact": self.fact,
                "assuming": list(self.assuming)}


@dataclass(frozen=True)
class Explanation:
    """The steps from the puzzle to its solution (or to the cases that remain), and a difficulty 1-5.

    `steps` are a person's (`person.py`); `trace` the reasoning's own steps, one small conclusion
    each (carries too), from which they are told and the difficulty is read (`--terse`)."""

    formula: str
    status: Status  # unique | multiple | none | unknown (as a search's verdict)
    steps: tuple[Step, ...]
    solutions: tuple[dict[str, int], ...]  # every solution when few (at most MAX_LISTED), else the first ones
    complete: bool  # True when reasoning alone reached the end; False when the rest was left to a search
    count: int | None = None  # solutions in all, when known
    seconds: float = 0.0
    trace: tuple[Step, ...] = ()  # the reasoning's own steps (the steps themselves when not given)
    legend: tuple[str, ...] = ()  # how to read the steps: columns, carries, the base, the kind of sum

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status))  # a status given by its name
        if not self.trace:
            object.__setattr__(self, "trace", self.steps)

    @property
    def solution(self) -> dict[str, int] | None:
        return dict(self.solutions[0]) if self.status is Status.UNIQUE else None

    @property
    def difficulty(self) -> int:
        return difficulty(self.trace, self.complete)

    @property
    def case_splits(self) -> int:
        return sum(1 for step in self.trace if step.kind is StepKind.CASE)

    def rating(self) -> str:
        """The difficulty said for what it is: of finding the solution, of showing there is none, or of
        narrowing a puzzle with several solutions down to its cases."""
        level = f"difficulty {self.difficulty} of 5"
        if self.status is Status.UNIQUE:
            return level
        if self.status is Status.NONE:
            return f"no solution; {level} to show it"
        if self.status is Status.MULTIPLE:
            many = f"{self.count:,}" if self.count is not None else f"more than {MAX_LISTED}"
            return f"{many} solutions, not one; {level} up to where the cases remain"
        return f"undecided; {level}"

    def text(self, hint: int | None = None, *, terse: bool = False) -> str:
        """The explanation as numbered lines after its legend; with `hint`, only the first `hint`
        steps; `terse`, the reasoning's own steps without a legend."""
        every = self.trace if terse else self.steps
        steps = every if hint is None else every[:hint]
        lines = [f"{self.formula}  ({self.rating()})"]
        if not terse:
            lines += [f"     {line}" for line in self.legend]
        for number, step in enumerate(steps, 1):
            lines.append(f"{number:>3}. {'    ' * step.depth}{step.text}")
        if hint is not None and hint < len(every):
            lines.append(f"     ({len(every) - hint} more steps)")
        elif not self.complete:
            lines.append("     (the reasoning above does not finish the puzzle: the rest was found by search)")
        return "\n".join(lines)

    def to_dict(self, hint: int | None = None, *, terse: bool = False) -> dict[str, Any]:
        every = self.trace if terse else self.steps
        steps = every if hint is None else every[:hint]
        result: dict[str, Any] = {"formula": self.formula, "status": self.status.value, "difficulty": self.difficulty,
                                  "complete": self.complete, "steps": [step.as_dict() for step in steps],
                                  "solution": self.solution}
        if not terse:
            result["legend"] = list(self.legend)
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
        legend = "".join(f"<p>{html.escape(line)}</p>" for line in self.legend)
        return (f"<div class='smtcrypt-explanation'><p><code>{html.escape(self.formula)}</code>: "
                f"{html.escape(self.rating())}</p>{legend}<ol>{items}</ol></div>")


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


def digits_text(values: Iterable[int], digit: Callable[[int], str] = str) -> str:
    return "{" + ", ".join(map(digit, sorted(values))) + "}"


def condition(name: str, kept: Sequence[int], universe: Sequence[int], *, printed: bool = False,
              digit: Callable[[int], str] = str) -> str:
    """`X = 3`, `X != 0`, `X >= 5`, `2 <= X <= 4`, `X in {1, 3}` or `X not in {0, 5}`: the shortest
    way to say that X takes one of `kept` out of `universe`, in the formula language. `printed`: as
    a person reads it on paper (`X ≠ 0`, `X ≥ 5`, `2 ≤ X ≤ 4`, `X is 1 or 3`, `X ∉ {0, 5}`), each
    value written by `digit` (a base's own digits: `b`, not 11)."""
    kept = sorted(kept)
    dropped = sorted(set(universe) - set(kept))
    ne, ge, le = ("≠", "≥", "≤") if printed else ("!=", ">=", "<=")
    if len(kept) == 1:
        return f"{name} = {digit(kept[0])}"
    if len(dropped) == 1:
        return f"{name} {ne} {digit(dropped[0])}"
    if kept == list(range(kept[0], kept[-1] + 1)):
        if kept[-1] == max(universe):
            return f"{name} {ge} {digit(kept[0])}"
        if kept[0] == min(universe):
            return f"{name} {le} {digit(kept[-1])}"
        return f"{digit(kept[0])} {le} {name} {le} {digit(kept[-1])}"
    if len(dropped) < len(kept):
        return f"{name} {'∉' if printed else 'not in'} {digits_text(dropped, digit)}"
    if printed:
        shown = [digit(value) for value in kept]
        return f"{name} is {', '.join(shown[:-1])} or {shown[-1]}"
    return f"{name} in {digits_text(kept, digit)}"


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
    return " ".join(f"{k}={digit_char(v)}" for k, v in sorted(solution.mapping.items()))  # the base's own digits


def solution_step(shown: str, letters: dict[str, int]) -> Step:
    """The last step of a puzzle that reasoning solved: its solution, with the letters' digits as the fact."""
    fact = " and ".join(f"{k} = {v}" for k, v in sorted(letters.items()))
    return Step(StepKind.SOLUTION, f"Solution: {shown}.", (), fact or None, (), 1, 0)


def closing_steps(found: Sequence[str], count: int | None, reasoned: bool) -> list[Step]:
    """What the reasoning left open, said as such: the solutions a complete search finds (as `solution_text`)."""
    if not found:
        return [Step(StepKind.SOLUTION,
                     "No further step follows by local reasoning, but a complete search finds none. "
                     "So the puzzle has no solution.",
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
