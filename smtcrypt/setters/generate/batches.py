"""Sums decided a batch at a time by the compiled search: the candidates that differ only in the
word of the slot filled last.

Deciding a candidate one at a time with the compiled search costs several times the search
itself (its key built from dictionaries, the call, the verdict: docs/generating.md has the
figures), and a list of a few hundred words has millions of candidates `A + B = C` past the
filters. The word index hands out the candidates grouped by all their words but
the last slot's (`WordIndex.walk_groups`), so the weights of the others are summed once per
group, in Python, and the sum kernel's `count_sums` (engine/sums/compiled.py) adds each last word
and searches, all compiled. Only
the few sums found unique come back to Python, to be re-checked exactly and proved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from smtcrypt.setters.generate.index import WordIndex
from smtcrypt.setters.generate.template import Template

__all__ = ["Batch", "LastSlotBatches"]


@dataclass
class Batch:
    """One group's verdicts: the candidates (word indices in slot order), how many solutions each
    has (0, 1, or 2 meaning at least two), and the solution of each with exactly one."""

    candidates: list[tuple[int, ...]]
    counts: np.ndarray
    solutions: dict[int, dict[str, int]]  # position in `candidates` -> letter -> digit


class LastSlotBatches:
    """The run's words as arrays of letter numbers, and the batches of one chunk."""

    def __init__(self, words: Sequence[str], template: Template, index: WordIndex, base: int, leading: bool,
                 batch: Callable[..., None]):
        self.words = words
        self.index = index
        self.base = base
        self.leading = leading  # may a word of two or more letters not start with zero?
        self.batch = batch  # the sum kernel's count_sums, compiled
        alphabet = sorted({letter for word in (*words, *template.fixed) for letter in word})
        self.alphabet = alphabet
        self.number = {letter: position for position, letter in enumerate(alphabet)}
        self.letters = np.array([self.number[letter] for word in words for letter in word], np.int64)
        self.starts = np.zeros(len(words) + 1, np.int64)
        np.cumsum([len(word) for word in words], out=self.starts[1:])
        self.fixed = self.others_of([(word, coefficient) for word, coefficient in template.coefficients().items()
                                     if word in template.fixed])
        self.slot_order = index.order  # the slots in filling order
        self.coefficients = index.coefficient  # each slot's coefficient, in filling order

    def fits(self) -> bool:
        """Can every sum of this run be searched in 64-bit integers (weights, partial sums, the
        used digits as bits)?"""
        longest = max([len(word) for word in self.words], default=1)
        scale = sum(abs(c) for c in self.coefficients) + int(np.abs(self.fixed[0]).sum())
        return self.base <= 62 and scale * self.base ** longest * len(self.alphabet) * self.base < 1 << 62

    def others_of(self, terms: Sequence[tuple[str, int]]) -> np.ndarray:
        """Rows of weight, presence and `may not be zero` for each letter of these terms."""
        others = np.zeros((3, len(self.alphabet)), np.int64)
        for word, coefficient in terms:
            place = 1
            for letter in reversed(word):
                number = self.number[letter]
                others[0, number] += coefficient * place
                others[1, number] = 1
                place *= self.base
            if self.leading and len(word) > 1:
                others[2, self.number[word[0]]] = 1
        return others

    def chunk(self, first: int) -> Iterator[Batch]:
        """The batches of the candidates led by words[first], in the order of `WordIndex.chunk`."""
        placed = [0] * len(self.slot_order)
        last_slot = self.slot_order[-1]
        coefficient = self.coefficients[-1]
        for chosen, lasts in self.index.walk_groups(first):
            others = self.fixed + self.others_of([(self.words[index], c)
                                                  for index, c in zip(chosen, self.coefficients)])
            others[1:] = np.minimum(others[1:], 1)
            picked = np.array(lasts, np.int64)
            counts = np.empty(len(lasts), np.int64)
            digits = np.empty((len(lasts), len(self.alphabet)), np.int64)
            self.batch(others, coefficient, int(self.leading), self.letters, self.starts, picked, self.base, 2, counts,
                       digits)
            for slot, index in zip(self.slot_order, chosen):
                placed[slot] = index
            candidates = []
            for index in lasts:
                placed[last_slot] = index
                candidates.append(tuple(placed))
            solutions = {}
            for position in np.flatnonzero(counts == 1):
                row = digits[position]
                solutions[int(position)] = {self.alphabet[number]: int(row[number])
                                            for number in np.flatnonzero(row >= 0)}
            yield Batch(candidates, counts, solutions)
