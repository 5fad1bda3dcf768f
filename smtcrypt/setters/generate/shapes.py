"""The generator's shapes and candidates: which words fill A, B, C (and D), each puzzle once, and
the cheap test that the words' lengths can add up at all."""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Iterable, Iterator, Sequence


class Shape(str, enum.Enum):
    """A puzzle's shape: which words are added, subtracted or multiplied. Its value is the text
    the command line takes (`--shape "A * B = C"`) and the formula's template."""

    SUM = "A + B = C"
    SUM_OF_THREE = "A + B + C = D"
    PRODUCT = "A * B = C"
    DIFFERENCE = "A - B = C"


SHAPES = tuple(shape.value for shape in Shape)

Parts = tuple[str, ...]  # the words of one candidate, in the order of the shape's names A, B, C, D


def clean(words: Iterable[str]) -> tuple[list[str], int]:
    """Upper-cased words of the letters A-Z, each once, in order; and how many were skipped."""
    kept: dict[str, None] = {}
    skipped = 0
    for word in words:
        word = word.strip().upper()
        if not word:
            continue
        if word.isascii() and word.isalpha():
            kept[word] = None
        else:
            skipped += 1
    return list(kept), skipped


def carry_digits(addends: int, base: int = 10) -> int:
    """How many digits longer than its longest addend a sum of `addends` numbers can be: the
    least k with base**k >= addends (computed exactly, not by a floating-point logarithm)."""
    digits = 0
    while base ** digits < addends:
        digits += 1
    return digits


def letter_mask(word: str) -> int:
    """The set of a word's letters as bits: A is bit 0, Z bit 25."""
    mask = 0
    for letter in word:
        mask |= 1 << (ord(letter) - ord("A"))
    return mask


def as_sum(shape: str, parts: Parts) -> tuple[Parts, str] | None:
    """The addends and the result of a sum shape (`A - B = C` is `B + C = A`); None for products."""
    if shape == Shape.DIFFERENCE:
        return parts[1:], parts[0]
    if shape == Shape.PRODUCT:
        return None
    return parts[:-1], parts[-1]


def lengths_fit(shape: str, parts: Sequence[str], base: int = 10) -> bool:
    """Can numbers of these lengths (no leading zeros, in `base`) satisfy the shape at all?"""
    if shape == Shape.PRODUCT:
        a, b, c = (len(part) for part in parts)
        return a + b - 1 <= c <= a + b
    split = as_sum(shape, tuple(parts))
    assert split is not None  # every shape but the product is a sum
    addends, result = split
    longest = max(len(word) for word in addends)
    return longest <= len(result) <= longest + carry_digits(len(addends), base)


def choice_size(shape: str) -> int:
    """How many words a candidate chooses as an unordered set (addends or factors)."""
    return 3 if shape == Shape.SUM_OF_THREE else 2


def candidates(shape: str, words: Sequence[str], first: int | None = None) -> Iterator[Parts]:
    """Each puzzle once: addends and factors as unordered choices (A + B = C is B + A = C, and
    A - B = C is A - C = B). With `first`, only the candidates whose first choice is words[first]."""
    starts = range(len(words)) if first is None else [first]
    difference = shape == Shape.DIFFERENCE
    for start in starts:
        for rest in itertools.combinations_with_replacement(words[start:], choice_size(shape) - 1):
            for other in words:
                if difference:
                    yield other, words[start], *rest
                else:
                    yield words[start], *rest, other


def candidate_count(shape: str, words: int) -> int:
    choose = choice_size(shape)
    return math.comb(words + choose - 1, choose) * words


def formula_of(shape: str, parts: Parts) -> str:
    text = shape
    for name in "ABCD"[:len(parts)]:
        text = text.replace(name, "{" + name + "}", 1)
    return text.format(**dict(zip("ABCD", parts)))
