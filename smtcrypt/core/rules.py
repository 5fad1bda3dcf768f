"""The puzzle's rules: base, distinctness, leading zeros, allowed digits and fixed letters.

`make_rules` validates them without a formula (a batch checks its shared rules once); `check`
then applies them to a formula's letters.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.core.letters import is_letter, is_wildcard, normal, spelled, symbols
from smtcrypt.core.numerals import decimal, shown
from smtcrypt.errors import FormulaError, ParameterError

MIN_BASE, MAX_BASE = 2, 64
FUNCTIONS = {"abs": "abs(x)", "min": "min(x, y, ...)", "max": "max(x, y, ...)", "sum": "sum(range(...))",
             "range": "range(stop) or range(start, stop)", "gcd": "gcd(x, y, ...) of integers",
             "is_prime": "is_prime(x) of an integer", "is_square": "is_square(x) of an integer",
             "is_cube": "is_cube(x) of an integer",
             "is_power": "is_power(x, k) of an integer x and a constant integer k >= 1",
             "is_triangular": "is_triangular(x) of an integer", "is_palindrome": "is_palindrome(x) of an integer",
             "divides": "divides(d, x) of integers", "dsum": "dsum(x) of an integer", "rev": "rev(x) of an integer",
             "factorial": "factorial(n) or n! of an integer n with bounds (a word, digits, + - * of them)"}
# The number-theory words: a predicate is true or false (1 or 0, as a comparison), `dsum` and `rev` are integers.
# Each takes integers only (a fraction leaves the candidate out, as gcd's does); see docs/formula-language.md.
PREDICATES = {"is_prime": 1, "is_square": 1, "is_cube": 1, "is_power": 2, "is_triangular": 1, "is_palindrome": 1,
              "divides": 2}  # name -> number of arguments
DIGIT_FUNCTIONS = ("dsum", "rev")  # integers read from the digits of an integer, in the puzzle's base
# factorial(n), n! for n >= 0 (undefined below 0): of an argument with bounds, a table of its values in the encoders
NUMBER_WORDS = (*PREDICATES, *DIGIT_FUNCTIONS, "factorial")
MAX_FACTORIAL = 1000  # n! for n up to this (1000! has 2,568 digits): the encoders tabulate it over n's values
PRIME_LIMIT = 10**24  # is_prime(x) is decided for x below this; from it on, the candidate is undefined


@dataclass(frozen=True)
class Rules:
    """The puzzle's rules: distinct letters take distinct digits; no word starts with 0.

    A puzzle setter may also fix the base, the digits every letter may take (`digits`), the digits
    of single letters (`domains`) and the value of single letters (`assign`); see `make_rules`.
    """

    distinct: bool = True
    allow_leading_zeros: bool = False
    base: int = 10
    digits: frozenset[int] | None = None
    domains: Mapping[str, frozenset[int]] = field(default_factory=dict)
    assign: Mapping[str, int] = field(default_factory=dict)
    groups: tuple[str, ...] | None = None  # --distinct ABC,DEF: only letters of one group differ (distinct is False)
    nonzero_single_letters: bool = False  # a word of one letter is not 0 either (Cryptator's rule)

    def __hash__(self) -> int:  # `domains` and `assign` are dicts: hash what they hold, as equality compares it
        return hash((self.distinct, self.allow_leading_zeros, self.base,
                     None if self.digits is None else frozenset(self.digits),
                     frozenset((letter, frozenset(values)) for letter, values in self.domains.items()),
                     frozenset(self.assign.items()), self.groups, self.nonzero_single_letters))


DigitSpec = str | int | Iterable[int]  # "1-9", "1,3,5,7,9", 7, range(1, 10)


def digit_set(spec: DigitSpec, what: str = "digits", base: int = MAX_BASE) -> frozenset[int]:
    """Digits from "1-9", "0-3,7", a single int or an iterable of ints; a `FormulaError` if malformed or
    if a digit is not one of `base` (0 to base - 1). A range is checked against the base by its ends
    before it is built, so `0-99999999999` costs no more than `0-9`."""
    if isinstance(spec, bool):
        raise FormulaError(f"{what}: expected digits such as 1-9 or 1,3,5, not {spec!r}")
    if isinstance(spec, int):
        return _within_base([spec], what, base)
    if isinstance(spec, range) and len(spec) > base:  # more values than the base has digits: name the least bad one
        ascending = spec if spec.step > 0 else spec[::-1]
        least = ascending[0] if ascending[0] < 0 else ascending[max(0, -(-(base - ascending[0]) // ascending.step))]
        _within_base([least], what, base)
    if not isinstance(spec, (str, Iterable)):  # 5.0, None: no digits at all
        raise ParameterError(f"{what}: expected digits such as 1-9, an int or integers, not {spec!r}")
    if not isinstance(spec, str):
        values: set[int] = set()
        for value in spec:  # each checked as it comes: a lazy iterable is read no further than its first bad value
            if not isinstance(value, int) or isinstance(value, bool):
                raise FormulaError(f"{what}: expected integers, not {value!r}")
            values |= _within_base([value], what, base)
        return frozenset(values)
    if len(spec) > KEPT_SPEC:  # a long text is read each time: the memo holds only short ones
        return _text_digits.__wrapped__(spec, what, base)
    return _text_digits(spec, what, base)


KEPT_SPEC = 40  # the longest digit text `_text_digits` keeps


@functools.lru_cache(maxsize=256)
def _text_digits(spec: str, what: str, base: int) -> frozenset[int]:
    """`digit_set` of a text, read once for each (a notation gives every leading letter `1-9`)."""
    text = spec.replace(" ", "")
    spans, position = [], 0
    for part in text.split(","):
        low_text, dash, high_text = part.partition("-")
        try:
            low = decimal(low_text, text, position)
            high = decimal(high_text, text, position + len(low_text) + 1) if dash else low
        except FormulaError as error:
            raise type(error)(f"{what}: {error.message}", error.source, error.position, error.length) from None
        if low is None or high is None:
            raise FormulaError(f"{what}: expected digits such as 1-9 or 1,3,5,7,9, not {spec!r}")
        if low > high:
            raise FormulaError(f"{what}: empty range {part!r}")
        spans.append((low, high))
        position += len(part) + 1
    outside = [max(low, base) for low, high in spans if high >= base]
    if outside:
        _within_base([min(outside)], what, base)
    return frozenset(digit for low, high in spans for digit in range(low, high + 1))


def _within_base(values: Iterable[int], what: str, base: int) -> frozenset[int]:
    """`values`, if every one is a digit of `base`; else a `FormulaError` naming the least that is not."""
    bad = sorted(value for value in values if not 0 <= value < base)
    if bad:
        raise FormulaError(f"{what}: {shown(bad[0])} is not a digit in base {base} (0 to {base - 1})")
    return frozenset(values)


def letter_options(options: Mapping[str, DigitSpec] | Iterable[str] | None, what: str,
                   expected: str = "LETTER=DIGITS such as A=1-5", twice: str = "given twice",
                   keyword: str | None = None) -> dict[str, DigitSpec]:
    """{"A": spec} from a mapping, or from "A=1-5" strings as given on the command line. Each letter is one
    symbol of the formula, read as the parser reads it (composed, with its marks: `R̆=3`, `नी=1-4`); a mark
    alone names no letter. A letter named twice (`S=9` and `S=8`, or `R̆` spelled two ways) is an error
    (`twice` says how), rather than the last one silently holding. Options of another type (a text
    alone, a number) come from Python only: the error names the `keyword`."""
    if options is None:
        return {}
    if isinstance(options, Mapping):
        items = list(options.items())
    elif isinstance(options, (str, bytes)) or not isinstance(options, Iterable):
        raise ParameterError(f"{keyword or what}: expected a mapping such as {{'A': 7}} or texts such as "
                             f"['A=7'], not {options!r}")
    else:
        items = []
        for text in options:
            letter, equals, spec = str(text).partition("=")
            if not equals:
                raise FormulaError(f"{what}: expected {expected}, not {text!r}")
            items.append((letter.strip(), spec.strip()))
    named: dict[str, DigitSpec] = {}
    for letter, spec in items:
        symbol = normal(letter) if isinstance(letter, str) else letter
        if not (isinstance(symbol, str) and is_puzzle_letter(symbol)):
            raise FormulaError(f"{what}: {letter!r} is not a puzzle letter (an uppercase letter such as A or Д, "
                               "or a letter of a script without case such as न, with any marks on it as one "
                               "symbol: R̆, नी)")
        if symbol in named:
            raise FormulaError(f"{what} {symbol}: the letter is {twice} ({named[symbol]!r} and {spec!r})")
        named[symbol] = spec
    return named


def option_name(keyword: str, flag: str, given: object) -> str:
    """How a message names a rule option: as the Python keyword (`domains`) where it was given as a
    mapping, the API's form, and as the flag (`--domain`) where given as `A=7` texts, the command line's."""
    return keyword if isinstance(given, Mapping) else flag


def letter_label(keyword: str, flag: str, given: object, letter: str) -> str:
    """One letter's option in a message: `assign['E']` (a mapping) or `--assign E` (texts)."""
    return f"{keyword}[{letter!r}]" if isinstance(given, Mapping) else f"{flag} {letter}"


