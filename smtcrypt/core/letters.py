"""Letters of every script: what a symbol of a puzzle is, which symbols are its letters, how wide
they print, and the private names the parser gives the wildcards `?`.

A formula is read in Unicode's composed form (NFC), so that `É` typed as `E` + a combining accent
is the one letter `É`, and Hangul typed as jamo is the syllable. Then:
- a symbol is a grapheme cluster of that text (`symbols`): a base character with every
  combining mark after it (categories Mn, Mc, Me), and the joiners ZWJ and ZWNJ, as Unicode's
  extended grapheme clusters (UAX #29) join them. So a letter and its marks are one symbol in
  every script: `R̆` (R + U+0306, which NFC has no composed form for) as `Ř` is, and in Devanagari
  `उन्नीस` is उ न् नी स, four symbols. The rule is written here, on `unicodedata`, not taken from a
  library, and it differs from UAX #29 where a puzzle needs it to: every mark joins the character
  before it (UAX #29 leaves a few Myanmar vowel signs apart), and consonants joined by a virama
  are two symbols (`न्न` is न् and न, as before Unicode 15.1 added its conjunct rule), since a
  puzzle's symbols are the letters a reader sees written one after another;
- a symbol whose base is an uppercase letter (Latin, Greek, Cyrillic, Armenian, ...) or a letter
  of a script without case (Devanagari, Arabic, Hebrew, Thai, CJK, ...) is a puzzle letter; a
  lowercase letter belongs to a name (an integer unknown such as `x`, `д` or `x̃`);
- a mark with no letter under it (at the head of a word, or on a digit or a `?`) is not a symbol
  a puzzle can hold: the parser refuses it (`misplaced_mark`);
- the wildcards `?` are named by characters of the Private Use Area, which no script uses and
  the parser refuses in a user's text; every generated program names letters by its own
  identifiers (`v0`, `v1`, ...), never by these characters.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import SupportsIndex

CASED_CATEGORIES = frozenset({"Lu", "Ll", "Lt"})  # letters of scripts with case
LETTER_CATEGORIES = frozenset({"Lu", "Lt", "Lo", "Lm"})  # the base of a puzzle letter
MARK_CATEGORIES = frozenset({"Mn", "Mc", "Me"})
ZERO_WIDTH_CATEGORIES = frozenset({"Mn", "Me", "Cf"})  # drawn on the character before them
ZWJ, ZWNJ = "\u200d", "\u200c"  # ZERO WIDTH JOINER and NON-JOINER: part of the symbol they follow
# Characters outside the marks that UAX #29 joins to the character before them, and a letter may hold:
# the joiners, THAI CHARACTER SARA AM and LAO VOWEL SIGN AM (letters that are spacing marks), and the
# halfwidth katakana voiced sound marks.
LETTER_EXTENDERS = frozenset({ZWJ, ZWNJ, "\u0e33", "\u0eb3", "\uff9e", "\uff9f"})
WILDCARD_FIRST, WILDCARD_END = 0xE000, 0xF900  # the Private Use Area of the Basic Multilingual Plane
WILDCARD_NAMES = "".join(map(chr, range(WILDCARD_FIRST, WILDCARD_END)))
DOTTED_CIRCLE = "\u25cc"  # the base on which a combining mark is drawn alone
OPERATOR_SYMBOLS = frozenset("√")  # the language's operators outside ASCII (grammar/smtcrypt.lark lexes them)
OPERATOR_LOOKALIKES = {"×": "*", "·": "*", "⋅": "*", "∙": "*", "÷": "/", "−": "-", "–": "-", "—": "-",
                       "≠": "!=", "≤": "<=", "≥": ">=", "＝": "=", "＋": "+"}


def normal(text: str) -> str:
    """The composed form (NFC) in which formulas and letters are compared: "E\\u0301" -> "É"."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def is_wildcard(letter: str) -> bool:
    """The hidden name of a `?` (of a formula or a layout's cell), which no user can write."""
    return len(letter) == 1 and WILDCARD_FIRST <= ord(letter) < WILDCARD_END


