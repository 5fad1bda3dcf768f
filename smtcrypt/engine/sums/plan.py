"""The plan of a sum's search, worked out once per sum: the letters' order and, for each step, what
cuts its digits.

The sum is sum(weight[i] * digit[i]) + total = 0, each digit from its letter's allowed set (a bit
mask: bit d set where d is allowed). Two cuts keep the search exhaustive:

- magnitude: the letters after a step can add no less than `low` and no more than `high` (each at
  its least or most allowed digit, distinctness ignored), so the step's digit must leave the
  partial sum within reach of zero;
- congruence: the weights of the letters after a step have a greatest common divisor g, so they add
  a multiple of g, and the partial sum after the step must be one too: weight * digit = -total
  (mod g), which leaves one digit in each `period` (none, where gcd(weight, g) does not divide
  -total).

In a sum of many words the heavy letters nearly cancel (ALPHA + ... = OMICRON: 10100, 10040 and
-9990), so the magnitude leaves many digits open, and the units column, which the magnitude cannot
see, would decide only at the bottom. So the letters are ordered greedily, each next letter the one
that leaves the fewest digits open: by magnitude, about the spread of the letters after it over its
own weight; by congruence, one digit in the period the base's powers leave of its weight. Mostly
that is heaviest first, with a column's last letter moved up to where the letters after it are all
multiples of the base. The last two letters are looked up in a table of their digit pairs by what
they add.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Pairs", "Step", "SumPlan", "digit_mask", "letter_order", "pair_table", "plan_sum", "valuation"]

UNSET = 99  # the valuation of zero, which every power of the base divides: more than any weight's

# weight, least and most allowed digit, the digits not allowed (bits below the most), the least and
# the most the later letters add, the gcd of their weights (0 after the last letter); for the
# congruence weight * digit = -total (mod that gcd): common = gcd(weight, it), the digits' period
# (it // common), and the inverse of weight // common modulo the period
Step = tuple[int, int, int, int, int, int, int, int, int, int]
Pairs = Mapping[int, Sequence[tuple[int, int]]]  # what two digits add -> the pairs that add it


def digit_mask(digits: Iterable[int]) -> int:
    """A set of digits as bits: {0, 2, 3} -> 0b1101."""
    mask = 0
    for digit in digits:
        mask |= 1 << digit
    return mask


def valuation(weight: int, base: int) -> int:
    """How many times the base divides the weight (UNSET for zero, which every power divides)."""
    if weight == 0:
        return UNSET
    weight = abs(weight)
    times = 0
    while weight % base == 0:
        weight //= base
        times += 1
    return times


def letter_order(weights: Sequence[int], masks: Sequence[int], base: int) -> list[int]:  # noqa: C901 - one greedy loop, kept whole
    """The letters' search order (indices): greedily, the letter that leaves the fewest digits open
    next (ties to the heavier, then to the earlier), until two are left for the table of pairs. The
    congruence is judged by powers of the base only (the exact divisors, which the search uses,
    cost more to find than they save here)."""
    size = [abs(weight) for weight in weights]
    span = [mask.bit_length() - (mask & -mask).bit_length() for mask in masks]  # most - least allowed digit
    power = [valuation(weight, base) for weight in weights]
    left = sorted(range(len(weights)), key=lambda index: -size[index])
    spread = 0  # how far the letters not yet ordered can move the sum
    for index in left:
        spread += size[index] * span[index]
    order: list[int] = []
    while len(left) > 2:
        least = second = UNSET  # the two smallest valuations among the letters left
        alone = False  # does one letter alone have the smallest?
        for index in left:
            v = power[index]
            if v < least:
                least, second, alone = v, least, True
            elif v == least:
                alone = False
            elif v < second:
                second = v
        best: float = base + 1
        best_at = 0
        for j, index in enumerate(left):
            w = size[index]
            open_digits: float = base  # not the letter's count of digits: 9 against 10 would beat heavier letters
            if w:
                reach = (spread - w * span[index]) // w + 1
                if reach < open_digits:
                    open_digits = reach
            v = power[index]
            rest = second if alone and v == least else least  # the others' common power of the base
            if rest > v:
                open_digits /= float(base) ** (rest - v)  # one digit in each period fits the congruence
            if open_digits < best:
                best, best_at = open_digits, j
        index = left.pop(best_at)
        spread -= size[index] * span[index]
        order.append(index)
    return order + left


SMALL_TABLE = 16  # digits from which a table of pairs is built for its sum alone, not kept


def pair_table(w1: int, mask1: int, w2: int, mask2: int, distinct: bool) -> Pairs:
    """Every pair of digits (one, two), one from `mask1` and two from `mask2` (different, if
    `distinct`), by w1 * one + w2 * two. The light letters that end a search repeat their weights
    and digits from sum to sum, so a run of sums builds each table once; a table of a large base
    (up to 64 * 63 pairs) is not kept, so that the tables kept stay small."""
    if (mask1 | mask2) >> SMALL_TABLE:
        return pairs_by_total(w1, mask1, w2, mask2, distinct)
    return kept_pairs(w1, mask1, w2, mask2, distinct)


def pairs_by_total(w1: int, mask1: int, w2: int, mask2: int, distinct: bool) -> Pairs:
    pairs: dict[int, list[tuple[int, int]]] = {}
    ones = [digit for digit in range(mask1.bit_length()) if mask1 >> digit & 1]
    twos = [digit for digit in range(mask2.bit_length()) if mask2 >> digit & 1]
    for one in ones:
        for two in twos:
            if one != two or not distinct:
                pairs.setdefault(w1 * one + w2 * two, []).append((one, two))
    return {total: tuple(found) for total, found in pairs.items()}


kept_pairs = functools.lru_cache(maxsize=1024)(pairs_by_total)


@dataclass(slots=True)
class SumPlan:
    """What the search of one sum reads: the letters' order, each step's cuts, the table of the last
    two letters' pairs, and the least and the most all the letters can add. Not frozen: the
    generator makes one per sum it decides, and a frozen dataclass costs several times as long to make."""

    weights: tuple[int, ...]  # in the caller's letter order
    masks: tuple[int, ...]  # each letter's allowed digits, as bits
    distinct: bool  # all letters take different digits
    base: int
    order: tuple[int, ...]  # the caller's letter indices in search order
    steps: tuple[Step, ...]  # in search order
    pairs: Pairs  # the last two letters' pairs (empty for fewer than two letters)
    least: int  # the least all the letters add (more than `most` where a letter has no digit allowed)
    most: int  # the most

    @property
    def size(self) -> int:
        return len(self.order)


def plan_sum(weights: Sequence[int], masks: Sequence[int], *, distinct: bool = True, base: int = 10) -> SumPlan:
    """The plan of the search for digits d (d[i] in masks[i], all different if `distinct`) with
    sum(weights[i] * d[i]) + total = 0, for any starting total the search is given."""
    weights, masks = tuple(weights), tuple(masks)
    order = tuple(letter_order(weights, masks, base))
    steps: list[Step] = []
    low = high = 0
    rest = 0  # the gcd of the weights after step k
    gcd = math.gcd
    for index in reversed(order):
        w, mask = weights[index], masks[index]
        top = mask.bit_length() - 1
        first = (mask & -mask).bit_length() - 1
        forbidden = ((1 << top + 1) - 1) ^ mask if mask else 0
        if rest > 1:
            common = gcd(w, rest)
            period = rest // common
            steps.append((w, first, top, forbidden, low, high, rest, common, period,
                          pow(w // common, -1, period) if period > 1 else 0))
        else:
            steps.append((w, first, top, forbidden, low, high, rest, 1, 1, 0))
        rest = gcd(rest, w)
        if w >= 0:
            low += w * first
            high += w * top
        else:
            low += w * top
            high += w * first
    steps.reverse()
    if not all(masks):  # a letter with no digit allowed: nothing to reach
        low, high = 1, 0
    pairs = pair_table(weights[order[-2]], masks[order[-2]], weights[order[-1]], masks[order[-1]], distinct) \
        if len(order) >= 2 else {}
    return SumPlan(weights, masks, distinct, base, order, tuple(steps), pairs, low, high)


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
