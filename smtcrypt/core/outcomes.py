"""How a search can end without a list of solutions: not finished, infinitely many, a strategy
that cannot search the problem, or a model the exact re-check refused.

These are outcomes of a search, not faults in the formula (those are in `smtcrypt.errors`), so they
live beside `Ending`, the reason a search stopped, that `IncompleteSearch` carries.
"""

from __future__ import annotations

from smtcrypt.core.results import Ending


class VerificationError(AssertionError):
    """A model from the solver failed the exact re-check: a bug in smtcrypt, never shown as a solution."""


class StrategyError(ValueError):
    """A strategy was asked for that cannot search this problem (the exhaustive one and unbounded integer unknowns)."""


class IncompleteSearch(RuntimeError):
    """The search could not finish, so the answer is unknown (never "no solution"). `ending` says
    why for code (`Ending.TIME`, `Ending.INTERRUPTED`, ...; None if not known), `reason` for people."""

    def __init__(self, reason: str, found: int, ending: Ending | None = None):
        self.reason = reason
        self.found = found
        self.ending = ending
        super().__init__(f"search incomplete ({reason}) after {found} solution(s): the answer is unknown")


class InfinitelyMany(IncompleteSearch):
    """The search proved there are infinitely many solutions (over integer unknowns); its `ending`
    is `Ending.INFINITE`."""

    def __init__(self, reason: str, found: int, ending: Ending | None = None):
        super().__init__(reason, found, ending)
        self.args = (f"{reason} (the first {found} listed)",)
