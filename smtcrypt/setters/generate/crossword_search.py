"""The crossword search: grids built line by line from sums, each line's solutions joined in as it
is placed, so that a grid is cut as soon as its lines so far have no solution together.

A grid's lines share words (a row and a column meet in a cell) and letters, so the join of a few
lines' solution sets is small, while the grids their words could form are many: with words of
one or two letters the letter count never cuts, and millions of grids fill 24 words. So lines
are placed in an order where each one meets the lines before: row 0, column 0, row 1, column 1,
... (row k's first k cells are already the columns' words, column k's first k + 1 the rows'),
and the last row's and last column's common word, the corner, last. Each line is a sum the word
index found (its letters within the base, its magnitudes able to balance); its solutions (all
of them, from the sum kernel, once per key) are joined with the set so far on the letters
they share, all letters distinct. A grid that is reached has its whole solution set at hand.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterator, Sequence
from typing import Any

from smtcrypt.core.rules import Rules
from smtcrypt.engine.sums import SumSearch, digit_mask, sum_solutions
from smtcrypt.setters.generate.index import WordIndex
from smtcrypt.setters.generate.keys import KEY_CACHE, Key, WordTable, key_plan, search_key_cached
from smtcrypt.setters.generate.shapes import letter_mask
from smtcrypt.setters.generate.template import Template, parse_template

__all__ = ["GridSearch", "Joined", "SumTable", "join_line", "line_template"]

Row = tuple[tuple[int, ...], int]  # one solution: the letters' digits, and the digits used as a bit mask
Joined = tuple[tuple[str, ...], list[Row]]  # the letters so far, and every solution of the lines so far
Cell = tuple[int, int]
IndexGrid = tuple[tuple[int, ...], ...]
FEW = 8  # solutions so far that are each extended by a search of their own, not by the sum's whole solution set


def line_template(size: int) -> Template:
    """The sum of one row or column: `A + B = C` for a 3 x 3 grid."""
    slots = [chr(ord("A") + index) for index in range(size)]
    return parse_template(" + ".join(slots[:-1]) + " = " + slots[-1])


@functools.lru_cache(maxsize=KEY_CACHE)
def key_solutions(key: Key, base: int = 10) -> tuple[tuple[int, ...], ...]:
    """Every solution of a sum's key (its letters all distinct), in the key's letter order."""
    return tuple(sum_solutions(key_plan(key, True, base)))


@functools.lru_cache(maxsize=KEY_CACHE)
def solutions_by(key: Key, shared: tuple[int, ...], base: int = 10) -> dict[Any, list[Row]]:
    """A key's solutions by the digits of its letters at the positions `shared`: the digits of the
    others, and those digits as a mask. Lines with one key share the table."""
    others = [position for position in range(len(key)) if position not in shared]
    table: dict[tuple[int, ...], list[Row]] = {}
    one = len(shared) == 1  # one shared letter: its digit is the look-up, as `operator.itemgetter` gives it
    for digits in key_solutions(key, base):
        rest = tuple(digits[position] for position in others)
        found: Any = digits[shared[0]] if one else tuple(digits[position] for position in shared)
        table.setdefault(found, []).append((rest, digit_mask(rest)))
    return table


def join_line(table: WordTable, template: Template, carried: Joined | None, parts: Sequence[str],
              coded: tuple[Key, list[str]] | None = None) -> Joined:
    """The solutions of the lines so far (`carried`; None before the first) that extend to the sum
    `parts` (addends, then result), every letter one digit, all letters distinct; `coded` is the
    sum's key and letters when known."""
    key, letters = coded if coded is not None else table.key(template, tuple(parts))
    if carried is None:
        return tuple(letters), [(digits, digit_mask(digits)) for digits in key_solutions(key, table.base)]
    known, rows = carried
    where = {letter: position for position, letter in enumerate(known)}
    shared = tuple(position for position, letter in enumerate(letters) if letter in where)
    added = known + tuple(letter for letter in letters if letter not in where)
    if len(rows) <= FEW:  # each solution so far: the sum's letters left, solved with the others' digits put in
        picks = [(code >> 1, where[letters[position]]) for position, code in enumerate(key) if position in shared]
        plan = key_plan(tuple(code for position, code in enumerate(key) if position not in shared), True, table.base)
        leads = [where[letters[position]] for position in shared if key[position] & 1]
        return added, [(digits + more, used | digit_mask(more)) for digits, used in rows
                       if all(digits[p] for p in leads)
                       for more in SumSearch(plan, sum(w * digits[p] for w, p in picks), used)]
    extend = solutions_by(key, shared, table.base)
    joined = []
    if shared:
        pick = operator.itemgetter(*[where[letters[position]] for position in shared])
        for digits, used in rows:
            for more, bits in extend.get(pick(digits), ()):
                if not bits & used:
                    joined.append((digits + more, used | bits))
    else:
        for digits, used in rows:
            joined += [(digits + more, used | bits) for more, bits in extend[()] if not bits & used]
    return added, joined


