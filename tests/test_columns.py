"""The column encoding against the general (reference) encoding: same solution sets."""

import pytest
import z3
from reference import brute_force

from smtcrypt.analysis.linear import column_equations
from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules
from smtcrypt.core.verify import satisfies
from smtcrypt.encode.columns import ColumnsEncoding, determined, interchangeable
from smtcrypt.encode.general import GeneralEncoding
from smtcrypt.engine.z3search import ModelSearch

SLOW = pytest.mark.slow  # cases that take seconds each: run with -m slow

SUMS = [
    ("NUM + BER = PLAY", Rules()),
    ("SEND + MORE = MONEY", Rules()),
    ("SAVE + MORE = MONEY", Rules()),
    ("TWO + TWO = FOUR", Rules()),
    ("ODD + ODD = EVEN", Rules()),
    pytest.param("WELL - DO + YOU = PUNK", Rules(), marks=SLOW),  # the reference's ten letters free
    ("VIOLIN * 2 + VIOLA = TRIO + SONATA", Rules()),
    pytest.param("NINETEEN+THIRTEEN+THREE+2*TWO+3*ONE = FORTYTWO", Rules(), marks=SLOW),
    ("FOUR+ONE==FIVE and ONE+ONE+ONE+ONE+ONE==FIVE", Rules()),
    ("A + A + A + A + A + A + A + A + A + A + A + B == BCC", Rules()),
    ("ACA + DD == BD", Rules()),
    ("AB + BA = CC", Rules(distinct=False)),
    ("AB + BA = CC", Rules(allow_leading_zeros=True)),
    ("AB - 7 = BA + -10", Rules(distinct=False, allow_leading_zeros=True)),
    ("A + B = C = D - 1", Rules()),
    ("AB = BA", Rules(distinct=False)),
    ("A + 10 = BC", Rules()),
    ("A = A + 10", Rules()),
    ("7A + B7 = CD7", Rules()),  # literal digits inside words
    ("ABCDE * 4 = EDCBA", Rules(distinct=False, digits=frozenset(range(1, 10)))),
    ("NUM + BER = PLAY", Rules(domains={"N": frozenset({1, 2, 3}), "B": frozenset({1, 2, 3})})),
    ("SEND + MORE = MONEY", Rules(assign={"D": 7})),
]


def all_models(problem, encoding):
    search = ModelSearch(encoding.encode(problem, z3.Context()))
    models = [tuple(sorted(model.items())) for model in search]
    assert search.end is not None and search.end.complete
    return models


@pytest.mark.parametrize("formula, rules", SUMS)
def test_columns_agree_with_the_general_encoding(formula, rules):
    problem = check(parse(formula), rules)
    assert ColumnsEncoding().accepts(problem)
    fast, reference = all_models(problem, ColumnsEncoding()), all_models(problem, GeneralEncoding(tables=False))
    assert len(fast) == len(set(fast)), "a solution was produced twice"
    assert set(fast) == set(reference)
    assert all(satisfies(problem, dict(model)) for model in fast)


@pytest.mark.parametrize("formula", ["ODD * ODD = FREAKY", "A / B = C", "A < B", "A + B != C", "AB % 2 = 1",
                                     "A + 0.5 = B"])
def test_columns_decline_what_is_not_a_linear_equation(formula):
    assert not ColumnsEncoding().accepts(check(parse(formula)))


def test_interchangeable_letters_of_num_ber_play():
    problem = check(parse("NUM + BER = PLAY"))
    groups = {frozenset(group) for group in interchangeable(column_equations(problem), problem)}
    assert groups == {frozenset("NB"), frozenset("UE"), frozenset("MR")}


def test_letters_with_different_domains_are_not_interchangeable():
    problem = check(parse("NUM + BER = PLAY"), Rules(domains={"N": frozenset({1, 2})}))
    groups = {frozenset(group) for group in interchangeable(column_equations(problem), problem)}
    assert frozenset("NB") not in groups and frozenset("UE") in groups


def test_columns_decline_other_bases_and_integer_unknowns():
    assert not ColumnsEncoding().accepts(check(parse("A + B = CD"), Rules(base=16)))
    assert not ColumnsEncoding().accepts(check(parse("A + x = BC")))


def test_leading_letters_are_not_interchangeable_with_others():
    problem = check(parse("AB + CB = DE"))
    groups = {frozenset(group) for group in interchangeable(column_equations(problem), problem)}
    assert frozenset("AC") in groups and all("B" not in group or len(group) == 1 for group in groups)


def test_propagation_narrows_digits_by_bounds_alone():
    from smtcrypt.encode.columns import propagate

    problem = check(parse("SEND + MORE = MONEY"), Rules())
    allowed = {letter: frozenset(range(1 if letter in "SM" else 0, 10)) for letter in problem.letters}
    narrowed = propagate(column_equations(problem), allowed)
    assert narrowed["M"] == {1} and narrowed["S"] == {9}  # M = 1 leaves S no digit but 9
    assert all(narrowed[letter] <= allowed[letter] for letter in allowed)
    assert propagate(column_equations(check(parse("A + B = CDE"), Rules())), {
        "A": frozenset(range(10)), "B": frozenset(range(10)), "C": frozenset(range(1, 10)),
        "D": frozenset(range(10)), "E": frozenset(range(10))}) is None  # two digits never reach 100


@pytest.mark.parametrize("formula, letters", [
    ("WELL - DO + YOU = PUNK", "DKUW"),
    ("TWO + TWENTY = TWELVE + TEN", "LOW"),
    ("SEND + MORE = MONEY", "DMOR"),
    ("AB = 10 * A + B", ""),  # every weight cancels
])
def test_determined_letters(formula, letters):
    problem = check(parse(formula), Rules())
    forms = column_equations(problem)
    assert "".join(sorted(determined(forms, {letter: problem.allowed[letter] for letter in problem.letters}))) == letters


@pytest.mark.parametrize("formula, rules", [
    ("WELL - DO + YOU = PUNK", Rules(assign={"W": 9})),  # a letter fixed: a tenth of the reference's work
    ("AB = 0", Rules(allow_leading_zeros=True, distinct=False)),  # both letters fixed: one model
    ("A + B = BA", Rules(distinct=False)),
    ("TO + GO = OUT", Rules()),
])
def test_blocking_without_determined_letters_keeps_every_solution(formula, rules):
    problem = check(parse(formula), rules)
    search = ModelSearch(ColumnsEncoding().encode(problem, z3.Context()))
    found = [tuple(sorted(model.items())) for model in search]
    assert search.end.complete and len(found) == len(set(found))
    assert set(found) == brute_force(formula, distinct=rules.distinct, allow_leading_zeros=rules.allow_leading_zeros,
                                     assign=dict(rules.assign))
