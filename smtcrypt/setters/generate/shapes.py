"""The generator's shapes and candidates: which words fill a template's slots, each puzzle once,
and the cheap test that the words' magnitudes can balance at all."""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Iterable, Iterator, Sequence

from smtcrypt.core.letters import normal, symbol_number, symbols
from smtcrypt.core.rules import is_puzzle_letter
from smtcrypt.setters.generate.template import Template, Term, is_slot, parse_template


class Shape(str, enum.Enum):
    """The four shapes every version of the generator knew, as templates (any other template is
    taken too: `A + B + C + D = E`, `A * B = C * D`, `A + B = MONEY`)."""

    SUM = "A + B = C"
    SUM_OF_THREE = "A + B + C = D"
    PRODUCT = "A * B = C"
    DIFFERENCE = "A - B = C"


SHAPES = tuple(shape.value for shape in Shape)

Parts = tuple[str, ...]  # the words of one candidate, in the order of the template's slots (A, B, C, ...)
Bounds = tuple[int, int]  # the least and the most a word's number can be


def clean(words: Iterable[str], any_script: bool = False) -> tuple[list[str], int]:
    """Upper-cased words, each once, in order; and how many were skipped. A word is kept if it is made
    of the letters A-Z or, with `any_script`, of puzzle letters of any script that are one code point
    each once composed (NFC): `ДВА`, `TŘI`, `ΕΝΑ`. The compiled sum search numbers a word's letters
    by code point, so a letter that stays several code points after NFC (a Devanagari consonant with
    its vowel sign) is skipped; the long multiplications and the crosswords index letters A-Z in
    arrays of 26, so they take A-Z only."""
    kept: dict[str, None] = {}
    skipped = 0
    for word in words:
        word = normal(word.strip()).upper()
        if not word:
            continue
        if (word.isascii() and word.isalpha()) or (any_script and all(len(symbol) == 1 and is_puzzle_letter(symbol)
                                                                        for symbol in symbols(word))):
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
    """The set of a word's letters as bits: A is bit 0, Z bit 25. The word is cut into symbols as the parser
    cuts it, so a letter with its marks (`न्`, doubly-true words in Thai or Bengali) is one letter."""
    mask = 0
    for letter in symbols(word):
        mask |= 1 << (symbol_number(letter) - ord("A"))
    return mask


def template_of(shape: str | Template) -> Template:
    return shape if isinstance(shape, Template) else parse_template(shape)


def bounds(length: int, base: int = 10, leading_zeros: bool = False) -> Bounds:
    """The numbers a word of `length` letters can stand for: 100-999 for three letters in base 10
    (0-999 where leading zeros are allowed; a single letter may always be 0)."""
    return (0 if leading_zeros or length == 1 else base ** (length - 1)), base ** length - 1


def interval(terms: Sequence[tuple[int, Term]], ranges: dict[str, Bounds]) -> Bounds:
    """The least and the most sum(sign * term) can be, each name within its range (words are not
    negative, so a product's least is the product of the least)."""
    low = high = 0
    for sign, term in terms:
        least, most = 1, 1
        for name in term.factors:
            least, most = least * ranges[name][0], most * ranges[name][1]
        low, high = (low + least, high + most) if sign > 0 else (low - most, high - least)
    return low, high


def balances(template: Template, ranges: dict[str, Bounds]) -> bool:
    """Can left - right be 0 with each word's number in its range? The magnitude test of a candidate."""
    low, high = interval([(sign, term) for sign, _, term in template.signed_terms()], ranges)
    return low <= 0 <= high


def as_sum(shape: str | Template, parts: Parts) -> tuple[Parts, str] | None:
    """The addends and the result of a sum of slots onto one slot (`A - B = C` is `B + C = A`);
    None for any other template."""
    template = template_of(shape)
    if not template.linear or template.fixed:
        return None
    coefficients = template.coefficients()
    fill = dict(zip(template.slots, parts))
    plus = [name for name in template.slots for _ in range(max(0, coefficients[name]))]
    minus = [name for name in template.slots for _ in range(max(0, -coefficients[name]))]
    if len(plus) == 1:
        plus, minus = minus, plus
    if len(minus) != 1:
        return None
    return tuple(fill[name] for name in plus), fill[minus[0]]


