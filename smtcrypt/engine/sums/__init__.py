"""The sum kernel: every solution of one linear equation over digits, sum(weight * digit) + total = 0.

A word sum is such an equation (SEND + MORE = MONEY: 1000*S + 91*E - 90*N + D - 9000*M - 900*O +
10*R - Y = 0), and the engine's linear backend, the generator's check of every candidate sum and
its crossword lines all search one. The search is written once here: a plan per sum (`plan.py`:
the letters' order, the magnitude and congruence cuts of each step, the table of the last two
letters' digit pairs, as lists of integers) and one search over it (`search.py`: streamed, counted,
stoppable), in the part of Python numba compiles. Both run as they are, on Python's integers, or
compiled by numba over 64-bit integers (`compiled.py`, imported only by those who load numba: this
package's own names never import numpy).

Each letter takes a digit from its own allowed set (any set, as a bit mask), all different or not,
in any base, with Python's integers of any size in the plain search. The search is exhaustive:
every assignment the sets and distinctness allow is either visited or cut by a sound bound (the
later letters cannot bring the sum back to zero: too far, or the wrong residue modulo the gcd of
their weights). So "no solution", "exactly one" and a count are proofs, not samples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smtcrypt.engine.base import Executor, compiled_available
from smtcrypt.engine.sums.plan import SumPlan, digit_mask, plan_sum
from smtcrypt.engine.sums.search import Digits, SumSearch, sum_solutions

if TYPE_CHECKING:
    from smtcrypt.engine.sums.compiled import CompiledSums

__all__ = ["Digits", "SumPlan", "SumSearch", "compiled_kernel", "digit_mask", "plan_sum", "sum_solutions"]


def compiled_kernel(executor: Executor) -> CompiledSums | None:
    """The compiled kernel where the executor asks for it (`Executor.COMPILED`: a batch of many
    puzzles, whose load pays for them all: docs/batch.md has the figures) and numba is
    installed; None for the plain search. Loaded once a process (`compiled.compiled`)."""
    if executor is not Executor.COMPILED or not compiled_available():
        return None
    from smtcrypt.engine.sums import compiled  # numpy and numba: only once asked for

    return compiled.compiled()
