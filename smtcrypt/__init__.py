"""smtcrypt: solve cryptarithms (alphametics) with an SMT solver, and prove when a solution is unique.

    >>> import smtcrypt
    >>> next(smtcrypt.solve("SEND + MORE = MONEY")).text
    '9567 + 1085 = 10652'
"""

from smtcrypt._version import __version__
from smtcrypt.api import Puzzle, count, solve, solve_all, verdict
from smtcrypt.core.results import Ending, Proof, Solution, Status, Verdict
from smtcrypt.errors import (
    FormulaError,
    FormulaLimitError,
    FormulaNameError,
    FormulaSyntaxError,
    IncompleteSearch,
    InfinitelyMany,
    LayoutError,
    StrategyError,
    VerificationError,
)
from smtcrypt.search import set_memory_limit

__all__ = [
    "Ending", "FormulaError", "FormulaLimitError", "FormulaNameError", "FormulaSyntaxError", "IncompleteSearch",
    "InfinitelyMany", "LayoutError", "Proof", "Puzzle", "Solution", "Status", "StrategyError", "Verdict",
    "VerificationError", "count", "set_memory_limit", "solve", "solve_all", "verdict", "__version__",
]
