"""A notation's own options, declared once: a typed record whose fields carry their default, help and
spellings, from which every way in takes them.

    >>> from smtcrypt.notations.cryptator.options import CryptatorOptions
    >>> record(CryptatorOptions, {"relax_max": 1}, "cryptator").relax_max
    1
    >>> [spec.flags for spec in specs(CryptatorOptions)][0]
    ('-b', '--base')

The command line makes its option group of a notation from the record (`cli/options.py`), the web page
reads the record's fields from the query string (`web/query.py`), and the Python API's keywords are
checked by it (`notations.read`): a new option is one field, spelled in one place. The rule options
every command shares (`--base`, `--assign`, ...) are not a notation's own: they are `make_rules`'s.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from smtcrypt.core.numerals import shown
from smtcrypt.errors import ParameterError

TRUE, FALSE = ("true", "on", "yes", "1"), ("false", "off", "no", "0")  # args4j's explicit booleans, and the web's


@dataclass(frozen=True)
class OptionSpec:
    """One field of a notation's options record: what it means, how the command line spells it (no
    flags: not a command-line option; the FORMULA arguments may carry it), how a word of text reads as
    its value (a command-line word, a query-string value: `ValueError` with the reason), and how a
    Python value is checked (the API's keyword: the value, or `ValueError`)."""

    name: str
    default: Any
    help: str
    flags: tuple[str, ...]
    metavar: str | None
    text: Callable[[str], Any]
    value: Callable[[Any], Any]
    repeatable: bool = False  # given once per item (`--assign a=1 --assign b=2`), read into a tuple of texts


@dataclass(frozen=True)
class NoOptions:
    """The options record of a notation with no options of its own: the formula language (the shared
    rules are all it takes) and enigma.py's command line (whose options are in the command line)."""


def option(default: Any, help: str, *flags: str, text: Callable[[str], Any], value: Callable[[Any], Any],
           metavar: str | None = None, repeatable: bool = False) -> Any:
    """A field of an options record with its spec (see `OptionSpec`); the record's class holds the rest."""
    return dataclasses.field(default=default, metadata={"spec": (help, flags, metavar, text, value, repeatable)})


@functools.cache
def specs(kind: type) -> tuple[OptionSpec, ...]:
    """The fields of the options record `kind`, in order, with their specs (made once a record: every
    puzzle read checks its options by them)."""
    return tuple(OptionSpec(field.name, field.default, *field.metadata["spec"]) for field in dataclasses.fields(kind))


@functools.cache
def default(kind: type) -> Any:
    """The options record `kind` with every default (made once: most puzzles give no options)."""
    return kind()


def record(kind: type, keywords: Mapping[str, Any], syntax: str) -> Any:
    """The options record `kind` of a notation from API keywords, each value checked; a `ParameterError`
    naming the keyword (and the known ones, for an unknown keyword)."""
    if not keywords:
        return default(kind)
    known = {spec.name: spec for spec in specs(kind)}
    values = {}
    for name, given in keywords.items():
        if name not in known:
            raise ParameterError(f"{name}: not an option of syntax {syntax!r} (its options: "
                                 f"{', '.join(known) or 'none'})")
        try:
            values[name] = known[name].value(given)
        except (ValueError, TypeError) as error:
            raise ParameterError(f"{name}: {error}") from None
    return kind(**values)


@functools.cache
def names(kind: type) -> frozenset[str]:
    """The fields' names of the options record `kind`."""
    return frozenset(spec.name for spec in specs(kind))


# --- how a word of text reads, and how a Python value is checked ------------------------------------


def integer_text(low: int) -> Callable[[str], int]:
    """A word of text as an integer of at least `low`."""
    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"must be an integer, not {text!r}") from None
        if value < low:
            raise ValueError(f"must be at least {low}, not {text!r}")
        return value
    return read


def integer_value(low: int) -> Callable[[Any], int]:
    """A Python value that must be an int (not a bool) of at least `low`."""
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"expected an integer, not {type(value).__name__} {value!r}")
        if value < low:
            raise ValueError(f"must be at least {low}, not {shown(value)}")
        return value
    return check


def boolean_text(text: str) -> bool:
    """true/false, on/off, yes/no, 1/0 (args4j's explicit boolean, as Cryptator's `-z` takes it)."""
    if text.lower() in TRUE:
        return True
    if text.lower() in FALSE:
        return False
    raise ValueError(f"expected true or false, not {text!r}")


def boolean_value(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected True or False, not {type(value).__name__} {value!r}")
    return value


def texts_value(value: Any) -> Any:
    """Repeated items as given: a mapping (`{"a": 1}`), or texts (`["a=1"]`; one text is one item); None for none."""
    if value is None or isinstance(value, Mapping):
        return value
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Iterable):
        items = tuple(value)
        if all(isinstance(item, str) for item in items):
            return items
    raise ValueError(f"expected a mapping, a text or texts, not {type(value).__name__} {value!r}")


__all__ = ["FALSE", "TRUE", "NoOptions", "OptionSpec", "boolean_text", "boolean_value", "integer_text", "integer_value",
           "default", "names", "option", "record", "specs", "texts_value"]
