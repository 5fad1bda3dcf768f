"""Optimisation: `--maximize EXPR` / `--minimize EXPR` and `Puzzle.optimize`, the optimum proved and a
solution attaining it, checked against the brute force of tests/reference.py (no solution better, one
as good); the searches bound the objective as they go, and a search cut short keeps its best value as
a bound."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import Compiled, brute_force

from smtcrypt import Puzzle
from smtcrypt.cli import main
from smtcrypt.core.results import Status
from smtcrypt.errors import FormulaError

# Classic optimisation puzzles (formula, objective, sense, the optimum as published)
CLASSICS = [
    ("SEND + MOST = MONEY", "MONEY", "maximize", 10876),  # the classic: two solutions attain it
    ("SEND + MOST = MONEY", "MONEY", "minimize", 10437),
    ("SEND + MORE = MONEY", "MONEY", "maximize", 10652),  # one solution: its value
    ("ABC + DEF = GHIJ", "GHIJ", "maximize", 1602),
    ("ABC + DEF = GHIJ", "ABC * DEF", "minimize", 194094),
    ("A + B = CD", "A / B", "minimize", 0.25),
    ("AB / C = D", "AB / C", "maximize", 9),
    ("ODD * ODD = FREAKY", "FREAKY", "minimize", 458329),
]


def optimum_holds(formula: str, objective: str, sense: str, value) -> int:
    """The brute force's word: no solution better than `value`; how many attain it (at least one)."""
    better = ">" if sense == "maximize" else "<"
    # the puzzle's own rule on leading zeros: the objective's words are not the puzzle's, and lend it none
    rules = {"allow_leading_zeros": True, "domains": {letter: range(1, 10) for letter in Compiled(formula).leading}}
    assert brute_force(f"{formula}, ({objective}) {better} {value}", **rules) == set()
    attaining = len(brute_force(f"{formula}, ({objective}) == {value}", **rules))
    assert attaining >= 1
    return attaining


ATTAINED = {"SEND + MOST = MONEY": Status.MULTIPLE, "SEND + MORE = MONEY": Status.UNIQUE}


@pytest.mark.parametrize("formula, objective, sense, published", CLASSICS)
def test_classic_optima_are_proved(formula, objective, sense, published):
    result = Puzzle(formula).optimize(objective, sense=sense, unique=True)
    assert result.status is Status.OPTIMAL and result.proof is not None
    assert result.value == published
    assert result.attained is ATTAINED.get(formula, result.attained)
    assert len(result.solutions) == (1 if result.attained is Status.UNIQUE else 2)
    assert all(Puzzle(formula).is_solution(solution.mapping) for solution in result.solutions)


@pytest.mark.slow
@pytest.mark.parametrize("formula, objective, sense, published", CLASSICS)
def test_classic_optima_are_the_brute_forces(formula, objective, sense, published):
    """The brute force's word on each classic: none better, and how many attain it."""
    result = Puzzle(formula).optimize(objective, sense=sense, unique=True)
    attaining = optimum_holds(formula, objective, sense, result.value)
    assert result.attained is (Status.UNIQUE if attaining == 1 else Status.MULTIPLE)


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["AB + CD = EF", "AB + C = DE", "A * B = CD", "AB - CD = E", "AB * C = DEF"]),
       st.sampled_from(["A", "AB", "A * B", "EF", "A - B", "B / (A + 1)"]), st.sampled_from(["maximize", "minimize"]))
def test_the_optimum_is_the_brute_forces(formula, objective, sense):
    letters = set(Puzzle(formula).letters)
    if not set(objective) & set("ABCDEF") <= letters:
        return
    result = Puzzle(formula).optimize(objective, sense=sense)
    if not brute_force(formula):
        assert result.status is Status.NONE
        return
    assert result.status is Status.OPTIMAL
    optimum_holds(formula, objective, sense, result.value)


def test_no_solution_is_no_optimum():
    result = Puzzle("SEND + MORE = MONY").optimize("MONY")
    assert result.status is Status.NONE and result.value is None and result.solutions == ()


def test_a_search_cut_short_keeps_its_best_value_as_a_bound():
    result = Puzzle("x * x = y").optimize("x", timeout=0.5)  # no largest x, and no linear family to prove it
    assert result.status is Status.UNKNOWN and result.reason
    assert result.value is not None and result.solutions[0].mapping["x"] == result.value


