"""What the page and the worksheets show beyond the solution line, where this smtcrypt can make it.

The one place that wires in the optional presentations: the long-hand layout of a solution
(`Solution.long_hand()` text and `Solution.svg()`), and the explanation of a puzzle (`Puzzle.explain()`:
steps a person can follow, revealed one hint at a time, and a difficulty 1-5). Each is looked up
by name; where it is missing the page shows the plain line and no hint button.
"""

from __future__ import annotations

import inspect
from typing import Any

from .api import Puzzle, Solution


def features() -> dict[str, bool]:
    """Which presentations exist, for the page to show or hide their controls."""
    return {"long_hand": callable(getattr(Solution, "long_hand", None)),
            "svg": callable(getattr(Solution, "svg", None)),
            "explain": callable(getattr(Puzzle, "explain", None)),
            "difficulty": callable(getattr(Puzzle, "difficulty", None)) or callable(getattr(Puzzle, "explain", None))}


def long_hand(solution: Solution) -> str | None:
    """The solution written out as on paper (columns, carries, partial products), or None."""
    method = getattr(solution, "long_hand", None)
    return method() if callable(method) else None


def svg(solution: Solution) -> str | None:
    """The long-hand layout as an SVG picture, or None."""
    method = getattr(solution, "svg", None)
    return method() if callable(method) else None


def solution_data(solution: Solution) -> dict[str, Any]:
    """One solution for the page: the line, the mapping, and the long-hand layout where it exists."""
    from .render import solution_line

    return {"text": solution.text, "mapping": solution.mapping, "line": solution_line(solution),
            "long_hand": long_hand(solution)}


def _step_text(step: Any) -> str:
    if isinstance(step, str):
        return step
    if isinstance(step, dict):
        return str(step.get("text", step))
    return str(getattr(step, "text", step))


def _step_kind(step: Any) -> str | None:
    kind = step.get("kind") if isinstance(step, dict) else getattr(step, "kind", None)
    return None if kind is None else str(getattr(kind, "value", kind))


def explanation(puzzle: Puzzle, timeout: float | None = None) -> dict[str, Any] | None:
    """`{"difficulty": 1-5 or None, "steps": [{"kind", "text"}, ...]}` of the puzzle, or None where
    this smtcrypt does not explain puzzles. The explanation is an object (or dict) with `steps`
    (each a string, a dict or an object with `text` and `kind`) and maybe `difficulty`."""
    explain = getattr(puzzle, "explain", None)
    if not callable(explain):
        return None
    takes_timeout = "timeout" in inspect.signature(explain).parameters
    result = explain(timeout=timeout) if takes_timeout else explain()
    steps = result.get("steps", ()) if isinstance(result, dict) else getattr(result, "steps", ())
    difficulty = result.get("difficulty") if isinstance(result, dict) else getattr(result, "difficulty", None)
    if difficulty is None and callable(getattr(puzzle, "difficulty", None)):
        difficulty = puzzle.difficulty()
    return {"difficulty": difficulty, "steps": [{"kind": _step_kind(step), "text": _step_text(step)} for step in steps]}


def difficulty(puzzle: Puzzle) -> int | None:
    """The puzzle's difficulty 1-5, or None where this smtcrypt does not rate puzzles."""
    rate = getattr(puzzle, "difficulty", None)
    if callable(rate):
        return rate()
    explained = explanation(puzzle)
    return None if explained is None else explained["difficulty"]
