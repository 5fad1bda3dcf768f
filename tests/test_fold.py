"""Folding `or`, `and`, `not` by bounds: the same solutions, and sums that reach the column encoding."""

from __future__ import annotations

import pytest
from reference import brute_force

import smtcrypt
from smtcrypt.analysis.fold import fold
from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import BinOp, BoolOp, Compare, Not, Number
from smtcrypt.encode import choose


def folded(text: str, **rules):
    problem = check(parse(text), Rules(**rules))
    return problem, fold(problem)


def test_the_notebook_joke_is_a_plain_sum():
    problem, result = folded("(2 * BE or not 2 * BE) = THE + QUES-TION")
    compare = result.formula.constraints[0]
    assert isinstance(compare, Compare) and isinstance(compare.operands[0], BinOp)
    assert choose(problem).name == "bitvec" and choose(result).name == "columns"
    assert result.formula.source == problem.formula.source  # the text the solutions are shown in


@pytest.mark.parametrize("text, kind, value", [
    ("(AB and C) = D", "word", "C"),  # AB >= 10: `and` passes to C
    ("(0 or A) = B", "word", "A"),
    ("(0 and A) = B", "number", 0),
    ("(AB or C) = DE", "word", "AB"),
    ("(not AB) = C", "number", 0),
    ("(not (0 * AB)) = C", "number", 1),
    ("(AB and 0 and C) = D", "number", 0),
])
def test_known_truth_folds(text, kind, value):
    _, result = folded(text)
    operand = result.formula.constraints[0].operands[0]
    if kind == "number":
        assert isinstance(operand, Number) and operand.value == value
    else:
        assert "".join(operand.letters) == value


@pytest.mark.parametrize("text, rules", [
    ("(A or B) = C", {"allow_leading_zeros": True}),  # A may be 0: nothing is known
    ("(A and B) = C", {"distinct": False}),
    ("(not A) = B", {"distinct": False}),
])
def test_unknown_truth_stays(text, rules):
    problem, result = folded(text, **rules)
    assert result is problem
    assert isinstance(problem.formula.constraints[0].operands[0], (BoolOp, Not))


@pytest.mark.parametrize("text, rules", [
    ("(2 * BE or not 2 * BE) = THE + S", {}),
    ("(AB and C) + (D or E) = FA", {}),
    ("(AB or C) ** 2 = DEF and not (AB - 10) = 0", {}),
    ("(A and B or C) = D", {"distinct": False}),
    ("(A - A or B) * 2 = CD", {}),
    ("AB or C = D", {}),  # a whole constraint folds to AB, never 0: always true
    ("not AB or C = D", {}),  # to C == D
])
def test_folded_problems_have_the_same_solutions(text, rules):
    expected = brute_force(text, **rules)
    found = {tuple(sorted(s.mapping.items())) for s in smtcrypt.solve(text, **rules)}
    assert found == expected
