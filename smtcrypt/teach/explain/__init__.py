"""Step-by-step explanations: the solution in the order a person would find it, every step proved.

A puzzle is cut into *local rules*, each small enough for a person to hold in mind at once:
- sums and differences (the columns encoding's shape): one rule per digit column, with the
  carries as small unknowns (`D + E = Y + 10·c2`), and each pair of neighbouring columns;
- products, powers and quotients of words (the products encoding's shape, cross-multiplied): the
  columns of the long multiplication, each the products of a digit of one factor by a digit of
  the other that land in it (the rows' digits in that column) with the carries
  (`2·D·D + c2 = K + 10·c3`), the last digit first, and pairs of neighbouring columns; and the
  sizes of the numbers (every word an interval, as `analysis/split.py` reads them);
- anything else: each constraint's bounds, read with every word an interval, and a constraint over
  few letters by trying their digits.

A rule is applied by trying the digits its letters may still take (a small search in Python,
pruned by interval bounds; a sum's column too wide for that, by its bounds alone); what it rules
out, or a fixed difference between two of its letters, is a step. No step is shown before Z3 has
answered `unsat` to the rule, the facts so far, the puzzle's digit rules and the negation of the
step's conclusion: an explanation is never wrong, only sometimes incomplete, and then it says so
and lists what a search finds.

One rule at a time first, then pairs of rules; when nothing local follows, a case split on the
letter with the fewest digits left: each wrong digit is refuted by local reasoning under the
assumption (cases inside cases if needed). The search's own solutions only choose which cases
to show; every case shown is refuted by proved steps.

The modules, one job each: `steps` (what an explanation is made of, and its difficulty), `rules`
(the local rules), `digit_search` (applying a rule), `prover` (Z3's proofs and the budget of
work), `reasoner` (propagation and case splits). What they read of the puzzle is worked out in
`analysis/` (a sum's columns, a product's polynomials, a formula's values with every letter in an
interval), and the formula's own Z3 term comes from the search layer (search/terms.py).
"""

from __future__ import annotations

import time

from smtcrypt.core.check import Problem
from smtcrypt.core.results import Status
from smtcrypt.search import Search
from smtcrypt.teach.explain.person import legend
from smtcrypt.teach.explain.prover import StopSwitch
from smtcrypt.teach.explain.reasoner import Explainer, ReasoningEnd
from smtcrypt.teach.explain.rules import Rule
from smtcrypt.teach.explain.steps import (
    MAX_LISTED,
    Explanation,
    Step,
    StepKind,
    closing_steps,
    condition,
    difficulty,
    solution_step,
    solution_text,
)

__all__ = ["MAX_LISTED", "Explainer", "Explanation", "Rule", "ReasoningEnd", "Step", "StepKind", "StopSwitch",
           "condition", "difficulty", "explain"]

LEAST_LEFT = 1.0  # seconds any later stage of a timed explanation gets, however little of the timeout is left


def explain(problem: Problem, *, timeout: float | None = None, stop: StopSwitch | None = None) -> Explanation:
    """The explanation of a checked puzzle (see the module's docstring): up to `MAX_LISTED`
    solutions from a complete search, then the reasoning, bounded by its work (and by `timeout`
    seconds if given). `stop.request()` (Ctrl-C: from a signal handler or another thread) ends
    whichever stage runs soon, its Z3 call interrupted: the explanation then returned is cut
    short (a caller that stopped it should not show it as the puzzle's)."""
    start = time.monotonic()
    stop = stop if stop is not None else StopSwitch()

    def left() -> float | None:
        return None if timeout is None else max(timeout - (time.monotonic() - start), LEAST_LEFT)

    search = Search(problem, limit=MAX_LISTED + 1, timeout=timeout)
    with stop.acting(search.request_stop):
        solutions = list(search)
    found = [dict(solution.mapping) for solution in solutions]
    if search.reason is not None and not search.complete and len(found) <= MAX_LISTED:
        return Explanation(problem.source, Status.UNKNOWN, (), tuple(found), False, None, time.monotonic() - start)
    count = len(found) if len(found) <= MAX_LISTED else _count(problem, left(), stop)
    status = Status.NONE if not found else (Status.UNIQUE if len(found) == 1 else Status.MULTIPLE)
    letters_only = [{k: v for k, v in s.items() if k in problem.letters} for s in found]
    steps: list[Step] = []
    explainer = None
    if problem.unknowns:  # integer unknowns have no digits to reason about
        ending = ReasoningEnd.UNSUPPORTED
    else:
        explainer = Explainer(problem, left())
        with stop.acting(explainer.request_stop):
            steps, ending = explainer.run(letters_only)
    # a puzzle with several solutions is explained up to where the cases remain, then they are listed
    complete = ending is ReasoningEnd.DONE or (ending is ReasoningEnd.STUCK and status is Status.MULTIPLE)
    shown = [solution_text(solution, problem) for solution in solutions]
    if status is Status.UNIQUE and ending is ReasoningEnd.DONE:
        steps.append(solution_step(shown[0], letters_only[0]))
    elif ending is not ReasoningEnd.DONE:
        steps += closing_steps(shown, count, reasoned=complete)
    told: list[Step] = steps
    notes: tuple[str, ...] = ()
    if explainer is not None:
        with stop.acting(explainer.request_stop):
            told = explainer.person_steps(steps)
        notes = legend(problem, explainer.rules, problem.rules.base)
    return Explanation(problem.source, status, tuple(told), tuple(found[:MAX_LISTED]), complete, count,
                       time.monotonic() - start, tuple(steps), notes)


def _count(problem: Problem, timeout: float | None, stop: StopSwitch) -> int | None:
    """How many solutions a puzzle has, when a complete count finishes in time."""
    search = Search(problem, timeout=timeout, keep=False)
    with stop.acting(search.request_stop):
        counting = search.run()
    return counting.found if counting.complete else None
