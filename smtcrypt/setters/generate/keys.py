"""A sum's key: its shape up to renaming letters. Two sums with one key have the same solutions
up to the names of their letters, so the column-free search (`wordsum`) decides each key once."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from smtcrypt.core.rules import Rules
from smtcrypt.setters.generate.kernel import KeySearch
from smtcrypt.setters.generate.results import TALLY
from smtcrypt.setters.generate.shapes import Parts, first_of_mirror, fits, letter_mask, template_of
from smtcrypt.setters.generate.sums import solve_sum_key
from smtcrypt.setters.generate.template import Template
from smtcrypt.setters.wordsum import weights

Key = tuple[int, ...]  # sorted 2 * weight + (1 if the letter leads a word)
KEY_CACHE = 1 << 14  # verdicts of keys kept per process: bounded, so memory does not grow with the run


class WordTable:
    """Each word's letters (as a bit mask) and place-value weights, computed once per run, and
    the rules' parts that the filters and keys read."""

    def __init__(self, words: Sequence[str], rules: Rules):
        self.base = rules.base
        self.masks = {word: letter_mask(word) for word in words}
        self.weights: dict[str, dict[str, int]] = {}  # computed when first asked for: a sample asks for a few
        self.distinct = rules.distinct  # False with groups (`Rules.groups`): no cap on the letters in all
        self.leading = not rules.allow_leading_zeros
        self.plans: dict[str, tuple[list[int], dict[str, int], int]] = {}
        # (template, the other words), their weights and first letters
        self.partial: tuple[object, dict[str, int], frozenset[str]] = (None, {}, frozenset())

    def passes_filters(self, shape: str | Template, parts: Parts) -> bool:
        """More letters than the base has digits cannot take distinct digits; magnitudes must be able to balance."""
        template = template_of(shape)
        if self.distinct:
            mask = letter_mask("".join(template.fixed))
            for word in parts:
                mask |= self.masks.get(word) or letter_mask(word)
            if mask.bit_count() > self.base:
                return False
        return fits(template, parts, self.base, not self.leading) and first_of_mirror(template, parts)

    def weights_of(self, word: str) -> dict[str, int]:
        found = self.weights.get(word)
        if found is None:
            found = self.weights[word] = weights([word], "", self.base)
        return found

    def sum_plan(self, template: Template) -> tuple[list[int], dict[str, int], int]:
        """A template's coefficient for each slot, the weights its fixed words bring, and the slot
        filled last (the one that changes from candidate to candidate)."""
        plan = self.plans.get(template.text)
        if plan is None:
            coefficients = template.coefficients()
            fixed: dict[str, int] = {}
            for word in template.fixed:
                for letter, w in self.weights_of(word).items():
                    fixed[letter] = fixed.get(letter, 0) + coefficients[word] * w
            plan = self.plans[template.text] = ([coefficients[name] for name in template.slots], fixed,
                                                template.groups[-1][-1])
        return plan

    def key(self, shape: str | Template, parts: Parts) -> tuple[Key, list[str]]:
        """The sum's key, and its letters in the key's order. The weights of all words but the slot
        filled last are kept from the candidate before when they are the same words."""
        template = template_of(shape)
        coefficients, fixed, last = self.sum_plan(template)
        others = (template.text, parts[:last] + parts[last + 1:])
        if self.partial[0] != others:
            weight = dict(fixed)
            for index, word in enumerate(parts):
                if index != last:
                    for letter, w in self.weights_of(word).items():
                        weight[letter] = weight.get(letter, 0) + coefficients[index] * w
            heads = frozenset(word[0] for word in (*others[1], *template.fixed) if len(word) > 1)
            self.partial = (others, weight, heads)
        weight = dict(self.partial[1])
        c = coefficients[last]
        word = parts[last]
        for letter, w in self.weights_of(word).items():
            weight[letter] = weight.get(letter, 0) + c * w
        if self.leading:
            heads = self.partial[2]
            lead = word[0] if len(word) > 1 else ""
            codes = [2 * w + (letter in heads or letter == lead) for letter, w in weight.items()]
        else:
            codes = [2 * w for w in weight.values()]
        # heaviest first; equal weights in code order, then by letter
        coded = sorted(zip([-abs(code) for code in codes], codes, weight))
        return tuple([code for _, code, _ in coded]), [letter for _, _, letter in coded]

Words = WordTable  # the name tests and older callers know


KEY_SEARCH = KeySearch()  # this process's: Python first, compiled once it has searched enough keys


def search_key(key: Key, distinct: bool, base: int = 10) -> tuple[int, tuple[int, ...] | None]:
    """How many solutions a key has (0, 1 or 2 meaning at least two), and the digits of the one."""
    compiled = KEY_SEARCH.count(key, base) if distinct else None
    if compiled is not None:
        TALLY.add("compiled")
        return compiled
    TALLY.add("python")
    found = solve_sum_key([code >> 1 for code in key], [code & 1 for code in key], limit=2, distinct=distinct,
                          base=base)
    return len(found), found[0] if len(found) == 1 else None


@functools.lru_cache(maxsize=KEY_CACHE)
def search_key_cached(key: Key, distinct: bool, base: int = 10) -> tuple[int, tuple[int, ...] | None]:
    return search_key(key, distinct, base)