def distinct_groups(spec: bool | str | Iterable[str]) -> tuple[str, ...] | None:
    """--distinct "ABC,DEF" (or ["ABC", "DEF"]) as sorted groups of letters; None for True or False. A group is
    cut into symbols as a word is (`उन्` is उ and न्), so each letter keeps its marks."""
    if isinstance(spec, bool):
        return None
    texts = spec.replace(" ", "").split(",") if isinstance(spec, str) else list(spec)
    groups = []
    for text in texts:
        text = spelled(normal(text)) if isinstance(text, str) else text
        if not isinstance(text, str) or not text or not all(map(is_puzzle_letter, text)):
            raise FormulaError(f"--distinct: expected groups of puzzle letters such as ABC,DEF, not {str(text)!r}")
        if len(set(text)) != len(text):
            raise FormulaError(f"--distinct: the group {str(text)!r} names a letter twice")
        groups.append(spelled("".join(sorted(text))))
    return tuple(groups)


def make_rules(*, distinct: bool | str | Iterable[str] = True, allow_leading_zeros: bool = False, base: int = 10,
               digits: DigitSpec | None = None, domains: Mapping[str, DigitSpec] | Iterable[str] | None = None,
               assign: Mapping[str, int] | Iterable[str] | None = None,
               nonzero_single_letters: bool = False) -> Rules:
    """Rules from user options (API keywords or command-line text), validated: bad options are `FormulaError`s.
    `nonzero_single_letters`: every word's first letter is not 0, a word of one letter too (`A * B = CD`: A and B)."""
    if isinstance(base, bool) or not isinstance(base, int) or not MIN_BASE <= base <= MAX_BASE:
        raise FormulaError(f"base must be an integer from {MIN_BASE} to {MAX_BASE}, "
                           f"not {shown(base) if isinstance(base, int) else repr(base)}")

    all_digits = None if digits is None else digit_set(digits, "--digits", base)
    letter_domains = {letter: digit_set(spec, letter_label("domains", "--domain", domains, letter), base)
                      for letter, spec in letter_options(domains, option_name("domains", "--domain", domains),
                                                         keyword="domains").items()}
    fixed = {}
    for letter, spec in letter_options(assign, option_name("assign", "--assign", assign), "LETTER=DIGIT such as A=7",
                                       "assigned twice", "assign").items():
        label = letter_label("assign", "--assign", assign, letter)
        if isinstance(spec, bool) or not isinstance(spec, (int, str)):  # 5.0, [5]: from Python only
            raise ParameterError(f"{label}: expected one digit (an int), not {spec!r}")
        values = digit_set(spec, label, base)
        if len(values) != 1:
            raise FormulaError(f"{label}: expected one digit, not {spec!r}")
        fixed[letter] = next(iter(values))
    if nonzero_single_letters and allow_leading_zeros:
        raise FormulaError("--nonzero-single-letters and --allow-leading-zeros contradict each other: "
                           "the one makes every word's first letter nonzero, the other none")
    groups = distinct_groups(distinct)
    return Rules(bool(distinct) if groups is None else False, allow_leading_zeros, base, all_digits, letter_domains,
                 fixed, groups, bool(nonzero_single_letters))


