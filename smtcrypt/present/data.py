"""Results as plain data for JSON: a verdict (`--json`, batch answers, the web API), a solution with
its long-hand layout (where its shape has one), and the explanation of a puzzle."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from smtcrypt.core.results import Solution, Status, Verdict
from smtcrypt.present.text import solution_line

if TYPE_CHECKING:
    from smtcrypt.api import Puzzle


def long_hand(solution: Solution) -> str | None:
    """The solution written out as on paper (columns, carries, partial products), or None where
    its shape has no long-hand layout (the plain line says it all)."""
    layout = solution.layout()
    return None if layout.kind == "line" else layout.text()


def solution_data(solution: Solution, entry: dict[str, Any] | None = None, line: str | None = None) -> dict[str, Any]:
    """One solution for the page: its entry in the JSON object (`solution_dict`, or the notation's:
    `present.report.Report.page`), its line, and the long-hand layout where it exists."""
    return {**(solution_dict(solution) if entry is None else entry),
            "line": solution_line(solution) if line is None else line, "long_hand": long_hand(solution)}


def explanation(puzzle: Puzzle, timeout: float | None = None) -> dict[str, Any]:
    """`{"difficulty": 1-5, "complete": bool, "legend": [...], "steps": [{"kind", "text"}, ...]}`: the
    steps a person can follow, for the page to reveal one hint at a time, and the legend that says how
    to read them (the columns, the carries, the base), shown above them."""
    explained = puzzle.explain(timeout=timeout)
    return {"difficulty": explained.difficulty, "complete": explained.complete, "legend": list(explained.legend),
            "steps": [{"kind": step.kind, "text": step.text} for step in explained.steps]}


# Solutions a JSON document lists at most: past it the search goes on and counts them all, and the
# document says how many it lists and why (`shown`, `shown_limit`); `--json-lines` writes every one.
# 100,000 solutions of 25 letters are about 35 MB of JSON.
LISTED = 100_000


def solution_dict(solution: Solution) -> dict[str, Any]:
    """One solution in a JSON document's list, or as a line of `--json-lines`: mapping, text (and wildcards)."""
    return {"mapping": solution.mapping, "text": solution.text,
            **({"wildcards": list(solution.wildcards)} if solution.wildcards else {})}


def to_dict(verdict: Verdict, stats: bool = False, solutions: bool = True, limit: int | None = None, *,
            fields: Mapping[str, Any] | None = None, entries: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The verdict as plain data: formula, status, count, complete, solutions, seconds (and reason, stats).

    `count` is the number of solutions found; null when there are infinitely many (status
    `infinite`: `shown` says how many are listed). `solutions=False` (for `--count`) leaves the
    list out. Where the list holds fewer than `count` (the caller kept at most `limit`, or ran out
    of memory keeping them), `shown` says how many it holds, and `shown_limit` the limit it reached.
    `fields` are what the notation says of the puzzle as written (`View.fields`: its formula, its
    syntax, ...), in place of ours; `entries` the solutions as the notation shows them, in place of
    `solution_dict`'s (see `present.report.Report`, which gives both)."""
    infinite = verdict.status is Status.INFINITE
    data: dict[str, Any] = {
        "formula": verdict.formula,
        "status": verdict.status.value,
        "count": None if infinite else verdict.count,
        "complete": verdict.complete,
    }
    if infinite:
        data["shown"] = verdict.count
    if solutions:
        listed = entries if entries is not None else [solution_dict(solution) for solution in verdict.solutions]
        data["solutions"] = list(listed)
        if not infinite and len(listed) < verdict.count:
            data["shown"] = len(listed)
            if limit is not None and len(listed) >= limit:
                data["shown_limit"] = limit
    data |= {
        "seconds": round(verdict.seconds, 6),
        "strategy": verdict.stats.strategy if verdict.stats is not None else None,  # "z3", "z3 -> exhaustive", ...
        "proof": verdict.proof.value if verdict.proof is not None else None,  # how completeness was shown
    }
    if verdict.reason:
        data["reason"] = verdict.reason
    if stats:
        data["stats"] = verdict.stats.as_dict(verdict.proof) if verdict.stats is not None else None
    data.update(fields or {})
    return data


def with_solutions(data: Mapping[str, Any], entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A verdict's object written without its list (`solutions=False`), with the list where `to_dict`
    puts it: for a server that received the solutions apart from the verdict."""
    placed: dict[str, Any] = {}
    for key, value in data.items():
        if key == "seconds":
            placed["solutions"] = list(entries)
        placed[key] = value
    return placed


def to_json(verdict: Verdict, stats: bool = False, solutions: bool = True) -> str:
    return json.dumps(to_dict(verdict, stats, solutions), ensure_ascii=False)
