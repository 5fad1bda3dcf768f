"""Sampling: a few random puzzles of a shape from a list too big to enumerate.

A list of 100,000 words has 5 * 10**14 candidate sums `A + B = C`; a setter who wants ten
puzzles should not wait for all of them. The sampler draws a word for every slot at random (each
a uniform choice; the words of interchangeable slots sorted, as the enumeration lists them) and
keeps the draw only if it passes the generator's cheap filters, tested slot by slot as the words
come (letters within the base, magnitudes that can balance); a draw costs microseconds, and about
one in 36 passes among 100,000 English words (410 of 14,752 draws, seed 0). Each candidate kept
is decided by the machinery of a full run
(`decide.Checker`: the exhaustive column search for sums, the solver otherwise, the exact
re-check, and with `confirm` the solver's second proof), until `count` are unique.

A first version drew all slots but the last and decided every word that could fill the last one
(the word index lists them): per puzzle it decided 60 times as many candidates, because draws
whose words share many letters admit hundreds of last words and rarely a unique sum, and it was
5 to 18 times slower than drawing whole candidates.

The draws come from `random.Random(seed)`: one seed, one word list and one shape give the same
puzzles in the same order on every machine. A candidate is decided once, and a puzzle given once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from smtcrypt.core.results import Status
from smtcrypt.setters.generate.decide import Checker, Setting
from smtcrypt.setters.generate.results import TALLY, Generated, Totals
from smtcrypt.setters.generate.shapes import first_of_mirror

__all__ = ["DEFAULT_DRAWS", "Sampler"]

DEFAULT_DRAWS = 1_000_000  # draws a run makes at most before it gives up on finding more puzzles
EXHAUSTED_AFTER = 20_000  # draws without a candidate not decided before, at least, before a list counts as exhausted


@dataclass
class Sampler:
    """Random unique puzzles of one setting over `words`, counted in `totals` (`draws`: the draws made)."""

    setting: Setting
    words: Sequence[str]
    seed: int = 0
    draws: int = DEFAULT_DRAWS
    totals: Totals = field(default_factory=Totals)

    def __post_init__(self) -> None:
        self.checker = Checker(self.setting, self.words)
        self.index = self.checker.index
        self.random = random.Random(self.seed)
        self.seen: set[tuple[int, ...]] = set()
        # the filling order's groups of interchangeable slots, as (start, stop) depths
        self.spans: list[tuple[int, int]] = []
        for depth, follows in enumerate(self.index.follows):
            if follows:
                self.spans[-1] = (self.spans[-1][0], depth + 1)
            else:
                self.spans.append((depth, depth + 1))

    def puzzles(self, count: int, progress: Callable[[Totals], None] | None = None) -> Iterator[Generated]:
        """Up to `count` unique puzzles, each from its own draw; fewer if `draws` run out first, or
        once the draws stop reaching candidates not decided before (`exhausted`)."""
        found = 0
        last_new = 0  # the draw that last reached a candidate not decided before
        for draw in range(1, self.draws + 1):
            if found >= count or self.exhausted(draw, last_new):
                break
            self.totals.draws += 1
            seen = len(self.seen)
            puzzle = self.one_draw()
            if len(self.seen) > seen:
                last_new = draw
            if puzzle is not None:
                found += 1
                yield puzzle
            if progress is not None and (puzzle is not None or self.totals.draws % 256 == 0):
                progress(self.totals)

    def exhausted(self, draw: int, last_new: int) -> bool:
        """A list whose candidates have all been decided: no new one for EXHAUSTED_AFTER draws, and
        for fifty times as many draws as a new one took on average so far (a big list, whose
        filters let few draws through, is never taken for exhausted by the first rule alone)."""
        since = draw - last_new
        return since > EXHAUSTED_AFTER and since > 50 * draw / max(1, len(self.seen))

    def one_draw(self) -> Generated | None:
        """Draw a candidate and decide it, if it passes the filters and was not decided before."""
        chosen = self.draw()
        if chosen is None:
            return None
        candidate = self.placed(chosen)
        if candidate is None:
            return None
        parts = tuple(self.words[i] for i in candidate)
        self.totals.candidates += 1
        if self.checker.named and not self.checker.holds_named(parts):
            self.totals.filtered += 1
            return None
        before = TALLY.now()
        status, solution = self.checker.decide(parts)
        self.totals.add_work(TALLY.since(before))
        self.totals.count(status)
        if status is not Status.UNIQUE or solution is None:
            return None
        self.totals.by_shape[self.setting.shape] = self.totals.by_shape.get(self.setting.shape, 0) + 1
        return Generated(self.checker.template.formula(parts), solution)

    def draw(self) -> list[int] | None:
        """Random words for the slots, in filling order (an unordered choice sorted); None as soon
        as the words chosen so far bring more letters than the base has digits, or magnitudes the
        other slots cannot balance."""
        index = self.index
        n = len(self.words)
        chosen = [self.random.randrange(n) for _ in index.order]
        for begin, end in self.spans:
            if end - begin > 1:
                chosen[begin:end] = sorted(chosen[begin:end])
        if index.distinct_words and len(set(chosen)) < len(chosen):
            return None
        mask = index.fixed_mask
        low, high = index.sum_start()
        for depth, word in enumerate(chosen):
            mask |= index.masks[word]
            if index.distinct and mask.bit_count() > index.most:
                return None
            if index.linear:
                low, high = index.add_term(depth, word, low, high)
                if index.cannot_balance(depth, low, high):
                    return None
        if not index.linear and not index.balance(chosen):
            return None
        return chosen

    def placed(self, chosen: list[int]) -> tuple[int, ...] | None:
        """The candidate in the template's slot order; None if it was already decided, or is the
        mirror image of a puzzle listed the other way round."""
        placed = [0] * len(chosen)
        for slot, index in zip(self.index.order, chosen):
            placed[slot] = index
        candidate = tuple(placed)
        if candidate in self.seen:
            return None
        self.seen.add(candidate)
        if self.index.template.mirror is not None and not first_of_mirror(
                self.index.template, [self.words[i] for i in candidate]):
            return None
        return candidate
