"""The formula compiled once into Python: one generated function that tries candidate digit tuples.

The formula becomes the body of one loop over the digit tuples the rules allow (then the values of
the integer unknowns the formula bounds), written node by node by compiled_writer.py with the exact
semantics of the re-check and only compiled_runtime.py's helpers as its globals. The exhaustive
backend runs it on every assignment (see exhaustive.py for why); the join and linear backends on a
side of an equation, or on the rest of a formula.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.analysis.unknowns import Values, unknown_values
from smtcrypt.core.check import Problem
from smtcrypt.engine.base import Assignment
from smtcrypt.engine.compiled_runtime import HELPERS
from smtcrypt.engine.compiled_writer import NotCompilable, Writer

Digits = tuple[int, ...]


@dataclass
class Compiled:
    """The problem as one generated function: `scan(candidates)` is the list of those that solve it."""

    problem: Problem
    free: tuple[str, ...]  # the letters the loop assigns, in the order of a candidate tuple
    fixed: dict[str, int]  # letters the rules fix to one digit
    source: str  # the generated code, for tests and the curious
    scan: Callable[[Iterable[Digits]], list[Digits]]
    unknowns: dict[str, Values] = field(default_factory=dict)  # each bounded unknown's values, after the letters

    def assignment(self, digits: Digits) -> Assignment:
        """The letters' digits (and the unknowns' values), alphabetically."""
        values = dict(zip((*self.free, *self.unknowns), digits))
        if self.fixed or self.unknowns:
            values.update(self.fixed)
            return {name: values[name] for name in sorted(values)}
        return values


def define_scan(source: str, constants: list[Any], helpers: Mapping[str, Any] | None = None,
                filename: str = "<smtcrypt formula>") -> Callable[..., Any]:
    """The function `_scan` that `source` defines, run with only the helpers and the constants `_K`
    as its globals (no builtins); `NotCompilable` if Python cannot compile code that deep."""
    namespace: dict[str, Any] = dict(HELPERS, **(helpers or {}), _K=tuple(constants), __builtins__={})
    try:
        exec(compile(source, filename, "exec"), namespace)
    except (SyntaxError, RecursionError, MemoryError) as error:  # too deep for Python's own parser
        raise NotCompilable(f"the formula is too deeply nested to compile ({type(error).__name__})") from None
    return namespace["_scan"]


def compile_problem(problem: Problem) -> Compiled:
    """The problem's constraints as one loop over candidate digit tuples (each unknown's value after the
    digits); `NotCompilable` for integer unknowns the formula leaves unbounded, or code too deep to compile."""
    bounded: dict[str, Values] = {}
    if problem.unknowns:
        found = unknown_values(problem)
        if found is None:
            raise NotCompilable("integer unknowns that the formula does not bound (such as 0 <= x <= 9) "
                                "have no finite set of values to try")
        bounded = {name: found[name] for name in sorted(found)}
    fixed = {letter: next(iter(problem.allowed[letter])) for letter in problem.letters
             if len(problem.allowed[letter]) == 1}
    # assignments come out alphabetical
    free = tuple(sorted(letter for letter in problem.letters if letter not in fixed))
    names = ({letter: f"v{index}" for index, letter in enumerate(free)} | {letter: str(digit) for letter, digit
             in fixed.items()} | {name: f"u{index}" for index, name in enumerate(bounded)})
    writer = Writer(problem, names)
    body = " and ".join(f"{writer.write(constraint)}" for constraint in problem.formula.constraints)
    target = "(" + "".join(f"{names[name]}, " for name in (*free, *bounded)) + ")"
    source = scan_source(target, filters(problem, free, fixed, writer), body, target, writer.may_fail)
    return Compiled(problem, free, fixed, source, define_scan(source, writer.constants), bounded)


def scan_source(target: str, conditions: list[str], test: str | None, hit: str, may_fail: bool) -> str:
    """The code of `_scan`: each candidate `target` that meets the conditions and the `test` (if any)
    kept as `hit`; where the test `may_fail`, a candidate it fails with an ArithmeticError is none."""
    body = [f"_keep({hit})"] if test is None else [f"if {test}:", f"    _keep({hit})"]
    if may_fail:
        body = ["try:", *[f"    {line}" for line in body], "except ArithmeticError:", "    pass"]
    if conditions:
        body = [f"if {' and '.join(conditions)}:", *[f"    {line}" for line in body]]
    head = f"def _scan(_candidates):\n    _hits = []\n    _keep = _hits.append\n    for {target} in _candidates:\n"
    return head + "".join(f"        {line}\n" for line in body) + "    return _hits\n"


def filters(problem: Problem, free: tuple[str, ...], fixed: dict[str, int], writer: Writer) -> list[str]:
    """Conditions on a candidate that the candidates themselves do not already meet."""
    pool = candidate_digits(problem, free, fixed)
    if pool is None:  # letters drawn each from its own digits; only some of them must differ
        variable = {letter: f"v{position}" for position, letter in enumerate(free)}
        return [f"_len({{{', '.join(variable.get(letter) or str(fixed[letter]) for letter in group)}}}) == {len(group)}"
                for group in problem.groups]
    return [f"v{index}" if pool - problem.allowed[letter] == {0} else
            f"v{index} in {writer.constant(frozenset(problem.allowed[letter]))}"
            for index, letter in enumerate(free) if not problem.allowed[letter] >= pool]


def candidate_digits(problem: Problem, free: tuple[str, ...], fixed: dict[str, int]) -> frozenset[int] | None:
    """The digits distinct free letters are drawn from (None unless every letter must differ)."""
    if problem.distinctness != "all":
        return None
    pool = frozenset().union(*(problem.allowed[letter] for letter in free)) if free else frozenset()
    return pool - set(fixed.values())
