"""The sum kernel compiled by numba, where it is installed: `plan_steps` and `walk` (plan.py and
search.py, the same functions) compiled over 64-bit integers, for the generator, which decides
millions of sums a run (compiled, a sum takes a small fraction of its plain time: docs/engine.md,
"The sum kernel"). `search_masks` plans and searches one sum without the table of pairs (the same
solutions in the same order), `search_codes` a generator's key, `count_sums` a batch of sums that
differ in one word. Each calls the others by the names PLAN, WALK and SEARCH, bound to the compiled
functions once loaded; uncompiled, they run as plain Python (the tests run them both ways).

Where it is safe: every partial sum and weight in 64-bit integers (`fits_int64`). Loading numba
costs time and memory in each process, so whoever calls `compiled()` decides when the load pays.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import importlib.util
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from smtcrypt.analysis.stats import choices
from smtcrypt.engine.base import compiled_available
from smtcrypt.engine.sums.plan import FIELDS, SCRATCH, plan_steps
from smtcrypt.engine.sums.search import FRESH, UNBOUNDED, WORK, walk

__all__ = ["CompiledSums", "compiled", "compiled_available", "count_sums", "fits_int64", "interrupts_held", "jit",
           "numba_version", "search_codes", "search_masks"]

Search = Callable[[np.ndarray, np.ndarray, int, int, bool, int, np.ndarray], int]


def search_masks(weights: np.ndarray, masks: np.ndarray, total: int, base: int, distinct: bool, limit: int,
                 out: np.ndarray) -> int:
    """How many digit tuples d (up to `limit`) make sum(weights[i] * d[i]) + total zero, each d[i]
    a digit of masks[i] (bit d set where d is allowed) and, if `distinct`, all different; out[:n]
    receives the first one found, in the caller's order: `plan_steps`, then `walk` without a table
    of pairs."""
    n = weights.shape[0]
    steps = np.empty((n, FIELDS), np.int64)
    order = np.empty(n, np.int64)
    work = np.zeros((max(WORK, SCRATCH), n), np.int64)
    PLAN(weights, masks, base, steps, order, work)
    found = np.empty((limit, n), np.int64)
    state = np.zeros(2, np.int64)
    state[0] = FRESH
    none = np.zeros(0, np.int64)
    count = WALK(steps, none, none, none, none, total, 0, distinct, state, work, found, UNBOUNDED)
    if count:
        for t in range(n):
            out[order[t]] = found[0, t]
    return count


def search_codes(codes: np.ndarray, base: int, limit: int, out: np.ndarray) -> int:
    """`search_masks` of a generator's key (all letters distinct; codes[i] = 2 * weight[i] + 1 where
    the letter may not be zero)."""
    return SEARCH(codes >> 1, ((1 << base) - 1) ^ (codes & 1), 0, base, True, limit, out)


def count_sums(others: np.ndarray, coefficient: int, word_lead: int, letters: np.ndarray, starts: np.ndarray,  # noqa: PLR0913
               chosen: np.ndarray, base: int, limit: int, counts: np.ndarray, digits: np.ndarray) -> None:
    """Decides a batch of sums that differ in one word, all letters distinct: for each word w in
    `chosen`, the sum whose letters' weights are those of `others` plus `coefficient` times w's place
    values.

    `others` is indexed by letter: row 0 the weight the other words give it, row 1 whether it is in
    them (a letter whose weights cancel still takes a digit of its own), row 2 whether it may not
    be zero. Word w's letters are letters[starts[w]:starts[w + 1]]; `word_lead` says whether its
    first letter may not be zero either (when it has more than one). counts[j] is how many
    solutions sum j has, up to `limit`; digits[j] the digit of each letter of the one found
    first (-1 for letters not in the sum).
    """
    size_of_alphabet = others.shape[1]
    full = (1 << base) - 1
    sum_j = np.empty_like(others)  # `others` with word w added: weights, in the sum, not zero
    weight_of, in_sum, lead_of = sum_j[0], sum_j[1], sum_j[2]
    ids = np.empty(size_of_alphabet, np.int64)
    weights = np.empty(size_of_alphabet, np.int64)
    masks = np.empty(size_of_alphabet, np.int64)
    out = np.empty(size_of_alphabet, np.int64)
    for j in range(chosen.shape[0]):
        sum_j[:, :] = others
        word = chosen[j]
        place = 1
        for q in range(starts[word + 1] - 1, starts[word] - 1, -1):
            weight_of[letters[q]] += coefficient * place
            in_sum[letters[q]] = 1
            place *= base
        if word_lead and starts[word + 1] - starts[word] > 1:
            lead_of[letters[starts[word]]] = 1
        n = 0
        for letter in range(size_of_alphabet):
            if in_sum[letter]:
                ids[n] = letter
                weights[n] = weight_of[letter]
                masks[n] = full ^ lead_of[letter]
                n += 1
        found = SEARCH(weights[:n], masks[:n], 0, base, True, limit, out)
        counts[j] = found
        digits[j, :] = -1
        if found == 1:
            for i in range(n):
                digits[j, ids[i]] = out[i]


def fits_int64(weights: Sequence[int], base: int, total: int = 0) -> bool:
    """Can the compiled search hold every partial sum of these weights (and `total`), and the digits
    used as bits, in 64-bit integers?"""
    most = max((abs(weight) for weight in weights), default=0)
    return base <= 62 and most * len(weights) * base + abs(total) < 1 << 62


UNPOLLED_SPACE = 10**7  # assignments at most for a search that never looks at the clock (well under 0.1 s)


def space(masks: Sequence[int], distinct: bool) -> int:
    """The assignments the masks allow (distinct or not): a bound on the nodes a search visits."""
    return choices((mask.bit_count() for mask in masks), distinct, UNPOLLED_SPACE)


def numba_version() -> str | None:
    """The installed numba's version (without importing it), or None where it is not installed."""
    if not compiled_available():
        return None
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:  # importable but not installed as a distribution
        return "unknown"


