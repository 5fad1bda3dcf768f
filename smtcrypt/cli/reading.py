"""A subcommand's puzzle (`explain`, `play`, a `batch` line) read in any notation, under the rule
options every command shares: one way in, so that each subcommand takes every notation alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.notations import shared_options


def read_puzzle(texts: Sequence[str], syntax: str, options: Mapping[str, Any]) -> Puzzle:
    """The puzzle of FORMULA arguments (or a batch line) in notation `syntax`: several formulas that
    must all hold, an enigma.py command line (one argument of text, or its arguments), or one
    Cryptator formula (its arguments joined by spaces)."""
    if syntax == "enigma":
        return Puzzle.read(texts[0] if len(texts) == 1 else list(texts), syntax, **shared_options(syntax, options))
    if syntax == "cryptator":
        return Puzzle.read(" ".join(texts), syntax, **shared_options(syntax, options))
    return Puzzle.read(list(texts), syntax, **shared_options(syntax, options))
