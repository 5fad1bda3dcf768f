"""Bounded integer unknowns searched as digits (search/unknowns.py): the problem rewritten so, searched
by every strategy, gives exactly the brute force's solutions of the formula as written."""

from __future__ import annotations

import functools

import pytest
from reference import brute_force

import smtcrypt
from smtcrypt.core.letters import is_wildcard
from smtcrypt.engine import Proof
from smtcrypt.search.unknowns import unknowns_as_digits

CASES = [  # formula, rules, the unknowns' bounds for the brute force
    ("ABC * m = CBA, 2 <= m <= 9", {"distinct": False}, {"m": (2, 9)}),
    ("A + x = BC, 0 <= x <= 40", {}, {"x": (0, 40)}),
    ("A + x = BC, 3 <= x <= 40", {"digits": range(1, 10)}, {"x": (3, 40)}),  # cells take 0 all the same
    ("AB + x = CD, -20 <= x < 15", {"base": 8}, {"x": (-20, 14)}),  # a negative least value
    ("x * y = AB, 1 <= x <= 9, y in range(1, 10), x <= y", {"distinct": False}, {"x": (1, 9), "y": (1, 9)}),
    ("A * x ** 2 = BC, x in {2, 3, 5}", {}, {"x": (2, 5)}),  # a set: its `in` test stays
    ("x + A = 7, x == 4", {}, {"x": (4, 4)}),  # one value: no cell
    ("A * x = BCD, 95 <= x <= 105, x % 5 != 0", {}, {"x": (95, 105)}),
    ("x + y = A, 0 <= x <= 3, 0 <= y <= 3", {"base": 2, "distinct": False}, {"x": (0, 3), "y": (0, 3)}),
]


@functools.cache
def expected_of(case: int) -> set:
    formula, rules, bounds = CASES[case]
    return brute_force(formula, unknowns=bounds, **rules)


@pytest.mark.parametrize("strategy", ["auto", "digits", "linear", "cubes", "exhaustive", "z3"])
@pytest.mark.parametrize("case", range(len(CASES)), ids=[case[0] for case in CASES])
def test_every_strategy_gives_the_brute_force_solutions(case, strategy):
    formula, rules, _ = CASES[case]
    expected = expected_of(case)
    options = {**rules, "digits": None if "digits" not in rules else "1-9"}
    puzzle = smtcrypt.Puzzle(formula, **options)
    try:
        search = puzzle.search(strategy=strategy, timeout=60)
    except smtcrypt.StrategyError:  # a strategy that does not take the rewritten problem says so
        assert strategy in ("digits", "linear", "cubes")
        return
    found = [tuple(sorted(solution.mapping.items())) for solution in search]
    verdict = search.verdict()
    assert verdict.complete, verdict.reason
    assert len(found) == len(set(found)) and set(found) == expected
    assert all(not solution.wildcards for solution in verdict.solutions)  # the cells are never shown
    assert puzzle.count(strategy=strategy, timeout=60) == len(expected)


def test_the_rewritten_problem_has_words_of_cells_and_maps_back():
    problem = smtcrypt.Puzzle("A * m = BC and 12 <= m <= 31 and k in {-2, 5}").problem
    written = unknowns_as_digits(problem)
    assert written is not None
    assert not written.problem.unknowns
    least, tens = written.cells["m"]
    assert least == 0 and len(tens) == 2 and all(map(is_wildcard, tens))  # 0-31: two digits from 0
    assert [written.problem.allowed[cell] for cell in tens] == [frozenset(range(4)), frozenset(range(10))]
    least, cells = written.cells["k"]
    assert least == -2 and len(cells) == 1  # -2 + 0-7: one digit
    assert written.problem.allowed[cells[0]] == frozenset(range(8))
    assert not {*tens, *cells} & set(written.problem.leading)
    digits = {"A": 3, "B": 7, "C": 5, **dict(zip(written.cells["m"][1], (2, 5))), cells[0]: 7}
    assert written.values(digits) == {"A": 3, "B": 7, "C": 5, "k": 5, "m": 25}


@pytest.mark.parametrize("formula", ["x - y = 1", "x == 5 / 2, A = A", f"0 <= x <= {10 ** 13}, A + x = 7"])
def test_unknowns_left_as_they_are(formula):
    """Unbounded, without an integer value, or wider than MAX_CELLS digits: searched as integers."""
    assert unknowns_as_digits(smtcrypt.Puzzle(formula).problem) is None


def test_an_unknown_bounded_past_the_machines_integers_is_no_error():
    verdict = smtcrypt.Puzzle("x + y = 5 and 0 <= x <= 10**30 and 0 <= y <= 3").search().verdict()
    assert verdict.complete and verdict.count == 4


def test_a_multiplier_as_an_unknown_is_searched_by_the_digits():
    """The issue's puzzle, with its four-letter cousin (two solutions): the digit search takes them,
    proving each by its bounded search, as it does the multiplier written as a letter."""
    verdict = smtcrypt.Puzzle("ABCD * m = DCBA and 2 <= m <= 9").search().verdict()
    assert {solution.text for solution in verdict.solutions} == {"2178 * 4 = 8712 and 2 <= 4 <= 9",
                                                                 "1089 * 9 = 9801 and 2 <= 9 <= 9"}
    assert verdict.stats.strategy == "digits" and verdict.proof is Proof.BOUNDED


def test_too_many_cells_in_all_leave_the_unknowns_as_they_are():
    """Hundreds of wide unknowns would need more cells than there are names: searched as integers."""
    formula = " and ".join(f"0 <= x{i} <= 999999999999" for i in range(30)) + " and x0 + x1 = 5"
    assert unknowns_as_digits(smtcrypt.Puzzle(formula).problem) is None
