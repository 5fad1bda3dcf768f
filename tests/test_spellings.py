"""Other tools' spellings of our operators: `&&` and `||` (Cryptator, dCode) for `and` and `or`, `:` for
`/` (cross-sums as Sillke writes them), `√x` for `x ** (1/2)` (the American Cryptogram Association's
square roots), and the factorial `n!` (Cross+A's). Each gives the solutions of the formula written our
way, checked against the brute force of tests/reference.py; misplaced or too large, each gets a caret."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import brute_force

from smtcrypt import Puzzle
from smtcrypt.core.parse import parse
from smtcrypt.errors import FormulaError, FormulaSyntaxError

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


@settings(max_examples=15, deadline=None)
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


# ---- the factorial: postfix `n!` (Cross+A's), or factorial(n) --------------------------------------------

FACTORIALS = ["A! + B! = CD", "(A - B)! = C", "A! * B = CD", "2 ** 3! = AB", "factorial(A) + B! = CDE", "AB = A! + B"]


@pytest.mark.parametrize("formula", FACTORIALS)
@pytest.mark.parametrize("strategy", ["auto", "z3", "cubes", "exhaustive"])
def test_the_factorial_is_exact_in_every_search(formula: str, strategy: str) -> None:
    found = {tuple(sorted(s.mapping.items())) for s in Puzzle(formula).solve(strategy=strategy)}
    assert found == brute_force(formula)


def test_the_factorions() -> None:
    assert [s.text for s in Puzzle("ABC = A! + B! + C!").solve()] == ["145 = 1! + 4! + 5!"]
    assert [s.text for s in Puzzle("ABCDE = A! + B! + C! + D! + E!", distinct=False).solve()] == \
        ["40585 = 4! + 0! + 5! + 8! + 5!"]


def test_a_factorial_binds_tighter_than_a_power_and_is_not_not_equal() -> None:
    assert solutions("2 ** 3! = AB") == brute_force("2 ** 6 = AB") == {(("A", 6), ("B", 4))}
    assert solutions("A!=B") == brute_force("A != B")  # written together, as Python reads it


@pytest.mark.parametrize("formula, column, message", [
    ("x! = 6", 1, "the factorial's argument must be an integer expression"),
    ("(A / B)! = C", 2, "the factorial's argument must be an integer expression"),
    ("ABCD! = E", 1, "smtcrypt computes n! for n up to 1,000"),
    ("!A = B", 1, "unexpected"),
])
def test_a_factorial_beyond_the_limits_gets_a_caret(formula: str, column: int, message: str) -> None:
    with pytest.raises(FormulaError) as caught:
        Puzzle(formula)
    assert message in caught.value.message and caught.value.column == column


def test_the_operators_in_the_other_notations_that_have_them() -> None:
    """enigma.py's `factorial(X)` and Cryptator's `&&` (its grammar has no `||`, `!`, `√` or `:`)."""
    enigma = Puzzle.from_enigma('SubstitutedExpression "ABC == factorial(A) + factorial(B) + factorial(C)"')
    assert [s.mapping for s in enigma.solve()] == [{"A": 1, "B": 4, "C": 5}]
    with pytest.raises(FormulaError) as caught:
        Puzzle.from_enigma('SubstitutedExpression "ABC == factorial(A, B)"')
    assert "takes one argument" in caught.value.message
    cryptator = Puzzle.from_cryptator("ab + c = de && a * b = c")
    found = {tuple(sorted(s.mapping.items())) for s in cryptator.solve()}
    assert found and found == brute_force("AB + C = DE and A * B = C")
