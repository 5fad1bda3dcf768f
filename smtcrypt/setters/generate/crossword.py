"""Crosswords: N x N grids of distinct words whose rows and columns are sums (Cryptagen's genre).

In each row and each column, the first N - 1 words add up to the last: for N = 3, row r is
cell(r, 0) + cell(r, 1) = cell(r, 2) and column c is cell(0, c) + cell(1, c) = cell(2, c). The
grid is one puzzle (its 2N equations joined with `and`): no word twice, every letter one digit
across the whole grid (so at most as many letters as the base has digits), no leading zero, and
it counts when it has exactly one solution. A grid and the grids that permuting its first N - 1
rows, its first N - 1 columns, or transposing it give are one puzzle, listed once.

The grids come from `crossword_search`, built line by line from sums with their solution sets
joined as they go: a grid that is reached has its whole solution set at hand, and one with
exactly one solution is confirmed by the exact re-check and, with `confirm`, by the solver's own
proof of the whole formula.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.results import Solution, Status, fill_in
from smtcrypt.core.rules import Rules, rules_of
from smtcrypt.core.verify import satisfies
from smtcrypt.setters.generate.crossword_search import GridSearch, Joined, SumTable, join_line, line_template
from smtcrypt.setters.generate.decide import SolverProof
from smtcrypt.setters.generate.keys import WordTable
from smtcrypt.setters.generate.results import VERDICTS
from smtcrypt.setters.generate.rules import RuleOptions, given_rules
from smtcrypt.setters.generate.shapes import clean

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["CROSSWORD_RULES", "Crossword", "CrosswordTotals", "Grid", "crossword_candidates", "crossword_formula",
           "crossword_layout", "generate_crosswords", "grid_equations", "grid_solutions"]

Grid = tuple[tuple[str, ...], ...]  # rows of words
Equation = tuple[tuple[str, ...], str]  # the addends and the result of one row or column
CROSSWORD_RULES = {"base", "allow_leading_zeros"}  # the rules a crossword run takes (all letters distinct)
MAX_SIZE = 6  # grids up to 6 x 6: 36 distinct words


def grid_equations(grid: Grid) -> list[Equation]:
    """The rows' sums, then the columns': each line's first N - 1 words add up to its last."""
    columns = list(zip(*grid))
    return [(tuple(line[:-1]), line[-1]) for line in (*grid, *columns)]


def crossword_formula(grid: Grid) -> str:
    """The grid as one formula `smtcrypt` reads: its sums joined with `and`."""
    return " and ".join(f"{' + '.join(addends)} = {result}" for addends, result in grid_equations(grid))


def crossword_layout(grid: Grid, mapping: dict[str, int] | None = None, base: int = 10) -> str:
    """The grid as printed: each row a sum, and between rows the columns' operators (`+`, then `=`
    before the last row); with `mapping`, the numbers instead of the words."""
    cells = [[word if mapping is None else number(word, mapping, base) for word in row] for row in grid]
    widths = [max(len(row[column]) for row in cells) for column in range(len(grid))]
    size = len(grid)

    def line(texts: Sequence[str]) -> str:
        padded = [text.rjust(width) for text, width in zip(texts, widths)]
        return " + ".join(padded[:-1]) + " = " + padded[-1]

    def operators(sign: str) -> str:  # each column's operator, under the middle of its words
        return "   ".join(sign.center(width) for width in widths).rstrip()

    lines = []
    for index, row in enumerate(cells):
        if index:
            lines.append(operators("=" if index == size - 1 else "+"))
        lines.append(line(row))
    return "\n".join(lines)


def number(word: str, mapping: dict[str, int], base: int) -> str:
    """A word's digits under `mapping` (digits past 9 as letters, as the formula's base prints them)."""
    value = 0
    for letter in word:
        value = value * base + mapping[letter]
    digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    text = ""
    while True:
        value, digit = divmod(value, base)
        text = digits[digit] + text
        if not value:
            return text.rjust(len(word), "0")


@dataclass(frozen=True)
class Crossword:
    """A crossword with exactly one solution, proved: its grid and the solution."""

    grid: Grid
    solution: Solution
    base: int = 10

    @property
    def formula(self) -> str:
        return crossword_formula(self.grid)

    @property
    def layout(self) -> str:
        return crossword_layout(self.grid)

    @property
    def solved_layout(self) -> str:
        return crossword_layout(self.grid, self.solution.mapping, self.base)


@dataclass
class CrosswordTotals:
    """What a crossword run did: the sums a line can be, the grids built from them and each
    grid's verdict (keyed by the status's name)."""

    words: int = 0
    skipped_words: int = 0  # not made of the letters A-Z only
    sums: int = 0  # sums of N - 1 distinct words onto another that pass the letter and magnitude filters
    grids: int = 0  # grids of such sums, each with a solution of its own: the candidates decided
    verdicts: dict[str, int] = field(default_factory=lambda: {status.value: 0 for status in VERDICTS})
    seconds: float = 0.0

    def count(self, status: Status) -> None:
        self.verdicts[status.value] += 1


