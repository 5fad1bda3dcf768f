"""Search statistics: the size of the brute-force search space, counted once for every reader.

Puzzle setters compare "a brute force would try N candidates" with what the solver did; the
backends count their own spaces (a join's sides, a cube's completions, a sum's nodes) with the same
counters. Nothing here takes part in solving or checking.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from smtcrypt.analysis.unknowns import unknown_values, values_count
from smtcrypt.core.check import Problem

MAX_STATES = 200_000  # sets of used digits tracked while counting distinct assignments exactly


def search_space(problem: Problem) -> tuple[int | None, bool]:
    """The letter assignments a brute force would try (each letter's digits, distinct where the rules
    say so, times the values of the unknowns the formula bounds), and whether that count is exact:
    (None, True) with an unbounded unknown; the domains' product, a bound, with False where the
    distinct assignments are too many to count."""
    values = unknown_values(problem, None) if problem.unknowns else {}
    if values is None:
        return None, True
    scale = math.prod(values_count(domain) for domain in values.values())
    product = math.prod(len(problem.allowed[letter]) for letter in problem.letters)
    grouped = [letter for group in problem.groups for letter in group]
    if not grouped or not product:
        return product * scale, True
    if len(set(grouped)) != len(grouped):  # overlapping groups: only the bound
        return product * scale, False
    total = math.prod(len(problem.allowed[letter]) for letter in set(problem.letters) - set(grouped))
    try:
        for group in problem.groups:
            total *= distinct_completions([problem.allowed[letter] for letter in group], most=MAX_STATES)
    except OverflowError:
        return product * scale, False
    return total * scale, True


def choices(sizes: Iterable[int], distinct: bool, most: float = math.inf) -> int:
    """The ways letters with this many digits each take them, fewest first, each later letter losing
    one digit to each earlier one where all differ: exact where the domains nest (1-9 within 0-9);
    the count stops once past `most`."""
    total = 1
    for taken, size in enumerate(sorted(sizes)):
        total *= max(size - taken, 0) if distinct else size
        if total > most:
            break
    return total


def space(problem: Problem, letters: Iterable[str] | None = None, taken: int = 0) -> int:
    """The digit tuples the rules allow these letters (all the formula's by default), as the join's
    sides try them: permutations of the digits any of them may take, less the `taken` digits of a
    match they are tried beside (each letter's own digits where letters need not differ)."""
    domains = [problem.allowed[letter] for letter in (problem.letters if letters is None else letters)]
    if problem.distinctness == "all":
        return choices([len(set().union(*domains)) - taken] * len(domains), True)
    return choices(map(len, domains), False)


def distinct_completions(domains: list[frozenset[int]], used: frozenset[int] = frozenset(),
                         most: float = math.inf) -> int:
    """How many ways the letters with these domains take distinct digits none of which is in `used`.
    Nested domains are counted at once (`choices`); otherwise the digits every domain holds are
    interchangeable, so only how many of them are taken is kept, beside the set of the other digits
    taken: the states stay few where domains differ in a few digits, where a set of all digits taken
    would number C(40, 10) in base 40. OverflowError past `most` states."""
    domains = sorted((domain - used for domain in domains), key=len)
    if all(smaller <= larger for smaller, larger in zip(domains, domains[1:])):
        return choices(map(len, domains), True)
    common = frozenset.intersection(*domains)
    ways: dict[tuple[frozenset[int], int], int] = {(frozenset(), 0): 1}
    for domain in domains:
        following: dict[tuple[frozenset[int], int], int] = {}
        for (taken, shared), count in ways.items():
            if shared < len(common):  # any of the common digits not yet taken
                key = (taken, shared + 1)
                following[key] = following.get(key, 0) + count * (len(common) - shared)
            for digit in domain - common - taken:
                key = (taken | {digit}, shared)
                following[key] = following.get(key, 0) + count
        ways = following
        if len(ways) > most:
            raise OverflowError("too many sets of digits to track")
    return sum(ways.values())
