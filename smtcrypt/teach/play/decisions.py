"""A player's decisions and pencil marks as the game reads them, and the answers to them.

A decision (`S = 9`, `E < 5`, `c2 = 1`) is a letter or a carry compared with a number; pencil marks
(`S: 1 2 9`) are the digits a player is considering for a letter, and decide nothing. Both are read
against the puzzle's letters and carries: text that is neither is a `DecisionError` with a caret
under what is wrong. A `Move` is the answer to a decision: its `MoveVerdict`, why, and what it forces.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from smtcrypt.core.letters import normal, shown
from smtcrypt.core.numerals import MAX_NUMBER_DIGITS, digit_char
from smtcrypt.errors import FormulaError
from smtcrypt.teach.explain import Step
from smtcrypt.teach.explain.person import printed

OPERATORS = {"=": "=", "==": "=", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
# a letter of any script (with the combining marks that follow it: `R̆`), or a carry
NAME = r"(?P<name>(?:[A-Za-z][A-Za-z0-9]*'*|[^\x00-\x7f\s])[^\x00-\x7f\s]*)"
DECISION = re.compile(r"\s*" + NAME + r"\s*(?P<op>==|!=|<=|>=|=|<|>)\s*(?P<value>\S*)\s*$")
MARKS = re.compile(r"\s*" + NAME + r"\s*:(?P<digits>.*)$")


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


class MoveVerdict(str, enum.Enum):
    """How a move was answered; a str, so that it reads as its name."""

    ACCEPTED = "accepted"  # some solution satisfies every decision (proved by finding one)
    SOLVED = "solved"  # accepted, and now every letter is fixed
    REJECTED = "rejected"  # no solution does (proved by a complete search)
    UNKNOWN = "unknown"  # the search could not finish in time


@dataclass(frozen=True)
class Move:
    """The answer to one decision: the verdict, why, and what the decisions now force."""

    decision: Decision
    verdict: MoveVerdict
    reason: str = ""
    forced: tuple[tuple[str, int], ...] = ()  # letters newly forced by the decisions, alphabetically
    steps: tuple[Step, ...] = ()  # a rejection's chain of proved steps, when the explainer gives one
    solution: str = ""  # the solution, once solved

    @property
    def line(self) -> str:
        """The move as `smtcrypt play` prints it: `accepted; forced: D=7 E=5`, `rejected: ...`."""
        if self.verdict is MoveVerdict.SOLVED:
            return f"solved: {self.solution}"
        if self.verdict is MoveVerdict.ACCEPTED:
            return "accepted" + (f"; forced: {_assignment_text(self.forced)}" if self.forced else "")
        if self.steps:  # the reasons numbered, one a line, as the web page numbers them
            return f"{self.verdict.value}:" + "".join(f"\n  {number}. {printed(step.text)}"
                                                     for number, step in enumerate(self.steps, 1))
        return f"{self.verdict.value}: {self.reason}"

    def __str__(self) -> str:
        return self.line


def _assignment_text(pairs: Iterable[tuple[str, int]]) -> str:
    return " ".join(f"{shown(name)}={digit_char(value)}" for name, value in pairs)


def parse_decision(text: str, letters: Sequence[str], carries: Sequence[str]) -> Decision:
    """A decision from its text (`S = 9`, `E >= 2`, `c2 = 1`); DecisionError with a caret if it is not one."""
    text = normal(text)
    match = DECISION.match(text)
    if match is None:
        where = next((i for i, ch in enumerate(text) if not ch.isspace()), 0)
        raise DecisionError("a decision is a letter or a carry, a comparison and a digit, such as "
                            "'S = 9', 'E < 5' or 'c2 = 1'", text, where, max(1, len(text.strip())))
    name = match["name"]
    _check_name(name, letters, carries, text, match.start("name"))
    value_text = match["value"]
    if not re.fullmatch(r"-?\d+", value_text) or len(value_text) > MAX_NUMBER_DIGITS:  # never Python's limit
        raise DecisionError("expected a number after the comparison", text, match.start("value"),
                            max(1, len(value_text)))
    return Decision(name, OPERATORS[match["op"]], int(value_text))


def parse_marks(text: str, letters: Sequence[str], carries: Sequence[str],
                base: int) -> tuple[str, tuple[int, ...]] | None:
    """`S: 1 2 9` as the letter and its marked digits (`S:` clears them); None if the text is no marks line."""
    text = normal(text)
    match = MARKS.match(text)
    if match is None:
        return None
    name = match["name"]
    if name not in letters:
        _check_name(name, letters, carries, text, match.start("name"))
        raise DecisionError(f"pencil marks are for letters, not for the carry {name}", text,
                            match.start("name"), len(name))
    digits = []
    for token in re.finditer(r"[^\s,]+", match["digits"]):
        if not token[0].isdecimal() or len(token[0]) > MAX_NUMBER_DIGITS or int(token[0]) >= base:
            raise DecisionError(f"a pencil mark is a digit 0-{base - 1}", text,
                                match.start("digits") + token.start(), len(token[0]))
        digits.append(int(token[0]))
    return name, tuple(sorted(set(digits)))


def _check_name(name: str, letters: Sequence[str], carries: Sequence[str], text: str, position: int) -> None:
    if name in letters or name in carries:
        return
    known = f"its letters are {' '.join(letters)}"
    if carries:
        known += f" and its carries {carries[0]} to {carries[-1]}"
    raise DecisionError(f"the puzzle has no letter or carry {name!r}: {known}", text, position, len(name))


def listed(decisions: Sequence[Decision]) -> str:
    """Decisions as a sentence lists them: `S = 9`, `S = 9 and E < 5`, `S = 9, M = 1 and E < 5`."""
    texts = [str(d) for d in decisions]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def digits_text(digits: Iterable[int]) -> str:
    return "{" + ", ".join(map(digit_char, sorted(digits))) + "}"
