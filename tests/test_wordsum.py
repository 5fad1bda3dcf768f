"""The generator's word-sum search against known answers and the independent brute force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import brute_force

from smtcrypt.setters.wordsum import solve_sum, solve_weights, weights


def as_set(found):
    return {tuple(sorted(mapping.items())) for mapping in found}


def test_weights_are_place_values():
    assert weights(["SEND", "MORE"], "MONEY") == {
        "S": 1000, "E": 91, "N": -90, "D": 1, "M": -9000, "O": -900, "R": 10, "Y": -1}


def test_known_puzzles():
    assert solve_sum(["SEND", "MORE"], "MONEY") == [
        {"M": 1, "S": 9, "O": 0, "E": 5, "N": 6, "R": 8, "D": 7, "Y": 2}]
    assert len(solve_sum(["NUM", "BER"], "PLAY")) == 96
    assert len(solve_sum(["ALPHABET", "LETTERS"], "SCRABBLE")) == 1
    assert len(solve_sum(["SATURN", "URANUS", "NEPTUNE", "PLUTO"], "PLANETS")) == 1
    assert solve_sum(["THREE", "COMET"], "SPACE") == []  # E + T ends in E: T = 0, but T leads THREE


def test_limit_stops_early():
    assert len(solve_sum(["NUM", "BER"], "PLAY", limit=2)) == 2
    assert len(solve_sum(["NUM", "BER"], "PLAY", limit=1)) == 1


def test_rules_distinct_and_leading_zeros():
    assert as_set(solve_sum(["A", "A"], "B", distinct=False)) == brute_force("A + A = B", distinct=False)
    assert as_set(solve_sum(["AB", "C"], "AD", allow_leading_zeros=True)) == brute_force(
        "AB + C = AD", allow_leading_zeros=True)


def test_a_letter_of_weight_zero_takes_every_free_digit():
    assert solve_weights([1, 0], [0, 0]) == [(0, digit) for digit in range(1, 10)]  # d0 = 0, d1 any other
    assert len(solve_sum(["AB"], "AB")) == 9 * 9  # every letter cancels out
    assert len(solve_weights([0], [1])) == 9
    assert solve_weights([], []) == []


words = st.text(alphabet="ABCDE", min_size=1, max_size=4)


@settings(max_examples=30, deadline=None)
@given(st.lists(words, min_size=1, max_size=3), words, st.booleans(), st.booleans())
def test_every_solution_matches_brute_force(addends, result, distinct, allow_leading_zeros):
    solutions_match_brute_force(addends, result, distinct, allow_leading_zeros)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(words, min_size=1, max_size=3), words, st.booleans(), st.booleans())
def test_every_solution_matches_brute_force_many(addends, result, distinct, allow_leading_zeros):
    solutions_match_brute_force(addends, result, distinct, allow_leading_zeros)


def solutions_match_brute_force(addends, result, distinct, allow_leading_zeros):
    formula = " + ".join(addends) + " = " + result
    expected = brute_force(formula, distinct=distinct, allow_leading_zeros=allow_leading_zeros)
    found = solve_sum(addends, result, distinct=distinct, allow_leading_zeros=allow_leading_zeros)
    assert len(found) == len(expected)
    assert as_set(found) == expected


def test_other_bases_give_exactly_the_solvers_solutions():
    """The digits run to base - 1 and the place values are powers of the base."""
    import smtcrypt

    assert weights(["AB"], "C", base=16) == {"A": 16, "B": 1, "C": -1}
    for formula, addends, result, base in [("SEND + MORE = MONEY", ["SEND", "MORE"], "MONEY", 16),
                                           ("ADD + ADD = CAB", ["ADD", "ADD"], "CAB", 16),
                                           ("AB + BA = CDC", ["AB", "BA"], "CDC", 7),
                                           ("A + B = CA", ["A", "B"], "CA", 3)]:
        expected = {tuple(sorted(s.mapping.items())) for s in smtcrypt.solve(formula, base=base)}
        assert as_set(solve_sum(addends, result, base=base)) == expected, (formula, base)