def fits(shape: str | Template, parts: Sequence[str], base: int = 10, leading_zeros: bool = False) -> bool:
    """Can numbers of these words' lengths (and the fixed words') satisfy the shape at all?"""
    template = template_of(shape)
    ranges = {name: bounds(len(word), base, leading_zeros) for name, word in zip(template.slots, parts)}
    ranges.update((word, bounds(len(word), base, leading_zeros)) for word in template.fixed)
    return balances(template, ranges)


def lengths_fit(shape: str | Template, parts: Sequence[str], base: int = 10) -> bool:
    """Can numbers of these lengths (no leading zeros, in `base`) satisfy the shape at all?"""
    return fits(shape, parts, base)


def first_of_mirror(template: Template, parts: Sequence[str]) -> bool:
    """Of a puzzle and its sides swapped (`TEN * FIVE = ODD * NINE`, `ODD * NINE = TEN * FIVE`), only
    the one whose groups of words come first alphabetically is a candidate; True for any other template."""
    mirror = template.mirror
    if mirror is None:
        return True
    swapped = [parts[index] for index in mirror]
    order = lambda words: tuple(tuple(sorted(words[slot] for slot in group)) for group in template.groups)
    return order(parts) <= order(swapped)


def choice_size(shape: str | Template) -> int:
    """How many words the largest group of interchangeable slots takes (the addends, the factors)."""
    return len(template_of(shape).groups[0])


def candidates(shape: str | Template, words: Sequence[str], first: int | None = None, *,
               distinct_words: bool = False) -> Iterator[Parts]:
    """Each puzzle once, by plain loops: each group of interchangeable slots an unordered choice
    (A + B = C is B + A = C, and A - B = C is A - C = B), the largest group first. With `first`,
    only the candidates whose first choice is words[first]. With `distinct_words`, no word twice."""
    template = template_of(shape)
    groups = template.groups
    starts = range(len(words)) if first is None else [first]
    for start in starts:
        for indices in fillings(groups, len(words), start, distinct_words):
            yield tuple(words[index] for index in indices)


def fillings(groups: Sequence[tuple[int, ...]], count: int, start: int, distinct: bool) -> Iterator[list[int]]:
    """Word indices for every slot (in slot order), the first group led by `start`."""
    slots = sum(len(group) for group in groups)

    def fill(g: int, chosen: list[int]) -> Iterator[list[int]]:
        if g == len(groups):
            yield chosen
            return
        group = groups[g]
        taken = {chosen[slot] for other in groups[:g] for slot in other} if distinct else set()
        if g == 0:
            pool = list(range(start + distinct, count))
            choices: Iterable[tuple[int, ...]] = ((start, *rest) for rest in (
                itertools.combinations(pool, len(group) - 1) if distinct
                else itertools.combinations_with_replacement(range(start, count), len(group) - 1)))
        else:
            pool = [index for index in range(count) if index not in taken]
            choices = (itertools.combinations(pool, len(group)) if distinct
                       else itertools.combinations_with_replacement(pool, len(group)))
        for choice in choices:
            filled = list(chosen)
            for slot, index in zip(group, choice):
                filled[slot] = index
            yield from fill(g + 1, filled)

    yield from fill(0, [0] * slots)


def chunk_count(shape: str | Template, words: int, first: int, distinct_words: bool = False) -> int:
    """How many candidates the plain loops give for the chunk led by words[first]."""
    groups = template_of(shape).groups
    lead = len(groups[0])
    if distinct_words:
        total = math.comb(words - first - 1, lead - 1)
        left = words - lead
        for group in groups[1:]:
            total *= math.comb(left, len(group))
            left -= len(group)
        return total
    total = math.comb(words - first + lead - 2, lead - 1)
    for group in groups[1:]:
        total *= math.comb(words + len(group) - 1, len(group))
    return total


def candidate_count(shape: str | Template, words: int, distinct_words: bool = False) -> int:
    return sum(chunk_count(shape, words, first, distinct_words) for first in range(words))


def formula_of(shape: str | Template, parts: Parts) -> str:
    return template_of(shape).formula(parts)


__all__ = ["SHAPES", "Parts", "Shape", "Template", "as_sum", "balances", "bounds", "candidate_count", "candidates",
           "carry_digits", "choice_size", "chunk_count", "clean", "fits", "formula_of", "interval", "is_slot",
           "lengths_fit", "letter_mask", "template_of"]
