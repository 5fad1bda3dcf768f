"""A command's puzzle (the main command's, `explain`'s, `play`'s) read in any notation, under the rule
options every command shares and the notation's own: the one way from the command line to the door,
so that each subcommand takes every notation alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.errors import FormulaError
from smtcrypt.notations import shared_options
from smtcrypt.notations.files import read_text


def read_puzzle(texts: Sequence[str], syntax: str, options: Mapping[str, Any], *, layout: str | None = None,
                own: Mapping[str, Any] | None = None) -> Puzzle:
    """The puzzle of FORMULA arguments in notation `syntax` under the shared rule `options` and the
    notation's `own` options: several formulas that must all hold (with `layout`, a layout's FILE, its
    conditions), an enigma.py command line (one argument of text, its arguments, or `--run FILE`), or
    one Cryptator formula (its arguments joined by spaces)."""
    keywords = {**shared_options(syntax, options), **(own or {})}
    if syntax == "enigma":
        if texts[:1] == ["--run"]:
            if len(texts) != 2:
                raise FormulaError("--run takes one FILE and nothing after it")
            return Puzzle.read(read_text(texts[1]), syntax, **keywords)
        return Puzzle.read(texts[0] if len(texts) == 1 else list(texts), syntax, **keywords)
    if syntax == "cryptator":
        return Puzzle.read(" ".join(texts), syntax, **keywords)
    if layout is not None:
        return Puzzle.read(read_text(layout), "layout", conditions=list(texts) or None, **keywords)
    return Puzzle.read(list(texts), syntax, **keywords)
