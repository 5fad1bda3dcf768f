"""A puzzle's file (a layout, an enigma.py run file): read as UTF-8 text up to a size cap, or refused by name."""

from __future__ import annotations

import sys

from smtcrypt.errors import FormulaError

# The most bytes a puzzle's file may hold. Read no further than one byte past it, so that a device that never
# ends (`--layout /dev/zero`) is refused at the cap; the text read must then keep to the notations' length limit.
MAX_FILE_BYTES = 1_000_000


def read_text(name: str) -> str:
    """The text of file `name` (`-`: standard input) as UTF-8; a byte-order mark at its start (as
    some editors save UTF-8) is not part of it. A file that is not UTF-8, or holds more than
    MAX_FILE_BYTES bytes, is a `FormulaError`."""
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data: bytes | str = sys.stdin.read(MAX_FILE_BYTES + 1) if stream is None else stream.read(MAX_FILE_BYTES + 1)
    else:
        with open(name, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise FormulaError(f"{name}: more than {MAX_FILE_BYTES:,} bytes, the limit for a puzzle's file")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise FormulaError(f"{name}: not UTF-8 text (byte {error.start} is {data[error.start]:#04x})") from None
    return data.removeprefix("\ufeff")
