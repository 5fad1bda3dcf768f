"""Every solution of a pure word sum (`SEND + MORE = MONEY`) by a search in plain Python.

The generator checks hundreds of thousands of candidate sums; starting Z3 for each costs
milliseconds, while most candidates are settled here in microseconds. The sum is one linear
equation, sum(weight * digit) = 0, with a place-value weight per letter (SEND + MORE = MONEY:
1000*S + 91*E - 90*N + D - 9000*M - 900*O + 10*R - Y = 0). Letters are tried heaviest first,
and each one's digits are cut to the interval the lighter letters could still balance, so the
first few letters are nearly forced. The search is exhaustive: "no solution" and "exactly one"
are proofs; the generator re-checks every puzzle it reports exactly, and with `confirm` has the
solver prove it again.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

Assignment = dict[str, int]  # letter -> digit


def weights(addends: Sequence[str], result: str, base: int = 10) -> dict[str, int]:
    """Each letter's place-value weight: NUM + BER = PLAY gives N: 100, ..., P: -1000."""
    weight: dict[str, int] = {}
    for word, sign in [(word, 1) for word in addends] + [(result, -1)]:
        for position, letter in enumerate(reversed(word)):
            weight[letter] = weight.get(letter, 0) + sign * base ** position
    return weight


def _plan(weight: Sequence[int], lowest: Sequence[int], top: int) -> tuple[list[tuple[int, int, int, int]], bool]:
    """plan[k]: the k-th weight, its least digit, and the least and the most the later letters can
    add; and whether all the letters together can balance at all."""
    plan = []
    low = high = 0
    for w, first in reversed(list(zip(weight, lowest))):
        plan.append((w, first, low, high))
        low += min(w * first, w * top)
        high += max(w * first, w * top)
    plan.reverse()
    return plan, low <= 0 <= high


def solve_weights(weight: Sequence[int], lowest: Sequence[int], *, limit: int | None = None,  # noqa: C901 - closures, see below
                  distinct: bool = True, base: int = 10) -> list[tuple[int, ...]]:
    """Digit tuples d with sum(weight[i] * d[i]) = 0 and lowest[i] <= d[i] <= base - 1 (all
    different if `distinct`), stopping after `limit` of them; `weight` heaviest first searches fastest.

    The search's two steps are closures over its state on purpose: this is the generator's inner
    loop, and methods of a search object (attribute look-ups at every node) make whole runs
    markedly slower.
    """
    count = len(weight)
    top = base - 1
    plan, reachable = _plan(weight, lowest, top)
    values = [0] * count
    found: list[tuple[int, ...]] = []
    last = count - 1
    # The last two letters come from a table: every pair of their digits by what it adds.
    pairs = pair_table(plan[-2][0], plan[-2][1], plan[-1][0], plan[-1][1], distinct, base) if count >= 2 else {}

    def record(used: int, total: int) -> bool:
        """Every way the last two letters complete the sum; False once `limit` are found."""
        for one, two in pairs.get(-total, ()):
            if distinct and (used >> one & 1 or used >> two & 1):
                continue
            values[last - 1], values[last] = one, two
            found.append(tuple(values))
            if limit is not None and len(found) >= limit:
                return False
        return True

    def place(k: int, total: int, used: int) -> bool:
        """Digits for the k-th letter on (k < last - 1); False once `limit` solutions are found."""
        w, first, low, high = plan[k]
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
            for digit in range(start, stop + 1):
                if distinct and used >> digit & 1:
                    continue
                values[k] = digit
                if not place(k + 1, total + w * digit, used | 1 << digit):
                    return False
            return True
        for digit in range(start, stop + 1):  # the last letter before the pair: look the pair up here
            if distinct and used >> digit & 1:
                continue
            completions = pairs.get(-total - w * digit)
            if completions is not None:
                values[k] = digit
                if not record(used | 1 << digit, total + w * digit):
                    return False
        return True

    if count == 1:
        w, first = plan[0][0], plan[0][1]
        found += [(digit,) for digit in range(first, base) if w * digit == 0][:limit]
    elif count == 2:
        record(0, 0)
        del found[limit or len(found):]
    elif count and reachable:
        place(0, 0, 0)
    return found


@functools.lru_cache(maxsize=1024)
def pair_table(w1: int, first1: int, w2: int, first2: int, distinct: bool,
               base: int = 10) -> dict[int, list[tuple[int, int]]]:
    """Every pair of digits (one, two) by w1 * one + w2 * two; the light letters that end a search
    repeat their weights from sum to sum, so the generator builds each table once."""
    pairs: dict[int, list[tuple[int, int]]] = {}
    for one in range(first1, base):
        for two in range(first2, base):
            if one != two or not distinct:
                pairs.setdefault(w1 * one + w2 * two, []).append((one, two))
    return pairs


def solve_sum(addends: Sequence[str], result: str, *, limit: int | None = None, distinct: bool = True,
              allow_leading_zeros: bool = False, base: int = 10) -> list[Assignment]:
    """The solutions of `addends[0] + addends[1] + ... = result` (words of capital letters),
    stopping after `limit` of them (2 settles uniqueness)."""
    weight = weights(addends, result, base)
    heads = set() if allow_leading_zeros else {word[0] for word in (*addends, result) if len(word) > 1}
    order = sorted(weight, key=lambda letter: -abs(weight[letter]))
    found = solve_weights([weight[letter] for letter in order], [int(letter in heads) for letter in order],
                          limit=limit, distinct=distinct, base=base)
    return [dict(zip(order, digits)) for digits in found]
