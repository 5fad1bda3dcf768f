"""A problem's facts are worked out once and shared: every reader of the folded formula, the
conjuncts, the linear equation or the polynomial equations gets the same object, and a problem
made from another (folded, or with other rules) starts with none of the other's."""

from __future__ import annotations

import dataclasses

import smtcrypt
from smtcrypt.analysis.equations import conjuncts
from smtcrypt.analysis.fold import fold
from smtcrypt.analysis.linear import integer_equation
from smtcrypt.engine.digits.equations import polynomial_equations


def test_each_fact_is_worked_out_once_and_shared():
    problem = smtcrypt.Puzzle("(2 * BE or not 2 * BE) = THE + QUES - TION, T > 0").problem
    folded = fold(problem)
    assert folded is not problem and fold(problem) is folded  # the `or` folded away, once
    assert conjuncts(problem) is conjuncts(problem) and len(conjuncts(problem)) == 2
    assert integer_equation(folded) is integer_equation(folded) and integer_equation(folded) is not None
    assert folded.memo is not problem.memo and not dataclasses.replace(problem).memo


def test_a_search_reads_the_facts_its_fit_tests_worked_out():
    # the portfolio's products stage asks for the polynomial equations, and the digit plan reads the same ones
    search = smtcrypt.Puzzle("ODD * ODD = FREAKY").search()
    assert search.verdict().stats.strategy == "digits"
    problem = search.problem
    known = [value for key, value in problem.memo.items() if key.endswith("polynomial_equations")]
    assert known and polynomial_equations(problem) is known[0]
