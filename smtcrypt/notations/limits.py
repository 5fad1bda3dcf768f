"""The limits every door applies before any work, and where each is enforced:

    MAX_SOURCE_LENGTH   core/parse.py       characters of a puzzle's text in any notation: checked here,
                                            once, by `notations.read` before any reader sees the text
    MAX_DEPTH           core/parse.py       nesting, chains of one operator counted: of every tree,
                                            parsed or built by a reader (core/limits.py)
    MAX_NUMBER_DIGITS   core/numerals.py    digits of a number as written, in every notation and option
    MAX_POWER_DIGITS    core/check.py       digits of any value a formula (or an --answer) may take
    MAX_FILE_BYTES      notations/files.py  bytes of a puzzle's file
    MAX_ROW_DIGITS      notations/layout    cells of one row of a layout
    MAX_LAYOUT_CELLS    notations/layout    cells of a whole layout

A tree a reader builds stands for at most MAX_SOURCE_LENGTH characters of our formulas as well
(`core.limits.check_tree`, which the checker applies to every tree). docs/guarantees.md lists the
limits with what exceeding each gives; its test holds the page to these values.
"""

from __future__ import annotations

from typing import Any

from smtcrypt.core.parse import check_length

# What a text too long is called, by notation (an enigma.py command line is a list of arguments).
WHAT = {"smtcrypt": "formula", "layout": "layout", "cryptator": "Cryptator formula"}


def check_text(text: Any, syntax: str) -> None:
    """Refuse a puzzle's text over MAX_SOURCE_LENGTH characters, before it is read in `syntax`:
    a translation may make a text larger, never a text too large smaller."""
    what = WHAT.get(syntax) or ("enigma.py run file" if isinstance(text, str) else "enigma.py command line")
    check_length(text, what)


__all__ = ["check_text"]