# what search_masks, search_codes and count_sums call: the compiled functions, once loaded
PLAN: Callable[..., None] = plan_steps
WALK: Callable[..., int] = walk
SEARCH: Search = search_masks


@dataclass(frozen=True)
class CompiledSums:
    """The kernel's functions compiled by numba: the search of any sum, of a generator's key, of a
    batch of sums that differ in one word, and over a plan (uncompiled where not given)."""

    search: Search  # search_masks
    codes: Callable[[np.ndarray, int, int, np.ndarray], int]  # search_codes
    batch: Callable[..., None]  # count_sums
    walk: Callable[..., int] = walk  # search.walk

    def count_first(self, weights: Sequence[int], masks: Sequence[int], total: int, base: int, distinct: bool,
                    limit: int) -> tuple[int, tuple[int, ...]] | None:
        """How many solutions (up to `limit`) and the first (in the plain search's order), or None where
        the sum does not fit 64 bits or its space is too large to search without a look at the clock."""
        if not fits_int64(weights, base, total) or space(masks, distinct) > UNPOLLED_SPACE:
            return None
        out = np.zeros(len(weights), np.int64)
        count = self.search(np.array(weights, np.int64), np.array(masks, np.int64), total, base, distinct, limit, out)
        return int(count), tuple(int(digit) for digit in out)


def jit(function: Callable[..., Any], **options: Any) -> Any:
    """`function` compiled by numba and cached on disk where numba finds a writable directory, so that
    a later process loads it instead of compiling it again; where there is none (a read-only install),
    compiled anew in each process rather than failing. `options` go to numba."""
    import numba  # imported only by a process that chose to load the compiled search

    try:
        return numba.njit(cache=True, nogil=True, **options)(function)
    except RuntimeError:  # "cannot cache function ...: no locator available for file ..."
        return numba.njit(nogil=True, **options)(function)


@functools.cache
def compiled() -> CompiledSums:
    """The kernel compiled by numba (or loaded from its cache), PLAN, WALK and SEARCH bound to the
    compiled functions first; a call of each with the argument types of every later call compiles
    it here, with Ctrl-C held back until done: numba interrupted halfway keeps a library with no
    code, and every later call would fail ("no compiled object yet")."""
    global PLAN, WALK, SEARCH
    with interrupts_held():
        PLAN = jit(plan_steps)
        WALK = jit(walk)
        SEARCH = jit(search_masks)
        codes = jit(search_codes)
        batch = jit(count_sums)
        one = np.zeros(1, np.int64)
        codes(np.array([2, 4, -6, 10], np.int64), 10, 2, np.zeros(4, np.int64))
        batch(np.zeros((3, 1), np.int64), 1, 1, one, np.zeros(2, np.int64), one, 10, 2, np.zeros(1, np.int64),
              np.zeros((1, 1), np.int64))
        kernel = CompiledSums(SEARCH, codes, batch, WALK)
        kernel.count_first([1, 10, -11], [1022] * 3, 0, 10, True, 2)
    return kernel


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C (SIGINT) during the block is delivered when it ends, to the handler in place before.
    Only the main thread can set a signal handler; elsewhere the block runs as it is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            signal.raise_signal(signal.SIGINT)
