"""Letters of every script: which characters are a puzzle's letters, how wide they print, and the
private names the parser gives the wildcards `?`.

A formula is read in Unicode's composed form (NFC), so that `É` typed as `E` + a combining accent
is the one letter `É`. Then:
- in a script with case (Latin, Greek, Cyrillic, Armenian, ...) an uppercase letter is a puzzle
  letter and a lowercase one belongs to a name (an integer unknown such as `x` or `д`);
- a letter of a script with case and the combining marks after it (characters of category M) are
  one symbol, a grapheme cluster, even where NFC has no composed form: `R̆` (R + U+0306) is one
  letter, as `Ř` is (`symbols`, `Symbols`);
- in a script without case (Devanagari, Arabic, Hebrew, Thai, CJK, ...) every letter and every
  combining mark is a puzzle letter of its own, as the published collections count them:
  `उन्नीस` is उ न ् न ी स, five distinct symbols in six places (Unicode's grapheme clusters would join
  each mark to a letter).
- The wildcards `?` are named by characters of the Private Use Area, which no script uses and
  the parser refuses in a user's text; every generated program names letters by its own
  identifiers (`v0`, `v1`, ...), never by these characters.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import SupportsIndex

CASED_CATEGORIES = frozenset({"Lu", "Ll", "Lt"})  # letters of scripts with case
LETTER_CATEGORIES = frozenset({"Lu", "Lt", "Lo", "Lm", "Mn", "Mc", "Me"})  # puzzle letters and marks
MARK_CATEGORIES = frozenset({"Mn", "Mc", "Me"})
ZERO_WIDTH_CATEGORIES = frozenset({"Mn", "Me", "Cf"})  # drawn on the character before them
WILDCARD_FIRST, WILDCARD_END = 0xE000, 0xF900  # the Private Use Area of the Basic Multilingual Plane
WILDCARD_NAMES = "".join(map(chr, range(WILDCARD_FIRST, WILDCARD_END)))
DOTTED_CIRCLE = "\u25cc"  # the base on which a combining mark is drawn alone
OPERATOR_LOOKALIKES = {"×": "*", "·": "*", "⋅": "*", "∙": "*", "÷": "/", "−": "-", "–": "-", "—": "-",
                       "≠": "!=", "≤": "<=", "≥": ">=", "＝": "=", "＋": "+"}


def normal(text: str) -> str:
    """The composed form (NFC) in which formulas and letters are compared: "E\\u0301" -> "É"."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def is_wildcard(letter: str) -> bool:
    """The hidden name of a `?` (of a formula or a layout's cell), which no user can write."""
    return len(letter) == 1 and WILDCARD_FIRST <= ord(letter) < WILDCARD_END


def joins(symbol: str, ch: str) -> bool:
    """Whether `ch` belongs to the symbol before it: a combining mark on a letter of a script with case,
    a diacritic (`R` + U+0306 COMBINING BREVE, `Д` + U+0483 COMBINING CYRILLIC TITLO) or a mark of the
    letter's own script. A mark of a script without case (the virama `्`) is a symbol of its own, as it
    is in its script, even after a letter of another script."""
    if ch < "\x80" or unicodedata.category(ch) not in MARK_CATEGORIES:
        return False
    if unicodedata.category(symbol[0]) not in CASED_CATEGORIES:
        return False
    mark = unicodedata.name(ch, "")
    return mark.startswith("COMBINING ") or mark.split(" ", 1)[0] == unicodedata.name(symbol[0], "").split(" ", 1)[0]


def symbols(text: str) -> tuple[str, ...]:
    """`text` cut into symbols, each a character with the combining marks that belong to it:
    "TR\u0306I" -> ("T", "R\u0306", "I"); "उन्नीस" -> its six characters."""
    if text.isascii():
        return tuple(text)
    cut: list[str] = []
    for ch in text:
        if cut and joins(cut[-1], ch):
            cut[-1] += ch
        else:
            cut.append(ch)
    return tuple(cut)