# --- grapheme clusters (UAX #29, by hand) ---------------------------------------------------------------


def extends(ch: str) -> bool:
    """Whether `ch` joins the character before it into one symbol whatever that character is (UAX #29's
    Extend, ZWJ and SpacingMark): a combining mark, a joiner, an emoji skin tone or a tag character."""
    if ch < "\u0300":
        return False
    return (unicodedata.category(ch) in MARK_CATEGORIES or ch in LETTER_EXTENDERS
            or "\U0001f3fb" <= ch <= "\U0001f3ff" or "\U000e0020" <= ch <= "\U000e007f")


def _is_control(ch: str) -> bool:
    """UAX #29's Control (and CR, LF): no symbol runs across it."""
    if ch < " ":
        return True
    if ch < "\x7f":
        return False
    category = unicodedata.category(ch)
    return category in ("Cc", "Zl", "Zp") or (category == "Cf" and not extends(ch))


def _jamo(ch: str) -> str:
    """A Hangul character's part of a syllable (UAX #29's Hangul_Syllable_Type): "L" a leading consonant,
    "V" a vowel, "T" a trailing consonant, "LV" or "LVT" a precomposed syllable; "" for any other."""
    code = ord(ch)
    if 0x1100 <= code <= 0x115F or 0xA960 <= code <= 0xA97C:
        return "L"
    if 0x1160 <= code <= 0x11A7 or 0xD7B0 <= code <= 0xD7C6:
        return "V"
    if 0x11A8 <= code <= 0x11FF or 0xD7CB <= code <= 0xD7FB:
        return "T"
    if 0xAC00 <= code <= 0xD7A3:
        return "LV" if (code - 0xAC00) % 28 == 0 else "LVT"
    return ""


def _pictographic(ch: str) -> bool:
    """Near enough to Extended_Pictographic for joining emoji sequences: a symbol of category So."""
    return ch >= "\xa9" and unicodedata.category(ch) == "So"


def _regional(ch: str) -> bool:
    return "\U0001f1e6" <= ch <= "\U0001f1ff"


def continues(symbol: str, ch: str) -> bool:
    """Whether `ch` belongs to the symbol before it (UAX #29's rules GB3 to GB13, Prepend aside)."""
    before = symbol[-1]
    if before == "\r":
        return ch == "\n"
    if _is_control(before) or _is_control(ch):
        return False
    if extends(ch):
        return True
    if before >= "\u1100" and ch >= "\u1100":
        kind, after = _jamo(before), _jamo(ch)
        if kind == "L" and after in ("L", "V", "LV", "LVT"):
            return True
        if kind in ("LV", "V") and after in ("V", "T"):
            return True
        if kind in ("LVT", "T") and after == "T":
            return True
    if before == ZWJ and _pictographic(ch) and _pictographic(symbol[0]):
        return True
    return len(symbol) == 1 and _regional(before) and _regional(ch)


def symbols(text: str) -> tuple[str, ...]:
    """`text` cut into symbols, its grapheme clusters: each a character with the marks and joiners that
    belong to it. "TR\u0306I" -> ("T", "R\u0306", "I"); "उन्नीस" -> ("उ", "न्", "नी", "स"). Give it composed
    text (`normal`): a letter and its marks are then compared as one string."""
    if text.isascii():
        return tuple(text)
    cut: list[str] = []
    for ch in str(text):  # by code point, a `Symbols` too
        if cut and continues(cut[-1], ch):
            cut[-1] += ch
        else:
            cut.append(ch)
    return tuple(cut)


def misplaced_mark(text: str) -> tuple[int, str] | None:
    """The first combining mark (or joiner) of `text` that has no letter to belong to, with why: at the head
    of a word, after a space or an operator, on a digit or on a `?`. None if every mark sits on a letter
    (of a word or of a name), or on a character `refusal` refuses anyway (an emoji). (position in `text`,
    message)"""
    if text.isascii():
        return None
    position = 0
    for symbol in symbols(text):
        base = symbol[0]
        if len(symbol) > 1 and base < "\x80" and not base.isalpha():  # another base is refused as a character
            offset = next((i for i, ch in enumerate(symbol) if extends(ch)), 0)
            if base.isdigit() or base == "?":
                where = f"on {'the digit' if base.isdigit() else 'the wildcard'} {base!r}"
                return position + offset, f"a combining mark {where} ({_named(symbol[offset])}): marks go on letters"
            return position + offset, _unattached(symbol[offset])
        if extends(base):
            return position, _unattached(base)
        position += len(symbol)
    return None


