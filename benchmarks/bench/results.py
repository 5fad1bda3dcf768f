"""What a method reports on one puzzle, and a puzzle with its results."""

from __future__ import annotations

from dataclasses import dataclass, field


class Unsupported(Exception):
    """The puzzle uses something the method cannot handle (exactly): the method skips it."""


@dataclass
class Result:
    """One method on one puzzle.

    status: "ok" (finished: `count` is every solution, or in first mode 0 or 1), "timeout" (the
    budget ran out; `count` solutions were found before), "unknown" (the solver gave up),
    "skip" (the method cannot model the puzzle; `note` says why) or "error" (it crashed).
    `exact` is False when the method computed with floats (the notebook on `/`, fractional or
    negative powers, repeating decimals): its count may then legitimately differ.
    """

    status: str
    count: int | None = None
    seconds: float | None = None
    note: str | None = None
    exact: bool = True

    @property
    def finished(self) -> bool:
        return self.status == "ok"


@dataclass
class Puzzle:
    formula: str
    tags: list[str]
    expected: int | None = None  # every solution, from corpus.tsv (counted by the exact brute force)
    mode: str = "all"  # "all": every solution; "first": the first only
    letters: int | None = None
    results: dict[str, Result] = field(default_factory=dict)
    disagreement: str | None = None
    remark: str | None = None  # a difference that is not a disagreement (float semantics)
