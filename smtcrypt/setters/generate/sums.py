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
- the few letters that the units column holds (weights not a multiple of the base: at most
  three) come first, then the few more the tens column adds (at most one), then the others
  heaviest first; so g is 10 or 100 from the first levels on.

The last two letters come from `wordsum`'s table of digit pairs, as there. Only sums of letters
with distinct digits are searched here; `wordsum` searches the others.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from smtcrypt.setters.wordsum import pair_table, solve_weights

__all__ = ["letter_order", "solve_sum_key"]

FRONT = (3, 1)  # how many letters each column from the units may bring to the front, at most


def letter_order(weight: Sequence[int], base: int = 10) -> list[int]:
    """The letters' search order: the units column's few letters, the tens column's few more, the
    rest heaviest first (ties in the given order)."""
    heaviest = sorted(range(len(weight)), key=lambda index: -abs(weight[index]))
    order: list[int] = []
    modulus = base
    for most in FRONT:
        column = [index for index in heaviest if weight[index] % modulus and index not in order]
        if len(column) > most:
            break
        order += column
        modulus *= base
    return order + [index for index in heaviest if index not in order]


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
    for k in range(len(weight) - 1, -1, -1):
        w, first = weight[k], lowest[k]
        divisor = math.gcd(*weight[k + 1:])
        common = math.gcd(w, divisor) if divisor > 1 else 1
        period = divisor // common if divisor > 1 else 1
        inverse = pow(w // common, -1, period) if period > 1 else 0
        plan.append((w, first, low, high, divisor, common, period, inverse))
        low += min(w * first, w * top)
        high += max(w * first, w * top)
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
        if k + 2 < last:
            step = 1
            if divisor > 1:  # the letters left add a multiple of the divisor: total + w * digit must be one
                need = -total % divisor
                if need % common:
                    return True
                if period > 1:
                    residue = need // common * inverse % period
                    start += (residue - start) % period
                    step = period
            for digit in range(start, stop + 1, step):
                if used >> digit & 1:
                    continue
                now = total + w * digit
                values[k] = digit
                if not place(k + 1, now, used | 1 << digit):
                    return False
            return True
        for digit in range(start, stop + 1):  # the last letter before the pair: look the pair up here
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
