"""Stage 4: search a checked problem for its solutions, by whichever backend is cheapest.

One module per backend (base.Backend says what each is); `portfolio.Portfolio` picks and switches
between them, and the search loop (`smtcrypt.search`) re-checks their solutions.
"""

from smtcrypt.engine.base import Assignment, Backend, Ending, Executor, Proof, SearchEnd, Statistics, Strategy

__all__ = ["Assignment", "Backend", "Ending", "Executor", "Proof", "SearchEnd", "Statistics", "Strategy"]
