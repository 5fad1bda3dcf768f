"""The generator's search of sums, compiled by numba where it is installed (a dependency on the
platforms numba has wheels for; the `fast` extra asks for it anywhere).

A run over a large list decides millions of sums, and in Python `sums.solve_sum_key` spends
most of the run on them, searching most of them to the end to prove there is no solution.
`search_codes` is the same search (the same greedy letter order, magnitude intervals, congruences
and completion of the last two letters) written in the part of Python that numba compiles:
integers and numpy arrays only, one loop with an explicit stack instead of nested closures.
`count_sums` decides a batch of sums that differ in one word (`batches`), adding each word's
weights in the compiled code too. Compiled, a sum takes a small fraction of its time in Python
(the figures are in docs/generating.md, "How a run goes"); uncompiled, both run as plain Python
(the tests compare both ways with `wordsum`'s search).

numba costs time to load in each process (to import it, then to load the search from its cache
on disk; far longer the first time, while it compiles and caches the search, and in every process
where it finds no writable cache directory, see `jit`) and memory, so `KeySearch` loads it only
for a large run (`LOAD_FIRST` candidates, before the run forks its processes) or once a process
has searched enough sums for the load to pay (the rule of ski rental: switch once the work done
equals the switch's cost), and searches only sums whose sizes fit 64-bit integers.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

__all__ = ["COMPILE_AFTER", "LOAD_FIRST", "KeySearch", "compiled", "compiled_available", "count_sums", "fits_int64",
           "numba_version", "search_codes"]

COMPILE_AFTER = 5000  # sums searched in Python by a process before it loads the compiled search
LOAD_FIRST = 100_000  # candidates of a run (before the filters) from which it loads the compiled search at once
UNSET = 99  # a valuation larger than any weight's: zero is divisible by every power of the base

Counter = Callable[[np.ndarray, int, int, np.ndarray], int]


def count_sums(others: np.ndarray, coefficient: int, word_lead: int, letters: np.ndarray, starts: np.ndarray,  # noqa: C901, PLR0912, PLR0913, PLR0915
               chosen: np.ndarray, base: int, limit: int, counts: np.ndarray, digits: np.ndarray) -> None:
    """Decides a batch of sums that differ in one word: for each word w in `chosen`, the sum whose
    letters' weights are those of `others` plus `coefficient` times w's place values.

    `others` is indexed by letter: row 0 the weight the other words give it, row 1 whether it is in
    them (a letter whose weights cancel still takes a digit of its own), row 2 whether it may not
    be zero. Word w's letters are letters[starts[w]:starts[w + 1]]; `word_lead` says whether its
    first letter may not be zero either (when it has more than one). counts[j] is how many
    solutions sum j has, up to `limit`; digits[j] the digit of each letter of the one found
    first (-1 for letters not in the sum).

    Each sum is searched as `sums.solve_sum_key` searches it (the same greedy letter order,
    magnitude intervals, congruences, completion of the last two letters), in the part of Python
    numba compiles: one function of integers and arrays, hence its length.
    """
    size_of_alphabet = others.shape[1]
    weight_of = np.empty(size_of_alphabet, np.int64)
    in_sum = np.empty(size_of_alphabet, np.int64)
    lead_of = np.empty(size_of_alphabet, np.int64)
    ids = np.empty(size_of_alphabet, np.int64)
    codes = np.empty(size_of_alphabet, np.int64)
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
                codes[n] = 2 * weight_of[letter] + lead_of[letter]
                n += 1
        found = SEARCH(codes[:n], base, limit, out)
        counts[j] = found
        for letter in range(size_of_alphabet):
            digits[j, letter] = -1
        if found == 1:
            for i in range(n):
                digits[j, ids[i]] = out[i]


def search_codes(codes: np.ndarray, base: int, limit: int, out: np.ndarray) -> int:  # noqa: C901, PLR0912, PLR0915
    """How many digit tuples d (up to `limit`) make sum(weight[i] * d[i]) zero, each d[i] from
    lowest[i] to base - 1 and all different, where codes[i] = 2 * weight[i] + lowest[i] (a key of
    `keys`); out[:n] receives the first one found."""
    n = codes.shape[0]
    if n == 0:
        return 1
    if n == 1:  # one letter: its weight times its digit is zero
        w = codes[0] >> 1
        low_digit = codes[0] & 1
        if w != 0:
            out[0] = 0
            return 1 if low_digit == 0 else 0
        out[0] = low_digit
        return min(limit, base - low_digit)
    top = base - 1
    weight = np.empty(n, np.int64)
    lowest = np.empty(n, np.int64)
    size = np.empty(n, np.int64)
    power = np.empty(n, np.int64)
    for i in range(n):
        weight[i] = codes[i] >> 1
        lowest[i] = codes[i] & 1
        a = weight[i] if weight[i] >= 0 else -weight[i]
        size[i] = a
        v = 0
        if a == 0:
            v = UNSET
        else:
            while a % base == 0:
                a //= base
                v += 1
        power[i] = v
    # The order: as sums.letter_order, greedily the letter leaving the fewest digits open.
    left = np.empty(n, np.int64)
    m = 0
    for i in range(n):  # heaviest first, ties in index order (an insertion sort: n is at most the base)
        j = m
        while j > 0 and size[left[j - 1]] < size[i]:
            left[j] = left[j - 1]
            j -= 1
        left[j] = i
        m += 1
    spread = 0
    for i in range(n):
        spread += size[i] * top
    order = np.empty(n, np.int64)
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
                o = (spread - a * top) // a + 1
                if o < base:
                    opened = float(o)
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
        spread -= size[i] * top
        order[placed] = i
        placed += 1
    for t in range(m):
        order[placed] = left[t]
        placed += 1
    # The plan, as sums.plan_search: per level the weight, least digit, what the later letters add
    # at the least and the most, their weights' gcd, and the congruence's gcd, period and inverse.
    w_at = np.empty(n, np.int64)
    first = np.empty(n, np.int64)
    low = np.empty(n, np.int64)
    high = np.empty(n, np.int64)
    divisor = np.empty(n, np.int64)
    common = np.empty(n, np.int64)
    period = np.empty(n, np.int64)
    inverse = np.empty(n, np.int64)
    lo = 0
    hi = 0
    rest = 0
    for k in range(n - 1, -1, -1):
        w = weight[order[k]]
        f = lowest[order[k]]
        w_at[k] = w
        first[k] = f
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
        one = w * f
        two = w * top
        if one < two:
            lo += one
            hi += two
        else:
            lo += two
            hi += one
    if lo > 0 or hi < 0:
        return 0
    # The search, depth first with an explicit stack; the last two letters are solved for.
    totals = np.zeros(n + 1, np.int64)
    useds = np.zeros(n + 1, np.int64)
    cursor = np.zeros(n, np.int64)
    stop = np.zeros(n, np.int64)
    step = np.ones(n, np.int64)
    values = np.zeros(n, np.int64)
    count = 0
    last = n - 1
    w1 = w_at[last - 1]
    f1 = first[last - 1]
    w2 = w_at[last]
    f2 = first[last]
    k = 0
    entering = True
    while k >= 0:
        if entering:
            entering = False
            total = totals[k]
            if k == last - 1:
                used = useds[k]
                for d1 in range(f1, top + 1):
                    if used >> d1 & 1:
                        continue
                    remainder = -total - w1 * d1
                    if w2 == 0:  # a letter whose weights cancel: any free digit once the rest balances
                        if remainder != 0:
                            continue
                        lo2 = f2
                        hi2 = top
                    else:
                        if remainder % w2:
                            continue
                        lo2 = remainder // w2
                        hi2 = lo2
                    for d2 in range(lo2, hi2 + 1):
                        if d2 < f2 or d2 > top or d2 == d1 or used >> d2 & 1:
                            continue
                        if count == 0:
                            values[last - 1] = d1
                            values[last] = d2
                            for t in range(n):
                                out[order[t]] = values[t]
                        count += 1
                        if count >= limit:
                            return count
                k -= 1
                continue
            w = w_at[k]
            if w > 0:  # total + w * digit + low <= 0 <= total + w * digit + high
                s = -((total + high[k]) // w)
                e = (-total - low[k]) // w
            elif w < 0:
                s = -((total + low[k]) // w)
                e = (total + high[k]) // -w
            else:
                s = first[k]
                e = top
            if s < first[k]:
                s = first[k]
            if e > top:
                e = top
            stride = 1
            d = divisor[k]
            if d > 1:  # the letters left add a multiple of d: so must total + w * digit
                need = -total % d
                if need % common[k]:
                    k -= 1
                    continue
                p = period[k]
                if p > 1:
                    s += (need // common[k] * inverse[k] % p - s) % p
                    stride = p
            cursor[k] = s
            stop[k] = e
            step[k] = stride
        digit = cursor[k]
        used = useds[k]
        while digit <= stop[k] and used >> digit & 1:
            digit += step[k]
        if digit > stop[k]:
            k -= 1
            continue
        cursor[k] = digit + step[k]
        values[k] = digit
        totals[k + 1] = totals[k] + w_at[k] * digit
        useds[k + 1] = used | 1 << digit
        k += 1
        entering = True
    return count


def fits_int64(key: Sequence[int], base: int) -> bool:
    """Can the compiled search hold every partial sum of this key, and its used digits as bits, in
    64-bit integers?"""
    most = max(max(key), -min(key))
    return base <= 62 and most * len(key) * base < 1 << 62


def compiled_available() -> bool:
    return importlib.util.find_spec("numba") is not None


def numba_version() -> str | None:
    """The installed numba's version (without importing it), or None where it is not installed."""
    if not compiled_available():
        return None
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:  # importable but not installed as a distribution
        return "unknown"


