"""Every solution of a pure word sum (`SEND + MORE = MONEY`) by a search in plain Python.

The generator checks hundreds of thousands of candidate sums; starting Z3 for each costs
milliseconds, while most candidates are settled here in microseconds. The sum is one linear
equation, sum(weight * digit) = 0, with a place-value weight per letter (SEND + MORE = MONEY:
1000*S + 91*E - 90*N + D - 9000*M - 900*O + 10*R - Y = 0). Letters are tried heaviest first,
and each one's digits are cut to the interval the lighter letters could still balance, so the
first few letters are nearly forced. The search is exhaustive: "no solution" and "exactly one"
are proofs; the generator still has the solver and the exact re-check confirm every puzzle it
reports.
"""

from __future__ import annotations

from typing import Sequence

Assignment = dict[str, int]  # letter -> digit


def weights(addends: Sequence[str], result: str) -> dict[str, int]:
    """Each letter's place-value weight: NUM + BER = PLAY gives N: 100, ..., P: -1000."""
    weight: dict[str, int] = {}
    for word, sign in [(word, 1) for word in addends] + [(result, -1)]:
        for position, letter in enumerate(reversed(word)):
            weight[letter] = weight.get(letter, 0) + sign * 10 ** position
    return weight


def solve_weights(weight: Sequence[int], lowest: Sequence[int], *, limit: int | None = None,
                  distinct: bool = True) -> list[tuple[int, ...]]:
    """Digit tuples d with sum(weight[i] * d[i]) = 0 and lowest[i] <= d[i] <= 9 (all different if
    `distinct`), stopping after `limit` of them; `weight` heaviest first searches fastest."""
    count = len(weight)
    # plan[k]: the k-th weight, its least digit, and the least and the most the later ones can add
    plan = []
    low = high = 0
    for w, first in reversed(list(zip(weight, lowest))):
        plan.append((w, first, low, high))
        low += min(w * first, w * 9)
        high += max(w * first, w * 9)
    plan.reverse()
    values = [0] * count
    found: list[tuple[int, ...]] = []
    last = count - 1

    def finish(total: int, used: int) -> bool:
        """The last letter, whose digit is forced (-total / weight); False once `limit` are found."""
        w, first = plan[last][0], plan[last][1]
        if w == 0:
            digits = range(first, 10) if total == 0 else ()
        else:
            digit, remainder = divmod(-total, w)
            digits = (digit,) if not remainder and first <= digit <= 9 else ()
        for digit in digits:
            if distinct and used >> digit & 1:
                continue
            values[last] = digit
            found.append(tuple(values))
            if limit is not None and len(found) >= limit:
                return False
        return True

    def place(k: int, total: int, used: int) -> bool:
        """Digits for the k-th letter on (k < last); False once `limit` solutions are found."""
        w, first, low, high = plan[k]
        if w > 0:  # total + w * digit + low <= 0 <= total + w * digit + high
            start, stop = -((total + high) // w), (-total - low) // w
        elif w < 0:
            start, stop = -((total + low) // w), (total + high) // -w
        else:
            start, stop = first, 9
        digits = range(max(start, first), min(stop, 9) + 1)
        following = plan[k + 1][0]
        if k + 1 == last and following:  # most nodes: the last digit inline, without a call
            least = plan[last][1]
            for digit in digits:
                if distinct and used >> digit & 1:
                    continue
                forced, remainder = divmod(-total - w * digit, following)
                if remainder or not least <= forced <= 9 or (distinct and (forced == digit or used >> forced & 1)):
                    continue
                values[k], values[last] = digit, forced
                found.append(tuple(values))
                if limit is not None and len(found) >= limit:
                    return False
            return True
        for digit in digits:
            if distinct and used >> digit & 1:
                continue
            values[k] = digit
            if k + 1 == last:
                going = finish(total + w * digit, used | 1 << digit)
            else:
                going = place(k + 1, total + w * digit, used | 1 << digit)
            if not going:
                return False
        return True

    if count == 1:
        finish(0, 0)
    elif count and low <= 0 <= high:
        place(0, 0, 0)
    return found


def solve_sum(addends: Sequence[str], result: str, *, limit: int | None = None, distinct: bool = True,
              allow_leading_zeros: bool = False) -> list[Assignment]:
    """The solutions of `addends[0] + addends[1] + ... = result` (words of capital letters),
    stopping after `limit` of them (2 settles uniqueness)."""
    weight = weights(addends, result)
    heads = set() if allow_leading_zeros else {word[0] for word in (*addends, result) if len(word) > 1}
    order = sorted(weight, key=lambda letter: -abs(weight[letter]))
    found = solve_weights([weight[letter] for letter in order], [int(letter in heads) for letter in order],
                          limit=limit, distinct=distinct)
    return [dict(zip(order, digits)) for digits in found]
