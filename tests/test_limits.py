"""Limits are stated and enforced: each a clear FormulaError, fast, never a crash or a hang."""

import time

import pytest

import smtcrypt
from smtcrypt.core.parse import MAX_DEPTH, MAX_SOURCE_LENGTH

LIMITS = [
    ("(" * 10_000 + "A" + ")" * 10_000 + " = B", None),  # brackets alone add no depth: solved
    ("-" * 10_000 + "A = B", "nested more than"),
    ("A" + "**A" * 5_000 + " = B", "nested more than"),
    ("A + " * 250_000 + "A = B", "characters: the limit is"),  # a 1 MB formula
    (" + ".join(["AB"] * 100_000) + " = C", "characters: the limit is"),  # 100,000 words
    (" + ".join(["A"] * 1_500) + " = BCD", "nested more than"),
    ("A ** BCDEFGHIJ = 5", "digits smtcrypt computes"),
    ("ABCDEFGHIJ ** ABCDEFGHIJ = 5", "digits smtcrypt computes"),
    ("2 ** (10 ** 10) = A", "beyond the supported limit"),
]


@pytest.mark.parametrize("formula, message", LIMITS, ids=range(len(LIMITS)))
def test_limits_are_clear_errors_and_fast(formula, message):
    # the work done, in CPU seconds: other jobs on a shared machine stretch the wall clock, not this
    start = time.process_time()
    if message is None:
        assert smtcrypt.verdict(formula, timeout=10).status is smtcrypt.Status.NONE
    else:
        with pytest.raises(smtcrypt.FormulaError) as caught:
            smtcrypt.verdict(formula, timeout=10)
        assert message in caught.value.message
        assert caught.value.line >= 1 and "^" in str(caught.value)
        assert time.process_time() - start < 1.0


def test_the_deepest_allowed_chain_is_solved():
    formula = " + ".join(["A"] * (MAX_DEPTH - 2)) + " = BCD"  # 998 * A = BCD has no distinct solution
    assert smtcrypt.verdict(formula, timeout=30).status is smtcrypt.Status.NONE
    assert MAX_SOURCE_LENGTH >= 100_000


def test_sum_of_a_range_of_a_ten_letter_word_costs_nothing():
    start = time.monotonic()
    verdict = smtcrypt.verdict("sum(range(ABCDEFGHIJ)) = 45", timeout=30)
    assert verdict.status is smtcrypt.Status.NONE  # the closed form n(n-1)/2, never a loop over n values
    assert time.monotonic() - start < 5
