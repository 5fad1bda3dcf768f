"""The search of a sum over its plan, in plain Python: depth first, each step's digits cut by
magnitude and congruence (plan.py), the last two letters looked up in the table of pairs.

The search is one generator with an explicit stack, not a recursion: a caller may take the first
solution, a few, or all, and between any two solutions the search keeps its place. It counts the
steps it enters (`nodes`) and, every `every` of them, asks `poll` whether to stop, so a deadline or
a stop request ends it within a bounded amount of work even where no solution comes. Its loop reads
only locals: an attribute look-up or a method call at every step would cost more than the step.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Iterator

from smtcrypt.core.rules import MAX_BASE
from smtcrypt.engine.sums.plan import SumPlan

__all__ = ["SumSearch", "sum_solutions"]

Digits = tuple[int, ...]  # one solution: a digit per letter, in the caller's letter order
DIGIT_BITS = tuple(1 << digit for digit in range(MAX_BASE))  # what a digit adds to the used digits, if distinct
NO_BITS = (0,) * MAX_BASE  # if not


class SumSearch:
    """The solutions of sum(weight * digit) + `total` = 0 under `plan`, each once, as digit tuples
    in the caller's letter order; with distinct digits, none of them in `used` (a bit mask of digits
    already taken). `nodes` counts the steps the search has entered (up to date whenever it yields
    and once it ends); `stopped` says that `poll` ended it early (asked every `every` steps, a power
    of two)."""

    def __init__(self, plan: SumPlan, total: int = 0, used: int = 0, *,
                 poll: Callable[[], bool] | None = None, every: int = 1024):
        if every < 1 or every & (every - 1):
            raise ValueError("every must be a power of two")
        self.plan = plan
        self.total = total
        self.used = used if plan.distinct else 0
        self.poll = poll
        self.every = every
        self.nodes = 0
        self.stopped = False

    def __iter__(self) -> Iterator[Digits]:
        plan, total = self.plan, self.total
        if not plan.least + total <= 0 <= plan.most + total:
            return iter(())
        if plan.size < 3:
            return self.small()
        return self.walk()

    def small(self) -> Iterator[Digits]:
        """Sums of fewer than three letters: none (is the total zero?), one, or a pair from the table."""
        plan, total, used = self.plan, self.total, self.used
        self.nodes = 1
        if plan.size == 0:
            yield ()
        elif plan.size == 1:
            w, first, top, forbidden = plan.steps[0][:4]
            for digit in range(first, top + 1):
                if not (used | forbidden) >> digit & 1 and w * digit + total == 0:
                    yield (digit,)
        else:
            swap = plan.order[0] == 1  # the table's pairs are in search order
            for one, two in plan.pairs.get(-total, ()):
                if not (used >> one & 1 or used >> two & 1):
                    yield (two, one) if swap else (one, two)

    def walk(self) -> Iterator[Digits]:  # noqa: C901, PLR0912, PLR0915 - the inner loop, inlined on purpose
        """Three letters or more: the depth-first search."""
        plan, total, used = self.plan, self.total, self.used
        poll, mask = self.poll, self.every - 1
        n = plan.size
        steps, pairs, distinct = plan.steps, plan.pairs, plan.distinct
        last = n - 3  # the last step before the pair
        bits = DIGIT_BITS if distinct else NO_BITS
        position = [0] * n  # where each of the caller's letters is in the search order
        for k, index in enumerate(plan.order):
            position[index] = k
        caller_order = operator.itemgetter(*position)
        values = [0] * n
        totals = [0] * n
        useds = [0] * n
        digits: list[Iterator[int]] = [iter(())] * n
        takens = [0] * n
        nodes = 0
        k = -1  # the step whose digit was chosen last (-1: none yet); total and used are after it
        try:
            while True:
                # enter step j: its digits, cut by magnitude and congruence
                nodes += 1
                if not nodes & mask and poll is not None and poll():
                    self.stopped = True
                    return
                j = k + 1
                w, first, top, forbidden, low, high, divisor, common, period, inverse = steps[j]
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
                if divisor > 1 and start <= stop:  # the letters left add a multiple of it: so must total + w * digit
                    need = -total % divisor
                    if need % common:
                        stop = -1
                    elif period > 1:
                        start += (need // common * inverse % period - start) % period
                        step = period
                taken = used | forbidden
                if j == last:  # the last step before the pair: each digit's pairs looked up at once
                    for digit in range(start, stop + 1, step):
                        if taken >> digit & 1:
                            continue
                        completions = pairs.get(-total - w * digit)
                        if completions is not None:
                            values[j] = digit
                            rest = used | bits[digit]
                            for one, two in completions:
                                if rest >> one & 1 or rest >> two & 1:
                                    continue
                                values[n - 2] = one
                                values[n - 1] = two
                                self.nodes = nodes  # up to date whenever the caller holds a solution
                                yield caller_order(values)
                else:
                    k = j
                    digits[k] = iter(range(start, stop + 1, step))
                    takens[k] = taken
                    totals[k] = total
                    useds[k] = used
                # the next digit of step k, backing up while a step has none left
                while k >= 0:
                    taken = takens[k]
                    for digit in digits[k]:
                        if not taken >> digit & 1:
                            break
                    else:
                        k -= 1
                        continue
                    break
                else:
                    return
                values[k] = digit
                total = totals[k] + steps[k][0] * digit
                used = useds[k] | bits[digit]
        finally:
            self.nodes = nodes


def sum_solutions(plan: SumPlan, limit: int | None = None, total: int = 0, used: int = 0) -> list[Digits]:
    """The first `limit` solutions (all, for None), in the caller's letter order."""
    return list(itertools.islice(SumSearch(plan, total, used), limit))