class Symbols(str):
    """A word's text that is read symbol by symbol: iterating, indexing, slicing and `len` go by symbols
    (a letter with its combining marks), not by code points; as text it is the word as written.

    The parser gives a word this type only when one of its symbols is several code points (`TR̆I`),
    so the code that reads a word's letters one by one reads the same symbols the user sees."""

    _symbols: tuple[str, ...]

    def __new__(cls, text: str) -> Symbols:
        self = super().__new__(cls, text)
        self._symbols = symbols(text)
        return self

    def __getnewargs__(self) -> tuple[str]:
        return (str(self),)

    def __iter__(self) -> Iterator[str]:
        return iter(self._symbols)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._symbols)

    def __len__(self) -> int:
        return len(self._symbols)

    def __getitem__(self, key: SupportsIndex | slice) -> str:
        if isinstance(key, slice):
            return spelled("".join(self._symbols[key]))
        return self._symbols[key]

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str) and len(symbols(item)) == 1:
            return item in self._symbols
        return str.__contains__(self, item)  # type: ignore[operator]

    def __add__(self, other: str) -> str:
        return spelled(str(self) + other)

    def __radd__(self, other: str) -> str:
        return spelled(other + str(self))


def spelled(text: str) -> str:
    """`text` as a `Symbols` if one of its symbols is several code points, else as it is."""
    if isinstance(text, Symbols) or text.isascii() or len(symbols(text)) == len(text):
        return text
    return Symbols(text)


def is_letter(symbol: str) -> bool:
    """A puzzle letter: one uppercase letter (`A`, `É`, `Д`, `Ω`), maybe with combining marks (`R̆`),
    a letter or a combining mark of a script without case (`न`, `्`), or the hidden name of a wildcard;
    not a digit, not a name."""
    if len(symbol) != 1:
        return len(symbol) > 1 and unicodedata.category(symbol[0]) in ("Lu", "Lt") and len(symbols(symbol)) == 1
    if symbol < "\x80":
        return "A" <= symbol <= "Z"
    return unicodedata.category(symbol) in LETTER_CATEGORIES or is_wildcard(symbol)


def is_name_letter(ch: str) -> bool:
    """A character a name (an integer unknown) may hold besides digits and `_`: a letter of a script
    with case, in either case (`x`, `Ab`, `д`), or a combining mark on one (`x̃`)."""
    if ch < "\x80":
        return ch.isalpha()
    category = unicodedata.category(ch)
    return category in ("Lu", "Ll", "Lt") or category in MARK_CATEGORIES


def is_uncased_letter(ch: str) -> bool:
    """A letter of a script without case (`न`, `ب`, `中`): a puzzle letter, never part of a name."""
    return ch >= "\x80" and unicodedata.category(ch) in ("Lo", "Lm")


def is_lowercase(ch: str) -> bool:
    """A lowercase letter of a script with case: the mark of a name, not of a word."""
    return ch.islower() if ch < "\x80" else unicodedata.category(ch) == "Ll"


def refusal(ch: str) -> str | None:
    """Why `ch` cannot stand in a word or a name, or None if it can: a digit of another script, a
    symbol, a look-alike of an operator ("unexpected character '×' (use * to multiply)")."""
    if ch < "\x80" or is_letter(ch) or is_name_letter(ch):
        if is_wildcard(ch):
            return f"unexpected character {ch!r} (a private-use character, neither a letter nor a digit)"
        return None
    category = unicodedata.category(ch)
    if category == "Nd":
        return f"unexpected character {ch!r} (a digit of another script: write the digits 0-9)"
    if ch in OPERATOR_LOOKALIKES:
        return f"unexpected character {ch!r} (write {OPERATOR_LOOKALIKES[ch]!r} for this operator)"
    name = unicodedata.name(ch, "")
    named = f" ({name.lower()})" if name else ""
    return f"unexpected character {ch!r}{named}: neither a letter, a digit nor an operator"


def char_width(ch: str) -> int:
    """Columns `ch` (a character, or a symbol of several) takes in a monospaced terminal: 0 for a
    combining mark, 2 for a wide (CJK) one."""
    if len(ch) != 1:
        return display_width(ch)
    if ch < "\x80":
        return 1
    if unicodedata.category(ch) in ZERO_WIDTH_CATEGORIES:
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns `text` takes in a monospaced terminal (len(text) for ASCII)."""
    return len(text) if text.isascii() else sum(map(char_width, text))


def shown(letter: str) -> str:
    """A letter (or a name) as drawn alone, in a cell or a list: a combining mark on a dotted circle (`◌्`)."""
    if len(letter) == 1 and letter >= "\x80" and unicodedata.category(letter) in MARK_CATEGORIES:
        return DOTTED_CIRCLE + letter
    return letter


def pad_left(text: str, width: int) -> str:
    """`text` right-aligned in `width` display columns (str.rjust counts characters)."""
    return " " * max(0, width - display_width(text)) + text
