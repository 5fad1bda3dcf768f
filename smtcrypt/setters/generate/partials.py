"""Which words a multiplicand times one digit can spell, for every value of the multiplicand at once.

For a multiplicand of few distinct letters it is cheaper to try each of its values (every
assignment of distinct digits, no leading zero) with each digit 1-9 than to search each word
apart: the product's digits are read from the units up and walked down a trie of every word's
letters, written the same way (a letter of the multiplicand as its place among them, any other
letter by its first appearance from the right), so a product no word can spell is dropped after a
digit or two. The multiplier letter's part is the last step: a letter of the multiplicand, a
letter of the word, or a letter of neither (any such letter alike).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from smtcrypt.setters.generate.multiply import BASE

FRESH = -1  # the multiplier letter is in neither word
NEW = 100  # codes of letters (digits) the multiplicand lacks start here
END = -2  # the trie's key for "the word ends here"
TABLE_LIMIT = 150_000  # multiplicand values up to which the table beats a search per word

Trie = dict[int, "Trie"]
Leaf = dict[int, list[str]]  # multiplier letter's code -> the words


def values_count(multiplicand: str) -> int:
    """How many values a multiplicand can take: distinct digits, no leading zero."""
    count = BASE - 1
    for remaining in range(BASE - 1, BASE - len(set(multiplicand)), -1):
        count *= remaining
    return count


def word_codes(multiplicand: str, word: str) -> tuple[list[int], dict[str, int]]:
    """The word's letters from the right as codes, and the codes of its letters."""
    places = {letter: index for index, letter in enumerate(dict.fromkeys(multiplicand))}
    codes: dict[str, int] = {}
    for letter in reversed(word):
        if letter not in codes:
            codes[letter] = places[letter] if letter in places else NEW + sum(code >= NEW for code in codes.values())
    return [codes[letter] for letter in reversed(word)], codes


def role_code(multiplicand: str, word: str, letter: str) -> int:
    """The code of a multiplier letter for this pair of words."""
    codes = word_codes(multiplicand, word)[1]
    places = {letter: index for index, letter in enumerate(dict.fromkeys(multiplicand))}
    return places.get(letter, codes.get(letter, FRESH))


class PartialTable:
    """For one multiplicand: (word, multiplier letter's code) -> {multiplicand's value: digits}."""

    def __init__(self, multiplicand: str, pool: Sequence[str]):
        self.multiplicand = multiplicand
        self.letters = list(dict.fromkeys(multiplicand))
        self.trie: Trie = {}
        for word in pool:
            codes, by_letter = word_codes(multiplicand, word)
            node = self.trie
            for code in codes:
                node = node.setdefault(code, {})
            leaf: Leaf = node.setdefault(END, {})  # type: ignore[assignment]
            for code in [*range(len(self.letters)), *(c for c in by_letter.values() if c >= NEW), FRESH]:
                leaf.setdefault(code, []).append(word)
        self.found: dict[tuple[str, int], dict[int, list[int]]] = {}
        self.fill()

    def fill(self) -> None:
        weights = [0] * len(self.letters)
        for place, letter in enumerate(reversed(self.multiplicand)):
            weights[self.letters.index(letter)] += BASE ** place
        for digits in itertools.permutations(range(BASE), len(self.letters)):
            if digits[0] == 0 and self.multiplicand[0] == self.letters[0]:
                continue
            holder = [-1] * BASE
            for index, digit in enumerate(digits):
                holder[digit] = index
            value = sum(digit * weight for digit, weight in zip(digits, weights))
            for digit in range(1, BASE):
                self.walk(value, digit, holder)

    def walk(self, value: int, digit: int, holder: list[int]) -> None:
        """Record the words `value` times `digit` spells."""
        product = value * digit
        node = self.trie
        new: dict[int, int] = {}
        while product:
            product, last = divmod(product, BASE)
            code = holder[last]
            if code < 0:
                code = new.setdefault(last, NEW + len(new))
            found = node.get(code)
            if found is None:
                return
            node = found
        leaf: Leaf | None = node.get(END)  # type: ignore[assignment]
        if leaf is None:
            return
        role = holder[digit] if holder[digit] >= 0 else new.get(digit, FRESH)
        for word in leaf.get(role, ()):
            self.found.setdefault((word, role), {}).setdefault(value, []).append(digit)

    def values(self, letter: str, word: str) -> dict[int, list[int]]:
        """The multiplicand's values under which it times the letter's digit (each digit that
        does, in order) spells `word`."""
        return self.found.get((word, role_code(self.multiplicand, word, letter)), {})
