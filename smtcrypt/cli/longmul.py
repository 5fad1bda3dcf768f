"""`smtcrypt generate --shape "long multiplication"`: long multiplications whose every printed row
is a word, each printed as its layout (which `smtcrypt --layout` reads back), its formula and its
solution."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from smtcrypt.cli.options import Exit
from smtcrypt.core.rules import Rules
from smtcrypt.setters.generate.longmul import SHAPE, GeneratedLayout, LongTotals, long_multiplications
from smtcrypt.setters.generate.rules import DEFAULT_RULES

__all__ = ["SHAPE", "run"]

# Options of `generate` this genre does not take, and their defaults.
UNSUPPORTED = {"addends": None, "distinct_words": False, "scheduler": None, "checkpoint": None, "difficulty": None}


def refused(args: argparse.Namespace, rules: Rules) -> str | None:
    """Why the options cannot make long multiplications, or None if they can."""
    for name, default in UNSUPPORTED.items():
        if getattr(args, name) != default:
            return f"--{name.replace('_', '-')} does not apply to --shape \"{SHAPE}\""
    if rules != DEFAULT_RULES:  # the digit search models the default rules only
        return f"--shape \"{SHAPE}\" takes the default rules only (distinct letters, no leading zero, base 10)"
    return None


def block(puzzle: GeneratedLayout) -> str:
    """A puzzle for people: its layout, its formula and its solution's digits."""
    digits = " ".join(f"{letter}={digit}" for letter, digit in puzzle.solution.mapping.items())
    return f"{puzzle.layout}\n{puzzle.formula}\nsolution: {digits}\n"


def summary(totals: LongTotals) -> str:
    v = totals.verdicts
    return (f"{totals.words} words ({totals.skipped_words} skipped), {totals.frames:,} multiplicand-multiplier "
            f"frames, {totals.candidates:,} candidates (sets of partial products), {totals.assignments:,} "
            f"assignments, {totals.no_product:,} candidates without a product word; unique {v['unique']:,}, "
            f"multiple {v['multiple']:,}, unknown {v['unknown']:,} ({totals.seconds:.1f} s)")


def to_json(totals: LongTotals, kept: list[GeneratedLayout], interrupted: bool, limit_reached: bool) -> str:
    puzzles = [{"formula": p.formula, "layout": p.layout,
                "solution": {"mapping": p.solution.mapping, "text": p.solution.text}} for p in kept]
    complete = totals.chunks_done == totals.chunks and not limit_reached and not interrupted
    return json.dumps({"shape": SHAPE, "words": totals.words, "skipped_words": totals.skipped_words,
                       "totals": totals.to_data(), "complete": complete,
                       "interrupted": interrupted, "limit_reached": limit_reached, "puzzles": puzzles,
                       "seconds": round(totals.seconds, 3)})


def run(args: argparse.Namespace, rules: Rules, words: list[str], show: bool,
        bar: Callable[[int, int, int, int, float], str]) -> int:
    """The run: puzzles on stdout as found (or one JSON object at the end), totals on stderr."""
    why = refused(args, rules)
    if why is not None:
        print(f"smtcrypt generate: error: {why}", file=sys.stderr)
        return Exit.USAGE
    totals, kept, interrupted = LongTotals(), [], False

    def progress(t: LongTotals) -> None:
        print(bar(t.chunks_done, t.chunks, t.candidates, t.verdicts["unique"], t.seconds), end="", file=sys.stderr,
              flush=True)
    try:
        for puzzle in long_multiplications(words, limit=args.limit, timeout=args.timeout, confirm=args.confirm,
                                           jobs=args.jobs, totals=totals, progress=progress if show else None):
            kept.append(puzzle)
            if not args.json:
                print(block(puzzle), flush=True)
    except KeyboardInterrupt:
        interrupted = True
    if show:
        print(file=sys.stderr)
    limit_reached = args.limit is not None and len(kept) >= args.limit
    if args.json:
        print(to_json(totals, kept, interrupted, limit_reached))
    else:
        print(summary(totals) + ("; interrupted" if interrupted else "")
              + (f"; stopped at --limit {args.limit}" if limit_reached else ""), file=sys.stderr)
    if interrupted:
        return Exit.INTERRUPTED
    return Exit.FOUND if kept else Exit.NONE
