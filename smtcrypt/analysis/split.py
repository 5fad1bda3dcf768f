"""Leading-digit bounds for equations between products of words: narrow digits, split hard searches.

Long multiplication lets the solver reason from the last digits up; the leading digits set the
magnitudes, which it sees only through long chains of carries. Here every word is an interval (its
letters at their least and greatest digits), and a polynomial whose interval leaves out 0 rules the
digits out: `narrow` keeps each letter's digits that, fixed alone, leave 0 possible, and `cases`
splits a long search by the digits of the heaviest letters, each case narrowed so. Only digits no
solution can take are dropped, so the cases together hold every solution.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from smtcrypt.analysis.polynomials import Polynomial
from smtcrypt.core.numerals import place_values

Domains = dict[str, tuple[int, ...]]  # letter -> the digits it may still take, ascending

MAX_CASES = 600  # most cases a search is split into
MAX_FIXED_SHARE = 0.5  # at most this share of the letters is fixed by a case: the solver decides the rest


@dataclass(frozen=True)
class Case:
    """Part of the search: these letters take these digits, and the other letters avoid these digits."""

    fixed: tuple[tuple[str, int], ...]
    excluded: tuple[tuple[str, int], ...]


class Bounds:
    """The equations polynomial = 0 over words of letters (and literal digits), read as intervals."""

    def __init__(self, polynomials: Sequence[Polynomial], base: int = 10, distinct: bool = True):
        self.polynomials = [dict(poly) for poly in polynomials]
        self.base = base
        self.distinct = distinct
        # each word as (letter, place value) pairs and the value of its literal digits
        self.words = {word: (tuple(place[0].items()), place[1]) for word in
                      {word for poly in self.polynomials for monomial in poly for word in monomial}
                      for place in [place_values(word, base)]}

    def possible(self, domains: Domains) -> bool:
        """False if some polynomial cannot be 0 with every letter within its digits."""
        ranges = {word: (constant + sum(value * domains[letter][0] for letter, value in letters),
                         constant + sum(value * domains[letter][-1] for letter, value in letters))
                  for word, (letters, constant) in self.words.items()}
        for poly in self.polynomials:
            low = high = 0
            for monomial, coefficient in poly.items():
                least = most = 1
                for word in monomial:  # words are never negative: a product's bounds are the bounds' products
                    least, most = least * ranges[word][0], most * ranges[word][1]
                if coefficient > 0:
                    low, high = low + coefficient * least, high + coefficient * most
                else:
                    low, high = low + coefficient * most, high + coefficient * least
            if not low <= 0 <= high:
                return False
        return True

    def narrow(self, domains: Domains) -> Domains | None:
        """Drop each digit that, fixed, leaves no polynomial able to be 0 (with distinct digits, a
        letter's only digit is taken from the others), until nothing changes; None if a letter
        has no digit left. YOU = ME ** 2: M is 1, 2 or 3."""
        domains = dict(domains)
        changed = True
        while changed:
            changed = False
            if self.distinct:
                for letter, digits in list(domains.items()):
                    if len(digits) == 1:
                        for other, theirs in domains.items():
                            if other != letter and digits[0] in theirs:
                                domains[other] = tuple(d for d in theirs if d != digits[0])
                                changed = True
            if any(not digits for digits in domains.values()):
                return None
            for letter, digits in domains.items():
                if len(digits) == 1:
                    continue
                kept = tuple(d for d in digits if self.possible({**domains, letter: (d,)}))
                if not kept:
                    return None
                if len(kept) < len(digits):
                    domains[letter] = kept
                    changed = True
            if not changed and not self.possible(domains):
                return None
        return domains

    def heaviest(self, letters: Sequence[str]) -> list[str]:
        """The letters by the largest magnitude they can move a term: a letter's place value times
        the other words' greatest values times the coefficient. NORTH / SOUTH = EAST / WEST: E, W, N, S first."""
        weight = dict.fromkeys(letters, 0)
        for poly in self.polynomials:
            for monomial, coefficient in poly.items():
                for index, word in enumerate(monomial):
                    others = math.prod(self.base ** len(other) - 1 for j, other in enumerate(monomial) if j != index)
                    for letter, value in self.words[word][0]:
                        if letter in weight:
                            weight[letter] = max(weight[letter], abs(coefficient) * value * others)
        return sorted(letters, key=lambda letter: -weight[letter])

    def cases(self, domains: Domains, limit: int = MAX_CASES,
              stopped: Callable[[], bool] = lambda: False) -> list[Case]:
        """The search split by the digits of the heaviest letters: as many letters as keep the cases
        within `limit` and fix at most MAX_FIXED_SHARE of the letters; every case narrowed, the impossible
        ones left out. Once `stopped()` is true (read between cases: a split may take half a second) the
        cases made so far are returned, no cover of every solution: the stopped caller must not use them."""
        root = self.narrow(domains)
        if root is None:
            return []
        order = [letter for letter in self.heaviest(list(root)) if len(root[letter]) > 1]
        depth = min(len(order), int(len(root) * MAX_FIXED_SHARE))
        level: list[Domains] = [root]
        for letter in order[:depth]:
            deeper = []
            for case in level:
                if stopped():
                    return []
                for digit in case[letter]:
                    trial = {**case, letter: (digit,)}
                    if self.distinct:
                        trial = {other: (digits if other == letter else tuple(d for d in digits if d != digit))
                                 for other, digits in trial.items()}
                    if all(trial.values()) and self.possible(trial):
                        deeper.append(trial)
            if len(deeper) > limit:
                break
            level = deeper
        result = []
        for case in level:
            if stopped():
                break
            narrowed = self.narrow(case)
            if narrowed is not None:  # a letter left with one digit is fixed; every other avoids the digits it lost
                fixed = {letter: digits[0] for letter, digits in narrowed.items() if len(digits) == 1}
                result.append(Case(tuple(fixed.items()), tuple((letter, d) for letter, digits in narrowed.items()
                                                               if letter not in fixed
                                                               for d in domains[letter] if d not in digits)))
        return result
