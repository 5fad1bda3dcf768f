"""The search of a sum over its plan (plan.py), written once: depth first, each step's digits cut by
magnitude and congruence, the last two letters looked up in the table of pairs where the plan has
one.

`walk` is written in the part of Python numba compiles (no generator, dictionary or recursion: an
explicit stack in arrays), so that the same function runs on lists of Python ints (the plain search,
which never imports numpy) and compiled on int64 arrays (compiled.py). It is resumable: each call
runs until it has filled its rows of solutions, entered its budget of steps or ended, its place
kept in `state` and `work`; so `SumSearch` streams the solutions and asks its `poll` whether to
stop between calls, and a stop request ends a search within a bounded amount of work.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator
from typing import Any

from smtcrypt.engine.sums.plan import BITS, DIGIT_OF, LOW, WEIGHT, SumPlan

__all__ = ["DONE", "FRESH", "WORK", "Digits", "SumSearch", "sum_solutions", "walk"]

Digits = tuple[int, ...]  # one solution: a digit per letter, in the caller's letter order
FRESH = -1  # state[0] of a search not yet begun
DONE = -2  # of a search that has ended
WORK = 5  # rows of `work`, the search's stack
UNBOUNDED = 1 << 62  # a budget of steps no search reaches
FIRST_ROWS = 4  # solutions the first call of `walk` has rows for (more the more it finds), beside the widest total's
ROWS = 256  # at most, for a search that wants them all
LONG_PERIOD = 3_037_000_499  # from this period on, a product of two residues may not fit 64 bits


def walk(steps: Any, starts: Any, keys: Any, ones: Any, twos: Any, total: int, used: int, distinct: bool,  # noqa: C901, PLR0912, PLR0913, PLR0915 - one function numba compiles
         state: Any, work: Any, out: Any, budget: int) -> int:
    """The next solutions of sum(weight * digit) + `total` = 0 under the plan's `steps` (with
    distinct digits, none in `used`, a bit mask), written to the rows of `out` (digits in search
    order); returns how many. `starts`, `keys`, `ones`, `twos`: the last two letters' pairs
    (plan.py), or empty; `out` has a row for each pair of one total at least. `state` is [step,
    steps entered]: FRESH to begin, DONE once ended; `work`, WORK rows of an entry a step, holds the
    stack: each step's digits left (as bits), the total and the digits used before it, its digit
    and its weight. The call returns once `out` is full (or has no room for the next total's pairs)
    or the steps entered reach `budget`, and the next call goes on from there."""
    digits_left, totals, useds, values, weights = work[0], work[1], work[2], work[3], work[4]
    n = len(steps)
    rows = len(out)
    k = state[0]
    nodes = state[1]
    if k == DONE or rows == 0:
        return 0
    if n == 0:
        state[0] = DONE
        state[1] = 1
        return 1 if total == 0 else 0
    last = n - 1
    digit_of, bits = DIGIT_OF, BITS  # as locals: read at every step
    buckets = len(keys)
    pair_at = n - 3 if buckets > 0 else n  # the step whose digits look up the pairs (n: none does)
    pair_low = steps[pair_at][LOW] if pair_at < n else 0
    written = 0
    skip = 0  # the digit the step before the pairs goes on from, when resumed there
    entering = True  # step k + 1 to enter, after `total` and `used`
    if k == FRESH:
        if not distinct:
            used = 0
        for t in range(n):
            weights[t] = steps[t][WEIGHT]
    elif k == pair_at:  # entered again, the step counted once
        skip = digits_left[k]
        total = totals[k]
        used = useds[k]
        k -= 1
        nodes -= 1
    else:
        entering = False
    while True:
        if entering:  # its digits, cut by magnitude and congruence
            j = k + 1
            nodes += 1
            w, first, top, forbidden, low, high, d, common, period, inverse = steps[j]
            if w > 0:  # total + w * digit + low <= 0 <= total + w * digit + high
                digit = -((total + high) // w)
                end = (-total - low) // w
            elif w < 0:
                digit = -((total + low) // w)
                end = (total + high) // -w
            elif total + low <= 0 <= total + high:
                digit = first
                end = top
            else:
                digit = 1
                end = 0
            if digit < first:
                digit = first
            if end > top:
                end = top
            step = 1
            if d > 1 and digit <= end:  # the letters left add a multiple of d: so must total + w * digit
                need = -total % d
                if need % common:
                    end = -1
                elif period > 1:
                    p = period
                    r = need // common % p
                    if p < LONG_PERIOD:
                        r = r * inverse % p
                    else:  # r * inverse mod p by doubling: in 64 bits the product itself may not fit
                        product = 0
                        times = inverse
                        while times:
                            if times & 1:
                                product = (product + r) % p
                            r = (r + r) % p
                            times >>= 1
                        r = product
                    digit += (r - digit) % p
                    step = p
            taken = used | forbidden
            if j == pair_at:  # each digit's pairs looked up, and all of them written where there is room
                if skip:
                    digit = skip
                    skip = 0
                before = -total - pair_low
                held = False
                for digit in range(digit, end + 1, step):  # noqa: B020 - it goes on from where it is
                    if taken >> digit & 1:
                        continue
                    r = before - w * digit
                    at = r
                    if at >= buckets:  # a hashed table's (a compare costs less than the remainder)
                        at %= buckets
                    if keys[at] != r:
                        continue
                    p = starts[at]
                    end_pairs = starts[at + 1]
                    if end_pairs - p > rows - written:
                        held = True
                        break
                    values[j] = digit
                    rest = used | 1 << digit if distinct else 0
                    while p < end_pairs:
                        one = ones[p]
                        two = twos[p]
                        if not (rest >> one & 1 or rest >> two & 1):
                            values[j + 1] = one
                            values[j + 2] = two
                            out[written][:] = values
                            written += 1
                        p += 1
                    if written == rows:
                        held = True
                        digit += step
                        break
                if held:  # no room for the next total's pairs, or none left: the next call goes on from here
                    k = j
                    digits_left[k] = digit
                    totals[k] = total
                    useds[k] = used
                    break
                if k < 0:
                    k = DONE
                    break
            else:  # its digits left, as bits
                if digit > end:
                    c = 0
                elif step == 1:
                    c = ((2 << end) - (1 << digit)) & ~taken
                else:
                    c = 0
                    for digit in range(digit, end + 1, step):  # noqa: B020 - it goes on from where it is
                        c |= 1 << digit
                    c &= ~taken
                k = j
                digits_left[k] = c
                totals[k] = total
                useds[k] = used
            if nodes >= budget:
                break
        # the next digit of step k, backing up while a step has none left
        while k >= 0:
            c = digits_left[k]
            if c:
                break
            k -= 1
        if k < 0:
            k = DONE
            break
        bit = c & -c
        digits_left[k] = c ^ bit
        digit = digit_of[bit % bits]
        values[k] = digit
        total = totals[k] + weights[k] * digit
        used = useds[k] | bit if distinct else 0
        if k == last:
            entering = False
            out[written][:] = values
            written += 1
            if written == rows:
                break
        else:
            entering = True
    state[0] = k
    state[1] = nodes
    return written


class SumSearch:
    """The solutions of sum(weight * digit) + `total` = 0 under `plan`, each once, as digit tuples
    in the caller's letter order; with distinct digits, none of them in `used` (a bit mask of digits
    already taken). `nodes` counts the steps the search has entered (up to date whenever it yields
    and once it ends); `stopped` says that `poll` ended it early (asked every `every` steps, a power
    of two). `rows`: the solutions found ahead of the caller at most (a caller that wants two asks
    for two, and the search goes no further)."""

    def __init__(self, plan: SumPlan, total: int = 0, used: int = 0, *,
                 poll: Callable[[], bool] | None = None, every: int = 1024, rows: int = ROWS):
        if every < 1 or every & (every - 1):
            raise ValueError("every must be a power of two")
        self.plan = plan
        self.total = total
        self.used = used if plan.distinct else 0
        self.poll = poll
        self.every = every
        self.rows = max(rows, 1)
        self.nodes = 0
        self.stopped = False

    def __iter__(self) -> Iterator[Digits]:
        plan, poll = self.plan, self.poll
        if not plan.least + self.total <= 0 <= plan.most + self.total:
            return
        n = plan.size
        position = sorted(range(n), key=plan.order.__getitem__)  # where each of the caller's letters is searched
        caller_order: Callable[[list[int]], Digits] = operator.itemgetter(*position) if n > 1 else tuple
        state = [FRESH, 0]
        work = [[0] * n for _ in range(WORK)]
        (starts, keys, ones, twos), widest = plan.pairs()
        most = max(self.rows, widest)  # a row for each pair of one total
        out = [[0] * n for _ in range(max(min(most, FIRST_ROWS), widest))]
        budget = UNBOUNDED if poll is None else self.every
        while True:
            written = walk(plan.steps, starts, keys, ones, twos, self.total, self.used, plan.distinct, state, work, out,
                           budget)
            self.nodes = state[1]
            yield from map(caller_order, out[:written])
            if state[0] == DONE:
                return
            if state[1] >= budget:
                assert poll is not None
                if poll():
                    self.stopped = True
                    return
                budget += self.every
            elif len(out) < most:  # out of rows: twice as many for the next call
                out += [[0] * n for _ in range(min(len(out), most - len(out)))]


def sum_solutions(plan: SumPlan, limit: int | None = None, total: int = 0, used: int = 0) -> list[Digits]:
    """The first `limit` solutions (all, for None), in the caller's letter order."""
    return list(itertools.islice(SumSearch(plan, total, used, rows=limit or ROWS), limit))