def rules_of(rules: Rules | None, options: Mapping[str, Any]) -> Rules:
    """The typed rules at a public door: `rules` as given (made and validated by the caller), or made
    here from the rule keywords of `Puzzle` (`base=16`, `digits="1-9"`, ...), where bad ones are a
    `FormulaError` before any work starts. Both at once would leave it unclear which one holds, so that
    is a `TypeError`. Every door (the readers, the generator's public functions) makes its rules here,
    once; below the doors the `Rules` travel as they are."""
    if rules is None:
        return make_rules(**options)
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (smtcrypt.core.rules.make_rules), not {type(rules).__name__}")
    if options:
        raise TypeError(f"give rules=Rules(...) or rule keywords such as {next(iter(options))}=..., not both")
    return rules


def is_puzzle_letter(symbol: str) -> bool:
    """A letter a user may name in an option (--assign, --domain, --distinct, --answer): any puzzle letter
    but the hidden names of the wildcards (see core/letters.py)."""
    return is_letter(symbol) and not is_wildcard(symbol)




def is_unknown_name(name: str) -> bool:
    """Lowercase names that are not functions are integer unknowns: `p`, `coins`, `x_1`, `д`, `x̃` (a mark on a
    lowercase letter belongs to it)."""
    return name == name.lower() and name not in FUNCTIONS and not any(map(is_letter, symbols(name)))
