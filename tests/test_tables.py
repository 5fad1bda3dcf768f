"""Lookup tables in the general encoding: variable powers (`A**N`), roots of bounded integers
(`EVIL**(1/2)`) and products of two letters (`THREE * THREE` in an inequality) give the same answers
as the independent brute force of tests/reference.py."""

import pytest
from reference import brute_force as reference_solutions

import smtcrypt
from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules

SLOW = pytest.mark.slow  # cases that take seconds each: run with -m slow


def brute_force(formula: str, rules: Rules) -> set[tuple[tuple[str, int], ...]]:
    """Every solution by the independent reference (tests/reference.py), not smtcrypt's own evaluator."""
    return reference_solutions(formula, distinct=rules.distinct, allow_leading_zeros=rules.allow_leading_zeros)


CASES = [
    ("A**N + B**N = C**N and N > 1", Rules()),
    ("A ** (B - C) = D", Rules()),
    pytest.param("A ** (B - C) = D / E", Rules(), marks=SLOW),
    ("A**(B-5) = C/D", Rules()),
    ("A**B = CD", Rules()),
    ("A**B = B**A", Rules(distinct=False)),
    ("A**(B-2) + C = 1", Rules(distinct=False)),
    pytest.param("MON-EY = EVIL**(1/2)", Rules(), marks=pytest.mark.slow),  # 7 letters: 30 s of brute force
    ("M-E = EVIL**(1/2)", Rules()),
    ("ATOM**0.5 = A + TO + M", Rules()),
    ("AB**(1/3) = C", Rules()),
    ("(A-5)**(1/2) = B", Rules()),
    ("AB**(-1/2) = 1/C", Rules()),
    ("(A - B)**(1/2) + C**(1/2) = D", Rules(distinct=False)),
    ("AB**(3/2) = CDE", Rules(allow_leading_zeros=True)),
    ("A*B < C", Rules()),
    pytest.param("AB*C > DE and A*A <= B", Rules(), marks=SLOW),
    pytest.param("(A + 2) * (B - C) >= 3 * D", Rules(distinct=False), marks=SLOW),
    ("AB * AB != CB * 3 + 1 and AB < CB", Rules()),
    ("ONE < TWO < TWO * 2 < NO * O", Rules()),
    ("A * B * C = 12 or A*B = C", Rules()),
]


@pytest.mark.parametrize("formula, rules", CASES)
def test_variable_powers_match_brute_force(formula, rules):
    found = {tuple(sorted(s.mapping.items())) for s in smtcrypt.solve(
        formula, distinct=rules.distinct, allow_leading_zeros=rules.allow_leading_zeros)}
    assert found == brute_force(formula, rules)


def test_zero_to_a_negative_power_is_not_a_solution():
    # 0 ** -1 divides by zero: only A != 0 may pair with a negative exponent.
    found = {tuple(sorted(s.mapping.items())) for s in smtcrypt.solve("A**(B-5) = C/D")}
    assert all(dict(m)["A"] != 0 or dict(m)["B"] >= 5 for m in found)


@pytest.mark.parametrize("formula", [
    "A*B < C", "A**(B-5) = C/D", "AB**(1/3) = C", "(A-5)**(1/2) = B", "ONE < TWO < TWO * 2 < NO * O",
    pytest.param("A**B = CD", marks=pytest.mark.slow),  # the plain encoding needs about a minute for these
    pytest.param("AB*C > DE and A*A <= B", marks=pytest.mark.slow),
])
def test_tables_agree_with_the_plain_reference_encoding(formula):
    import z3

    from smtcrypt.encode.general import GeneralEncoding
    from smtcrypt.engine.z3search import ModelSearch

    problem = check(parse(formula))
    found = {}
    for tables in (True, False):
        search = ModelSearch(GeneralEncoding(tables=tables).encode(problem, z3.Context()))
        found[tables] = {tuple(sorted(model.items())) for model in search}
        assert search.end.complete
    assert found[True] == found[False]
