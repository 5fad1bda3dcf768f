"""The limits every door applies before any work, and where each is enforced:

    MAX_SOURCE_LENGTH   core/limits.py      characters of a puzzle's text in any notation: checked here,
                                            once, by `notations.read` before any reader sees the text
    MAX_DEPTH           core/limits.py      nesting, chains of one operator counted: of every tree,
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

from smtcrypt.core.limits import check_length


def check_text(text: Any, noun: str) -> None:
    """Refuse a puzzle's text over MAX_SOURCE_LENGTH characters (`noun`: what the notation calls it),
    before it is read: a translation may make a text larger, never a text too large smaller."""
    check_length(text, noun)


__all__ = ["check_text"]
