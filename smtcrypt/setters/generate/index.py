"""The generator's candidates that can pass its cheap filters, and only those.

A word list of n words has about n**3 / 2 candidate sums, and most of them fail at once: their
words bring more letters than the base has digits (ten in base 10), or their lengths cannot add
up. Enumerating them only to drop them is what made large lists slow. Here each word is indexed
by its length and its set of letters (a bit mask), so that for a choice of addends (or factors)
only results of a fitting length whose letters keep the total within the base's digits are ever
produced. The candidates come in the order of the plain loops of `generate.candidates`, so the
puzzles come out in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from itertools import chain

from smtcrypt.setters.generate.shapes import Shape, carry_digits, choice_size, letter_mask

__all__ = ["WordIndex", "letter_mask"]


class WordIndex:
    """Words by length and letter set; `chunk(first)` gives the candidates led by words[first]."""

    def __init__(self, words: Sequence[str], shape: str, distinct: bool = True, base: int = 10):
        self.words = list(words)
        self.shape = shape
        self.distinct = distinct
        self.base = base
        self.most = base  # letters that can take distinct digits: one per digit of the base
        self.masks = [letter_mask(word) for word in self.words]
        self.lengths = [len(word) for word in self.words]
        groups: dict[int, dict[int, list[int]]] = {}
        for index, (length, mask) in enumerate(zip(self.lengths, self.masks)):
            groups.setdefault(length, {}).setdefault(mask, []).append(index)
        # length -> [(letter set, the indices of the words of that length with those letters)]
        self.groups = {length: list(by_mask.items()) for length, by_mask in groups.items()}
        self.by_length = {length: sorted(chain.from_iterable(by_mask.values())) for length, by_mask in groups.items()}
        self.most_letters = {length: max(mask.bit_count() for mask in by_mask) for length, by_mask in groups.items()}
        self.choose = choice_size(shape)  # addends or factors, an unordered choice
        self.carry = carry_digits(self.choose, base)

    def chunks(self) -> int:
        return len(self.words)

    def chunk_size(self, first: int) -> int:
        """How many candidates the plain loops would produce for this chunk, filtered or not."""
        return math.comb(len(self.words) - first + self.choose - 2, self.choose - 1) * len(self.words)

    def results(self, mask: int, lengths: range) -> list[int]:
        """The words of these lengths that keep the letters within the base's digits, in word order."""
        found: list[int] = []
        for length in lengths:
            if length not in self.groups:
                continue
            if not self.distinct or mask.bit_count() + self.most_letters[length] <= self.most:
                found += self.by_length[length]
            else:
                found += [index for letters, members in self.groups[length]
                          if (mask | letters).bit_count() <= self.most for index in members]
        if len(lengths) > 1 or (self.distinct and len(self.groups.get(lengths[0], ())) > 1):
            found.sort()
        return found

    def result_lengths(self, chosen: Sequence[int]) -> range:
        """The lengths a result can have: `shapes.lengths_fit`, solved for the result."""
        if self.shape == Shape.PRODUCT:
            total = sum(self.lengths[index] for index in chosen)
            return range(total - 1, total + 1)
        longest = max(self.lengths[index] for index in chosen)
        return range(longest, longest + self.carry + 1)

    def choices(self, first: int) -> Iterator[tuple[tuple[int, ...], int]]:
        """The addends (or factors) led by words[first], as in itertools.combinations_with_replacement,
        with their letters; choices with more letters than the base has digits already are left out."""
        n, masks = len(self.words), self.masks
        head = masks[first]
        if self.choose == 2:
            for second in range(first, n):
                mask = head | masks[second]
                if not self.distinct or mask.bit_count() <= self.most:
                    yield (first, second), mask
            return
        for second in range(first, n):
            pair = head | masks[second]
            if self.distinct and pair.bit_count() > self.most:
                continue
            for third in range(second, n):
                mask = pair | masks[third]
                if not self.distinct or mask.bit_count() <= self.most:
                    yield (first, second, third), mask

    def chunk(self, first: int) -> Iterator[tuple[int, ...]]:
        """The candidates led by words[first] that pass the filters, as word indices in the shape's
        order (A, B, C, D), in the order of `generate.candidates`."""
        difference = self.shape == Shape.DIFFERENCE
        for chosen, mask in self.choices(first):
            for result in self.results(mask, self.result_lengths(chosen)):
                yield (result, *chosen) if difference else (*chosen, result)