SEARCH: Counter = search_codes  # what count_sums calls: the compiled search, once loaded
_compiled: list[tuple[Counter, Callable[..., None]]] = []


def jit(function: Callable[..., Any]) -> Any:
    """`function` compiled by numba and cached on disk where numba finds a writable directory
    (NUMBA_CACHE_DIR if set, else `__pycache__` beside this file, else the user's cache directory):
    a later process loads it in about 0.3 s instead of compiling it in 5 to 6 s. Where there is
    none (a read-only install run by a user without a writable home), numba refuses to cache, and
    each process compiles it anew rather than failing."""
    import numba  # imported only when a process has enough sums to search

    try:
        return numba.njit(cache=True, nogil=True)(function)
    except RuntimeError:  # "cannot cache function ...: no locator available for file ..."
        return numba.njit(nogil=True)(function)


def compiled() -> tuple[Counter, Callable[..., None]]:
    """`search_codes` and `count_sums` compiled by numba, which caches them on disk (`jit`).
    `count_sums` calls the search by the name SEARCH, bound to the compiled one before it is
    compiled itself. Both are compiled (or loaded) here, with Ctrl-C held back until they are:
    numba interrupted halfway keeps a library with no code, and every later call fails ("no
    compiled object yet") instead of the run stopping as interrupted."""
    global SEARCH
    if not _compiled:
        with interrupts_held():
            search = jit(search_codes)
            SEARCH = search
            batch = jit(count_sums)
            one = np.zeros(1, np.int64)  # a call of each with the argument types of every later call
            search(np.array([2, 4, -6, 10], np.int64), 10, 2, np.zeros(4, np.int64))
            batch(np.zeros((3, 1), np.int64), 1, 1, one, np.zeros(2, np.int64), one, 10, 2, np.zeros(1, np.int64),
                  np.zeros((1, 1), np.int64))
        _compiled.append((search, batch))
    return _compiled[0]


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


