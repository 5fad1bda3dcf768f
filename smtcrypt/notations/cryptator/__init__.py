"""Cryptator's notation read as written: a formula such as `send+more=money`, `nrgy = MC ^ 2` or
`a + b = c && c * d = ef` and Cryptator's options, translated into our formula's tree and rules.

Nothing here runs the user's text: a small parser reads it (`reader`, after Cryptator's grammar)
and its tree becomes ours, each node under the user's own text, with our typed rules
(`translate`, after Cryptator's model); our formula's text is written from it only to be shown.
Its options are one record (`options`), which the command line and the web page read without
loading the parser: the names below load from their modules on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from smtcrypt.notations.cryptator.options import CryptatorOptions
    from smtcrypt.notations.cryptator.reader import read
    from smtcrypt.notations.cryptator.translate import CryptatorPuzzle, inline

_MODULES = {"read": "reader", "CryptatorPuzzle": "translate", "inline": "translate",
            "CryptatorOptions": "options"}


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)


__all__ = ["CryptatorOptions", "CryptatorPuzzle", "inline", "read"]
