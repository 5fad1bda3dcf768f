"""A puzzle's file (a layout, an enigma.py run file): read as UTF-8 text, or refused by name."""

from __future__ import annotations

import sys

from smtcrypt.errors import FormulaError


def read_text(name: str) -> str:
    """The text of file `name` (`-`: standard input) as UTF-8; a byte-order mark at its start (as
    some editors save UTF-8) is not part of it. A file that is not UTF-8 is a `FormulaError`."""
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data: bytes | str = sys.stdin.read() if stream is None else stream.read()
    else:
        with open(name, "rb") as handle:
            data = handle.read()
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise FormulaError(f"{name}: not UTF-8 text (byte {error.start} is {data[error.start]:#04x})") from None
    return data.removeprefix("\ufeff")
