"""Every formula of Peter Norvig's notebook gets a first solution, and the independent evaluator
of tests/reference.py confirms it (rules and arithmetic)."""

from __future__ import annotations

from pathlib import Path

import pytest
from reference import Compiled, is_solution

import smtcrypt

NOTEBOOK = Path(__file__).parent / "data" / "notebook.txt"


def notebook_formulas() -> list[str]:
    lines = NOTEBOOK.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


FORMULAS = notebook_formulas()


def test_the_notebook_has_67_formulas():
    assert len(FORMULAS) == 67
    assert len(set(FORMULAS)) == 67


@pytest.mark.parametrize("formula", FORMULAS, ids=[f"{i:02d} {f[:50]}" for i, f in enumerate(FORMULAS, 1)])
def test_first_solution_is_confirmed_by_the_reference(formula):
    solution = next(smtcrypt.solve(formula), None)
    assert solution is not None, f"no solution found for {formula!r}"
    assert set(solution.mapping) == set(Compiled(formula).letters)
    assert all(isinstance(digit, int) and 0 <= digit <= 9 for digit in solution.mapping.values())
    assert is_solution(formula, solution.mapping), f"{solution} does not solve {formula!r}"
