"""The limits every door applies before any work, each a constant of the module that enforces it:

    MAX_SOURCE_LENGTH   core/parse.py       characters of a puzzle's text in any notation, checked here
                                            before it is read or translated
    MAX_DEPTH           core/parse.py       nesting, chains of one operator counted, in every reader
    MAX_NUMBER_DIGITS   core/numerals.py    digits of a number as written, in every notation and option
    MAX_POWER_DIGITS    core/check.py       digits of any value a formula (or an --answer) may take
    MAX_FILE_BYTES      notations/files.py  bytes of a puzzle's file
    MAX_ROW_DIGITS      notations/layout    cells of one row of a layout
    MAX_LAYOUT_CELLS    notations/layout    cells of a whole layout

docs/guarantees.md lists them with what exceeding each gives; its test holds the page to these values.
"""

from __future__ import annotations

from typing import Any

from smtcrypt.core.check import MAX_POWER_DIGITS
from smtcrypt.core.numerals import MAX_NUMBER_DIGITS
from smtcrypt.core.parse import MAX_DEPTH, MAX_SOURCE_LENGTH
from smtcrypt.errors import FormulaLimitError
from smtcrypt.notations.files import MAX_FILE_BYTES
from smtcrypt.notations.layout.reader import MAX_LAYOUT_CELLS, MAX_ROW_DIGITS


def check_length(text: Any, what: str) -> None:
    """Refuse a puzzle's text (a string, or a list of them: lines, arguments) of more than
    MAX_SOURCE_LENGTH characters, before any work on it, with a caret where the limit falls: a
    translation may make a text larger, never a text too large smaller."""
    if isinstance(text, str):
        size = len(text)
    elif isinstance(text, (list, tuple)) and all(isinstance(item, str) for item in text):
        size = sum(map(len, text)) + max(len(text) - 1, 0)
    else:
        return  # not text: the reader says what it expected
    if size > MAX_SOURCE_LENGTH:
        source = text if isinstance(text, str) else "\n".join(text)
        raise FormulaLimitError(f"{what} of {size:,} characters: the limit is {MAX_SOURCE_LENGTH:,}", source,
                                MAX_SOURCE_LENGTH)


__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "MAX_LAYOUT_CELLS", "MAX_NUMBER_DIGITS", "MAX_POWER_DIGITS",
           "MAX_ROW_DIGITS", "MAX_SOURCE_LENGTH", "check_length"]
