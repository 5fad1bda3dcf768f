"""The encoding stage: which encoding `choose` picks, what an `Encoded` holds, which solver
strategies the general encoding asks for, and that undefined candidates are excluded."""

from __future__ import annotations

import pytest
import z3
from reference import brute_force

from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules
from smtcrypt.encode import Encoded, choose, encodings
from smtcrypt.encode.general import GeneralEncoding, formula_terms
from smtcrypt.engine.z3search import ModelSearch, solvers


def problem(formula: str, rules: Rules | None = None):
    return check(parse(formula), rules)


def general(formula: str, rules: Rules | None = None, **options) -> Encoded:
    return GeneralEncoding(**options).encode(problem(formula, rules), z3.Context())


def models(encoded: Encoded) -> set[tuple[tuple[str, int], ...]]:
    search = ModelSearch(encoded)
    found = {tuple(sorted(model.items())) for model in search}
    assert search.end is not None and search.end.complete
    return found


# --- choose --------------------------------------------------------------------------------------------------


def test_the_general_encoding_comes_last_and_accepts_everything():
    every = encodings()
    assert every[-1].name == "general"
    assert isinstance(every[-1], GeneralEncoding)
    for formula in ["SEND + MORE = MONEY", "ODD * ODD = FREAKY", "x + y = 10", "gcd(AB, CD) = E", "A / B = 0.(C)"]:
        assert GeneralEncoding().accepts(problem(formula))


@pytest.mark.parametrize("formula", [
    "sum(range(AA)) = BB",
    "A < B and C > D",
    "ONE < TWO and FOUR < FIVE",
    "PLUTO not in {PLANETS}",
    "gcd(AB, CD) = E",
])
def test_bounded_formulas_without_columns_or_products_go_to_bit_vectors(formula):
    checked = problem(formula)
    assert [encoding.name for encoding in encodings() if encoding.accepts(checked)] == ["bitvec", "general"]
    assert choose(checked).name == "bitvec"


@pytest.mark.parametrize("formula", [
    "MON-EY = EVIL**(1/2)",
    "(A/B)**(1/2) = C",
    "x + y = 10",
])
def test_choose_returns_the_general_encoding_when_nothing_specialised_accepts(formula):
    checked = problem(formula)
    assert [encoding.name for encoding in encodings() if encoding.accepts(checked)] == ["general"]
    chosen = choose(checked)
    assert isinstance(chosen, GeneralEncoding)
    assert chosen.name == "general"


@pytest.mark.parametrize("formula", ["SEND + MORE = MONEY", "ODD * ODD = FREAKY", "X / X = X", "AB - CD = EF"])
def test_choose_returns_the_first_encoding_that_accepts(formula):
    checked = problem(formula)
    accepting = [encoding.name for encoding in encodings() if encoding.accepts(checked)]
    assert choose(checked).name == accepting[0]
    assert accepting[-1] == "general"


# --- Encoded ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("formula", ["SEND + MORE = MONEY", "ODD * ODD = FREAKY", "MON-EY = EVIL**(1/2)",
                                     "sum(range(AA)) = BB", "X / X = X"])
def test_encoded_has_one_variable_per_letter(formula):
    checked = problem(formula)
    for encoding in (choose(checked), GeneralEncoding()):
        encoded = encoding.encode(checked, z3.Context())
        assert list(encoded.letters) == list(checked.letters)
        for letter, variable in encoded.letters.items():  # an Int, or a bit-vector in the bit-vector encoding
            assert (z3.is_bv(variable) if encoding.name == "bitvec" else z3.is_int(variable)) and z3.is_const(variable)
            assert str(variable) == letter
            assert variable.ctx == encoded.context
        assert all(z3.is_bool(constraint) for constraint in encoded.constraints)
        assert encoded.unbounded is False


def test_encoded_integer_unknowns_are_unbounded_ints():
    encoded = general("x + y = 10")
    assert set(encoded.letters) == {"x", "y"}
    assert all(z3.is_int(variable) for variable in encoded.letters.values())
    assert encoded.unbounded is True
    assert solvers(encoded) == ()  # only the general solver handles unbounded integers


def test_encodings_live_in_the_given_context():
    context = z3.Context()
    checked = problem("SEND + MORE = MONEY")
    encoded = choose(checked).encode(checked, context)
    assert encoded.context is context
    assert all(constraint.ctx == context for constraint in encoded.constraints)


# --- strategies of the general encoding ---------------------------------------------------------------------------


@pytest.mark.parametrize("formula", ["SEND + MORE = MONEY", "NUM + BER = PLAY", "AB - CD = EF", "2 * BE = THE - 7",
                                     "A < B and C > D"])
def test_a_linear_formula_goes_to_the_finite_domain_solver(formula):
    assert solvers(general(formula)) == ("finite-domain",)


