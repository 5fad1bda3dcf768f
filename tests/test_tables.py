"""Lookup tables in the general encoding: variable powers (`A**N`), roots of bounded integers
(`EVIL**(1/2)`) and products of two letters (`THREE * THREE` in an inequality) give the same answers
as the independent brute force of tests/reference.py."""

import pytest
import z3
from reference import brute_force as reference_solutions

import smtcrypt
from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules
from smtcrypt.encode import Encoded
from smtcrypt.encode.general import GeneralEncoding
from smtcrypt.engine.z3search import ModelSearch

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


def is_model(encoded: Encoded, model: dict[str, int]) -> bool:
    """True if the digits satisfy the encoding's constraints: the constraints with the digits put in,
    then solved for what remains (the plain encoding states a root by an auxiliary unknown)."""
    context = encoded.context
    digits = [(var, z3.IntVal(model[letter], context)) for letter, var in encoded.letters.items()]
    solver = z3.Solver(ctx=context)
    solver.add(z3.substitute(z3.And(*encoded.constraints), *digits))
    return solver.check() == z3.sat


@pytest.mark.parametrize("formula", [
    "A*B < C", "A**(B-5) = C/D", "AB**(1/3) = C", "(A-5)**(1/2) = B", "ONE < TWO < TWO * 2 < NO * O",
    pytest.param("A**B = CD", marks=pytest.mark.slow),  # the plain encoding's one check: about 9 s
    pytest.param("AB*C > DE and A*A <= B", marks=pytest.mark.slow),  # 2,750 solutions: a few seconds
])
def test_tables_agree_with_the_plain_reference_encoding(formula):
    """The solutions with tables are exactly those of the plain encoding: each of them satisfies it,
    and the plain encoding's search with all of them blocked finds no other (a complete search).

    The plain encoding's solutions are not listed one by one: its terms are bit-blasted again for
    every check (Z3's bit-blasting solver is not incremental), over a formula that grows by a
    blocking clause per solution, so listing 2,750 solutions took a minute alone and many minutes
    on a busy machine; blocked all at once, they take one check."""
    problem = check(parse(formula))
    search = ModelSearch(GeneralEncoding(tables=True).encode(problem, z3.Context()))
    found = [dict(model) for model in search]
    assert search.end is not None and search.end.complete
    plain = GeneralEncoding(tables=False).encode(problem, z3.Context())
    assert [model for model in found if not is_model(plain, model)] == []
    others = ModelSearch(plain, blocked=found)
    assert list(others) == []
    assert others.end is not None and others.end.complete
