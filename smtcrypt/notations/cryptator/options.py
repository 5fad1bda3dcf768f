"""Cryptator's own options, as its command line spells them (`-b`, `-z`, `-min`, `-max`) and our
`--assign` naming its symbols: the record every way in reads them from (`smtcrypt.notations.options`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from smtcrypt.core.rules import MIN_BASE
from smtcrypt.notations.options import (
    boolean_text,
    boolean_value,
    integer_text,
    integer_value,
    option,
    texts_value,
)


@dataclass(frozen=True)
class CryptatorOptions:
    """Cryptator's options: the base, leading zeros, the relaxed digit counts, and symbols fixed to digits."""

    base: int = option(10, "base (radix) of the numbers (Cryptator's -b; default 10)", "-b", "--base", metavar="B",
                       text=integer_text(MIN_BASE), value=integer_value(MIN_BASE))
    allow_leading_zeros: bool = option(False, "the first symbol of a word may be 0 (Cryptator's -z)", "-z",
                                       "--allow-leading-zeros", metavar="true|false", text=boolean_text,
                                       value=boolean_value)
    assign: Mapping[str, int] | Iterable[str] | None = option(
        None, "fix symbol s of the formula to digit D (repeatable)", "--assign", metavar="s=D", text=str,
        value=texts_value, repeatable=True)
    relax_min: int = option(0, "each digit may be used N times fewer than floor(symbols/base) (Cryptator's -min)",
                            "-min", "--relax-min", metavar="N", text=integer_text(0), value=integer_value(0))
    relax_max: int = option(0, "each digit may be used N times more than ceil(symbols/base) (Cryptator's -max)",
                            "-max", "--relax-max", metavar="N", text=integer_text(0), value=integer_value(0))
