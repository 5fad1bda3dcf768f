"""A sum's key: its shape up to renaming letters. Two sums with one key have the same solutions
up to the names of their letters, so the sum kernel (`smtcrypt.engine.sums`) decides each key once:
in plain Python, or compiled once a process has searched enough sums for numba's load to pay
(`KeySearch`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np

from smtcrypt.core.numerals import place_values
from smtcrypt.core.rules import Rules
from smtcrypt.engine.sums import SumPlan, plan_sum, sum_solutions
from smtcrypt.engine.sums.compiled import compiled, compiled_available, fits_int64
from smtcrypt.setters.generate.results import TALLY
from smtcrypt.setters.generate.shapes import Parts, first_of_mirror, fits, letter_mask, template_of
from smtcrypt.setters.generate.template import Template

Key = tuple[int, ...]  # sorted 2 * weight + (1 if the letter leads a word)
KEY_CACHE = 1 << 14  # verdicts of keys kept per process: bounded, so memory does not grow with the run
COMPILE_AFTER = 5000  # sums searched in Python by a process before it loads the compiled search
LOAD_FIRST = 100_000  # candidates of a run (before the filters) from which it loads the compiled search at once


def key_plan(key: Key, distinct: bool, base: int, used: int = 0) -> SumPlan:
    """The kernel's plan of a key's sum: each letter's weight, and every digit of the base allowed
    but those in `used` (bits), and 0 where the letter leads a word."""
    full = ((1 << base) - 1) & ~used
    return plan_sum([code >> 1 for code in key], [full & ~(code & 1) for code in key], distinct=distinct, base=base)


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
            found = self.weights[word] = place_values(word, self.base)[0]
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


class KeySearch:
    """Searches keys in Python until `after` of them, then with the compiled kernel if numba is
    installed. One per process (KEY_SEARCH). numba costs time to load in each process and memory,
    so it is loaded only for a large run (`LOAD_FIRST` candidates, before the run forks its
    processes) or once a process has searched enough sums for the load to pay (the rule of ski
    rental: switch once the work done equals the switch's cost); and only sums whose sizes fit
    64-bit integers are searched compiled."""

    def __init__(self, after: int = COMPILE_AFTER, allowed: bool | None = None):
        self.after = after
        self.allowed = compiled_available() if allowed is None else allowed
        self.searched = 0
        self.counter: Callable[[np.ndarray, int, int, np.ndarray], int] | None = None  # the kernel's search_codes
        self.batch: Callable[..., None] | None = None  # the kernel's count_sums
        self.out = np.zeros(64, np.int64)

    def load(self) -> None:
        """Load the compiled search now, if numba is installed: a run about to fork its processes
        does it once for all of them, instead of each after its first sums."""
        if self.counter is None and self.allowed:
            kernel = compiled()
            self.counter, self.batch = kernel.codes, kernel.batch

    def ready(self) -> bool:
        """Is the compiled search loaded (or, once enough sums were searched, now loaded)?"""
        if self.searched >= self.after:
            self.load()
        return self.counter is not None

    def count(self, key: Key, base: int) -> tuple[int, tuple[int, ...] | None] | None:
        """How many solutions the key has (0, 1 or 2 meaning at least two) and the one's digits, by
        the compiled search; None where the key is to be searched in Python (numba not loaded yet,
        fewer than four letters, or sums too large for 64 bits)."""
        if not self.ready():
            self.searched += 1
            return None
        if self.counter is None or len(key) < 4 or not fits_int64([code >> 1 for code in key], base):
            return None
        if len(key) > len(self.out):
            self.out = np.zeros(len(key), np.int64)
        found = self.counter(np.array(key, np.int64), base, 2, self.out)
        return found, tuple(int(digit) for digit in self.out[:len(key)]) if found == 1 else None


KEY_SEARCH = KeySearch()  # this process's: Python first, compiled once it has searched enough keys


def search_key(key: Key, distinct: bool, base: int = 10) -> tuple[int, tuple[int, ...] | None]:
    """How many solutions a key has (0, 1 or 2 meaning at least two), and the digits of the one."""
    decided = KEY_SEARCH.count(key, base) if distinct else None
    if decided is not None:
        TALLY.add("compiled")
        return decided
    TALLY.add("python")
    found = sum_solutions(key_plan(key, distinct, base), 2)
    return len(found), found[0] if len(found) == 1 else None


@functools.lru_cache(maxsize=KEY_CACHE)
def search_key_cached(key: Key, distinct: bool, base: int = 10) -> tuple[int, tuple[int, ...] | None]:
    return search_key(key, distinct, base)
