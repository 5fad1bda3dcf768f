"""Puzzle generation: every puzzle of a shape over a word list whose verdict is `unique`, proved.

Cheap filters come first (more than ten letters, word lengths that cannot add up, the same
puzzle twice), then each remaining candidate gets a uniqueness verdict from the solver.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from .api import Solution, Status, verdict

SHAPES = ("A + B = C", "A + B + C = D", "A * B = C", "A - B = C")


@dataclass
class Totals:
    """What a generator run did: candidates seen, filtered cheaply, and each verdict."""

    words: int = 0
    skipped_words: int = 0  # not made of the letters A-Z only
    candidates: int = 0
    filtered: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: {"unique": 0, "multiple": 0, "none": 0, "unknown": 0})
    seconds: float = 0.0


@dataclass(frozen=True)
class Generated:
    formula: str
    solution: Solution


def clean(words: Iterable[str]) -> tuple[list[str], int]:
    """Upper-cased words of the letters A-Z, each once, in order; and how many were skipped."""
    kept: dict[str, None] = {}
    skipped = 0
    for word in words:
        word = word.strip().upper()
        if not word:
            continue
        if word.isascii() and word.isalpha():
            kept[word] = None
        else:
            skipped += 1
    return list(kept), skipped


def lengths_fit(shape: str, parts: Sequence[str]) -> bool:
    """Can numbers of these lengths (no leading zeros) satisfy the shape at all?"""
    sizes = [len(part) for part in parts]
    if shape == "A + B = C":
        return max(sizes[:2]) <= sizes[2] <= max(sizes[:2]) + 1
    if shape == "A + B + C = D":
        return max(sizes[:3]) <= sizes[3] <= max(sizes[:3]) + 1
    if shape == "A - B = C":  # A = B + C
        return max(sizes[1:]) <= sizes[0] <= max(sizes[1:]) + 1
    return sizes[0] + sizes[1] - 1 <= sizes[2] <= sizes[0] + sizes[1]  # A * B = C


def candidates(shape: str, words: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """Each puzzle once: addends and factors as unordered choices (A + B = C is B + A = C)."""
    if shape == "A + B = C" or shape == "A * B = C":
        for left in itertools.combinations_with_replacement(words, 2):
            for right in words:
                yield (*left, right)
    elif shape == "A + B + C = D":
        for left in itertools.combinations_with_replacement(words, 3):
            for right in words:
                yield (*left, right)
    else:
        for parts in itertools.product(words, repeat=3):
            yield parts


def formula_of(shape: str, parts: Sequence[str]) -> str:
    text = shape
    for name, part in zip("ABCD", parts):
        text = text.replace(name, "{" + name + "}", 1)
    return text.format(**dict(zip("ABCD", parts)))


def generate(words: Iterable[str], shape: str = "A + B = C", *, limit: int | None = None, timeout: float = 10.0,
             totals: Totals | None = None, progress: Callable[[Totals], None] | None = None,
             **rules) -> Iterator[Generated]:
    """Every puzzle of `shape` over `words` with exactly one solution, proved; `totals` is filled in."""
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}: choose one of {', '.join(SHAPES)}")
    totals = totals if totals is not None else Totals()
    start = time.monotonic()
    kept, totals.skipped_words = clean(words)
    totals.words = len(kept)
    found = 0
    for parts in candidates(shape, kept):
        totals.candidates += 1
        if len(set("".join(parts))) > 10 or not lengths_fit(shape, parts):
            totals.filtered += 1
            continue
        formula = formula_of(shape, parts)
        result = verdict(formula, timeout=timeout, **rules)
        status = result.status.value if result.status is not Status.FOUND else "unknown"
        totals.verdicts[status] += 1
        totals.seconds = time.monotonic() - start
        if progress is not None:
            progress(totals)
        if result.status is Status.UNIQUE:
            found += 1
            yield Generated(formula, result.solutions[0])
            if limit is not None and found >= limit:
                break
    totals.seconds = time.monotonic() - start


def summary(totals: Totals) -> str:
    v = totals.verdicts
    return (f"{totals.words} words ({totals.skipped_words} skipped), {totals.candidates:,} candidates, "
            f"{totals.filtered:,} filtered; unique {v['unique']}, multiple {v['multiple']}, none {v['none']}, "
            f"unknown {v['unknown']} ({totals.seconds:.1f} s)")


def generate_main(argv: Sequence[str]) -> int:
    """`smtcrypt generate ...`: exit 0 if a unique puzzle was found, 1 if none, 2 for bad usage."""
    parser = argparse.ArgumentParser(prog="smtcrypt generate",
                                     description="Find puzzles with exactly one solution (proved) from a word list.")
    parser.add_argument("words", nargs="*", metavar="WORD", help="words to combine (or use --words FILE)")
    parser.add_argument("--words", dest="file", type=Path, metavar="FILE", help="a word list, one word a line")
    parser.add_argument("--shape", choices=SHAPES, default="A + B = C", help="the puzzle shape (default A + B = C)")
    parser.add_argument("--limit", type=int, metavar="N", help="stop after N unique puzzles")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds per candidate (default 10)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--progress", action="store_true", help="show progress on stderr even when it is not a terminal")
    args = parser.parse_args(argv)
    words = list(args.words)
    if args.file is not None:
        try:
            words += args.file.read_text(encoding="utf-8").split()
        except OSError as error:
            parser.error(f"cannot read {args.file}: {error.strerror}")
    if not words:
        parser.error("give words on the command line or --words FILE")
    show = args.progress or sys.stderr.isatty()

    def progress(totals: Totals) -> None:
        checked = sum(totals.verdicts.values())
        print(f"\r{checked:,} checked, {totals.verdicts['unique']} unique, {totals.candidates:,} candidates "
              f"({totals.seconds:.0f} s)", end="", file=sys.stderr, flush=True)

    totals = Totals()
    puzzles = []
    for puzzle in generate(words, args.shape, limit=args.limit, timeout=args.timeout, totals=totals,
                           progress=progress if show else None):
        puzzles.append(puzzle)
        if not args.json:
            print(f"{puzzle.formula}  /  {puzzle.solution.text}", flush=True)
    if show:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps({"shape": args.shape, "words": totals.words, "totals": {
            "candidates": totals.candidates, "filtered": totals.filtered, **totals.verdicts},
            "puzzles": [{"formula": p.formula, "solution": {"mapping": p.solution.mapping, "text": p.solution.text}}
                        for p in puzzles], "seconds": round(totals.seconds, 3)}))
    else:
        print(summary(totals))
    return 0 if puzzles else 1
