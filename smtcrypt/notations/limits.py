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

from smtcrypt.core.check import MAX_POWER_DIGITS
from smtcrypt.core.numerals import MAX_NUMBER_DIGITS
from smtcrypt.core.parse import MAX_DEPTH, MAX_SOURCE_LENGTH, check_length
from smtcrypt.notations.files import MAX_FILE_BYTES
from smtcrypt.notations.layout.reader import MAX_LAYOUT_CELLS, MAX_ROW_DIGITS

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "MAX_LAYOUT_CELLS", "MAX_NUMBER_DIGITS", "MAX_POWER_DIGITS",
           "MAX_ROW_DIGITS", "MAX_SOURCE_LENGTH", "check_length"]
