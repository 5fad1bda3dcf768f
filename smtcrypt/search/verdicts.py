"""The verdicts made without a search's end: a search cut short from outside, a command that ran out
of time, memory or patience before its search began, and a puzzle its notation's own check rules
out. One constructor each, so that every interface says `unknown` and `none` the same way (the
search loop makes the others, from how its search ended)."""

from __future__ import annotations

from collections.abc import Sequence

from smtcrypt.core.results import Ending, Proof, Solution, Status, Verdict
from smtcrypt.core.statistics import Statistics


def unfinished(formula: str, ending: Ending, seconds: float, *, solutions: Sequence[Solution] = (),
               found: int | None = None, strategy: str | None = None) -> Verdict:
    """`unknown`, with what was found so far and `ending` as the reason: never `none`, since the
    search did not end. `found` counts solutions not kept (None: the list holds them all)."""
    stats = Statistics(strategy=strategy, models=len(solutions) if found is None else found)
    return Verdict(formula, Status.UNKNOWN, tuple(solutions), False, ending.value, seconds, stats, found,
                   ending=ending)


def impossible(formula: str, seconds: float) -> Verdict:
    """`none`, complete, for a puzzle its reader found has no solution before any search (enigma.py's
    check that more symbols must differ than there are digits for them)."""
    stats = Statistics(search_space=0, search_space_exact=True, seconds={"read": round(seconds, 6)})
    return Verdict(formula, Status.NONE, (), True, None, seconds, stats, ending=Ending.COMPLETE, proof=Proof.SYMBOLS)