def crossword_candidates(words: Sequence[str], size: int = 3, *, rules: Rules | None = None,
                         **options: Unpack[RuleOptions]) -> Iterator[tuple[Grid, int]]:
    """The grids a run decides (each puzzle once, each with a solution) and how many solutions each has."""
    sums = SumTable(words, size, rules_of(rules, options))
    for indices, joined in GridSearch(sums, size).grids():
        yield tuple(tuple(sums.words[index] for index in row) for row in indices), len(joined[1])


def grid_solutions(grid: Grid, *, rules: Rules | None = None, **options: Unpack[RuleOptions]) -> list[dict[str, int]]:
    """Every solution of any grid of words (its lines' solution sets joined), under `rules` or the
    rule keywords (`base`, `allow_leading_zeros`)."""
    table = WordTable([word for row in grid for word in row], rules_of(rules, options))
    template = line_template(len(grid))
    joined: Joined | None = None
    for addends, result in grid_equations(grid):
        joined = join_line(table, template, joined, (*addends, result))
    assert joined is not None
    return [dict(zip(joined[0], digits)) for digits, _ in joined[1]]


def confirmed(grid: Grid, mapping: dict[str, int], rules: Rules,
              proof: SolverProof | None) -> Solution | None:
    """The exact re-check of the grid's one solution and, given a `proof`, the solver's own verdict
    on the whole formula; None if either disagrees (such a grid is never reported)."""
    problem = check(parse(crossword_formula(grid)), rules)
    if not satisfies(problem, mapping) or (proof is not None and not proof.unique(problem, mapping)):
        return None
    return Solution(mapping, fill_in(problem, mapping))


def crossword_size(size: int) -> None:
    """Refuse a grid size a crossword run does not take, before any work starts."""
    if not 3 <= size <= MAX_SIZE:
        raise ValueError(f"a crossword is 3 x 3 to {MAX_SIZE} x {MAX_SIZE} words, not {size} x {size}")


def crossword_rules(rules: Rules) -> None:
    """Refuse rules a crossword run does not take (its search models distinct letters only), before
    any work starts."""
    other = sorted(set(given_rules(rules)) - CROSSWORD_RULES)
    if other:
        raise ValueError(f"crosswords take the rules base and allow_leading_zeros only, not {', '.join(other)}")


def generate_crosswords(words: Iterable[str], size: int = 3, *, limit: int | None = None, confirm: bool = False,
                        totals: CrosswordTotals | None = None,
                        progress: Callable[[CrosswordTotals], None] | None = None, rules: Rules | None = None,
                        **options: Unpack[RuleOptions]) -> Iterator[Crossword]:
    """Every `size` x `size` crossword over `words` with exactly one solution, proved; `totals` is filled in.

    Rows and columns are sums of their first `size - 1` words onto the last, no word twice in the
    grid, every letter one digit across it. `rules` (a `Rules`), or the rule keywords as for
    `Puzzle`, may set `base` and `allow_leading_zeros`.
    Each grid is decided exhaustively by joining its sums' solutions; the exact re-check confirms
    each one found unique and, with `confirm`, the solver proves it a second time.
    """
    crossword_size(size)
    ruled = rules_of(rules, options)  # made once: every grid is re-checked under them as they are
    crossword_rules(ruled)
    totals = totals if totals is not None else CrosswordTotals()
    start = time.monotonic()
    kept, totals.skipped_words = clean(words)
    totals.words = len(kept)
    sums = SumTable(kept, size, ruled)
    totals.sums = sums.count
    proof = SolverProof() if confirm else None
    reported = 0
    try:
        for indices, joined in GridSearch(sums, size).grids():
            grid = tuple(tuple(sums.words[index] for index in row) for row in indices)
            totals.grids += 1
            status, solution = decide_grid(grid, joined, ruled, proof)
            totals.count(status)
            totals.seconds = time.monotonic() - start
            if progress is not None:
                progress(totals)
            if solution is not None:
                yield Crossword(grid, solution, sums.base)
                reported += 1
                if limit is not None and reported >= limit:
                    return
    finally:
        totals.seconds = time.monotonic() - start


def decide_grid(grid: Grid, joined: Joined, rules: Rules,
               proof: SolverProof | None) -> tuple[Status, Solution | None]:
    """A grid's verdict from its solution set; one found unique is confirmed (else unknown)."""
    letters, rows = joined
    if len(rows) != 1:
        return (Status.NONE if not rows else Status.MULTIPLE), None
    solution = confirmed(grid, dict(sorted(zip(letters, rows[0][0]))), rules, proof)
    return (Status.UNIQUE, solution) if solution is not None else (Status.UNKNOWN, None)
