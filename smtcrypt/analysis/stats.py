"""Search statistics: the size of the brute-force search space, stage timings, Z3's counters.

Puzzle setters compare "a brute force would try N candidates" with what the solver did;
this module only counts, it takes no part in solving or checking.
"""

from __future__ import annotations

import math

from smtcrypt.analysis.unknowns import unknown_values
from smtcrypt.core.check import Problem

MAX_STATES = 200_000  # sets of used digits tracked while counting distinct assignments exactly


def search_space(problem: Problem) -> tuple[int | None, bool]:
    """The number of letter assignments a brute force would try, and whether that number is exact.

    Counts assignments that respect each letter's digits (base, leading zero, --digits, --domain,
    --assign) and, if the rules say so, distinctness, times the values of integer unknowns that the
    formula bounds (see unknowns.py). With an unbounded unknown the space is infinite: (None, True).
    If distinct assignments are too many to count exactly, the product of the domain sizes (an upper
    bound) is returned with False.
    """
    if problem.unknowns:
        values = unknown_values(problem)
        if values is None:
            return None, True
        letters, exact = _letter_space(problem)
        return letters * math.prod(len(domain) for domain in values.values()), exact
    return _letter_space(problem)


def _letter_space(problem: Problem) -> tuple[int, bool]:
    domains = {letter: sorted(problem.allowed[letter]) for letter in problem.letters}
    product = 1
    for domain in domains.values():
        product *= len(domain)
    groups = problem.groups
    if not groups or product == 0:
        return product, True
    grouped = [letter for group in groups for letter in group]
    if len(set(grouped)) != len(grouped):  # overlapping groups: only the bound
        return product, False
    total = 1
    for letter in set(domains) - set(grouped):
        total *= len(domains[letter])
    for group in groups:
        count = _distinct_assignments([domains[letter] for letter in group])
        if count is None:
            return product, False
        total *= count
    return total, True


def _distinct_assignments(domains: list[list[int]]) -> int | None:
    """The ways to give letters with these digits distinct digits (None if too many sets to track)."""
    domains = sorted(domains, key=len)
    if all(set(smaller) <= set(larger) for smaller, larger in zip(domains, domains[1:])):
        nested = 1  # the usual case (0-9, and 1-9 for leading letters): choose from the smallest up
        for taken, domain in enumerate(domains):
            nested *= max(len(domain) - taken, 0)
        return nested
    counts: dict[frozenset[int], int] = {frozenset(): 1}
    for domain in domains:
        following: dict[frozenset[int], int] = {}
        for used, ways in counts.items():
            for digit in domain:
                if digit not in used:
                    key = used | {digit}
                    following[key] = following.get(key, 0) + ways
        counts = following
        if len(counts) > MAX_STATES:
            return None
    return sum(counts.values())


