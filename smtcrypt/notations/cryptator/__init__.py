"""Cryptator's notation read as written: a formula such as `send+more=money`, `nrgy = MC ^ 2` or
`a + b = c && c * d = ef` and Cryptator's options, translated into our formulas and rules.

Nothing here runs the user's text: a small parser reads it (`reader`, after Cryptator's grammar)
and the tree becomes formula text of ours plus the keyword rules of `Puzzle` (`translate`, after
Cryptator's model).
"""

from smtcrypt.notations.cryptator.reader import read
from smtcrypt.notations.cryptator.translate import CryptatorPuzzle, inline, keywords, translate

__all__ = ["CryptatorPuzzle", "inline", "keywords", "read", "translate"]
