"""Limits are stated and enforced: each a clear FormulaError, fast, never a crash or a hang."""

import time

import pytest
import z3

import smtcrypt
from smtcrypt.core.parse import MAX_DEPTH, MAX_SOURCE_LENGTH
from smtcrypt.core.results import Ending, Status
from smtcrypt.encode import base
from smtcrypt.encode.base import Context

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


def test_z3_past_its_memory_cap_ends_the_search_as_memory_not_the_process(monkeypatch):
    """Past `memory_max_size` (counted over the process), Z3 makes no context and returns none; its
    Python binding then went on to a segmentation fault (a slow fuzz run's worker died so). Our contexts
    look, and the search ends `unknown` for memory; the portfolio answers by another backend."""
    monkeypatch.setattr(base, "_fresh_context", lambda: None)
    verdict = smtcrypt.Puzzle("ODD * ODD = FREAKY").search(strategy="z3").verdict()
    assert verdict.status is Status.UNKNOWN and verdict.ending is Ending.MEMORY
    assert smtcrypt.Puzzle("ODD * ODD = FREAKY").search().verdict().status is Status.MULTIPLE


def test_a_fresh_z3_context_is_made_as_z3_makes_one():
    solvers = []
    for context in (Context(), z3.Context()):
        x = z3.Int("x", context)
        solver = z3.Solver(ctx=context)
        solver.add(x * x == 49, x > 0)
        solvers.append((solver, x))
    (ours, x), (theirs, _) = solvers
    assert ours.sexpr() == theirs.sexpr()
    assert ours.check() == z3.sat and ours.model()[x].as_long() == 7
    with pytest.raises(z3.Z3Exception):  # an error in the context raised in Python, as z3.Context's are
        z3.Z3_get_numeral_string(ours.ctx.ref(), x.as_ast())