@pytest.mark.parametrize("formula, objective, sense", [
    ("x - y = 1", "x", "maximize"),
    ("x - 2*y = 1 and y > A", "y - x", "minimize"),
    ("AB + x = y and x >= 0", "y - 3 * x", "minimize"),
])
def test_an_objective_without_end_is_proved_so(formula, objective, sense):
    """No optimum, proved by a family of solutions along which the objective gains (search/family.py)."""
    result = Puzzle(formula).optimize(objective, sense=sense, timeout=30)
    word = "grows" if sense == "maximize" else "falls"
    assert result.status is Status.INFINITE and result.reason
    assert result.reason.endswith(f"for t = 0, 1, 2, ..., along which {objective} {word} without bound")
    assert len(result.solutions) == 1 and Puzzle(formula).is_solution(result.solutions[0].mapping)


def test_an_objectives_words_lend_the_puzzle_no_rule():
    """ABC - DEF is largest at 873 (D = 0: DEF is no word of the puzzle, so D may be 0), not 783."""
    optimum_holds("A + B + C = D + E + F", "ABC - DEF", "maximize", 873)
    result = Puzzle("A + B + C = D + E + F").optimize("ABC - DEF", unique=True)
    assert result.status is Status.OPTIMAL and result.value == 873 and result.solutions[0].mapping["D"] == 0


def test_unknowns_bounded_only_through_each_other_still_have_a_proved_optimum():
    """The family's step must make the objective gain: where none does, the searches go on to a proof."""
    result = Puzzle("x + y = 10 and x >= 0 and y >= 0").optimize("x * y", timeout=30)
    assert result.status is Status.OPTIMAL and result.value == 25
    result = Puzzle("x - y = 1 and y >= 0").optimize("x", sense="minimize", timeout=30)
    assert result.status is Status.OPTIMAL and result.value == 1


def test_an_objective_is_one_expression_over_the_puzzles_letters():
    with pytest.raises(FormulaError, match="not a tuple"):
        Puzzle("AB + CD = EF").optimize("(A, B)")
    with pytest.raises(FormulaError, match="does not occur"):
        Puzzle("AB + CD = EF").optimize("X")
    with pytest.raises(ValueError, match="sense"):
        Puzzle("AB + CD = EF").optimize("A", sense="largest")


def test_the_command_line_says_the_optimum_and_proves_it(capsys):
    assert main(["SEND + MOST = MONEY", "--maximize", "MONEY"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("9782 + 1094 = 10876") or out[0].startswith("9784 + 1092 = 10876")
    assert out[-1].startswith("maximum MONEY = 10876 (optimal, proved by ")
    assert main(["SEND + MOST = MONEY", "--maximize", "MONEY", "--unique"]) == 1  # attained twice
    assert "attained by more than one solution" in capsys.readouterr().out
    assert main(["--json", "SEND + MORE = MONEY", "--minimize", "S + E", "--unique"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "optimal" and data["optimum"] == 14 and data["attained"] == "unique"
    assert data["objective"] == "S + E" and data["sense"] == "minimize" and data["proof"]
    assert data["solutions"][0]["text"] == "9567 + 1085 = 10652"


def test_the_command_line_marks_a_bound_and_refuses_what_cannot_go_together(capsys):
    assert main(["--json", "x * x = y", "--maximize", "x", "--timeout", "0.5"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "unknown" and data["optimum"] is None and data["bound"] >= 1
    assert main(["SEND + MORE = MONY", "--maximize", "MONY"]) == 1
    capsys.readouterr()
    assert main(["--json", "x - y = 1", "--maximize", "x"]) == 1  # no optimum, proved
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "infinite" and data["optimum"] is None and "grows without bound" in data["reason"]
    assert main(["SEND + MORE = MONEY", "--maximize", "MONEY +"]) == 2
    assert "^" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["SEND + MORE = MONEY", "--maximize", "MONEY", "--count"])
    assert exited.value.code == 2
    with pytest.raises(SystemExit):
        main(["SEND + MORE = MONEY", "--maximize", "MONEY", "--minimize", "MONEY"])
