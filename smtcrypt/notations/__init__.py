"""The doors: one reader per notation, in one table, with one signature.

A reader takes the puzzle's text, the notation's options record and the shared rules
(`read(text, options, rules)`: rules None for a notation whose rules are its own), and returns a
`Reading`: the checked problem, its typed rules, and a `View` that shows each solution in the
user's own symbols and layout. Everything after the door (the searches, the exact re-check, the
proofs) is the same for every notation.

    syntax      text                                         options record    shared rules
    smtcrypt    formulas: one string, a list, or lines       none of its own   rules=Rules(...) or the
                                                                               rule keywords (base=16, ...)
    layout      a long multiplication or division as printed LayoutOptions     the same
                (or a `PrintedLayout` read already)
    enigma      an enigma.py command line (a list, or text)  none: they are in the command line
                or run file
    cryptator   a formula in Cryptator's notation            CryptatorOptions  none: Cryptator's own

`read(text, syntax, **options)` is the way in for the Python API (`Puzzle.read`), the command line
(`--syntax`) and the web page (its `syntax` field): it makes the options record from the keywords
(see `smtcrypt.notations.options`), each checked, and the rules once. The command line's option
group of a notation, the web page's query options and the checks of the API's keywords are made
from the record: a new notation is its module (a reader and a record) and one row of the table.

    >>> read("SEND + MORE = MONEY").problem.letters
    ('S', 'E', 'N', 'D', 'M', 'O', 'R', 'Y')
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from smtcrypt.core.rules import Rules, make_rules, rules_of
from smtcrypt.errors import FormulaError, ParameterError
from smtcrypt.notations.base import Notation, Reader, Reading, View
from smtcrypt.notations.cryptator.options import CryptatorOptions
from smtcrypt.notations.layout.options import LayoutOptions
from smtcrypt.notations.limits import check_text
from smtcrypt.notations.options import default, names, record, specs

# Each reader loads on its first use: a formula, the common case, need not wait for three more
# parsers to import, nor the command line's help for any (see tests/test_startup.py).


def formula_language(text: Any, options: Any, rules: Rules | None, /) -> Reading:
    """The formula language (`smtcrypt.notations.formula`; a name of its own, which the module's does not shadow)."""
    from smtcrypt.notations.formula import read
    return read(text, options, rules)


def layout(text: Any, options: Any, rules: Rules | None, /) -> Reading:
    """A long multiplication or division as printed (`smtcrypt.notations.layout.reading`)."""
    from smtcrypt.notations.layout import reading
    return reading.read(text, options, rules)


def enigma(text: Any, options: Any, rules: Rules | None, /) -> Reading:
    """An enigma.py command line or run file (`smtcrypt.notations.enigma.reading`)."""
    from smtcrypt.notations.enigma import reading
    return reading.read(text, options, rules)


def cryptator(text: Any, options: Any, rules: Rules | None, /) -> Reading:
    """A formula in Cryptator's notation (`smtcrypt.notations.cryptator.reading`)."""
    from smtcrypt.notations.cryptator import reading
    return reading.read(text, options, rules)


NOTATIONS: dict[str, Notation] = {notation.name: notation for notation in (
    Notation("smtcrypt", formula_language, "smtcrypt (default, the formula language)", "formula", rules=True),
    Notation("layout", layout, "layout (a long multiplication or division as printed)", "layout", named=False,
             options=LayoutOptions, rules=True),
    Notation("enigma", enigma, "enigma (an enigma.py command line or run file, its rules its own)",
             "enigma.py command line or run file",
             own_rules="the rules are the enigma.py command line's own: give its options (--base=B, --digits=..., "
                       "--assign=...) there"),
    Notation("cryptator", cryptator, "cryptator (Cryptator's notation under its rules; --assign names its symbols)",
             "Cryptator formula", options=CryptatorOptions,
             own_rules="give only --base, --allow-leading-zeros and --assign (Cryptator's rules fix the digits and "
                       "which symbols differ)"),
)}
READERS: dict[str, Reader] = {name: notation.read for name, notation in NOTATIONS.items()}
SYNTAXES = tuple(NOTATIONS)  # every notation `read` takes


def named_syntaxes() -> tuple[str, ...]:
    """The notations a user names: the command line's `--syntax` and the web page's `syntax` take these."""
    return tuple(name for name, notation in NOTATIONS.items() if notation.named)


def shared_options(syntax: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """What the rule options every command shares (`--base`, `--assign`, ... as `make_rules` takes
    them) mean in notation `syntax`: for a notation that takes them, our typed rules, built here once;
    for one with rules of its own, those its options record has a field of the same name for
    (Cryptator's base, leading zeros and assignments, its `--assign` naming its own symbols), and any
    other given is refused by name, saying where the notation's rules are (its row's `own_rules`)."""
    notation = NOTATIONS[syntax]
    if notation.rules:
        return {"rules": make_rules(**options)}
    own = [spec.name for spec in specs(notation.options)]
    given = [name for name, value in options.items()
             if name not in own and value not in (None, False, DEFAULTS.get(name))]
    if given:
        raise FormulaError(f"with --syntax {syntax} {notation.own_rules}, not {given[0]}")
    return {name: value for name, value in options.items() if name in own and value is not None}


DEFAULTS = {"distinct": True, "base": 10}  # the shared rule options' defaults that are not None or False


RULE_KEYWORDS = tuple(inspect.signature(make_rules).parameters)  # the shared rules, as `make_rules` names them


def read(text: Any, syntax: str = "smtcrypt", /, **options: Any) -> Reading:
    """The puzzle `text` read in notation `syntax` with that notation's `options` (see the table above):
    its own, checked by its options record, and for a notation that takes them the shared rules
    (`rules=Rules(...)` or `make_rules`'s keywords); a `ParameterError` names a keyword it does not take."""
    if syntax not in NOTATIONS:
        raise FormulaError(f"unknown syntax {syntax!r}: expected one of {', '.join(NOTATIONS)}")
    notation = NOTATIONS[syntax]
    if not options:  # the common case, at the price of a lookup (a small sum is read in about 0.1 ms)
        typed, rules = default(notation.options), make_rules() if notation.rules else None
    else:
        typed, rules = _options(notation, options)
    check_text(text, notation.noun)  # the one check of the text's length, before any reader's work
    return notation.read(text, typed, rules)


def _options(notation: Notation, options: Mapping[str, Any]) -> tuple[Any, Rules | None]:
    """The options record and the shared rules `read`'s keywords make for `notation`; a `ParameterError`
    names a keyword the notation does not take, or a value its record refuses."""
    syntax = notation.name
    own = names(notation.options)
    typed = record(notation.options, {name: value for name, value in options.items() if name in own}, syntax)
    shared = {name: value for name, value in options.items() if name not in own}
    rules = None
    if notation.rules:
        unknown = next((name for name in shared if name not in RULE_KEYWORDS and name != "rules"), None)
        if unknown is None:
            rules = rules_of(shared.pop("rules", None), shared)
    else:
        unknown = next(iter(shared), None)
    if unknown is not None:
        takes = [*own, *(("rules", *RULE_KEYWORDS) if notation.rules else ())]
        raise ParameterError(f"{unknown}: not an option of syntax {syntax!r} "
                             f"(its options: {', '.join(takes) or 'none'})")
    return typed, rules


__all__ = ["NOTATIONS", "READERS", "RULE_KEYWORDS", "SYNTAXES", "Notation", "Reader", "Reading", "View",
           "named_syntaxes", "read", "shared_options"]
