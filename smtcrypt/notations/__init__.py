"""The doors: one reader per notation, in one table, with one signature.

A reader takes the puzzle's text and the notation's own options, and returns a `Reading`: the
checked problem, its typed rules, and a `View` that shows each solution in the user's own symbols
and layout. Everything after the door (the searches, the exact re-check, the proofs) is the same
for every notation.

    syntax      text                                         the notation's own options
    smtcrypt    formulas: one string, a list, or lines       rules=Rules(...) or the rule keywords (base=16, ...)
    layout      a long multiplication or division as printed conditions, nonzero_remainders,
                (or a `PrintedLayout` read already)                 conditions_allow_leading_zeros, and the rules
    enigma      an enigma.py command line (a list, or text)  none: they are in the command line
                or run file
    cryptator   a formula in Cryptator's notation            base, allow_leading_zeros, assign, relax_min, relax_max

`read(text, syntax)` is the way in for the Python API (`Puzzle.read`), the command line
(`--syntax`) and the web page (its `syntax` field).

    >>> read("SEND + MORE = MONEY").problem.letters
    ('D', 'E', 'M', 'N', 'O', 'R', 'S', 'Y')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from smtcrypt.core.rules import make_rules
from smtcrypt.errors import FormulaError
from smtcrypt.notations.base import Notation, Reader, Reading, View
from smtcrypt.notations.limits import check_text

# Each reader loads on its first use: a formula, the common case, need not wait for three more
# parsers to import, nor the command line's help for any (see tests/test_startup.py).


def formula_language(text: Any, /, **options: Any) -> Reading:
    """The formula language (`smtcrypt.notations.formula`; a name of its own, which the module's does not shadow)."""
    from smtcrypt.notations.formula import read
    return read(text, **options)


def layout(text: Any, /, **options: Any) -> Reading:
    """A long multiplication or division as printed (`smtcrypt.notations.layout.reading`)."""
    from smtcrypt.notations.layout import reading
    return reading.read(text, **options)


def enigma(text: Any, /, **options: Any) -> Reading:
    """An enigma.py command line or run file (`smtcrypt.notations.enigma.reading`)."""
    from smtcrypt.notations.enigma import reading
    return reading.read(text, **options)


def cryptator(text: Any, /, **options: Any) -> Reading:
    """A formula in Cryptator's notation (`smtcrypt.notations.cryptator.reading`)."""
    from smtcrypt.notations.cryptator import reading
    return reading.read(text, **options)


NOTATIONS: dict[str, Notation] = {notation.name: notation for notation in (
    Notation("smtcrypt", formula_language, "smtcrypt (default, the formula language)", "formula"),
    Notation("layout", layout, "layout (a long multiplication or division as printed)", "layout", named=False),
    Notation("enigma", enigma, "enigma (an enigma.py command line or run file, its rules its own)",
             "enigma.py command line or run file"),
    Notation("cryptator", cryptator, "cryptator (Cryptator's notation under its rules; --assign names its symbols)",
             "Cryptator formula"),
)}
READERS: dict[str, Reader] = {name: notation.read for name, notation in NOTATIONS.items()}
SYNTAXES = tuple(NOTATIONS)  # every notation `read` takes


def named_syntaxes() -> tuple[str, ...]:
    """The notations a user names: the command line's `--syntax` and the web page's `syntax` take these."""
    return tuple(name for name, notation in NOTATIONS.items() if notation.named)


def shared_options(syntax: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """What the rule options every command shares (`--base`, `--assign`, ... as `make_rules` takes
    them) mean in notation `syntax`: our typed rules, built here once; Cryptator's options (its
    `--assign` names the puzzle's own symbols); or, for enigma.py, whose command line holds its own
    rules, nothing, and any rule option given is refused by name."""
    if syntax == "cryptator":
        from smtcrypt.notations.cryptator import keywords
        return keywords(options)
    if syntax == "enigma":
        given = sorted(name for name, value in options.items() if value not in (None, False, DEFAULTS.get(name)))
        if given:
            raise FormulaError(f"with --syntax enigma the rules are the enigma.py command line's own: give its "
                               f"options (--base=B, --digits=..., --assign=...) there, not {given[0]}")
        return {}
    return {"rules": make_rules(**options)}


DEFAULTS = {"distinct": True, "base": 10}  # the shared rule options' defaults that are not None or False


def read(text: Any, syntax: str = "smtcrypt", /, **options: Any) -> Reading:
    """The puzzle `text` read in notation `syntax` with that notation's `options` (see the table above)."""
    if syntax not in NOTATIONS:
        raise FormulaError(f"unknown syntax {syntax!r}: expected one of {', '.join(NOTATIONS)}")
    check_text(text, NOTATIONS[syntax].noun)  # the one check of the text's length, before any reader's work
    return NOTATIONS[syntax].read(text, **options)


__all__ = ["NOTATIONS", "READERS", "SYNTAXES", "Notation", "Reader", "Reading", "View", "named_syntaxes", "read",
           "shared_options"]
