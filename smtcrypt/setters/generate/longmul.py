"""Long multiplications whose every printed row is a word of the list, unique as printed.

A puzzle is a multiplicand, a multiplier of two letters or more, one partial product per nonzero
multiplier digit (the last digit's first, each ending under its digit) and the product, all words
of the list, printed as `smtcrypt --layout` reads it back. A multiplier letter with no row is 0
(at most one letter can be, and never the multiplier's first): which rows a puzzle prints is part
of the puzzle, and a puzzle counts when the formula its layout makes has exactly one solution.

The enumeration, for each multiplicand A (one chunk of work):
1. each multiplier B whose letters with A's are at most ten, and each choice of its zero letter
   (none, or one of B's letters other than its first);
2. for each other letter of B, the words that can be its partial product: n or n+1 letters for
   an n-letter A, a first letter not the zero letter, at most ten letters with A and B, and a
   digit search that finds A times that letter's digit can spell the word at all (once per A,
   word and the letter's part in them, remembered for the whole chunk);
3. one word per letter, distinct letters taking distinct words, at most ten letters in all;
4. the digits backend's search of those rows (`multiply`): every assignment, each giving the
   product's digits, so the product words are looked up by their pattern of letters and counted
   (never tried one by one). A product word spelled by exactly one assignment makes a unique
   puzzle, which the exact evaluator re-checks and, with `confirm`, the solver proves unique
   again on the layout's own formula before it is reported.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.core.results import Solution
from smtcrypt.core.tree import BoolOp, Constraints, Span
from smtcrypt.notations.layout import PrintedLayout, parse_layout
from smtcrypt.search import DEFAULT_TIMEOUT
from smtcrypt.setters.distribute import PerThread, run_chunks
from smtcrypt.setters.generate.decide import Setting, SolverProof, confirm_unique, load_solver
from smtcrypt.setters.generate.multiply import (
    BASE,
    PartialProducts,
    State,
    extend,
    letter_id,
    number,
    pattern,
    product_digits,
    solutions,
    spells,
)
from smtcrypt.setters.generate.partials import TABLE_LIMIT, PartialTable, values_count
from smtcrypt.setters.generate.results import hand_out
from smtcrypt.setters.generate.rules import DEFAULT_RULES
from smtcrypt.setters.generate.shapes import clean, letter_mask

SHAPE = "long multiplication"
CHOICE_CACHE = 10_000  # sets of multiplier letters whose choices of rows one chunk remembers
Choice = tuple[tuple[str, str], ...]  # (multiplier letter, partial product) for each letter


@dataclass(frozen=True)
class LongMultiplication:
    """The words of a printed long multiplication: `rows` are the partial products, the
    multiplier's last digit's first, one per multiplier letter that is not `zero`."""

    multiplicand: str
    multiplier: str
    rows: tuple[str, ...]
    product: str
    zero: str | None = None

    def places(self) -> list[tuple[int, str]]:
        """(place, partial product) for each row: place 0 is the multiplier's last digit."""
        places = [place for place, letter in enumerate(reversed(self.multiplier)) if letter != self.zero]
        return list(zip(places, self.rows))

    def layout(self) -> str:
        """As printed, right-aligned, each partial product ending under its multiplier digit."""
        lines = [(self.multiplicand, 0), ("x " + self.multiplier, 0)]
        lines += [(word, place) for place, word in self.places()]
        width = max(len(text) + shift for text, shift in lines + [(self.product, 0)]) + 2
        printed = [" " * (width - len(text) - shift) + text for text, shift in lines]
        rule = " " * 2 + "-" * (width - 2)
        printed[2:2] = [rule]
        return "\n".join(printed + [rule, " " * (width - len(self.product)) + self.product])

    def formula(self) -> str:
        """The layout's equations (as `smtcrypt --layout` reads them), joined with `and`."""
        return formula_of(parse_layout(self.layout()))


def formula_of(layout: PrintedLayout) -> str:
    """A layout's equations as formula text, joined with `and` (to be shown)."""
    return " and ".join(layout.formula(BASE).splitlines())


def tree_of(layout: PrintedLayout) -> Constraints:
    """The tree of `formula_of`'s text, made from the layout's own nodes: its equations under one `and`,
    their spans in the layout's text."""
    equations = layout.constraints(BASE)
    whole = Span(0, len(layout.text), 1, 1)
    return Constraints((equations[0] if len(equations) == 1 else BoolOp("and", equations, whole),), layout.text)


@dataclass(frozen=True)
class GeneratedLayout:
    """A unique puzzle: its words, formula, layout as printed and its one solution."""

    puzzle: LongMultiplication
    formula: str
    layout: str
    solution: Solution


