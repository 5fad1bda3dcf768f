"""The sum kernel: every solution of one linear equation over digits, sum(weight * digit) + total = 0.

A word sum is such an equation (SEND + MORE = MONEY: 1000*S + 91*E - 90*N + D - 9000*M - 900*O +
10*R - Y = 0), and the engine's linear backend, the generator's check of every candidate sum and
its crossword lines all search one. The search is written once here: a plan per sum (`plan.py`:
the letters' order, the magnitude and congruence cuts of each step, the table of the last two
letters' digit pairs), the search over it in plain Python (`plain.py`: streamed, counted, stoppable)
and the same algorithm compiled by numba over 64-bit integers (`compiled.py`, imported only by
those who load numba: this package's own names never import numpy).

Each letter takes a digit from its own allowed set (any set, as a bit mask), all different or not,
in any base, with Python's integers of any size in the plain search. The search is exhaustive:
every assignment the sets and distinctness allow is either visited or cut by a sound bound (the
later letters cannot bring the sum back to zero: too far, or the wrong residue modulo the gcd of
their weights). So "no solution", "exactly one" and a count are proofs, not samples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smtcrypt.engine.sums.plain import Digits, SumSearch, sum_solutions
from smtcrypt.engine.sums.plan import SumPlan, digit_mask, plan_sum

if TYPE_CHECKING:
    from smtcrypt.engine.sums.compiled import CompiledSums

__all__ = ["Digits", "SumPlan", "SumSearch", "digit_mask", "load_compiled", "loaded_compiled", "plan_sum",
           "sum_solutions"]


def load_compiled() -> bool:
    """Load the compiled kernel into this process, where numba is installed: worth its load (0.7 s
    from numba's cache on disk) for many sums, as a batch of a collection or the generator, not for
    one. Then the engine's linear backend searches with it (`loaded_compiled`). False where numba
    is missing."""
    from smtcrypt.engine.sums.compiled import compiled, compiled_available

    if not compiled_available():
        return False
    ENGINE_KERNEL[:] = [compiled()]
    return True


# The compiled kernel once `load_compiled` chose it for the engine. The generator and the tests load it
# for themselves (`compiled.compiled()`) without changing what the engine's searches run.
ENGINE_KERNEL: list[CompiledSums] = []


def loaded_compiled() -> CompiledSums | None:
    """The compiled kernel if `load_compiled` loaded it for the engine, else None."""
    return ENGINE_KERNEL[0] if ENGINE_KERNEL else None
