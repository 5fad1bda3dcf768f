"""A sum's key: its shape up to renaming letters. Two sums with one key have the same solutions
up to the names of their letters, so the column-free search (`wordsum`) decides each key once."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from smtcrypt.setters.generate.shapes import Parts, as_sum, lengths_fit, letter_mask
from smtcrypt.setters.wordsum import solve_weights, weights

Key = tuple[int, ...]  # sorted 2 * weight + (1 if the letter leads a word)
KEY_CACHE = 1 << 14  # verdicts of keys kept per process: bounded, so memory does not grow with the run


class WordTable:
    """Each word's letters (as a bit mask) and place-value weights, computed once per run, and
    the rules' parts that the filters and keys read."""

    def __init__(self, words: Sequence[str], rules: dict[str, Any]):
        self.base: int = rules.get("base", 10)
        self.masks = {word: letter_mask(word) for word in words}
        self.weights = {word: weights([word], "", self.base) for word in words}
        distinct = rules.get("distinct", True)
        self.distinct = distinct if isinstance(distinct, bool) else False  # groups: no cap on the letters in all
        self.leading = not rules.get("allow_leading_zeros", False)

    def passes_filters(self, shape: str, parts: Parts) -> bool:
        """More letters than the base has digits cannot take distinct digits; lengths must be able to add up."""
        if self.distinct:
            mask = 0
            for word in parts:
                mask |= self.masks[word]
            if mask.bit_count() > self.base:
                return False
        return lengths_fit(shape, parts, self.base)

    def key(self, shape: str, parts: Parts) -> tuple[Key, list[str]]:
        """The sum's key, and its letters in the key's order."""
        split = as_sum(shape, parts)
        assert split is not None, "only sums have keys"
        addends, result = split
        weight: dict[str, int] = {}
        for word in addends:
            for letter, w in self.weights[word].items():
                weight[letter] = weight.get(letter, 0) + w
        for letter, w in self.weights[result].items():
            weight[letter] = weight.get(letter, 0) - w
        heads = {word[0] for word in parts if len(word) > 1} if self.leading else set()
        coded = sorted(((2 * w + (letter in heads), letter) for letter, w in weight.items()),
                       key=lambda pair: (-abs(pair[0]), pair[0]))
        return tuple(code for code, _ in coded), [letter for _, letter in coded]


Words = WordTable  # the name tests and older callers know


def search_key(key: Key, distinct: bool, base: int = 10) -> tuple[int, tuple[int, ...] | None]:
    """How many solutions a key has (0, 1 or 2 meaning at least two), and the digits of the one."""
    found = solve_weights([code >> 1 for code in key], [code & 1 for code in key], limit=2, distinct=distinct,
                          base=base)
    return len(found), found[0] if len(found) == 1 else None


@functools.lru_cache(maxsize=KEY_CACHE)
def search_key_cached(key: Key, distinct: bool, base: int = 10) -> tuple[int, tuple[int, ...] | None]:
    return search_key(key, distinct, base)
