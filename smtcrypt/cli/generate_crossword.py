"""`smtcrypt generate --crossword N`: crosswords with exactly one solution, proved, from a word list."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from smtcrypt.cli.options import Exit
from smtcrypt.core.rules import Rules
from smtcrypt.errors import FormulaError
from smtcrypt.setters.generate import Crossword, CrosswordTotals, generate_crosswords

__all__ = ["run_crosswords"]

# options of the other shapes that a crossword run does not take, and the values that mean "not given"
OTHER_OPTIONS = {"addends": None, "distinct_words": False, "scheduler": None, "checkpoint": None, "difficulty": None,
                 "jobs": 1, "shape": "A + B = C", "sample": None, "doubly_true": None}


def summary(totals: CrosswordTotals) -> str:
    v = totals.verdicts
    return (f"{totals.words} words ({totals.skipped_words} skipped), {totals.sums:,} sums; grids with a solution: "
            f"{totals.grids:,}, unique {v['unique']:,}, multiple {v['multiple']:,}, unknown {v['unknown']:,} "
            f"({totals.seconds:.1f} s)")


def text(puzzle: Crossword) -> str:
    """The grid of words, the grid of numbers, and the formula."""
    return f"{puzzle.layout}\n\n{puzzle.solved_layout}\n\n{puzzle.formula}\n"


def as_data(puzzle: Crossword) -> dict[str, Any]:
    return {"formula": puzzle.formula, "layout": puzzle.layout, "grid": [list(row) for row in puzzle.grid],
            "solution": {"mapping": puzzle.solution.mapping, "text": puzzle.solution.text,
                         "layout": puzzle.solved_layout}}


def run_crosswords(args: argparse.Namespace, parser: argparse.ArgumentParser, rules: Rules,
                   words: list[str]) -> int:
    """Print each crossword as it is found (or one JSON object at the end); 0 if one was found,
    1 if none, 2 for bad usage, 130 if Ctrl-C ended the run."""
    given = [name for name, unset in OTHER_OPTIONS.items() if getattr(args, name) != unset]
    if given:
        parser.error(f"--crossword does not take --{given[0].replace('_', '-')}")
    totals, kept, interrupted = CrosswordTotals(), [], False
    show = args.progress or sys.stderr.isatty()
    progress = ((lambda t: print(f"\r{t.grids:,} grids, {t.verdicts['unique']:,} unique ({t.seconds:.0f} s)",
                                 end="", file=sys.stderr, flush=True)) if show else None)
    try:
        for puzzle in generate_crosswords(words, args.crossword, limit=args.limit, confirm=args.confirm,
                                          totals=totals, progress=progress, rules=rules):
            kept.append(puzzle)
            if not args.json:
                print(text(puzzle), flush=True)
    except KeyboardInterrupt:
        interrupted = True
    except (FormulaError, ValueError) as error:
        print(f"smtcrypt generate: error: {error}", file=sys.stderr)
        return Exit.USAGE
    if show:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps({"crossword": args.crossword, "words": totals.words, "skipped_words": totals.skipped_words,
                          "totals": {"sums": totals.sums, "grids": totals.grids, **totals.verdicts},
                          "interrupted": interrupted,
                          "limit_reached": args.limit is not None and len(kept) >= args.limit,
                          "puzzles": [as_data(puzzle) for puzzle in kept], "seconds": round(totals.seconds, 3)}))
    else:
        print(summary(totals) + ("; interrupted" if interrupted else ""), file=sys.stderr)
    if interrupted:
        return Exit.INTERRUPTED
    return Exit.FOUND if kept else Exit.NONE