class SumTable:
    """The sums a row or column can be (the word index's candidates, their letters within the base
    and their magnitudes able to balance), by their addends as sorted word indices."""

    def __init__(self, words: Sequence[str], size: int, rules: Rules):
        self.words = list(words)
        self.template = line_template(size)
        self.table = WordTable(words, rules)
        self.base = self.table.base
        self.masks = [letter_mask(word) for word in self.words]
        index = WordIndex(words, self.template, True, self.base, leading_zeros=not self.table.leading,
                          distinct_words=True)
        self.results: dict[tuple[int, ...], list[int]] = {}
        self.count = 0
        for first in range(len(self.words)):
            for parts in index.chunk(first):
                self.results.setdefault(parts[:-1], []).append(parts[-1])
                self.count += 1
        self.by_addend: dict[int, list[tuple[int, ...]]] = {}
        self.parts: set[tuple[int, ...]] = set()  # every part of a sum's addends, sorted
        for addends in self.results:
            for word in addends:
                self.by_addend.setdefault(word, []).append(addends)
            for length in range(1, len(addends)):
                self.parts.update(itertools.combinations(addends, length))
        self.coded: dict[tuple[int, ...], tuple[Key, list[str]]] = {}
        self.grouped: dict[int, list[tuple[int, list[tuple[tuple[int, ...], int]]]]] = {}
        self.addend_masks = {addends: functools.reduce(operator.or_, (self.masks[word] for word in addends))
                             for addends in self.results}

    def coded_sum(self, parts: tuple[int, ...]) -> tuple[Key, list[str]]:
        """The sum's key and its letters in the key's order, once per sum."""
        coded = self.coded.get(parts)
        if coded is None:
            coded = self.coded[parts] = self.table.key(self.template, tuple(self.words[index] for index in parts))
        return coded

    def join(self, carried: Joined | None, addends: Sequence[int], result: int) -> Joined:
        """The solutions so far that extend to this sum; none at once for a sum with no solution of its own
        (that search stops at two solutions, and is shared by the sums of one key)."""
        coded = self.coded_sum((*addends, result))
        if search_key_cached(coded[0], True, self.base)[0] == 0:
            return (), []
        return join_line(self.table, self.template, carried, (), coded)

    def fits(self, addends: Sequence[int], complete: bool) -> bool:
        """Can these words be (`complete`: are they) the addends of a sum?"""
        found = tuple(sorted(addends))
        return found in self.results if complete else found in self.parts

    def lines_with(self, fixed: Sequence[int], mask: int) -> Iterator[tuple[tuple[int, ...], int]]:
        """The sums whose addends hold the words `fixed` (every sum for none), and their results;
        only those whose letters and the letters `mask` the base still holds."""
        base = self.base
        if not fixed:
            for addends in sorted(self.results):
                for result in self.results[addends]:
                    if (self.addend_masks[addends] | self.masks[result]).bit_count() <= base:
                        yield addends, result
            return
        for letters, group in self.by_letters(fixed[0]):
            if (mask | letters).bit_count() <= base:
                for addends, result in group:
                    if all(word in addends for word in fixed):
                        yield addends, result

    def by_letters(self, word: int) -> list[tuple[int, list[tuple[tuple[int, ...], int]]]]:
        """The sums with `word` among their addends, grouped by their letters: a group the letters so
        far leave no room for is passed over whole."""
        found = self.grouped.get(word)
        if found is None:
            groups: dict[int, list[tuple[tuple[int, ...], int]]] = {}
            for addends in self.by_addend.get(word, ()):
                for result in self.results[addends]:
                    groups.setdefault(self.addend_masks[addends] | self.masks[result], []).append((addends, result))
            found = self.grouped[word] = list(groups.items())
        return found


