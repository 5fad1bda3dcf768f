"""Proofs of infinitely many solutions over integer unknowns, and where no such proof is made."""

from __future__ import annotations

import json

import pytest

import smtcrypt
from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.verify import satisfies
from smtcrypt.search.family import find_family


def family_of(formula: str, solution: dict[str, int]):
    return find_family(check(parse(formula)), solution)


@pytest.mark.parametrize("formula, solution", [
    ("x - y = 1", {"x": 1, "y": 0}),
    ("x + y = 10, x >= 0", {"x": 0, "y": 10}),
    ("AB - x = y, x >= 0", {"A": 1, "B": 2, "x": 0, "y": 12}),  # letters fixed at the solution's digits
    ("x > 2*y, y != 3, x / 2 = z", {"x": 2, "y": 0, "z": 1}),
    ("3 < x <= x", {"x": 4}),
    ("x * y = 0", {"x": 0, "y": 5}),  # not linear in both: x stays 0 while y moves
])
def test_families_are_found_and_their_members_solve_the_puzzle(formula, solution):
    problem = check(parse(formula))
    family = family_of(formula, solution)
    assert family is not None and any(family.step.values())
    assert all(satisfies(problem, family.member(t)) for t in range(50))


@pytest.mark.parametrize("formula, solution", [
    ("x + y = 10, x >= 0, y >= 0", {"x": 0, "y": 10}),  # finite: 11 solutions
    ("x * x = y", {"x": 0, "y": 0}),  # not linear in x: no claim (y alone cannot move)
    ("x = 3 or x > 4", {"x": 3}),
    ("x // 2 = 1", {"x": 2}),
    ("A + B = C", {"A": 1, "B": 2, "C": 3}),  # no unknowns
])
def test_no_claim_without_a_proof(formula, solution):
    assert family_of(formula, solution) is None


def test_search_reports_infinite_with_the_first_few():
    verdict = smtcrypt.Puzzle("x - y = 1").search().verdict()
    assert verdict.status is smtcrypt.Status.INFINITE and not verdict.complete
    assert verdict.count == 10 and verdict.reason.startswith("infinitely many solutions: x = ")
    with pytest.raises(smtcrypt.InfinitelyMany):
        smtcrypt.count("x - y = 1")
    with pytest.raises(smtcrypt.IncompleteSearch):  # it is one
        smtcrypt.count("x - y = 1")


def test_without_a_proof_the_search_stops_as_unknown(monkeypatch):
    monkeypatch.setattr("smtcrypt.engine.z3search.UNBOUNDED_MODEL_CAP", 30)
    verdict = smtcrypt.Puzzle("x * x = y").search().verdict()
    assert verdict.status is smtcrypt.Status.UNKNOWN and verdict.count == 30
    assert "there may be infinitely many" in verdict.reason


def test_finite_puzzles_with_unknowns_still_end_complete():
    assert smtcrypt.count("x + y = 10, x >= 0, y >= 0") == 11
    coins = "p + d + q + h = 19, p + 10*d + 25*q + 50*h = 95, p >= 0, d >= 0, q >= 0, h >= 0"
    assert smtcrypt.verdict(coins).status is smtcrypt.Status.UNIQUE


def test_command_line(capsys):
    from smtcrypt.cli import main

    assert main(["--count", "x - y = 1"]) == 0
    assert capsys.readouterr().out == "infinite\n"
    assert main(["--json", "x - y = 1"]) == 0
    data = json.loads(capsys.readouterr().out)
    # no number that reads as a count of solutions: `shown` says how many are listed
    assert data["status"] == "infinite" and data["count"] is None and data["complete"] is False
    assert data["shown"] == len(data["solutions"]) == 10
    assert main(["--json", "--count", "x - y = 1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] is None and data["shown"] == 10 and "solutions" not in data
    assert main(["x - y = 1"]) == 0
    assert "infinitely many solutions" in capsys.readouterr().out.splitlines()[-1]
    assert main(["--unique", "x - y = 1"]) == 1  # infinitely many is not unique


@pytest.mark.parametrize("formula", ["x - y = 1", "x * y = 0", "x != 3, x >= 0", "x > 2*y, y != 3, x / 2 = z"])
def test_rows_shown_walk_as_the_summary_says(formula):
    """The solutions listed are the family's members start + t * step, t = 0, 1, 2, ... (those that
    pass the exact re-check), so the rows agree with the summary line."""
    search = smtcrypt.Puzzle(formula).search()
    solutions = list(search)
    family = search.family
    assert family is not None and len(solutions) == 10
    members = [family.member(t) for t in range(30)]
    problem = check(parse(formula))
    expected = [member for member in members if satisfies(problem, member)][:10]
    assert [solution.mapping for solution in solutions] == [dict(sorted(m.items())) for m in expected]


def test_verdict_reports_infinite():
    verdict = smtcrypt.verdict("x - y = 1")
    assert verdict.status is smtcrypt.Status.INFINITE and not verdict.complete
    assert [s.mapping for s in verdict.solutions] == [{"x": 1, "y": 0}, {"x": 2, "y": 1}]
    assert verdict.reason == "infinitely many solutions: x = 1 + t, y = t for t = 0, 1, 2, ..."
    assert smtcrypt.verdict("x + y = 10, x >= 0, y >= 0").status is smtcrypt.Status.MULTIPLE  # finite: no claim


def test_family_members_keep_the_wildcards_of_the_first_solution():
    solutions = list(smtcrypt.Puzzle("x - y = 1?").search())
    assert len(solutions) == 10 and len({s.wildcards for s in solutions}) == 1
    assert all(s.text == f"{s.mapping['x']} - {s.mapping['y']} = 1{s.wildcards[0]}" for s in solutions)
