"""The sum kernel compiled by numba, where it is installed (a dependency on the platforms numba has
wheels for; the `fast` extra asks for it anywhere): the plan and the search of `plan.py` and
`plain.py`, the same letter order, cuts, table of pairs and order of solutions, over 64-bit
integers.

The generator decides millions of sums a run, most of them searched to the end to prove there is
no solution; compiled, a sum takes a small fraction of its time in plain Python (the figures are in
docs/engine.md, "The sum kernel"). numba compiles only a part of Python: integers and numpy arrays,
no dictionaries, no generators, no recursion. So `search_masks` plans and searches in one function
with an explicit stack, solving for the last letter of the pair where the plain search looks the
pair up in a table; `count_sums` decides a batch of sums that differ in one word, adding that
word's weights in the compiled code too. Uncompiled, both run as plain Python (slowly: the tests
compare them with the plain search and with a brute force either way).

Where it is safe: every partial sum and weight in 64-bit integers (`fits_int64`); a congruence
whose period could overflow a product is worked out by doubling. numba costs time to load in each
process (to import it, then to load the search from its cache on disk; far longer the first time,
while it compiles the search, see `jit`) and memory, so whoever calls `compiled()` decides when the
load pays (the generator's `KeySearch`).
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

from smtcrypt.engine.base import compiled_available

__all__ = ["CompiledSums", "compiled", "compiled_available", "count_sums", "fits_int64", "interrupts_held", "jit",
           "numba_version", "search_codes", "search_masks"]

UNSET = 99  # a valuation larger than any weight's: zero is divisible by every power of the base
LONG_PERIOD = 3_037_000_499  # from this period on, a product of two residues may not fit 64 bits

Search = Callable[[np.ndarray, np.ndarray, int, int, bool, int, np.ndarray], int]


def search_masks(weights: np.ndarray, masks: np.ndarray, total: int, base: int, distinct: bool,  # noqa: C901, PLR0912, PLR0913, PLR0915
                 limit: int, out: np.ndarray) -> int:
    """How many digit tuples d (up to `limit`) make sum(weights[i] * d[i]) + total zero, each d[i]
    a digit of masks[i] (bit d set where d is allowed) and, if `distinct`, all different; out[:n]
    receives the first one found. One function of integers and arrays (numba compiles no more),
    hence its length: the plan, then the search, each as `plan.plan_sum` and `plain.SumSearch`."""
    n = weights.shape[0]
    work = np.zeros((22, n), np.int64)  # every array of the plan and the search, in one allocation
    lowest, highest, size, power, left, order = work[0], work[1], work[2], work[3], work[4], work[5]
    w_at, first, top, forbidden, low, high = work[6], work[7], work[8], work[9], work[10], work[11]
    divisor, common, period, inverse = work[12], work[13], work[14], work[15]
    values, totals, useds, cursor, stop, stride = work[16], work[17], work[18], work[19], work[20], work[21]
    for i in range(n):
        lowest[i] = -1
        highest[i] = -1
        for digit in range(base):
            if masks[i] >> digit & 1:
                if lowest[i] < 0:
                    lowest[i] = digit
                highest[i] = digit
        if lowest[i] < 0:  # no digit allowed
            return 0
        a = weights[i] if weights[i] >= 0 else -weights[i]
        size[i] = a
        v = 0
        if a == 0:
            v = UNSET
        else:
            while a % base == 0:
                a //= base
                v += 1
        power[i] = v
    # The order: as plan.letter_order, greedily the letter leaving the fewest digits open.
    m = 0
    for i in range(n):  # heaviest first, ties in index order (an insertion sort: n is small)
        j = m
        while j > 0 and size[left[j - 1]] < size[i]:
            left[j] = left[j - 1]
            j -= 1
        left[j] = i
        m += 1
    spread = 0
    for i in range(n):
        spread += size[i] * (highest[i] - lowest[i])
    placed = 0
    while m > 2:
        least = UNSET
        second = UNSET
        alone = False
        for t in range(m):
            v = power[left[t]]
            if v < least:
                second = least
                least = v
                alone = True
            elif v == least:
                alone = False
            elif v < second:
                second = v
        best = float(base + 1)
        best_at = 0
        for t in range(m):
            i = left[t]
            a = size[i]
            opened = float(base)
            if a:
                reach = (spread - a * (highest[i] - lowest[i])) // a + 1
                if reach < base:
                    opened = float(reach)
            v = power[i]
            rest = second if (alone and v == least) else least
            if rest > v:
                opened = opened / float(base) ** (rest - v)
            if opened < best:
                best = opened
                best_at = t
        i = left[best_at]
        for t in range(best_at, m - 1):
            left[t] = left[t + 1]
        m -= 1
        spread -= size[i] * (highest[i] - lowest[i])
        order[placed] = i
        placed += 1
    for t in range(m):
        order[placed] = left[t]
        placed += 1
    # The plan, as plan.plan_sum: per step the weight, least and most digit, the digits not allowed,
    # what the later letters add at the least and the most, their weights' gcd, and the congruence's
    # gcd, period and inverse.
    lo = 0
    hi = 0
    rest = 0
    for k in range(n - 1, -1, -1):
        i = order[k]
        w = weights[i]
        w_at[k] = w
        first[k] = lowest[i]
        top[k] = highest[i]
        forbidden[k] = ((1 << (highest[i] + 1)) - 1) ^ masks[i]
        low[k] = lo
        high[k] = hi
        divisor[k] = rest
        common[k] = 1
        period[k] = 1
        inverse[k] = 0
        a = w if w >= 0 else -w
        if rest > 1:
            g = rest
            b = a
            while b:
                g, b = b, g % b
            common[k] = g
            p = rest // g
            period[k] = p
            if p > 1:  # the inverse of w // g modulo p, by the extended Euclid
                r0, r1, s0, s1 = p, (w // g) % p, 0, 1
                while r1:
                    q = r0 // r1
                    r0, r1 = r1, r0 - q * r1
                    s0, s1 = s1, s0 - q * s1
                inverse[k] = s0 % p
        g = rest
        b = a
        while b:
            g, b = b, g % b
        rest = g
        if w >= 0:
            lo += w * lowest[i]
            hi += w * highest[i]
        else:
            lo += w * highest[i]
            hi += w * lowest[i]
    if lo + total > 0 or hi + total < 0:
        return 0
    count = 0
    used0 = 0
    if n == 0:
        return 1
    if n == 1:
        for digit in range(first[0], top[0] + 1):
            if not forbidden[0] >> digit & 1 and w_at[0] * digit + total == 0:
                if count == 0:
                    out[0] = digit
                count += 1
                if count >= limit:
                    return count
        return count
    # The search, depth first with an explicit stack; the last letter of the pair is solved for.
    w1 = w_at[n - 2]
    w2 = w_at[n - 1]
    last = n - 3  # the last step before the pair (-1: the pair alone)
    k = -1
    total_k = total
    used_k = used0
    while True:
        j = k + 1
        if j <= last:
            w = w_at[j]
            if w > 0:  # total + w * digit + low <= 0 <= total + w * digit + high
                s = -((total_k + high[j]) // w)
                e = (-total_k - low[j]) // w
            elif w < 0:
                s = -((total_k + low[j]) // w)
                e = (total_k + high[j]) // -w
            else:
                s = first[j]
                e = top[j]
            if s < first[j]:
                s = first[j]
            if e > top[j]:
                e = top[j]
            step = 1
            d = divisor[j]
            if d > 1 and s <= e:  # the letters left add a multiple of d: so must total + w * digit
                need = -total_k % d
                if need % common[j]:
                    e = -1
                else:
                    p = period[j]
                    if p > 1:
                        r = need // common[j] % p
                        if p < LONG_PERIOD:
                            r = r * inverse[j] % p
                        else:  # r * inverse mod p by doubling: the product itself may not fit 64 bits
                            product = 0
                            doubled = r
                            times = inverse[j]
                            while times:
                                if times & 1:
                                    product = (product + doubled) % p
                                doubled = (doubled + doubled) % p
                                times >>= 1
                            r = product
                        s += (r - s) % p
                        step = p
            k = j
            cursor[k] = s
            stop[k] = e
            stride[k] = step
            totals[k] = total_k
            useds[k] = used_k
        else:  # the pair: its first letter's digits, the second's solved for
            remainder_total = -total_k
            for d1 in range(first[n - 2], top[n - 2] + 1):
                if (used_k | forbidden[n - 2]) >> d1 & 1:
                    continue
                remainder = remainder_total - w1 * d1
                if w2 == 0:  # a letter whose weights cancel: any free digit once the rest balances
                    if remainder != 0:
                        continue
                    lo2 = first[n - 1]
                    hi2 = top[n - 1]
                else:
                    if remainder % w2:
                        continue
                    lo2 = remainder // w2
                    hi2 = lo2
                    if lo2 < first[n - 1] or lo2 > top[n - 1]:
                        continue
                for d2 in range(lo2, hi2 + 1):
                    if (used_k | forbidden[n - 1]) >> d2 & 1 or (distinct and d2 == d1):
                        continue
                    if count == 0:
                        values[n - 2] = d1
                        values[n - 1] = d2
                        for t in range(n):
                            out[order[t]] = values[t]
                    count += 1
                    if count >= limit:
                        return count
        # the next digit of step k, backing up while a step has none left
        while k >= 0:
            digit = cursor[k]
            taken = useds[k] | forbidden[k]
            while digit <= stop[k] and taken >> digit & 1:
                digit += stride[k]
            if digit > stop[k]:
                k -= 1
                continue
            cursor[k] = digit + stride[k]
            values[k] = digit
            total_k = totals[k] + w_at[k] * digit
            used_k = useds[k] | (1 << digit) if distinct else useds[k]
            break
        if k < 0:
            return count


def search_codes(codes: np.ndarray, base: int, limit: int, out: np.ndarray) -> int:
    """`search_masks` of a generator's key (all letters distinct; codes[i] = 2 * weight[i] + 1 where
    the letter may not be zero)."""
    n = codes.shape[0]
    decoded = np.empty((2, n), np.int64)
    weights, masks = decoded[0], decoded[1]
    full = (1 << base) - 1
    for i in range(n):
        weights[i] = codes[i] >> 1
        masks[i] = full ^ (codes[i] & 1)
    return SEARCH(weights, masks, 0, base, True, limit, out)


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
    weight_of = np.empty(size_of_alphabet, np.int64)
    in_sum = np.empty(size_of_alphabet, np.int64)
    lead_of = np.empty(size_of_alphabet, np.int64)
    ids = np.empty(size_of_alphabet, np.int64)
    weights = np.empty(size_of_alphabet, np.int64)
    masks = np.empty(size_of_alphabet, np.int64)
    out = np.empty(size_of_alphabet, np.int64)
    for j in range(chosen.shape[0]):
        for letter in range(size_of_alphabet):
            weight_of[letter] = others[0, letter]
            in_sum[letter] = others[1, letter]
            lead_of[letter] = others[2, letter]
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
        for letter in range(size_of_alphabet):
            digits[j, letter] = -1
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
    sizes = sorted(mask.bit_count() for mask in masks)
    total = 1
    for taken, size in enumerate(sizes):  # fewest choices first: each later letter loses one per earlier one
        total *= max(size - taken, 0) if distinct else size
        if total > UNPOLLED_SPACE:
            break
    return total


def numba_version() -> str | None:
    """The installed numba's version (without importing it), or None where it is not installed."""
    if not compiled_available():
        return None
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:  # importable but not installed as a distribution
        return "unknown"


