"""A problem's facts, each worked out once: many readers ask the same questions of one problem (the
backends' fit tests, the portfolio's stages, the encoders, the planners), so a function of the problem
alone marked `problem_fact` answers each once and keeps the answer in the problem's `memo`, for every
later reader to share, not to change."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from smtcrypt.core.check import Problem

T = TypeVar("T")


def problem_fact(function: Callable[[Problem], T]) -> Callable[[Problem], T]:
    """`function(problem)`, worked out once a problem and kept in its `memo` under the function's name."""
    key = f"{function.__module__}.{function.__qualname__}"

    @functools.wraps(function)
    def once(problem: Problem) -> T:
        memo = problem.memo
        if key not in memo:
            memo[key] = function(problem)
        return memo[key]

    return once