def _named(ch: str) -> str:
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed').lower()}"


def _unattached(mark: str) -> str:
    return (f"a combining mark with no letter before it ({_named(mark)}): a mark belongs to the letter it "
            "follows, in the same word")


class Symbols(str):
    """A word's text that is read symbol by symbol: iterating, indexing, slicing and `len` go by symbols
    (a letter with its combining marks), not by code points; as text it is the word as written.

    The parser gives a word this type only when one of its symbols is several code points (`TR̆I`, `नौ`),
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


_SYMBOL_NUMBERS: dict[str, int] = {}  # symbols of several code points, numbered in the order first asked for


def symbol_number(symbol: str) -> int:
    """A number for each symbol, distinct for distinct symbols (for sets of letters as bit masks): a single
    character's code point; a symbol of several code points (`न्`, `R̆`) numbered on first use in this
    process, in the surrogate block U+D800-DFFF (code points no text holds) and past U+10FFFF after it."""
    if len(symbol) == 1:
        return ord(symbol)
    number = _SYMBOL_NUMBERS.get(symbol)
    if number is None:
        count = len(_SYMBOL_NUMBERS)
        number = _SYMBOL_NUMBERS[symbol] = 0xD800 + count if count < 0x800 else 0x110000 + count - 0x800
    return number


# --- letters and names ----------------------------------------------------------------------------------


def is_letter(symbol: str) -> bool:
    """A puzzle letter: one symbol whose base is an uppercase letter (`A`, `É`, `Д`, `Ω`) or a letter of a
    script without case (`न`, `ب`, `ก`, `一`), with any marks on it (`R̆`, `न्`, `नी`), or the hidden name of
    a wildcard; not a digit, not a name, not a mark alone."""
    if len(symbol) == 1:
        if symbol < "\x80":
            return "A" <= symbol <= "Z"
        return unicodedata.category(symbol) in LETTER_CATEGORIES or is_wildcard(symbol)
    return (len(symbol) > 1 and unicodedata.category(symbol[0]) in LETTER_CATEGORIES
            and all(ch >= "\x80" and refusal(ch) is None for ch in symbol[1:]) and len(symbols(symbol)) == 1)


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
    symbol, a look-alike of an operator ("unexpected character '×' (use * to multiply)"). The joiners
    ZWJ and ZWNJ may stand in a symbol, on the letter before them."""
    if ch in OPERATOR_SYMBOLS:
        return None
    if ch < "\x80" or is_name_letter(ch) or ch in LETTER_EXTENDERS or is_letter(ch):
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


# --- drawing ----------------------------------------------------------------------------------------------


def char_width(ch: str) -> int:
    """Columns `ch` (a character, or a symbol of several) takes in a monospaced terminal: 0 for a
    combining mark and for the vowel and final jamo that join a Hangul syllable, 2 for a wide (CJK) one."""
    if len(ch) != 1:
        return display_width(ch)
    if ch < "\x80":
        return 1
    if unicodedata.category(ch) in ZERO_WIDTH_CATEGORIES or _jamo(ch) in ("V", "T"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns `text` takes in a monospaced terminal (len(text) for ASCII)."""
    return len(text) if text.isascii() else sum(map(char_width, text))


def shown(letter: str) -> str:
    """A letter (or a name) as drawn alone, in a cell or a list: a combining mark with no base on a
    dotted circle (`◌्`); a letter with its marks as it is (`न्`)."""
    if letter and extends(letter[0]):
        return DOTTED_CIRCLE + letter
    return letter


def pad_left(text: str, width: int) -> str:
    """`text` right-aligned in `width` display columns (str.rjust counts characters)."""
    return " " * max(0, width - display_width(text)) + text
