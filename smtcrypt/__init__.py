"""smtcrypt: solve cryptarithms (alphametics) with an SMT solver, and prove when a solution is unique.

    >>> import smtcrypt
    >>> next(smtcrypt.solve("SEND + MORE = MONEY")).text
    '9567 + 1085 = 10652'
"""

from .api import (
    IncompleteSearch, InfinitelyMany, Puzzle, Solution, Status, Verdict, count, set_memory_limit, solve, solve_all, verdict,
)
from .errors import FormulaError, FormulaLimitError, FormulaNameError, FormulaSyntaxError, VerificationError

__version__ = "0.1.0"

__all__ = ["FormulaError", "FormulaLimitError", "FormulaNameError", "FormulaSyntaxError", "IncompleteSearch", "InfinitelyMany",
           "Puzzle", "Solution", "Status", "Verdict", "VerificationError", "count", "set_memory_limit", "solve", "solve_all",
           "verdict", "__version__"]