class KeySearch:
    """Searches keys in Python until `after` of them, then with the compiled search if numba is
    installed. One per process (`keys.search_key` holds it)."""

    def __init__(self, after: int = COMPILE_AFTER, allowed: bool | None = None):
        self.after = after
        self.allowed = compiled_available() if allowed is None else allowed
        self.searched = 0
        self.counter: Counter | None = None
        self.batch: Callable[..., None] | None = None
        self.out = np.zeros(64, np.int64)

    def load(self) -> None:
        """Load the compiled search now, if numba is installed: a run about to fork its processes
        does it once for all of them, instead of each after its first sums."""
        if self.counter is None and self.allowed:
            self.counter, self.batch = compiled()

    def ready(self) -> bool:
        """Is the compiled search loaded (or, once enough sums were searched, now loaded)?"""
        if self.searched >= self.after:
            self.load()
        return self.counter is not None

    def count(self, key: Sequence[int], base: int) -> tuple[int, tuple[int, ...] | None] | None:
        """How many solutions the key has (0, 1 or 2 meaning at least two) and the one's digits, by
        the compiled search; None where the key is to be searched in Python (numba not loaded yet,
        fewer than four letters, or sums too large for 64 bits)."""
        if not self.ready():
            self.searched += 1
            return None
        if self.counter is None or len(key) < 4 or not fits_int64(key, base):
            return None
        if len(key) > len(self.out):
            self.out = np.zeros(len(key), np.int64)
        found = self.counter(np.array(key, np.int64), base, 2, self.out)
        return found, tuple(int(digit) for digit in self.out[:len(key)]) if found == 1 else None
