"""Stage 4: search a checked problem for its solutions, by whichever backend is cheapest.

Every backend (base.Backend) takes a `Problem` toward a goal (all solutions, or the first few)
before a deadline, yields letter assignments as it finds them, can be stopped from another thread,
and says how it ended as data: a `SearchEnd` with an `Ending` and, for a complete search, the
proof. One module per backend: z3search (Z3's models), cubes (Z3, a cube of solutions per
blocking clause), exhaustive (every assignment, by the formula compiled in compiled.py), join (an
equation's two sides apart), linear (a linear equation's bounded digits), digits (equations of
products, column by column). `portfolio.Portfolio` picks and switches between them; the search
loop (`smtcrypt.search`) re-checks their solutions. How the kernel searches run (plain Python or
compiled) is an `Executor` handed down, never a module's state.
"""

from smtcrypt.engine.base import Assignment, Backend, Ending, Executor, Proof, SearchEnd, Strategy

__all__ = ["Assignment", "Backend", "Ending", "Executor", "Proof", "SearchEnd", "Strategy"]