class GridSearch:
    """Grids of word indices with at least one solution, each with its solutions, each puzzle once:
    the top-left (N - 1) x (N - 1) block's least word in its corner, its first row and first column
    increasing, and cell(0, 1) before cell(1, 0). (Permuting the first N - 1 rows, the first N - 1
    columns, or transposing gives the same puzzle; exactly one grid of those is of this form.)"""

    def __init__(self, sums: SumTable, size: int):
        self.sums = sums
        self.size = size
        self.cells: dict[Cell, int] = {}
        self.lines = [line for k in range(size - 1) for line in (self.row(k), self.column(k))]
        last = [self.row(size - 1), self.column(size - 1)]
        # the lines after each step that its cells are in: their words so far must stay part of a sum
        self.ahead = [[later[:-1] for later in (*self.lines[step + 1:], *last) if set(later[:-1]) & set(line)]
                      for step, line in enumerate(self.lines)]

    def row(self, k: int) -> list[Cell]:
        return [(k, column) for column in range(self.size)]

    def column(self, k: int) -> list[Cell]:
        return [(row, k) for row in range(self.size)]

    def grids(self) -> Iterator[tuple[IndexGrid, Joined]]:
        self.cells.clear()
        yield from self.place(0, set(), 0, None)

    def place(self, step: int, used: set[int], mask: int, carried: Joined | None) -> Iterator[tuple[IndexGrid, Joined]]:
        """Lines from `step` on: each a sum holding the words already in its cells."""
        if step == len(self.lines):
            yield from self.corner(used, mask, carried)
            return
        sums, cells = self.sums, self.cells
        line = self.lines[step]
        fixed = [cells[cell] for cell in line[:-1] if cell in cells]
        free = [cell for cell in line[:-1] if cell not in cells]
        for addends, result in sums.lines_with(fixed, mask):
            grown = mask | sums.addend_masks[addends] | sums.masks[result]
            if grown.bit_count() > sums.base or result in used:
                continue
            new = [word for word in addends if word not in fixed]
            if used.intersection(new):
                continue
            orders = [sorted(new)] if step < 2 else itertools.permutations(new)  # row 0, column 0: increasing
            joined: Joined | None = None
            for order in orders:
                if step and not self.in_order(step, order):
                    continue
                placed = [*zip(free, order), (line[-1], result)]
                cells.update(placed)
                if self.ahead_fits(step):
                    if joined is None:
                        joined = sums.join(carried, addends, result)
                    if joined[1]:
                        yield from self.place(step + 1, used | {*new, result}, grown, joined)
                for cell, _ in placed:
                    del cells[cell]
                if joined is not None and not joined[1]:
                    break

    def ahead_fits(self, step: int) -> bool:
        """Are the words in each later line so far part of some sum's addends (all of them, once complete)?"""
        cells = self.cells
        for addends in self.ahead[step]:
            known = [cells[cell] for cell in addends if cell in cells]
            if not self.sums.fits(known, len(known) == len(addends)):
                return False
        return True

    def in_order(self, step: int, order: Sequence[int]) -> bool:
        """Every word after the block's corner word; column 0's next word after cell(0, 1)."""
        corner = self.cells[(0, 0)]
        if step == 1 and order and order[0] < self.cells[(0, 1)]:
            return False
        return all(word > corner for word in order)

    def corner(self, used: set[int], mask: int, carried: Joined | None) -> Iterator[tuple[IndexGrid, Joined]]:
        """The last cell: the result of the last row and of the last column."""
        sums, cells, last = self.sums, self.cells, self.size - 1
        bottom = tuple(sorted(cells[(last, column)] for column in range(last)))
        right = tuple(sorted(cells[(row, last)] for row in range(last)))
        ends = set(sums.results.get(right, ()))
        for word in sums.results.get(bottom, ()):
            if word in used or word not in ends or (mask | sums.masks[word]).bit_count() > sums.base:
                continue
            joined = sums.join(sums.join(carried, bottom, word), right, word)
            if joined[1]:
                cells[(last, last)] = word
                size = self.size
                yield tuple(tuple(cells[(row, column)] for column in range(size)) for row in range(size)), joined
                del cells[(last, last)]