SEARCH: Search = search_masks  # what search_codes and count_sums call: the compiled search, once loaded


@dataclass(frozen=True)
class CompiledSums:
    """The kernel's functions compiled by numba: the search of any sum, of a generator's key, and of
    a batch of sums that differ in one word."""

    search: Search  # search_masks
    codes: Callable[[np.ndarray, int, int, np.ndarray], int]  # search_codes
    batch: Callable[..., None]  # count_sums

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
    """`function` compiled by numba and cached on disk where numba finds a writable directory
    (NUMBA_CACHE_DIR if set, else `__pycache__` beside this file, else the user's cache directory):
    a later process loads it instead of compiling it again. Where there is none (a read-only
    install run by a user without a writable home), numba refuses to cache, and each process
    compiles it anew rather than failing. `options` go to numba (the digit kernel's
    `error_model="numpy"`: no check of a divisor, none being 0)."""
    import numba  # imported only by a process that chose to load the compiled search

    try:
        return numba.njit(cache=True, nogil=True, **options)(function)
    except RuntimeError:  # "cannot cache function ...: no locator available for file ..."
        return numba.njit(nogil=True, **options)(function)


@functools.cache
def compiled() -> CompiledSums:
    """The kernel compiled by numba, which caches it on disk (`jit`). `search_codes` and
    `count_sums` call the search by the name SEARCH, bound to the compiled one before they are
    compiled themselves; they pass it the constants 0 and True, for which numba compiles a search
    of its own, so the general one (`search`, of any total and distinctness) is compiled at its
    first call, not here, where it would double the time a first load takes. The two are compiled
    (or loaded) here with Ctrl-C held back until they are: numba interrupted halfway keeps a library
    with no code, and every later call fails ("no compiled object yet") instead of the run stopping
    as interrupted."""
    global SEARCH
    with interrupts_held():
        search = jit(search_masks)
        SEARCH = search
        codes = jit(search_codes)
        batch = jit(count_sums)
        one = np.zeros(1, np.int64)  # a call of each with the argument types of every later call
        codes(np.array([2, 4, -6, 10], np.int64), 10, 2, np.zeros(4, np.int64))
        batch(np.zeros((3, 1), np.int64), 1, 1, one, np.zeros(2, np.int64), one, 10, 2, np.zeros(1, np.int64),
              np.zeros((1, 1), np.int64))
    return CompiledSums(search, codes, batch)


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
