"""What the page and the worksheets show beyond the solution line: the long-hand layout of a
solution (where its shape has one) and the explanation of a puzzle, as plain data for JSON."""

from __future__ import annotations

from typing import Any

from .api import Puzzle, Solution


def long_hand(solution: Solution) -> str | None:
    """The solution written out as on paper (columns, carries, partial products), or None where
    its shape has no long-hand layout (the plain line says it all)."""
    layout = solution.layout()
    return None if layout.kind == "line" else layout.text()


def solution_data(solution: Solution) -> dict[str, Any]:
    """One solution for the page: the line, the mapping, and the long-hand layout where it exists."""
    from .render import solution_line

    return {"text": solution.text, "mapping": solution.mapping, "line": solution_line(solution),
            "long_hand": long_hand(solution)}


def explanation(puzzle: Puzzle, timeout: float | None = None) -> dict[str, Any]:
    """`{"difficulty": 1-5, "complete": bool, "steps": [{"kind", "text"}, ...]}`: the steps a
    person can follow, for the page to reveal one hint at a time."""
    explained = puzzle.explain(timeout=timeout)
    return {"difficulty": explained.difficulty, "complete": explained.complete,
            "steps": [{"kind": step.kind, "text": step.text} for step in explained.steps]}


def difficulty(puzzle: Puzzle) -> int:
    """The puzzle's difficulty 1-5, from its explanation."""
    return puzzle.difficulty()
