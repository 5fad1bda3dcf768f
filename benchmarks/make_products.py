#!/usr/bin/env python3
"""Make benchmarks/products.tsv, the corpus of the `products` class: multiplication puzzles with
several words on each side, 7 to 10 distinct letters each, most with exactly one solution.

    python benchmarks/make_products.py                   # writes benchmarks/products.tsv (seed 26)
    python benchmarks/make_products.py --seed 7 --out /tmp/products.tsv

The puzzles are drawn at random (a fixed seed: the same file every time) in seven shapes, from
word lists written out below (Greek letters, numbers in English, planets, elements, colours):

    two-two       ETA * KAPPA = BETA * PHI
    two-three     THETA * XI = ETA * NU * PHI
    three-three   IOTA * NU * PHI = ETA * RHO * TAU
    letters       ABC * ABCD = EFGG * EF          words of letters A, B, C, ... sharing letters
    number        11 * THETA = RHO * NU * PI      a number times words
    sum           (TAU + PHI) * PSI = CHI * NU    a product of a sum
    power         XI ** 2 * RHO = PHI * TAU       a square or cube times words

Each candidate is counted by trying every assignment of distinct digits to its letters with no
word of two or more letters starting with 0 (base 10): the permutations are a numpy array, each
word's value a column of int64 (every side is kept below 10^18, so no value overflows) and the
count the rows where both sides are equal. Each shape keeps a quota of puzzles with exactly one
solution (`unique`), with two to fifty (`several`) and with none (`none`). The counts go in the
third column; `benchmarks/run.py --only products` checks smtcrypt, CP-SAT and the benchmark's own
brute force (`bench/bruteforce.py`, compiled closures over `itertools.permutations`) against
them.

Needs numpy (a dependency of smtcrypt). Takes ten to twenty minutes on one core.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE / "products.tsv"
DEFAULT_SEED = 26

GREEK = ("ALPHA", "BETA", "GAMMA", "DELTA", "EPSILON", "ZETA", "ETA", "THETA", "IOTA", "KAPPA", "LAMBDA", "MU",
         "NU", "XI", "OMICRON", "PI", "RHO", "SIGMA", "TAU", "UPSILON", "PHI", "CHI", "PSI", "OMEGA")
NUMBERS = ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE",
           "TWENTY", "THIRTY", "FORTY", "FIFTY", "SIXTY")
PLANETS = ("SUN", "MOON", "MERCURY", "VENUS", "EARTH", "MARS", "JUPITER", "SATURN", "URANUS", "NEPTUNE",
           "PLUTO", "CERES", "TITAN", "EUROPA")
ELEMENTS = ("IRON", "GOLD", "TIN", "NEON", "ZINC", "LEAD", "COPPER", "SILVER", "CARBON", "OXYGEN", "XENON",
            "RADON", "ARGON", "BORON", "SODIUM", "HELIUM", "COBALT", "NICKEL")
COLOURS = ("RED", "BLUE", "GREEN", "TAN", "GREY", "PINK", "CYAN", "TEAL", "NAVY", "LIME", "OLIVE", "AMBER",
           "IVORY", "BLACK", "WHITE", "CORAL")
# Greek letters drawn twice as often as each other list
VOCABULARIES = (GREEK, GREEK, NUMBERS, PLANETS, ELEMENTS, COLOURS)

MIN_LETTERS, MAX_LETTERS = 7, 10
MAX_SEVERAL = 50  # a `several` puzzle has 2 to this many solutions
MAX_SIDE_DIGITS = 18  # every side's value stays below 10^18, inside int64
LETTER_NAMES = "ABCDEFGHIJ"


# -- puzzles as factors ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Factor:
    """One factor of a side: words added up (one word, or a sum in parentheses), times a number,
    to a power."""

    words: tuple[str, ...] = ()
    number: int = 0  # a number alone (no words)
    power: int = 1

    def text(self) -> str:
        if not self.words:
            return str(self.number)
        inner = " + ".join(self.words)
        if len(self.words) > 1:
            inner = f"({inner})"
        return inner if self.power == 1 else f"{inner} ** {self.power}"

    def digits(self) -> int:
        """At most how many digits its value has."""
        if not self.words:
            return len(str(self.number))
        return (max(len(word) for word in self.words) + (len(self.words) > 1)) * self.power


Side = tuple[Factor, ...]


@dataclass(frozen=True)
class Candidate:
    shape: str
    left: Side
    right: Side

    def formula(self) -> str:
        return " * ".join(f.text() for f in self.left) + " = " + " * ".join(f.text() for f in self.right)

    def words(self) -> list[str]:
        return [word for side in (self.left, self.right) for f in side for word in f.words]

    def letters(self) -> list[str]:
        return sorted({letter for word in self.words() for letter in word})

    def key(self) -> frozenset:
        """The same puzzle whatever the order of its factors and sides."""
        return frozenset({tuple(sorted(f.text() for f in self.left)), tuple(sorted(f.text() for f in self.right))})


def word(text: str) -> Factor:
    return Factor((text,))


# -- the shapes ------------------------------------------------------------------------------------

def pick(rng: random.Random, vocabulary: Sequence[str], count: int) -> list[str]:
    return rng.sample(vocabulary, count)


def two_two(rng: random.Random) -> Candidate:
    a, b, c, d = pick(rng, rng.choice(VOCABULARIES), 4)
    return Candidate("two-two", (word(a), word(b)), (word(c), word(d)))


def two_three(rng: random.Random) -> Candidate:
    a, b, c, d, e = pick(rng, rng.choice(VOCABULARIES), 5)
    return Candidate("two-three", (word(a), word(b)), (word(c), word(d), word(e)))


def three_three(rng: random.Random) -> Candidate:
    a, b, c, d, e, f = pick(rng, rng.choice(VOCABULARIES), 6)
    return Candidate("three-three", (word(a), word(b), word(c)), (word(d), word(e), word(f)))


def letters_shape(rng: random.Random) -> Candidate:
    """Words of one to four letters over A, B, C, ..., more letter cells than letters so that words
    share letters (a product of distinct single letters, `A * B * C = D * E`, has as many
    solutions as its factors have orders); the letters named in order of first appearance."""
    size = rng.randint(MIN_LETTERS, MAX_LETTERS)
    lengths = [[rng.choice((1, 2, 2, 3, 3, 4)) for _ in range(count)]
               for count in rng.choice(((2, 2), (2, 3), (3, 2), (3, 3)))]
    cells = sum(map(sum, lengths))
    if cells < size + 2:  # too few cells to hold every letter and share some
        return letters_shape(rng)
    fill = rng.sample(LETTER_NAMES[:size], size) + [rng.choice(LETTER_NAMES[:size]) for _ in range(cells - size)]
    rng.shuffle(fill)
    sides, position = [], 0
    for side in lengths:
        sides.append(["".join(fill[position + offset] for offset in range(length)) for length in side])
        position += sum(side)
    order: dict[str, str] = {}
    for text in sides[0] + sides[1]:
        for letter in text:
            order.setdefault(letter, LETTER_NAMES[len(order)])
    renamed = [tuple(word("".join(order[x] for x in text)) for text in side) for side in sides]
    return Candidate("letters", renamed[0], renamed[1])


def number_shape(rng: random.Random) -> Candidate:
    vocabulary = rng.choice(VOCABULARIES)
    number = Factor(number=rng.choice((2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 17, 19, 25, 36)))
    left, right = rng.choice(((1, 2), (2, 2), (1, 3), (2, 3)))
    chosen = pick(rng, vocabulary, left + right)
    return Candidate("number", (number, *map(word, chosen[:left])), tuple(map(word, chosen[left:])))


def sum_shape(rng: random.Random) -> Candidate:
    vocabulary = rng.choice(VOCABULARIES)
    others_left, right = rng.choice(((1, 2), (1, 3), (2, 2)))
    chosen = pick(rng, vocabulary, 2 + others_left + right)
    total = Factor(tuple(chosen[:2]))
    return Candidate("sum", (total, *map(word, chosen[2:2 + others_left])),
                     tuple(map(word, chosen[2 + others_left:])))


def power_shape(rng: random.Random) -> Candidate:
    vocabulary = rng.choice(VOCABULARIES)
    exponent = rng.choice((2, 2, 2, 3))
    others_left, right = rng.choice(((1, 2), (1, 3), (0, 2), (2, 2)))
    chosen = pick(rng, vocabulary, 1 + others_left + right)
    powered = Factor((chosen[0],), power=exponent)
    return Candidate("power", (powered, *map(word, chosen[1:1 + others_left])), tuple(map(word, chosen[1 + others_left:])))


# shape, maker, and the quota of puzzles with one solution, two to fifty, none
SHAPES: tuple[tuple[str, Callable[[random.Random], Candidate], tuple[int, int, int]], ...] = (
    ("two-two", two_two, (46, 6, 2)),
    ("two-three", two_three, (50, 6, 2)),
    ("three-three", three_three, (34, 6, 2)),
    ("letters", letters_shape, (34, 5, 1)),
    ("number", number_shape, (32, 5, 1)),
    ("sum", sum_shape, (30, 5, 1)),
    ("power", power_shape, (33, 5, 2)),
)
KINDS = ("unique", "several", "none")


def acceptable(candidate: Candidate) -> bool:
    """7 to 10 letters, no word twice, both sides below 10^18, and sides whose sizes can meet."""
    if not MIN_LETTERS <= len(candidate.letters()) <= MAX_LETTERS:
        return False
    if len(set(candidate.words())) != len(candidate.words()):
        return False
    ranges = []
    for side in (candidate.left, candidate.right):
        most = sum(f.digits() for f in side)
        if most > MAX_SIDE_DIGITS:
            return False
        # a product of k factors of n_i digits has at least sum(n_i) - k + 1 digits (of the words'
        # least lengths: a sum has at least its longest word's)
        least = sum((max(len(w) for w in f.words) - 1) * f.power + 1 if f.words else len(str(f.number))
                    for f in side) - len(side) + 1
        ranges.append((least, most))
    (low_left, high_left), (low_right, high_right) = ranges
    return low_left <= high_right and low_right <= high_left


# -- counting: every permutation at once ------------------------------------------------------------

class Permutations:
    """All assignments of distinct digits to n letters, built once per n: n columns (int8, each
    contiguous), a row each."""

    def __init__(self) -> None:
        self.tables: dict[int, np.ndarray] = {}

    def __call__(self, n: int) -> np.ndarray:
        if n not in self.tables:
            table = np.arange(10, dtype=np.int8).reshape(10, 1)
            for _ in range(n - 1):
                rows = np.repeat(table, 10, axis=0)
                extra = np.tile(np.arange(10, dtype=np.int8), len(table)).reshape(-1, 1)
                fresh = (rows != extra).all(axis=1)
                table = np.hstack((rows, extra))[fresh]
            self.tables[n] = np.ascontiguousarray(table.T)
        return self.tables[n]


def count_solutions(candidate: Candidate, permutations: Permutations) -> int:
    """The number of assignments that solve the candidate: distinct digits, no leading zero."""
    letters = candidate.letters()
    columns8 = permutations(len(letters))
    size = columns8.shape[1]
    digits = dict(zip(letters, columns8))
    keep = np.ones(size, dtype=bool)
    for letter in {w[0] for w in candidate.words() if len(w) > 1}:
        keep &= digits[letter] != 0

    # the units digits first: both sides' last digits must agree, which leaves a small part of the
    # rows to evaluate in full
    def units_digit(factors: Side) -> np.ndarray:
        product = np.ones(size, dtype=np.int16)
        for f in factors:
            if not f.words:
                product = product * (f.number % 10) % 10
                continue
            base = sum((digits[w[-1]].astype(np.int16) for w in f.words), start=np.zeros(size, np.int16)) % 10
            product = product * base ** f.power % 10
        return product

    keep &= units_digit(candidate.left) == units_digit(candidate.right)
    rows = np.flatnonzero(keep)
    columns = {letter: digits[letter][rows].astype(np.int64) for letter in letters}

    def value(text: str) -> np.ndarray:
        total = np.zeros(len(rows), dtype=np.int64)
        for place, letter in enumerate(reversed(text)):
            total += columns[letter] * (10 ** place)
        return total

    def side(factors: Side) -> np.ndarray:
        product = np.ones(len(rows), dtype=np.int64)
        for f in factors:
            if not f.words:
                product *= f.number
                continue
            base = sum((value(w) for w in f.words), start=np.zeros(len(rows), dtype=np.int64))
            product *= base ** f.power
        return product

    return int(np.count_nonzero(side(candidate.left) == side(candidate.right)))


def kind_of(count: int) -> str | None:
    if count == 1:
        return "unique"
    if count == 0:
        return "none"
    return "several" if count <= MAX_SEVERAL else None


# -- the corpus ------------------------------------------------------------------------------------

def make(seed: int, attempts: int, progress: bool) -> list[tuple[Candidate, int, str]]:
    permutations = Permutations()
    seen: set[frozenset] = set()
    kept: list[tuple[Candidate, int, str]] = []
    for shape, maker, quota in SHAPES:
        rng = random.Random(f"{seed}:{shape}")  # a stream per shape: changing one shape leaves the others
        wanted = dict(zip(KINDS, quota))
        tried = 0
        started = time.perf_counter()
        while any(wanted.values()):
            if tried >= attempts:
                raise SystemExit(f"{shape}: still short of {wanted} after {attempts} candidates")
            candidate = maker(rng)
            if candidate.key() in seen or not acceptable(candidate):
                continue
            seen.add(candidate.key())
            tried += 1
            count = count_solutions(candidate, permutations)
            kind = kind_of(count)
            if kind is not None and wanted[kind]:
                wanted[kind] -= 1
                kept.append((candidate, count, kind))
        if progress:
            print(f"{shape}: {sum(quota)} puzzles from {tried} candidates in {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)
    return kept


HEADER = """\
# The products class of the smtcrypt benchmark: formula<TAB>tags<TAB>solutions. Made by
# benchmarks/make_products.py --seed {seed} (do not edit by hand: run it again); read by
# benchmarks/run.py --only products.
# Multiplication puzzles with several words on each side, 7 to 10 distinct letters each, drawn from
# word lists (Greek letters, numbers, planets, elements, colours) in seven shapes: two-two, two-three,
# three-three (words on each side), letters (words of letters A, B, C, ... sharing letters), number (a
# number times words), sum (a product of a sum), power (a square or cube times words).
# unique: exactly one solution; several: 2 to {several}; none: no solution; 10letters: all ten digits.
# solutions: every assignment of distinct digits with no leading zero (base 10), counted by trying them
# all (the generator's vectorised brute force); run.py checks every method against it.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[1:]))
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--attempts", type=int, default=20000, help="candidates per shape before giving up")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    kept = make(args.seed, args.attempts, not args.quiet)
    lines = [HEADER.format(seed=args.seed, several=MAX_SEVERAL)]
    for candidate, count, kind in kept:
        tags = ["products", candidate.shape, kind] + (["10letters"] if len(candidate.letters()) == 10 else [])
        lines.append(f"{candidate.formula()}\t{','.join(tags)}\t{count}\n")
    args.out.write_text("".join(lines), encoding="utf-8")
    counts = {kind: sum(1 for _, _, k in kept if k == kind) for kind in KINDS}
    print(f"wrote {len(kept)} puzzles to {args.out}: " + ", ".join(f"{n} {kind}" for kind, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
