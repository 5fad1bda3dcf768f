"""Stage 5: the exact re-check with Fractions, independent of Z3."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smtcrypt.core.check import check
from smtcrypt.core.outcomes import VerificationError
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules
from smtcrypt.core.verify import Undefined, confirm, evaluate, follows_rules, integer_root, power, satisfies
from smtcrypt.errors import FormulaError


def value(expression: str, assignment: dict[str, int] | None = None) -> Fraction:
    """The exact value of a single expression (parsed, not checked)."""
    (node,) = parse(expression).constraints
    return evaluate(node, assignment or {})


def problem(formula: str, **rules: bool):
    return check(parse(formula), Rules(**rules))


F = Fraction

VALUES = [
    # exact division
    ("1/3 + 1/3 + 1/3 == 1", 1),
    ("1/3 + 1/3 + 1/3", 1),
    ("1/3", F(1, 3)),
    ("0.1 + 0.2 == 0.3", 1),
    ("2/4 == 0.5", 1),
    ("(1/3) * 3 == 1", 1),
    # floor division and modulo
    ("(7/2) // 1", 3),
    ("(7/2) % 1", F(1, 2)),
    ("(-7/2) % 2", F(1, 2)),
    ("(-7/2) // 2", -2),
    # powers
    ("2**10", 1024),
    ("2**-1", F(1, 2)),
    ("(-2)**-1", F(-1, 2)),
    ("(-2)**3", -8),
    ("0**0", 1),
    ("10**-2 == 0.01", 1),
    ("(2/3)**-2", F(9, 4)),
    ("-2**2", -4),
    # exact roots
    ("4356**(1/2)", 66),
    ("8**(1/3)", 2),
    ("(9/4)**0.5", F(3, 2)),
    ("8**(2/3)", 4),
    ("4**(-1/2)", F(1, 2)),
    ("(1/8)**(-1/3)", 2),
    ("0**0.5", 0),
    ("1**(1/7)", 1),
    ("-4**0.5", -2),  # -(4**0.5)
    ("(2**100)**(1/100)", 2),
    # Python's value semantics of and/or/not
    ("0 or 5", 5),
    ("3 or 5", 3),
    ("0 or 0", 0),
    ("3 and 0", 0),
    ("3 and 4", 4),
    ("0 and 4", 0),
    ("1/2 and 7", 7),
    ("0 or 1/2", F(1, 2)),
    ("not 0", 1),
    ("not 7", 0),
    ("not 1/2", 0),
    ("not not 3", 1),
    ("0 and 1/0", 0),
    ("1 or 1/0", 1),
    ("2 - 2 or 1/0 - 1/0 or 3", "undefined"),
    # comparisons, chained
    ("2 == 2 == 2", 1),
    ("2 == 2 == 3", 0),
    ("1 != 2 != 1", 1),
    ("1 < 2 <= 2 < 3", 1),
    ("1 < 2 <= 2 < 2", 0),
    ("3 > 2 >= 2 > 1", 1),
    ("1 < 3 > 2", 1),
    ("1/2 < 2/3", 1),
    ("2 < 1 < 1/0", 0),  # short-circuit: 1/0 is never evaluated
    ("1 == 2 == 1 // 0", 0),
    ("1 < 2 < 1/0", "undefined"),
    # in / not in
    ("3 in {1, 2, 3}", 1),
    ("4 in {1, 2, 3}", 0),
    ("3 not in (1, 2)", 1),
    ("2 not in (1, 2)", 0),
    ("1/2 in (0.5,)", 1),
    ("3 in ()", 0),
    ("3 not in ()", 1),
    ("2 in range(3)", 1),
    ("3 in range(3)", 0),
    ("0 in range(0)", 0),
    ("-1 in range(3)", 0),
    ("-1 in range(-2, 0)", 1),
    ("5/2 in range(3)", 0),
    ("5/2 not in range(3)", 1),
    ("2 in range(3, 1)", 0),
    ("1 < 2 in (2, 3)", 1),
    ("1 < 2 in (3,)", 0),
    ("2 in range(1/2)", "undefined"),
    # functions
    ("min(3, 1/2, 2)", F(1, 2)),
    ("max(-1, -2)", -1),
    ("max(1, 7/2, 3)", F(7, 2)),
    ("abs(-7/2)", F(7, 2)),
    ("abs(4)", 4),
    ("abs(0)", 0),
    ("sum(range(5))", 10),
    ("sum(range(1))", 0),
    ("sum(range(0))", 0),
    ("sum(range(-3))", 0),
    ("sum(range(2, 5))", 9),
    ("sum(range(5, 2))", 0),
    ("sum(range(4, 4))", 0),
    ("sum(range(-3, 2))", -5),
    ("sum(range(-5, -2))", -12),
    ("sum(range(5/2))", "undefined"),
    ("sum(range(1, 7/2))", "undefined"),
]


@pytest.mark.parametrize("expression, expected", VALUES)
def test_evaluate(expression, expected):
    if expected == "undefined":
        with pytest.raises(Undefined):
            value(expression)
    else:
        result = value(expression)
        assert type(result) in (int, Fraction)  # exact: never a float
        assert result == expected


@pytest.mark.parametrize("a", range(-7, 8))
@pytest.mark.parametrize("b", [-4, -3, -2, -1, 1, 2, 3, 5])
def test_floor_division_and_modulo_match_python(a, b):
    assert value(f"({a}) // ({b})") == a // b
    assert value(f"({a}) % ({b})") == a % b


UNDEFINED = [
    "1/0",
    "1//0",
    "1%0",
    "0/0",
    "1/(2 - 2)",
    "0**-1",
    "0**-2",
    "(1 - 1)**(-1/2)",
    "2**0.5",
    "2**(1/3)",
    "(2/3)**0.5",
    "(1/2)**(1/2)",
    "(-4)**0.5",
    "(-8)**(1/3)",
    "(-1)**(2/4)",
]


@pytest.mark.parametrize("expression", UNDEFINED)
def test_undefined(expression):
    with pytest.raises(Undefined):
        value(expression)


def test_undefined_is_an_arithmetic_error():
    assert issubclass(Undefined, ArithmeticError)


WITH_LETTERS = [
    ("AB", {"A": 1, "B": 2}, 12),
    ("ODD", {"O": 6, "D": 7}, 677),
    ("AB + BA", {"A": 1, "B": 2}, 33),
    ("A / B", {"A": 1, "B": 3}, F(1, 3)),
    ("A // B", {"A": 7, "B": 2}, 3),
    ("-A % B", {"A": 7, "B": 2}, 1),
    ("AB**(1/2)", {"A": 8, "B": 1}, 9),
    ("A**N", {"A": 2, "N": 5}, 32),
    ("A**-N", {"A": 2, "N": 2}, F(1, 4)),
    ("sum(range(A))", {"A": 4}, 6),
    ("sum(range(A, B))", {"A": 3, "B": 6}, 12),
    ("A in range(B, C)", {"A": 3, "B": 3, "C": 4}, 1),
    ("A in {B, C}", {"A": 5, "B": 1, "C": 5}, 1),
    ("A not in {B, C}", {"A": 5, "B": 1, "C": 5}, 0),
    ("min(A, B, C)", {"A": 5, "B": 1, "C": 3}, 1),
    ("max(A, B, C)", {"A": 5, "B": 1, "C": 3}, 5),
    ("abs(A - B)", {"A": 2, "B": 9}, 7),
]


@pytest.mark.parametrize("expression, assignment, expected", WITH_LETTERS)
def test_evaluate_with_letters(expression, assignment, expected):
    assert value(expression, assignment) == expected


@pytest.mark.parametrize("start", range(-4, 5))
@pytest.mark.parametrize("stop", range(-4, 5))
def test_sum_of_range_closed_form(start, stop):
    assert value(f"sum(range({start}, {stop}))") == sum(range(start, stop))
    assert value(f"sum(range({stop}))") == sum(range(stop))


@pytest.mark.parametrize("item", [F(n, 2) for n in range(-8, 9)])
def test_in_range_matches_python(item):
    expected = item.denominator == 1 and int(item) in range(-2, 3)
    assert value(f"{item.numerator}/{item.denominator} in range(-2, 3)") == expected


# --- integer_root and power ------------------------------------------------------------------------

def brute_root(n: int, q: int) -> int | None:
    root = 0
    while root ** q < n:
        root += 1
    return root if root ** q == n else None


@pytest.mark.parametrize("q", range(1, 8))
def test_integer_root_against_brute_force(q):
    for n in range(0, 1100):
        assert integer_root(n, q) == brute_root(n, q), (n, q)


@pytest.mark.parametrize("root", [2, 3, 10, 99, 12345, 10**20 + 7, 2**64 - 1])
@pytest.mark.parametrize("q", [2, 3, 5, 17])
def test_integer_root_of_large_powers(root, q):
    n = root ** q
    assert integer_root(n, q) == root
    assert integer_root(n + 1, q) is None
    assert integer_root(n - 1, q) is None


POWERS = [
    (F(4), F(1, 2), F(2)),
    (F(27, 8), F(2, 3), F(9, 4)),
    (F(16), F(-3, 4), F(1, 8)),
    (F(5), F(0), F(1)),
    (F(0), F(0), F(1)),
    (F(0), F(3), F(0)),
    (F(-3), F(3), F(-27)),
    (F(1, 2), F(-3), F(8)),
]


@pytest.mark.parametrize("base, exponent, expected", POWERS)
def test_power(base, exponent, expected):
    assert power(base, exponent) == expected


# --- rules, satisfies, confirm -----------------------------------------------------------------

SEND = {"S": 9, "E": 5, "N": 6, "D": 7, "M": 1, "O": 0, "R": 8, "Y": 2}

FOLLOWS = [
    # formula, rules, assignment, expected
    ("AB + C = D", {}, {"A": 1, "B": 2, "C": 3, "D": 4}, True),
    ("AB + C = D", {}, {"A": 1, "B": 2, "C": 2, "D": 4}, False),  # not distinct
    ("AB + C = D", {"distinct": False}, {"A": 1, "B": 2, "C": 2, "D": 4}, True),
    ("AB + C = D", {}, {"A": 0, "B": 2, "C": 3, "D": 4}, False),  # leading zero
    ("AB + C = D", {"allow_leading_zeros": True}, {"A": 0, "B": 2, "C": 3, "D": 4}, True),
    ("AB + C = D", {}, {"A": 1, "B": 0, "C": 3, "D": 4}, True),  # zero not leading
    ("AB + C = D", {}, {"A": 1, "B": 2, "C": 0, "D": 4}, True),  # single-letter word may be 0
    ("AB + C = D", {}, {"A": 1, "B": 2, "C": 10, "D": 4}, False),  # not a digit
    ("AB + C = D", {}, {"A": 1, "B": 2, "C": -1, "D": 4}, False),
    ("AB + C = D", {"distinct": False}, {"A": 1, "B": 2, "C": 10, "D": 4}, False),
    ("AB + C = D", {}, {"A": 1, "B": 2, "C": 3}, False),  # a letter missing
    ("AB + C = D", {}, {"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}, False),  # a letter too many
    ("AB + C = D", {}, {"A": 1, "B": 2, "C": 3.0, "D": 4}, False),  # not an int
    ("SEND + MORE = MONEY", {}, SEND, True),
    ("SEND + MORE = MONEY", {}, {**SEND, "O": 9}, False),
]


@pytest.mark.parametrize("formula, rules, assignment, expected", FOLLOWS)
def test_follows_rules(formula, rules, assignment, expected):
    assert follows_rules(problem(formula, **rules), assignment) is expected


SATISFIES = [
    ("SEND + MORE = MONEY", {}, SEND, True),
    ("SEND + MORE = MONEY", {}, {**SEND, "Y": 3}, False),
    ("A + B = C", {}, {"A": 1, "B": 2, "C": 3}, True),
    ("A + B = C", {}, {"A": 1, "B": 1, "C": 2}, False),  # arithmetic right, rules broken
    ("A + B = C", {"distinct": False}, {"A": 1, "B": 1, "C": 2}, True),
    ("A = B, C = D + 1", {"distinct": False}, {"A": 1, "B": 1, "C": 3, "D": 2}, True),
    ("A = B, C = D + 1", {"distinct": False}, {"A": 1, "B": 1, "C": 3, "D": 1}, False),
    ("A > B or A = 1/0", {}, {"A": 2, "B": 1}, True),
    ("A < B and A = 1/0", {}, {"A": 2, "B": 1}, False),
    ("A**(1/2) = B", {}, {"A": 9, "B": 3}, True),
    ("ODD * ODD = FREAKY", {}, {"O": 6, "D": 7, "F": 4, "R": 5, "E": 8, "A": 3, "K": 2, "Y": 9}, True),
    ("ODD * ODD = FREAKY", {}, {"O": 6, "D": 7, "F": 4, "R": 5, "E": 8, "A": 3, "K": 9, "Y": 2}, False),
]


@pytest.mark.parametrize("formula, rules, assignment, expected", SATISFIES)
def test_satisfies(formula, rules, assignment, expected):
    assert satisfies(problem(formula, **rules), assignment) is expected


UNDEFINED_CANDIDATES = [
    ("A / B = C", {"A": 1, "B": 0, "C": 2}),
    ("A // B = C", {"A": 1, "B": 0, "C": 2}),
    ("A % B = C", {"A": 1, "B": 0, "C": 2}),
    ("A**-B = C", {"A": 0, "B": 1, "C": 2}),
    ("A**(1/2) = B", {"A": 2, "B": 1}),
    ("(-A)**(1/2) = B", {"A": 4, "B": 2}),
    ("sum(range(A / B)) = C", {"A": 1, "B": 2, "C": 0}),
    ("A < B < C / (A - A)", {"A": 1, "B": 2, "C": 3}),
]


@pytest.mark.parametrize("formula, assignment", UNDEFINED_CANDIDATES)
def test_undefined_candidate_is_not_a_solution(formula, assignment):
    checked = problem(formula)
    assert follows_rules(checked, assignment)
    with pytest.raises(Undefined):
        evaluate(checked.formula.constraints[0], assignment)
    assert satisfies(checked, assignment) is False


def test_confirm_accepts_a_solution():
    assert confirm(problem("SEND + MORE = MONEY"), SEND) is None


@pytest.mark.parametrize("assignment", [
    {**SEND, "Y": 3},  # wrong sum
    {**SEND, "O": 9},  # not distinct
    {key: value for key, value in SEND.items() if key != "Y"},  # a letter missing
])
def test_confirm_rejects_a_wrong_assignment(assignment):
    with pytest.raises(VerificationError) as caught:
        confirm(problem("SEND + MORE = MONEY"), assignment)
    assert isinstance(caught.value, AssertionError)
    assert not isinstance(caught.value, FormulaError)
    assert "SEND + MORE = MONEY" in str(caught.value)


def test_confirm_rejects_an_undefined_candidate():
    with pytest.raises(VerificationError):
        confirm(problem("A / B = C"), {"A": 1, "B": 0, "C": 2})


# --- regressions ---------------------------------------------------------------------------------

@pytest.mark.parametrize("formula, assignment", [
    ("A in (A, 1/0)", {"A": 1}),
    ("A in {A, B / (A - A)}", {"A": 1, "B": 2}),
    ("A not in {B, 1/0}", {"A": 1, "B": 2}),
])
def test_in_evaluates_every_item(formula, assignment):
    """Regression: at 05de55e `in` stopped at the first equal item, though Python (and the encoder)
    build the whole literal first, so a zero divisor in a later item went unnoticed."""
    checked = problem(formula)
    assert satisfies(checked, assignment) is False


@pytest.mark.parametrize("formula, assignment", [
    ("A in (A,) in (A,)", {"A": 1}),
    ("A in {A} == A", {"A": 1}),
])
def test_chain_continuing_after_in_follows_python(formula, assignment):
    """Regression: at 05de55e a chain went on comparing the item after `in`, not the collection, so
    `1 in (1,) in (1,)` held (False in Python). The checker may reject such a chain, or the
    verifier must find it false as Python does."""
    try:
        checked = problem(formula)
    except FormulaError:
        return
    assert satisfies(checked, assignment) is False
