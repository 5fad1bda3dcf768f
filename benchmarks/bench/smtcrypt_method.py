"""smtcrypt itself: smtcrypt.count(formula, timeout=...), or the first of smtcrypt.solve(...).

With a strategy (`--strategy NAME`), `strategy=NAME` is passed through, to time one backend forced.
"""

from __future__ import annotations

import inspect
import time

import smtcrypt
from smtcrypt.engine import Ending, Strategy

from .results import Result


def strategy_support() -> tuple[bool, tuple[str, ...] | None]:
    """(whether smtcrypt.count and smtcrypt.solve take `strategy=`, the names it knows if it says)."""
    takes = all("strategy" in inspect.signature(function).parameters
                for function in (smtcrypt.count, smtcrypt.solve))
    return takes, tuple(strategy.value for strategy in Strategy)


def label(strategy: str | None) -> str:
    """The method's name as shown: `smtcrypt`, or `smtcrypt[z3]` with a forced strategy."""
    return "smtcrypt" if strategy is None else f"smtcrypt[{strategy}]"


def run_smtcrypt(formula: str, mode: str, timeout: float, strategy: str | None = None) -> Result:
    options = {} if strategy is None else {"strategy": strategy}
    start = time.perf_counter()
    try:
        if mode == "first":
            found = next(smtcrypt.solve(formula, limit=1, timeout=timeout, **options), None)
            count = 0 if found is None else 1
        else:
            count = smtcrypt.count(formula, timeout=timeout, **options)
    except smtcrypt.IncompleteSearch as error:
        status = "timeout" if error.ending is Ending.TIME else "unknown"
        return Result(status, error.found, time.perf_counter() - start, error.reason)
    except smtcrypt.StrategyError as error:
        if strategy is not None:  # this backend cannot search it
            return Result("skip", None, None, str(error))
        return Result("error", None, time.perf_counter() - start, f"StrategyError: {error}")
    except Exception as error:  # a formula error or a crash (VerificationError would be a bug)
        return Result("error", None, time.perf_counter() - start, f"{type(error).__name__}: {error}")
    return Result("ok", count, time.perf_counter() - start)