@pytest.mark.parametrize("formula, options", [
    ("A*B*C = DE", {}),  # a product of three letters: no table
    ("ODD * ODD = FREAKY", {"tables": False}),
    ("A * B = C", {"tables": False}),
    ("AB // C = D", {}),
])
def test_a_product_is_bit_blasted(formula, options):
    assert solvers(general(formula, **options)) == ("bit-blast",)


def test_a_product_of_two_letter_sums_becomes_a_linear_table():
    assert solvers(general("ODD * ODD = FREAKY")) == ("finite-domain",)


@pytest.mark.parametrize("formula, options", [
    ("MON-EY = EVIL**(1/2)", {"tables": False}),  # the root is an auxiliary unknown without bounds
    ("(A/B)**(1/2) = C", {}),  # a root of a fraction: no table even with tables
])
def test_a_root_with_an_unbounded_auxiliary_unknown_gets_no_specialised_solver(formula, options):
    assert solvers(general(formula, **options)) == ()


def test_a_root_of_a_bounded_integer_becomes_a_linear_table():
    assert solvers(general("MON-EY = EVIL**(1/2)")) == ("finite-domain",)


# --- undefined candidates ----------------------------------------------------------------------------------------


def solvable_with(encoded: Encoded, *extra) -> z3.CheckSatResult:
    solver = z3.Solver(ctx=encoded.context)
    solver.add(*encoded.constraints, *extra)
    return solver.check()


@pytest.mark.parametrize("rules", [Rules(), Rules(distinct=False, allow_leading_zeros=True)])
@pytest.mark.parametrize("tables", [True, False])
def test_x_over_x_excludes_zero(rules, tables):
    """0 / 0 is undefined, so X = 0 is not a solution of X / X = X (X = 1 is the only one)."""
    encoded = general("X / X = X", rules, tables=tables)
    x = encoded.letters["X"]
    assert solvable_with(encoded, x == 0) == z3.unsat
    assert solvable_with(encoded, x == 1) == z3.sat
    assert models(encoded) == {(("X", 1),)}


def test_x_over_x_excludes_zero_in_the_chosen_encoding():
    checked = problem("X / X = X")
    encoded = choose(checked).encode(checked, z3.Context())
    assert solvable_with(encoded, encoded.letters["X"] == 0) == z3.unsat
    assert models(encoded) == {(("X", 1),)}


@pytest.mark.parametrize("formula, zero", [
    ("A / (B - C) = D", lambda v: v["B"] == v["C"]),
    ("A // (B - C) = D", lambda v: v["B"] == v["C"]),
    ("A % (B - C) = D", lambda v: v["B"] == v["C"]),
    ("(B - C) ** -1 = A - D", lambda v: v["B"] == v["C"]),
])
def test_no_model_divides_by_zero(formula, zero):
    encoded = general(formula, Rules(distinct=False))
    assert solvable_with(encoded, zero(encoded.letters)) == z3.unsat
    assert solvable_with(encoded) == z3.sat


@pytest.mark.parametrize("formula, rules", [
    ("X / X = X", Rules()),
    ("(A - B)**(1/2) = C", Rules(distinct=False)),
    ("AB**(1/2) = C", Rules()),
    ("A / (B - C) = D", Rules(distinct=False)),
    ("ODD + ODD = EVEN", Rules()),
    ("(A or B) * (C and D) = BA", Rules(distinct=False)),
    ("A**-1 + B**-1 = C**-1", Rules()),
])
@pytest.mark.parametrize("tables", [True, False])
def test_general_encoding_models_equal_brute_force(formula, rules, tables):
    expected = brute_force(formula, distinct=rules.distinct, allow_leading_zeros=rules.allow_leading_zeros)
    assert models(general(formula, rules, tables=tables)) == expected


# --- gcd ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("formula", "rules"), [
    ("gcd(12, AB) = C", Rules(distinct=False)),
    ("gcd(AB, 0, -6) = C", Rules(distinct=False)),
    ("gcd(10, ABB, 1.(2)) = B", Rules(distinct=False, base=3, allow_leading_zeros=True)),
    ("gcd(4, 6) = A", Rules()),
])
def test_a_gcd_with_constant_arguments_is_a_choice_among_their_gcds_divisors(formula, rules):
    """No Bezout witnesses (a function of the letters: the formula's terms exist apart), and the
    solutions are brute force's."""
    checked = problem(formula, rules)
    encoder = GeneralEncoding()
    assert formula_terms(checked, z3.Context()) is not None
    expected = brute_force(formula, distinct=rules.distinct, base=rules.base,
                           allow_leading_zeros=rules.allow_leading_zeros)
    assert models(encoder.encode(checked, z3.Context())) == expected