@dataclass
class LongTotals:
    """What a run did: (multiplicand, multiplier, zero letter) frames within ten letters; sets of
    partial products (the candidates) that some assignment fits; and the puzzles those make with
    a product word, by verdict (`unknown`: the re-check or the solver did not confirm it)."""

    words: int = 0
    skipped_words: int = 0
    frames: int = 0
    pair_checks: int = 0  # digit searches of one partial product against the multiplicand
    candidates: int = 0  # sets of partial products with an assignment
    assignments: int = 0  # assignments of the candidates' letters
    no_product: int = 0  # candidates whose assignments spell no word of the list as the product
    verdicts: dict[str, int] = field(default_factory=lambda: {"unique": 0, "multiple": 0, "unknown": 0})
    seconds: float = 0.0
    chunks: int = 0
    chunks_done: int = 0

    def add(self, other: LongTotals) -> None:
        for name in ("frames", "pair_checks", "candidates", "assignments", "no_product"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name, value in other.verdicts.items():
            self.verdicts[name] += value

    def to_data(self) -> dict[str, Any]:
        return {"frames": self.frames, "pair_checks": self.pair_checks, "candidates": self.candidates,
                "assignments": self.assignments, "no_product": self.no_product, **self.verdicts}


@dataclass
class LongBlock:
    """One multiplicand's puzzles and totals."""

    totals: LongTotals
    puzzles: list[GeneratedLayout]


class PatternWords:
    """The run's words with their letter sets, and the words of each pattern of letters."""

    def __init__(self, words: Sequence[str]):
        self.words = list(words)
        self.masks = {word: letter_mask(word) for word in self.words}
        self.by_pattern: dict[tuple[int, ...], list[str]] = {}
        for word in self.words:
            self.by_pattern.setdefault(pattern(word), []).append(word)


def letter_count(mask: int) -> int:
    return bin(mask).count("1")


class Multiplicand:
    """The candidates led by one multiplicand A, and what each partial product can be with it:
    for a multiplier letter and a word, every value of A (with the letter's digit) under which A
    times that digit spells the word, found once per word and the letter's part in it."""

    def __init__(self, table: PatternWords, word: str, totals: LongTotals):
        self.table, self.word, self.totals = table, word, totals
        self.mask = table.masks[word]
        self.pool = [other for other in table.words if len(other) in (len(word), len(word) + 1)
                     and letter_count(self.mask | table.masks[other]) <= BASE]
        self.known: dict[tuple[str, str], dict[int, list[int]]] = {}  # (row word, letter or *) -> {A: digits}
        self.by_letter: dict[str, list[str]] = {}
        self.ends: dict[tuple[int, int], set[str]] = {}
        self.chosen: dict[tuple[tuple[str, ...], str | None, int], list[tuple[Choice, dict[int, list[State]]]]] = {}
        self.table_of = PartialTable(word, self.pool) if values_count(word) <= TABLE_LIMIT else None

    def values(self, letter: str, word: str) -> dict[int, list[int]]:
        """A's values under which A times the letter's digit spells `word`, each with the digits
        that do (a letter in neither word can take several)."""
        known = self.known.get((word, letter))
        if known is None:
            role = letter if letter in self.word or letter in word else "*"  # any letter they lack alike
            known = self.known.get((word, role))
            if known is None:
                known = self.search(letter, word)
                self.known[(word, role)] = known
            self.known[(word, letter)] = known
        return known

    def search(self, letter: str, word: str) -> dict[int, list[int]]:
        if self.table_of is not None:
            return self.table_of.values(letter, word)
        self.totals.pair_checks += 1
        found: dict[int, list[int]] = {}
        for value in solutions(PartialProducts(self.word, ((letter, word),))):
            found.setdefault(number(self.word, value), []).append(value[letter_id(letter)])
        return found

    def partials(self, letter: str) -> list[str]:
        """The words that A times `letter`'s digit can spell, for some assignment."""
        found = self.by_letter.get(letter)
        if found is None:
            found = self.by_letter[letter] = [word for word in self.pool if self.values(letter, word)]
        return found

    def frames(self) -> Iterator[tuple[str, str | None]]:
        """(multiplier, zero letter or None) within ten letters in all."""
        for multiplier in self.table.words:
            if len(multiplier) < 2 or letter_count(self.mask | self.table.masks[multiplier]) > BASE:
                continue
            yield multiplier, None
            for letter in dict.fromkeys(multiplier[1:]):
                if letter != multiplier[0] and letter != self.word[0]:
                    yield multiplier, letter

    def row_sets(self, multiplier: str, zero: str | None) -> Iterator[tuple[PartialProducts, list[list[int]]]]:
        """Every choice of a partial product per nonzero multiplier letter that passes the filters
        and has a value of A in common, with its assignments."""
        letters = [letter for letter in dict.fromkeys(reversed(multiplier)) if letter != zero]
        mask = self.mask | self.table.masks[multiplier]
        ends = self.product_ends(len(multiplier), mask)
        if multiplier[-1] == zero and zero not in ends:
            return
        options = []
        for letter in letters:  # the product's units digit is the last row's, its last letter that row's
            words = [word for word in self.partials(letter) if word[0] != zero
                     and letter_count(mask | self.table.masks[word]) <= BASE
                     and (letter != multiplier[-1] or word[-1] in ends)]
            if not words:
                return
            options.append((letter, words))
        options.sort(key=lambda option: len(option[1]))
        key = (tuple(letters), zero, len(multiplier))
        if key not in self.chosen:  # multipliers with the same letters have the same rows
            if len(self.chosen) >= CHOICE_CACHE:
                self.chosen.clear()
            self.chosen[key] = list(self.combine(options, mask, zero, (), None))
        for chosen, states in self.chosen[key]:
            self.totals.candidates += 1
            rows = PartialProducts(self.word, tuple((letter, dict(chosen)[letter]) for letter in letters), zero)
            yield rows, [state[0] for group in states.values() for state in group]

    def product_ends(self, size: int, mask: int) -> set[str]:
        """The last letters of the words that can be the product of A and a multiplier of `size`
        letters whose letters with A's are `mask`: n + size - 1 or n + size letters, ten in all."""
        key = (size, mask)
        ends = self.ends.get(key)
        if ends is None:
            lengths = (len(self.word) + size - 1, len(self.word) + size)
            ends = self.ends[key] = {word[-1] for word in self.table.words if len(word) in lengths
                                     and letter_count(mask | self.table.masks[word]) <= BASE}
        return ends

    def combine(self, options: list[tuple[str, list[str]]], mask: int, zero: str | None, chosen: Choice,
                states: dict[int, list[State]] | None) -> Iterator[tuple[Choice, dict[int, list[State]]]]:
        """One word for each letter, all different, at most ten letters in all, with the
        assignments of the rows so far (by A's value): a choice that leaves none ends its branch.
        The first row's assignments are made with the second's (alone, most values of A fit it)."""
        level = len(chosen)
        if level == len(options):
            found = states if states is not None else self.grow(None, chosen, zero)
            if found:
                yield chosen, found
            return
        letter, words = options[level]
        for word in words:
            joined = mask | self.table.masks[word]
            if letter_count(joined) > BASE or any(word == other for _, other in chosen):
                continue
            rows = chosen + ((letter, word),)
            grown = None if level == 0 else self.grow(states, rows if level == 1 else rows[-1:], zero)
            if grown is None or grown:
                yield from self.combine(options, joined, zero, rows, grown)

    def grow(self, states: dict[int, list[State]] | None, rows: Choice, zero: str | None) -> dict[int, list[State]]:
        """The assignments with these rows more (from A alone if `states` is None): A times each
        row's letter's digit spelling its word."""
        maps = [self.values(letter, word) for letter, word in rows]
        common = set(maps[0]) if states is None else set(states)
        for values in maps[states is None:]:
            common.intersection_update(values)
        grown: dict[int, list[State]] = {}
        for value in common:
            current = start(self.word, value, zero) if states is None else states[value]
            for (letter, word), values in zip(rows, maps):
                current = [extended for state in current for digit in values[value]
                           if (extended := extend(state, ((letter, digit), (word, value * digit)))) is not None]
            if current:
                grown[value] = current
        return grown


def start(multiplicand: str, value: int, zero: str | None) -> list[State]:
    """The multiplicand with this value, and the zero letter 0: one state, or none if they clash."""
    state = extend(([-1] * 26, [-1] * BASE), [(multiplicand, value)] + ([(zero, 0)] if zero is not None else []))
    return [] if state is None else [state]


@dataclass(frozen=True)
class Spelled:
    """A product word and the assignments that spell it: how many, and the first one."""

    count: int
    mapping: dict[str, int]


def products(table: PatternWords, rows: PartialProducts, multiplier: str,
             assignments: list[list[int]]) -> dict[str, Spelled]:
    """Each product word the rows' assignments spell, with how many do."""
    found: dict[str, Spelled] = {}
    letters = rows.letters()
    for value in assignments:
        digits = product_digits(rows.multiplicand, multiplier, value)
        used = 0
        for digit in value:
            if digit >= 0:
                used |= 1 << digit
        for word in table.by_pattern.get(pattern(digits), ()):
            if spells(word, digits, value, used):
                known = found.get(word)
                if known is None:
                    mapping = {letter: value[letter_id(letter)] for letter in letters}
                    mapping.update(zip(word, map(int, digits)))
                    found[word] = Spelled(1, dict(sorted(mapping.items())))
                else:
                    found[word] = Spelled(known.count + 1, known.mapping)
    return found


class Chunk:
    """Decides the candidates of one run, one multiplicand at a time, in one process."""

    def __init__(self, words: Sequence[str], setting: Setting):
        self.table = PatternWords(words)
        self.setting = setting
        self.proof = SolverProof() if setting.confirm else None

    def block(self, index: int) -> LongBlock:
        totals = LongTotals()
        puzzles: list[GeneratedLayout] = []
        multiplicand = Multiplicand(self.table, self.table.words[index], totals)
        for multiplier, zero in multiplicand.frames():
            totals.frames += 1
            for rows, assignments in multiplicand.row_sets(multiplier, zero):
                totals.assignments += len(assignments)
                found = products(self.table, rows, multiplier, assignments)
                totals.no_product += not found
                for product, spelled in found.items():
                    if spelled.count > 1:
                        totals.verdicts["multiple"] += 1
                        continue
                    puzzle = LongMultiplication(self.table.words[index], multiplier, by_place(rows, multiplier),
                                                product, zero)
                    generated = self.confirmed(puzzle, spelled.mapping)
                    totals.verdicts["unique" if generated is not None else "unknown"] += 1
                    if generated is not None:
                        puzzles.append(generated)
        return LongBlock(totals, puzzles)

    def confirmed(self, puzzle: LongMultiplication, mapping: dict[str, int]) -> GeneratedLayout | None:
        """The puzzle, if the exact evaluator (and with `confirm` the solver) agrees that its
        layout's formula has just this solution."""
        layout = puzzle.layout()
        read = parse_layout(layout)  # as `smtcrypt --layout` reads the puzzle printed
        formula = formula_of(read)
        proof = self.proof.unique if self.proof is not None else None
        solution = confirm_unique(self.setting, formula, mapping, proof, tree_of(read))
        if solution is None:
            return None
        filled = "".join(str(mapping[ch]) if "A" <= ch <= "Z" else ch for ch in layout)
        return GeneratedLayout(puzzle, formula, layout, Solution(solution.mapping, filled))


def by_place(rows: PartialProducts, multiplier: str) -> tuple[str, ...]:
    """The partial products as printed: one per multiplier digit that is not the zero letter,
    the last digit's first (a letter used twice prints its row twice)."""
    word_of = dict(rows.rows)
    return tuple(word_of[letter] for letter in reversed(multiplier) if letter != rows.zero)


_chunks = PerThread()


@dataclass(frozen=True)
class LongTask:
    """One run's work, sent once to each process: `task(index)` is the chunk of the candidates
    led by the multiplicand words[index]."""

    words: tuple[str, ...]
    setting: Setting
    token: str = field(default_factory=lambda: uuid.uuid4().hex)

    def __call__(self, index: int) -> LongBlock:
        chunk: Chunk = _chunks.get(self.token, lambda: Chunk(self.words, self.setting))
        return chunk.block(index)


def long_multiplications(words: Iterable[str], *, limit: int | None = None, timeout: float = DEFAULT_TIMEOUT,
                         confirm: bool = False, jobs: int = 1, totals: LongTotals | None = None,
                         progress: Callable[[LongTotals], None] | None = None) -> Iterator[GeneratedLayout]:
    """Every long multiplication over `words` (multiplier of two letters or more) whose every
    printed row is a word and whose layout has exactly one solution, proved; `totals` is filled in.

    The rules are the default ones (distinct letters, no leading zero, base 10). Each puzzle is
    found by the exhaustive digit search, re-checked by the exact evaluator and, with `confirm`,
    proved unique again by the solver on its layout's formula. `jobs` processes share
    the multiplicands; puzzles come in the order of the word list's multiplicands.
    """
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    totals = totals if totals is not None else LongTotals()
    start = time.monotonic()
    kept, totals.skipped_words = clean(words)
    totals.words = totals.chunks = len(kept)
    task = LongTask(tuple(kept), Setting(SHAPE, DEFAULT_RULES, timeout, confirm))

    def finished(done: int, chunks: int) -> None:
        totals.chunks_done = done
        totals.seconds = time.monotonic() - start
        if progress is not None:
            progress(totals)

    if jobs > 1 and confirm:
        load_solver()
    blocks = run_chunks(task, len(kept), jobs=jobs, finished=finished)

    def done() -> None:
        totals.seconds = time.monotonic() - start

    yield from hand_out(blocks, totals, limit, done)
