"""Other tools' spellings of our operators: `&&` and `||` (Cryptator, dCode) for `and` and `or`, `:` for
`/` (cross-sums as Sillke writes them), `√x` for `x ** (1/2)` (the American Cryptogram Association's
square roots). Each gives the solutions of the formula written our way, checked against the brute force
of tests/reference.py; misplaced, each gets a caret."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import brute_force

from smtcrypt import Puzzle
from smtcrypt.core.parse import parse
from smtcrypt.errors import FormulaSyntaxError

# (a formula in other tools' spellings, the same formula in ours)
SPELLED = [
    ("AB : C = D", "AB / C = D"),
    ("AB : C : D = 1", "AB / C / D = 1"),
    ("√EVE = AB", "EVE ** (1/2) = AB"),
    ("√(AB + C) = D", "(AB + C) ** (1/2) = D"),
    ("A = √BC ** 2 - D", "A = (BC ** 2) ** (1/2) - D"),  # √ binds as unary minus: below **
    ("-√AB = -C", "-(AB ** (1/2)) = -C"),
    ("A + B = C && A > B", "A + B = C and A > B"),
    ("A + B = C || A * B = C", "A + B = C or A * B = C"),
    ("A + B = C && (A = 1 || B = 1)", "A + B = C and (A = 1 or B = 1)"),
    ("AB : √C = D && A < B", "AB / C ** (1/2) = D and A < B"),
]


def solutions(formula: str) -> set:
    return {tuple(sorted(solution.mapping.items())) for solution in Puzzle(formula).solve()}


@pytest.mark.parametrize("theirs, ours", SPELLED)
def test_a_spelling_means_our_operator(theirs: str, ours: str) -> None:
    assert solutions(theirs) == brute_force(ours) == brute_force(theirs)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["AB", "A", "BC", "ABC"]), st.sampled_from(["C", "D", "CD"]), st.sampled_from(["E", "EF", "D"]),
       st.sampled_from([("/", ":"), ("and", "&&"), ("or", "||")]), st.sampled_from(["<", "=", ">"]))
def test_spelled_either_way_the_solutions_are_the_brute_forces(left: str, right: str, result: str,
                                                                operator: tuple[str, str], compare: str) -> None:
    ours, theirs = operator
    if ours == "/":
        formula = f"{left} {{}} {right} {compare} {result}"
    else:
        formula = f"{left} {compare} {right} {{}} {right} {compare} {result}"
    assert solutions(formula.format(theirs)) == brute_force(formula.format(ours))


@pytest.mark.parametrize("formula, column, message", [
    ("A = √", 6, "missing operand"),
    ("A √ B = C", 3, "missing operator"),
    ("A && = B", 6, "missing operand"),
    ("A || || B", 6, "missing operand"),
    ("A : = B", 5, "missing operand"),
    ("A & B = C", 3, "unexpected"),
])
def test_a_misplaced_spelling_gets_a_caret(formula: str, column: int, message: str) -> None:
    with pytest.raises(FormulaSyntaxError) as caught:
        parse(formula)
    assert message in caught.value.message and caught.value.column == column
    assert "^" in caught.value.snippet
