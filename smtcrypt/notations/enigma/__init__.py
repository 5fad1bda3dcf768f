"""enigma.py's notation read as written: `SubstitutedExpression`, `SubstitutedDivision` and
`SubstitutedSum` command lines and run files, translated into a formula (or a long-division layout) and its rules.

Nothing here runs the user's text: an expression is read by `ast.parse` and walked, and only the
node types a run file uses become nodes of our formula's tree, their spans in the user's text
(`expression`); the options become the keyword rules of `Puzzle` (`command`); a run file becomes an
argument list (`runfile`).
"""

from smtcrypt.notations.enigma.command import SOLVERS, EnigmaPuzzle, read_command
from smtcrypt.notations.enigma.runfile import read_runfile

__all__ = ["SOLVERS", "EnigmaPuzzle", "read_command", "read_runfile"]
