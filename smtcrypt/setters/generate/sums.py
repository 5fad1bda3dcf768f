"""The generator's search of one sum: `wordsum`'s search, with its letters in an order that lets
the sum's divisibility cut as early as its magnitude.

`wordsum.solve_weights` tries the heaviest letter first, each letter's digits cut to what the
lighter letters can still balance. In a sum of many words the heavy letters nearly cancel
(ALPHA + ... = OMICRON: weights 10100, 10040 and -9990), so they leave many digits open, and
the units column, which the magnitude cannot see, decides only at the bottom of the search. Two
changes fix that, and keep the search exhaustive:

- the letters after each one have weights whose greatest common divisor g is known before the
  search; the partial sum must then be a multiple of g (the letters left add a multiple of g), a
  test that cuts nine branches in ten once g is 10;
- the letters are ordered greedily, each next letter the one that leaves the fewest digits open:
  by magnitude, about the spread of the letters after it over its own weight; by divisibility,
  one digit in `period` (what g leaves of its weight). Mostly that is heaviest first, with a
  column's last letter moved up to where the letters after it are all multiples of the base.

The greedy order searches fewer nodes than the order before it (the units column's letters
first, then the heaviest), ordering included (docs/generating.md, "How a run goes", has the
figures).

The last two letters come from `wordsum`'s table of digit pairs, as there. Only sums of letters
with distinct digits are searched here; `wordsum` searches the others.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from smtcrypt.setters.wordsum import pair_table, solve_weights

__all__ = ["letter_order", "solve_sum_key"]

def valuation(weight: int, base: int) -> int:
    """How many times the base divides the weight (a large number for zero, which every power divides)."""
    if weight == 0:
        return 99
    times = 0
    while weight % base == 0:
        weight //= base
        times += 1
    return times


def letter_order(weight: Sequence[int], base: int = 10) -> list[int]:  # noqa: C901 - one greedy loop, kept whole
    """The letters' search order: greedily, the letter that leaves the fewest digits open next
    (ties to the heavier), until two are left for the table of pairs. The congruence is judged
    by powers of the base only (the exact divisors, which the search uses, cost more to find
    than they save here)."""
    top = base - 1
    size = [abs(w) for w in weight]
    power = [valuation(w, base) for w in size]
    left = sorted(range(len(weight)), key=lambda index: -size[index])
    spread = sum(size) * top  # how far the letters not yet ordered can move the sum
    order: list[int] = []
    while len(left) > 2:
        least = second = 99  # the two smallest valuations among the letters left
        alone = False  # does one letter alone have the smallest?
        for index in left:
            v = power[index]
            if v < least:
                least, second, alone = v, least, True
            elif v == least:
                alone = False
            elif v < second:
                second = v
        best, best_at = float(base + 1), 0
        for j, index in enumerate(left):
            w = size[index]
            open_digits: float = min(base, (spread - w * top) // w + 1) if w else base
            v = power[index]
            rest = second if alone and v == least else least  # the others' common power of the base
            if rest > v:
                open_digits /= base ** (rest - v)  # one digit in each period fits the congruence
            if open_digits < best:
                best, best_at = open_digits, j
        index = left.pop(best_at)
        spread -= size[index] * top
        order.append(index)
    return order + left


# weight, least digit, least and most of the later letters, their divisor d; and for the congruence
# weight * digit = -total (mod d): g = gcd(weight, d), the digits' period d // g, and the inverse of
# weight // g modulo the period
Step = tuple[int, int, int, int, int, int, int, int]


def plan_search(weight: Sequence[int], lowest: Sequence[int], top: int) -> tuple[list[Step], bool]:
    """plan[k]: the k-th weight, its least digit, the least and the most the later letters can add,
    and the greatest common divisor of their weights (0 after the last); and whether all the
    letters together can balance at all."""
    plan: list[Step] = []
    low = high = 0
    rest = 0  # the gcd of the weights after k
    gcd = math.gcd
    for k in range(len(weight) - 1, -1, -1):
        w, first = weight[k], lowest[k]
        if rest > 1:
            common = gcd(w, rest)
            period = rest // common
            inverse = pow(w // common, -1, period) if period > 1 else 0
            plan.append((w, first, low, high, rest, common, period, inverse))
        else:
            plan.append((w, first, low, high, rest, 1, 1, 0))
        rest = gcd(rest, w)
        one, two = w * first, w * top
        if one < two:
            low, high = low + one, high + two
        else:
            low, high = low + two, high + one
    plan.reverse()
    return plan, low <= 0 <= high


def solve_sum_key(weight: Sequence[int], lowest: Sequence[int], *, limit: int | None = None,  # noqa: C901, PLR0915
                  distinct: bool = True, base: int = 10) -> list[tuple[int, ...]]:
    """Digit tuples d with sum(weight[i] * d[i]) = 0, lowest[i] <= d[i] <= base - 1 and all
    different, stopping after `limit`: what `wordsum.solve_weights` finds (in another order). The
    steps are closures, as in `wordsum` (this is the generator's inner loop: method calls and
    helpers at every node make whole runs markedly slower), hence the long function."""
    count = len(weight)
    if not distinct or count < 4:
        return solve_weights(weight, lowest, limit=limit, distinct=distinct, base=base)
    order = letter_order(weight, base)
    top = base - 1
    plan, reachable = plan_search([weight[i] for i in order], [lowest[i] for i in order], top)
    if not reachable:
        return []
    values = [0] * count
    found: list[tuple[int, ...]] = []
    last = count - 1
    pairs = pair_table(plan[-2][0], plan[-2][1], plan[-1][0], plan[-1][1], True, base)

    def record(used: int, total: int) -> bool:
        """Every way the last two letters complete the sum; False once `limit` are found."""
        for one, two in pairs.get(-total, ()):
            if used >> one & 1 or used >> two & 1:
                continue
            values[last - 1], values[last] = one, two
            found.append(tuple(values))
            if limit is not None and len(found) >= limit:
                return False
        return True

    def place(k: int, total: int, used: int) -> bool:  # noqa: C901 - the inner loop, inlined on purpose
        """Digits for the k-th letter on (k < last - 1); False once `limit` solutions are found."""
        w, first, low, high, divisor, common, period, inverse = plan[k]
        if w > 0:  # total + w * digit + low <= 0 <= total + w * digit + high
            start, stop = -((total + high) // w), (-total - low) // w
        elif w < 0:
            start, stop = -((total + low) // w), (total + high) // -w
        else:
            start, stop = first, top
        if start < first:
            start = first
        if stop > top:
            stop = top
        step = 1
        if divisor > 1:  # the letters left add a multiple of the divisor: total + w * digit must be one
            need = -total % divisor
            if need % common:
                return True
            if period > 1:
                residue = need // common * inverse % period
                start += (residue - start) % period
                step = period
        if k + 2 < last:
            for digit in range(start, stop + 1, step):
                if used >> digit & 1:
                    continue
                values[k] = digit
                if not place(k + 1, total + w * digit, used | 1 << digit):
                    return False
            return True
        for digit in range(start, stop + 1, step):  # the last letter before the pair: look the pair up here
            if used >> digit & 1:
                continue
            if pairs.get(-total - w * digit) is not None:
                values[k] = digit
                if not record(used | 1 << digit, total + w * digit):
                    return False
        return True

    place(0, 0, 0)
    position = [0] * count
    for k, index in enumerate(order):
        position[index] = k
    return [tuple(digits[position[index]] for index in range(count)) for digits in found]
