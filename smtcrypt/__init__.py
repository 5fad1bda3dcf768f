"""smtcrypt: solve cryptarithms (alphametics) with an SMT solver, and prove when a solution is unique.

    >>> import smtcrypt
    >>> next(smtcrypt.solve("SEND + MORE = MONEY")).text
    '9567 + 1085 = 10652'

The public names load with their first use (PEP 562), so that `import smtcrypt` and
`smtcrypt --version` read no more than the version: the parser, the solver and the search
come with the first puzzle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smtcrypt._version import __version__

if TYPE_CHECKING:  # the same names, for type checkers: imported on first use below
    from smtcrypt.api import Puzzle, count, solve, solve_all, verdict
    from smtcrypt.core.outcomes import IncompleteSearch, InfinitelyMany, StrategyError, VerificationError
    from smtcrypt.core.results import Ending, Proof, Solution, Status, Verdict
    from smtcrypt.core.statistics import Statistics
    from smtcrypt.errors import (
        FormulaError,
        FormulaLimitError,
        FormulaNameError,
        FormulaSyntaxError,
        LayoutError,
        ParameterError,
    )
    from smtcrypt.search import set_memory_limit

__all__ = [
    "Ending", "FormulaError", "FormulaLimitError", "FormulaNameError", "FormulaSyntaxError", "IncompleteSearch",
    "InfinitelyMany", "LayoutError", "ParameterError", "Proof", "Puzzle", "Solution", "Statistics", "Status",
    "StrategyError", "Verdict", "VerificationError", "count", "set_memory_limit", "solve", "solve_all", "verdict",
    "__version__",
]


_FROM_API = {"Puzzle", "count", "solve", "solve_all", "verdict"}
_FROM_RESULTS = {"Ending", "Proof", "Solution", "Status", "Verdict"}
_FROM_OUTCOMES = {"IncompleteSearch", "InfinitelyMany", "StrategyError", "VerificationError"}
_FROM_ERRORS = {"FormulaError", "FormulaLimitError", "FormulaNameError", "FormulaSyntaxError", "LayoutError",
                "ParameterError"}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for, then kept here."""
    if name in _FROM_API:
        from smtcrypt import api

        value = getattr(api, name)
    elif name in _FROM_RESULTS:
        from smtcrypt.core import results

        value = getattr(results, name)
    elif name == "Statistics":
        from smtcrypt.core import statistics

        value = statistics.Statistics
    elif name in _FROM_OUTCOMES:
        from smtcrypt.core import outcomes

        value = getattr(outcomes, name)
    elif name in _FROM_ERRORS:
        from smtcrypt import errors

        value = getattr(errors, name)
    elif name == "set_memory_limit":
        from smtcrypt.search import set_memory_limit as value
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
