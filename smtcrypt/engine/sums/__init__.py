"""The sum kernel: every solution of one linear equation over digits, sum(weight * digit) + total = 0.

A word sum is such an equation (SEND + MORE = MONEY: 1000*S + 91*E - 90*N + D - 9000*M - 900*O +
10*R - Y = 0); the engine's linear backend, the generator's check of every candidate sum and its
crossword lines all search one: a plan per sum (plan.py) and one search over it (search.py), plain
on Python's integers or compiled by numba (compiled.py, imported only by those who load numba).
Each letter takes a digit from its own allowed set, all different or not, in any base. The search
is exhaustive (every assignment is visited or cut by a sound bound), so "no solution", "exactly
one" and a count are proofs, not samples.
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
    """The compiled kernel (loaded once a process) where the executor asks for it (`Executor.COMPILED`:
    a batch of many puzzles, whose load pays for them all) and numba is installed; else None."""
    if executor is not Executor.COMPILED or not compiled_available():
        return None
    from smtcrypt.engine.sums import compiled  # numpy and numba: only once asked for

    return compiled.compiled()
