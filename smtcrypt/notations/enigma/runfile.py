"""An enigma.py run file into the argument list of its command line.

A run file (`#!/usr/bin/env python3 -m enigma -r`, run by `python3 -m enigma -r FILE`) holds the
solver's name on its first line that is not a comment, then the arguments, split and quoted as a
POSIX shell does: double or single quotes around an argument, `""` for an empty argument, several
arguments on a line, and `#` starting a comment to the end of its line outside quotes (the
published run files put comments on lines of their own and after options:
`--invalid="0,AEGIMN" # no leading zeros`).
"""

from __future__ import annotations

import shlex

from smtcrypt.errors import FormulaError


def read_runfile(text: str) -> list[str]:
    """The arguments of a run file's text, the solver's name first; a `FormulaError` at the line of
    an unclosed quote. A byte-order mark at the start (as some editors save UTF-8) is not part of it."""
    text = text.removeprefix("\ufeff")
    lexer = shlex.shlex(text.replace("\\\n", " "), posix=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        arguments = list(lexer)
    except ValueError as problem:  # "No closing quotation" / "No escaped character"
        body = text.rstrip("\n")  # the quote runs to the end: point at the start of the last line
        position = len(body) - len(body.split("\n")[-1])
        raise FormulaError(f"run file: {problem}", body, position) from None
    if not arguments:
        raise FormulaError("the run file holds no solver name and no arguments (only comments or blank lines)")
    return arguments
