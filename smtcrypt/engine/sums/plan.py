"""The plan of a sum's search, worked out once per sum: the letters' order and, for each step, what
cuts its digits, as lists of integers that the search (search.py) reads plain or compiled.

The sum is sum(weight[i] * digit[i]) + total = 0, each digit from its letter's allowed set (a bit
mask). Two cuts keep the search exhaustive: magnitude (the later letters add between `low` and
`high`, distinctness ignored, so the step's digit must leave the partial sum within reach of zero)
and congruence (the later weights' gcd g divides what they add, so weight * digit = -total (mod g):
one digit in each `period`, or none).

In a sum of many words the heavy letters nearly cancel (ALPHA + ... = OMICRON: 10100, 10040 and
-9990), so the magnitude leaves many digits open, and the units column, which it cannot see, would
decide only at the bottom. So the letters are ordered greedily, each next the one that leaves the
fewest digits open, by magnitude and by congruence: mostly heaviest first, with a column's last
letter moved up to where the letters after it are all multiples of the base. The last two letters
are looked up in a table of their digit pairs by what they add, where that table is small.
`plan_steps` is written in the part of Python numba compiles, so that the compiled kernel plans the
generator's batches of sums with the same function.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["FIELDS", "Pairs", "SumPlan", "digit_mask", "estimated_nodes", "plan_sum", "plan_steps"]

UNSET = 99  # the valuation of zero, which every power of the base divides: more than any weight's

# The fields of a step (a row of a plan's steps, in search order): the weight, the least and the most
# allowed digit, the digits not allowed (bits below the most), the least and the most the later
# letters add, the gcd of their weights (0 after the last letter); for the congruence weight * digit
# = -total (mod that gcd): common = gcd(weight, it), the digits' period (it // common), and the
# inverse of weight // common modulo the period.
WEIGHT, FIRST, TOP, FORBIDDEN, LOW, HIGH, DIVISOR, COMMON, PERIOD, INVERSE = range(10)
FIELDS = 10
SCRATCH = 6  # rows of scratch `plan_steps` works in
PAIR_SPAN = 1 << 12  # buckets of a table of the last two letters' pairs: every total up to it, past it hashed
# the numbers of buckets a hashed table tries, for one that keeps its totals apart: from PAIR_SPAN on, none
# a multiple of 2, 3, 5 or 7 (the totals of heavy letters are multiples of the base's powers, and a
# multiple of 10 would put them in a tenth of the buckets)
HASHED = tuple(size for size in range(PAIR_SPAN, PAIR_SPAN + 256) if all(size % d for d in (2, 3, 5, 7)))[:32]
BITS = 67  # 2 ** d % 67 differs for every d below 66: a bit's digit is looked up by it
DIGIT_OF = tuple(next((d for d in range(66) if 2 ** d % BITS == r), 0) for r in range(BITS))
SMALL_TABLE = 16  # digits from which a table of pairs is built for its sum alone, not kept

# The last two letters' pairs (starts, keys, ones, twos): a total t they add, less the third last
# step's LOW, is kept in bucket b = t % len(keys), keys[b] = t, and its pairs are (ones[p], twos[p])
# for p from starts[b] to starts[b + 1]; all empty for no table.
Pairs = tuple[Sequence[int], Sequence[int], Sequence[int], Sequence[int]]
NO_PAIRS: Pairs = ((), (), (), ())


def digit_mask(digits: Iterable[int]) -> int:
    """A set of digits as bits: {0, 2, 3} -> 0b1101."""
    mask = 0
    for digit in digits:
        mask |= 1 << digit
    return mask


def plan_steps(weights: Any, masks: Any, base: int, steps: Any, order: Any, scratch: Any) -> None:  # noqa: C901, PLR0912, PLR0913, PLR0915 - one function numba compiles
    """Fills `order` (the caller's letter indices in search order) and `steps` (a row of FIELDS a
    step) for sum(weights[i] * d[i]) + total = 0, d[i] a digit of masks[i]: lists of
    Python ints here, int64 arrays in the compiled kernel. A letter with no digit allowed gets 0,
    forbidden. The order is greedy: the letter that leaves the fewest digits open next (ties to the
    heavier, then to the earlier), until two are left; the congruence is judged by powers of the
    base only (the exact divisors, which the search uses, cost more to find than they save here)."""
    n = len(weights)
    lowest, highest, span, size, power, left = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4], scratch[5]
    spread = 0  # how far the letters not yet ordered can move the sum
    for i in range(n):
        mask = masks[i]
        digit = DIGIT_OF[(mask & -mask) % BITS]  # the lowest bit's
        top = base - 1
        while top > digit and not mask >> top & 1:
            top -= 1
        lowest[i] = digit
        highest[i] = top
        span[i] = top - digit
        a = weights[i] if weights[i] >= 0 else -weights[i]
        size[i] = a
        spread += a * (top - digit)
        v = UNSET
        if a:
            v = 0
            while a % base == 0:
                a //= base
                v += 1
        power[i] = v
        j = i  # heaviest first, ties in index order (an insertion sort: n is small)
        while j > 0 and size[left[j - 1]] < size[i]:
            left[j] = left[j - 1]
            j -= 1
        left[j] = i
    m = n
    placed = 0
    real_base = base * 1.0
    while m > 2:
        least = UNSET  # the two smallest valuations among the letters left
        second = UNSET
        alone = False  # does one letter alone have the smallest?
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
        best = real_base + 1
        best_at = 0
        for t in range(m):
            i = left[t]
            a = size[i]
            opened = real_base  # not the letter's count of digits: 9 against 10 would beat heavier letters
            if a:
                reach = (spread - a * span[i]) // a + 1
                if reach < base:
                    opened = reach
            v = power[i]
            rest = second if alone and v == least else least  # the others' common power of the base
            if rest > v:
                opened = opened / real_base ** (rest - v)  # one digit in each period fits the congruence
            if opened < best:
                best = opened
                best_at = t
        i = left[best_at]
        for t in range(best_at, m - 1):
            left[t] = left[t + 1]
        m -= 1
        spread -= size[i] * span[i]
        order[placed] = i
        placed += 1
    for t in range(m):
        order[placed + t] = left[t]
    low = high = rest = 0  # what the letters after step k add at the least and the most, their weights' gcd
    for k in range(n - 1, -1, -1):
        i = order[k]
        w = weights[i]
        row = steps[k]
        row[WEIGHT] = w
        row[FIRST] = lowest[i]
        row[TOP] = highest[i]
        row[FORBIDDEN] = ((1 << highest[i] + 1) - 1) ^ masks[i]
        row[LOW] = low
        row[HIGH] = high
        row[DIVISOR] = rest
        g = rest
        b = size[i]
        while b:
            g, b = b, g % b
        p = rest // g if rest > 1 else 1
        row[COMMON] = g if rest > 1 else 1
        row[PERIOD] = p
        inverse = 0
        if p > 1:  # the inverse of w // g modulo p, by the extended Euclid
            r0, r1, s0, s1 = p, w // g % p, 0, 1
            while r1:
                q = r0 // r1
                r0, r1 = r1, r0 - q * r1
                s0, s1 = s1, s0 - q * s1
            inverse = s0 % p
        row[INVERSE] = inverse
        rest = g
        if w >= 0:
            low += w * lowest[i]
            high += w * highest[i]
        else:
            low += w * highest[i]
            high += w * lowest[i]


def pairs_by_total(w1: int, mask1: int, w2: int, mask2: int, distinct: bool, low: int, high: int) -> tuple[Pairs, int]:
    """Every pair of digits (one, two), one from `mask1` and two from `mask2` (different, if
    `distinct`), by what they add less `low`, in the order the search would find them, and the most
    pairs of one total. Its totals (from 0 to high - low) are hashed modulo the number of its
    buckets: all of them where there are at most PAIR_SPAN, else the first of HASHED that keeps the
    totals found apart (none: no table, and the search goes on to the last letter)."""
    found = [(w1 * one + w2 * two - low, one, two)
             for one in range(mask1.bit_length()) if mask1 >> one & 1
             for two in range(mask2.bit_length()) if mask2 >> two & 1 and (one != two or not distinct)]
    buckets = high - low + 1
    if buckets > PAIR_SPAN:
        totals = {total for total, _, _ in found}
        buckets = next((size for size in HASHED if len({total % size for total in totals}) == len(totals)), 0)
        if not buckets:
            return NO_PAIRS, 0
    placed = sorted([(total % buckets, total, one, two) for total, one, two in found])  # in the search's order
    starts = [0] * (buckets + 1)  # read only where a bucket holds a total: set there alone
    keys = [-1] * buckets  # the total whose pairs a bucket holds
    widest = 0
    for at, (bucket, total, _, _) in enumerate(placed):
        if keys[bucket] != total:
            keys[bucket] = total
            starts[bucket] = at
        starts[bucket + 1] = at + 1
        widest = max(widest, at + 1 - starts[bucket])
    ones = tuple(one for _, _, one, _ in placed)
    return (tuple(starts), tuple(keys), ones, tuple(two for _, _, _, two in placed)), widest


kept_pairs = functools.lru_cache(maxsize=1024)(pairs_by_total)


@dataclass(slots=True)
class SumPlan:
    """What the search of one sum reads: the letters' order, each step's cuts, the table of the last
    two letters' pairs (made when the search first asks for it: an estimate, or the compiled
    kernel, needs none), and the least and the most all the letters can add. Not frozen: the
    generator makes one per sum it decides, and a frozen dataclass costs several times as long to make."""

    masks: tuple[int, ...]  # each letter's allowed digits, as bits, in the caller's letter order
    distinct: bool  # all letters take different digits
    order: tuple[int, ...]  # the caller's letter indices in search order
    steps: list[list[int]]  # steps[step][FIELD], in search order
    least: int  # the least all the letters add (more than `most` where a letter has no digit allowed)
    most: int  # the most
    tabled: tuple[Pairs, int] | None = None  # the table of pairs and the most pairs of one total, once made

    @property
    def size(self) -> int:
        return len(self.order)

    def pairs(self) -> tuple[Pairs, int]:
        """The last two letters' pairs (NO_PAIRS for fewer than three letters, a letter with no digit
        allowed, or too many totals), and the most pairs of one total."""
        if self.tabled is None:
            steps, masks, order = self.steps, self.masks, self.order
            self.tabled = NO_PAIRS, 0
            if self.size >= 3 and all(masks):
                low, high = steps[-3][LOW], steps[-3][HIGH]
                # the light letters that end a search repeat from sum to sum: a small table is made once a run
                small = not (masks[order[-2]] | masks[order[-1]]) >> SMALL_TABLE and high - low < PAIR_SPAN
                self.tabled = (kept_pairs if small else pairs_by_total)(
                    steps[-2][WEIGHT], masks[order[-2]], steps[-1][WEIGHT], masks[order[-1]], self.distinct, low, high)
        return self.tabled


def plan_sum(weights: Sequence[int], masks: Sequence[int], *, distinct: bool = True, base: int = 10) -> SumPlan:
    """The plan of the search for digits d (d[i] in masks[i], all different if `distinct`) with
    sum(weights[i] * d[i]) + total = 0, for any starting total the search is given."""
    weights, masks = tuple(weights), tuple(masks)
    n = len(weights)
    steps = [[0] * FIELDS for _ in range(n)]
    order = [0] * n
    plan_steps(weights, masks, base, steps, order, [[0] * n for _ in range(SCRATCH)])
    least = most = 0
    if not all(masks):  # a letter with no digit allowed: nothing to reach
        least, most = 1, 0
    elif n:
        w, first, top, _, low, high = steps[0][:6]
        least, most = low + min(w * first, w * top), high + max(w * first, w * top)
    return SumPlan(masks, distinct, tuple(order), steps, least, most)


def estimated_nodes(plan: SumPlan) -> float:
    """About how many steps the search of `plan` enters: the product, step by step, of the digits
    each step leaves open (its digits allowed, fewer the earlier letters' where all differ; no more
    than the magnitude lets the later letters balance; one in each period of its congruence). A
    guess from the plan alone, before any search, for deciding which search to run first."""
    estimate = total = 1.0
    for taken, (w, first, top, forbidden, low, high, _, _, period, _) in enumerate(plan.steps[:-2]):
        digits = (top - first + 1 - forbidden.bit_count()) - (taken if plan.distinct else 0)
        if w:
            digits = min(digits, (high - low) // abs(w) + 1)
        total *= max(digits / period, 1.0)
        estimate += total
    return estimate
