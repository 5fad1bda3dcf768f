"""The generator's candidates that can pass its cheap filters, and only those.

A word list of n words has about n**3 / 2 candidate sums `A + B = C`, and n**9 / 8! sums of eight
words; most of them fail at once: their words bring more letters than the base has digits (ten in
base 10), or their magnitudes cannot balance. Enumerating them only to drop them is what made large
lists and long sums slow. Here the slots are filled one at a time, largest group of
interchangeable slots first, each group an unordered choice (symmetry broken once); the letters
chosen so far are a bit mask, and a choice whose letters already pass the base is cut with
everything under it. For a sum, the least and the most the chosen words add up to (a table of each
length's least and most number) cut a choice that the slots left cannot balance; the last slot is
filled only from words of a length that balances, grouped by their letter sets, so that only
words keeping the letters within the base's digits are ever produced. The candidates come in the
order of the plain loops of `shapes.candidates`, so the puzzles come out in the same order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from smtcrypt.setters.generate.shapes import (
    Bounds,
    balances,
    bounds,
    chunk_count,
    first_of_mirror,
    letter_mask,
    template_of,
)
from smtcrypt.setters.generate.template import Template

__all__ = ["WordIndex", "letter_mask"]


class WordIndex:
    """Words by length and letter set; `chunk(first)` gives the candidates led by words[first]."""

    def __init__(self, words: Sequence[str], shape: str | Template, distinct: bool = True, base: int = 10, *,
                 leading_zeros: bool = False, distinct_words: bool = False):
        self.words = list(words)
        self.template = template = template_of(shape)
        self.distinct = distinct
        self.distinct_words = distinct_words
        self.base = base
        self.most = base  # letters that can take distinct digits: one per digit of the base
        self.masks = [letter_mask(word) for word in self.words]
        self.lengths = [len(word) for word in self.words]
        self.range_of = {length: bounds(length, base, leading_zeros) for length in {*self.lengths,
                                                                                   *map(len, template.fixed)}}
        by_length: dict[int, dict[int, list[int]]] = {}
        for index, (length, mask) in enumerate(zip(self.lengths, self.masks)):
            by_length.setdefault(length, {}).setdefault(mask, []).append(index)
        # length -> [(letter set, the indices of the words of that length with those letters)]
        self.groups = {length: list(by_mask.items()) for length, by_mask in sorted(by_length.items())}
        self.fixed_mask = letter_mask("".join(template.fixed))
        slots = template.slots
        self.order = [slot for group in template.groups for slot in group]  # the slots in the order they are filled
        group_of = {slot: number for number, group in enumerate(template.groups) for slot in group}
        # at each depth: does the slot share its group with the one before (an unordered choice)?
        self.follows = [depth > 0 and group_of[slot] == group_of[self.order[depth - 1]]
                        for depth, slot in enumerate(self.order)]
        self.names = [slots[slot] for slot in self.order]
        self.fixed_ranges: dict[str, Bounds] = {word: self.range_of[len(word)] for word in template.fixed}
        self.linear = template.linear
        if self.linear:
            self.setup_sums()
        self.fitting: dict[tuple[int, ...], list[int]] = {}  # other slots' lengths -> the last slot's lengths

    def setup_sums(self) -> None:
        """The sum's coefficients in filling order, the fixed words' share, and what the slots
        after each depth can add at the least and the most."""
        coefficient = self.template.coefficients()
        self.coefficient = [coefficient[name] for name in self.names]
        low = high = 0
        for word in self.template.fixed:
            low, high = add(low, high, coefficient[word], self.range_of[len(word)])
        self.start = (low, high)
        least = min(low for low, _ in self.range_of.values())
        most = max(high for _, high in self.range_of.values())
        self.rest: list[Bounds] = [(0, 0)] * (len(self.order) + 1)
        for depth in range(len(self.order) - 1, -1, -1):
            self.rest[depth] = add(*self.rest[depth + 1], self.coefficient[depth], (least, most))

    def chunks(self) -> int:
        return len(self.words)

    def chunk_size(self, first: int) -> int:
        """How many candidates the plain loops would produce for this chunk, filtered or not."""
        return chunk_count(self.template, len(self.words), first, self.distinct_words)

    def last_lengths(self, chosen: list[int], low: int, high: int) -> list[int]:
        """The lengths the last slot's word can have, given the words of the others."""
        if self.linear:
            found = []
            for length in self.groups:
                least, most = add(low, high, self.coefficient[-1], self.range_of[length])
                if least <= 0 <= most:
                    found.append(length)
            return found
        key = tuple(self.lengths[index] for index in chosen)
        known = self.fitting.get(key)
        if known is None:
            ranges = dict(self.fixed_ranges)
            for name, index in zip(self.names, chosen):
                ranges[name] = self.range_of[self.lengths[index]]
            found = []
            for length in self.groups:
                ranges[self.names[-1]] = self.range_of[length]
                if balances(self.template, ranges):
                    found.append(length)
            self.fitting[key] = known = found
        return known

    def last(self, chosen: list[int], mask: int, low: int, high: int) -> list[int]:
        """The words that can fill the last slot, in word order."""
        start = 0
        if self.follows[-1]:
            start = chosen[-1] + self.distinct_words
        capped = self.distinct
        found: list[int] = []
        for length in self.last_lengths(chosen, low, high):
            for letters, members in self.groups[length]:
                if not capped or (mask | letters).bit_count() <= self.most:
                    found += members
        found.sort()
        if start or self.distinct_words:
            taken = set(chosen) if self.distinct_words else ()
            found = [index for index in found if index >= start and index not in taken]
        return found

    def chunk(self, first: int) -> Iterator[tuple[int, ...]]:
        """The candidates led by words[first] that pass the filters, as word indices in the
        template's slot order (A, B, C, ...), in the order of `shapes.candidates`."""
        slots = len(self.order)
        placed = [0] * slots
        mirrored = self.template.mirror is not None
        for chosen in self.walk(first):
            for slot, index in zip(self.order, chosen):
                placed[slot] = index
            if mirrored and not first_of_mirror(self.template, [self.words[index] for index in placed]):
                continue  # the same puzzle with its sides swapped
            yield tuple(placed)

    def walk(self, first: int) -> Iterator[list[int]]:
        """Word indices in filling order, cut as soon as the letters or the magnitudes fail."""
        for chosen, lasts in self.walk_groups(first):
            for index in lasts:
                chosen.append(index)
                yield chosen
                chosen.pop()

    def walk_groups(self, first: int) -> Iterator[tuple[list[int], list[int]]]:
        """The candidates of `walk` grouped by all their words but the last slot's: (the others in
        filling order, the words the last slot takes with them). Sums that differ in one word are
        decided together (the sum kernel's `count_sums`)."""
        n, masks, lengths, most = len(self.words), self.masks, self.lengths, self.most
        depth_last = len(self.order) - 1
        chosen: list[int] = []

        def step(depth: int, index: int, mask: int, low: int, high: int) -> tuple[int, int, int] | None:
            mask |= masks[index]
            if self.distinct and mask.bit_count() > most:
                return None
            if self.linear:
                low, high = add(low, high, self.coefficient[depth], self.range_of[lengths[index]])
                rest_low, rest_high = self.rest[depth + 1]
                if low + rest_low > 0 or high + rest_high < 0:
                    return None
            return mask, low, high

        def fill(depth: int, mask: int, low: int, high: int) -> Iterator[tuple[list[int], list[int]]]:
            if depth == depth_last:
                lasts = self.last(chosen, mask, low, high)
                if lasts:
                    yield chosen, lasts
                return
            if depth == 0:
                indices: Sequence[int] = [first]
            elif self.follows[depth]:
                indices = range(chosen[-1] + self.distinct_words, n)
            else:
                indices = range(n)
            taken = set(chosen) if self.distinct_words else ()
            for index in indices:
                if index in taken:
                    continue
                state = step(depth, index, mask, low, high)
                if state is not None:
                    chosen.append(index)
                    yield from fill(depth + 1, *state)
                    chosen.pop()

        if depth_last == 0:  # one slot: the chunk is the one word
            state = step(0, first, self.fixed_mask, *self.sum_start())
            if state is not None and self.fits_alone(first):
                yield [], [first]
            return
        yield from fill(0, self.fixed_mask, *self.sum_start())

    def sum_start(self) -> Bounds:
        return self.start if self.linear else (0, 0)

    def add_term(self, depth: int, index: int, low: int, high: int) -> Bounds:
        """The least and the most a sum's slots up to `depth` add, with words[index] at `depth`."""
        return add(low, high, self.coefficient[depth], self.range_of[self.lengths[index]])

    def balance(self, chosen: list[int]) -> bool:
        """Can the words at these indices (in filling order, every slot) balance by magnitude?"""
        return self.lengths[chosen[-1]] in self.last_lengths(chosen[:-1], 0, 0)

    def cannot_balance(self, depth: int, low: int, high: int) -> bool:
        """Can no words in the slots after `depth` bring the sum back to zero?"""
        rest_low, rest_high = self.rest[depth + 1]
        return low + rest_low > 0 or high + rest_high < 0

    def fits_alone(self, index: int) -> bool:
        ranges = dict(self.fixed_ranges)
        ranges[self.names[0]] = self.range_of[self.lengths[index]]
        return balances(self.template, ranges)


def add(low: int, high: int, coefficient: int, span: Bounds) -> Bounds:
    """[low, high] + coefficient * span."""
    one, two = coefficient * span[0], coefficient * span[1]
    return (low + one, high + two) if one <= two else (low + two, high + one)
