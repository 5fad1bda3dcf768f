"""Cryptator's notation read as written: a formula such as `send+more=money`, `nrgy = MC ^ 2` or
`a + b = c && c * d = ef` and Cryptator's options, translated into our formula's tree and rules.

Nothing here runs the user's text: a small parser reads it (`reader`, after Cryptator's grammar)
and its tree becomes ours, each node under the user's own text, with our typed rules
(`translate`, after Cryptator's model); our formula's text is written from it only to be shown.
"""

from smtcrypt.notations.cryptator.reader import read
from smtcrypt.notations.cryptator.translate import CryptatorPuzzle, inline, keywords, translate

__all__ = ["CryptatorPuzzle", "inline", "keywords", "read", "translate"]
