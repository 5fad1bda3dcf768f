"""Place values, intervals and carries: the shared arithmetic of numerals, against direct computation."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from smtcrypt.analysis.carries import columns_by_carries
from smtcrypt.core.intervals import interval
from smtcrypt.core.numerals import place_values, repeating_scale
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules


def test_place_values_add_up_repeated_letters_and_literal_digits():
    assert place_values("7AB", 10) == ({"B": 1, "A": 10}, 700)
    assert place_values("ODD", 10) == ({"D": 11, "O": 100}, 0)
    assert place_values("1A0A", 16) == ({"A": 16 ** 2 + 1}, 16 ** 3)
    assert repeating_scale("", "TALK", 10) == 9999 and repeating_scale("A", "BC", 10) == 990


def test_interval_of_words_and_arithmetic():
    def bounds(text: str, **rules) -> tuple[int, int] | None:
        return interval(parse(text + " = 0").constraints[0].operands[0], Rules(**rules))

    assert bounds("AB") == (10, 99) and bounds("AB", allow_leading_zeros=True) == (0, 99)
    assert bounds("7A") == (70, 79) and bounds("AB", base=16) == (16, 255)
    assert bounds("A - BC") == (0 - 99, 9 - 10) and bounds("abs(A - 5) * 2") == (0, 10)
    assert bounds("min(A, 3) + max(B, 7)") == (7, 12) and bounds("A / 2") is None


@st.composite
def equations(draw):
    """sum(coefficient * base**position * digit) + constant = 0 over a few small digit ranges."""
    base = draw(st.sampled_from([2, 3, 10]))
    digits = draw(st.integers(1, 3))
    ranges = [tuple(sorted(draw(st.lists(st.integers(0, base - 1), min_size=2, max_size=2)))) for _ in range(digits)]
    terms = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(-3, 3), st.integers(0, digits - 1)),
                          min_size=1, max_size=5))
    constant = draw(st.integers(-base ** 4, base ** 4))
    return base, ranges, terms, constant


@settings(max_examples=300, deadline=None)
@given(equations())
def test_carries_bound_every_solution_and_none_means_no_solution(equation):
    base, ranges, terms, constant = equation
    columns: dict[int, list[tuple[int, int]]] = {}
    for position, coefficient, digit in terms:
        columns.setdefault(position, []).append((coefficient, digit))
    plan = columns_by_carries(columns, constant, base, lambda digit: ranges[digit])
    solutions = [values for values in itertools.product(*[range(low, high + 1) for low, high in ranges])
                 if sum(c * base ** p * values[d] for p, c, d in terms) + constant == 0]
    if plan is None:
        assert not solutions
        return
    for values in solutions:  # the carries a person would write down lie within the plan's bounds
        carry = 0
        for column in plan:
            total = sum(c * values[d] for c, d in column.terms) + column.fixed + (carry if column.carry_in else 0)
            if column.carry_out is None:
                assert total == 0
                break
            assert total % base == 0
            carry = total // base
            low, high = column.carry_out
            assert low <= carry <= high, (column.position, carry, column.carry_out)
