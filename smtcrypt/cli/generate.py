"""`smtcrypt generate`: puzzles with exactly one solution, proved, from a word list."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from smtcrypt.api import Puzzle
from smtcrypt.setters.distribute import CheckpointError
from smtcrypt.setters.generate import SHAPES, Totals, generate
from smtcrypt.teach.explain import explain


def summary(totals: Totals) -> str:
    v = totals.verdicts
    return (f"{totals.words} words ({totals.skipped_words} skipped), {totals.candidates:,} candidates, "
            f"{totals.filtered:,} filtered; unique {v['unique']:,}, multiple {v['multiple']:,}, none {v['none']:,}, "
            f"unknown {v['unknown']:,} ({totals.seconds:.1f} s)")


def progress_bar(totals: Totals, width: int = 30) -> str:
    """Finished chunks (one per word, wherever they ran) out of all; unique puzzles handed out so far."""
    share = totals.chunks_done / totals.chunks if totals.chunks else 1.0
    done = round(share * width)
    return (f"\r[{'#' * done}{'.' * (width - done)}] {share:4.0%} {totals.chunks_done:,}/{totals.chunks:,} "
            f"chunks, {totals.verdicts['unique']:,} unique ({totals.seconds:.0f} s)")


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def looks_like_a_path(text: str) -> bool:
    """A positional argument that names a file, not a word: it exists, has a slash, or ends in .txt and the like."""
    return os.path.exists(text) or "/" in text or "\\" in text or re.search(r"\.[A-Za-z0-9]{1,5}$", text) is not None


def read_words(source: str) -> list[str]:
    """The words of a file, or of stdin for `-`."""
    if source == "-":
        return sys.stdin.read().split()
    return Path(source).read_text(encoding="utf-8").split()


def difficulty_range(text: str) -> range:
    """`2` or `1-2`: difficulties from 1 to 5."""
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a difficulty 1-5 or a range such as 1-2, not {text!r}") from None
    if not 1 <= first <= last <= 5:
        raise argparse.ArgumentTypeError(f"must be a difficulty 1-5 or a range such as 1-2, not {text!r}")
    return range(first, last + 1)


def main(argv: Sequence[str]) -> int:
    """`smtcrypt generate ...`: exit 0 if a unique puzzle was found, 1 if none, 2 for bad usage,
    130 if Ctrl-C ended the run (the puzzles found so far are printed, the totals say so)."""
    parser = argparse.ArgumentParser(prog="smtcrypt generate",
                                     description="Find puzzles with exactly one solution (proved) from a word list.")
    parser.add_argument("words", nargs="*", metavar="WORD", help="words to combine (or use --words FILE)")
    parser.add_argument("--words", dest="file", metavar="FILE", help="a word list, one word a line (- for stdin)")
    parser.add_argument("--shape", choices=SHAPES, default="A + B = C", help="the puzzle shape (default A + B = C)")
    parser.add_argument("--limit", type=positive, metavar="N", help="stop after N unique puzzles")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S",
                        help="solver seconds per candidate (default 10)")
    parser.add_argument("--jobs", type=positive, default=1, metavar="N", help="processes to use (default 1)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786); "
                             'needs pip install "smtcrypt[dask]"')
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="record finished chunks in FILE; a rerun with the same FILE skips them")
    parser.add_argument("--no-confirm", dest="confirm", action="store_false",
                        help="trust the column search's proof of uniqueness without asking the solver again")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--progress", action="store_true", help="show progress on stderr even when it is not a terminal")
    parser.add_argument("--difficulty", type=difficulty_range, metavar="RANGE",
                        help="keep only puzzles whose difficulty (1-5, see smtcrypt explain) is in RANGE: 2, or 1-2")
    args = parser.parse_args(argv)
    for word in args.words:
        if looks_like_a_path(word):
            parser.error(f"{word!r} looks like a file path, not a word: did you mean --words {word}?")
    words = list(args.words)
    if args.file is not None:
        try:
            words += read_words(args.file)
        except (OSError, UnicodeDecodeError) as error:
            parser.error(f"cannot read {args.file}: {getattr(error, 'strerror', None) or error}")
    if not words:
        parser.error("give words on the command line or --words FILE")
    show = args.progress or sys.stderr.isatty()

    def progress(totals: Totals) -> None:
        print(progress_bar(totals), end="", file=sys.stderr, flush=True)

    totals = Totals()
    puzzles = []
    found = 0
    interrupted = False
    try:
        rated: dict[str, int] = {}
        for puzzle in generate(words, args.shape, limit=None if args.difficulty else args.limit, timeout=args.timeout,
                               totals=totals, progress=progress if show else None, jobs=args.jobs,
                               confirm=args.confirm, scheduler=args.scheduler, checkpoint=args.checkpoint):
            if args.difficulty:
                rated[puzzle.formula] = explain(Puzzle(puzzle.formula).problem).difficulty
                if rated[puzzle.formula] not in args.difficulty:
                    continue
            found += 1
            if args.json:
                puzzles.append(puzzle)
            else:
                print(f"{puzzle.formula}  /  {puzzle.solution.text}"
                      + (f"  (difficulty {rated[puzzle.formula]})" if args.difficulty else ""), flush=True)
            if args.difficulty and args.limit and found >= args.limit:
                break
    except KeyboardInterrupt:  # Ctrl-C: keep what was found, say the run is incomplete
        interrupted = True
    except BrokenPipeError:  # the reader went away: the console entry point ends quietly
        raise
    except (CheckpointError, RuntimeError, OSError) as error:  # a checkpoint of another run, no Dask, no scheduler
        if show:
            print(file=sys.stderr)
        print(f"smtcrypt generate: error: {error}", file=sys.stderr)
        return 2
    if show:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps({"shape": args.shape, "words": totals.words, "skipped_words": totals.skipped_words,
                          "totals": {"candidates": totals.candidates, "filtered": totals.filtered, **totals.verdicts},
                          "complete": totals.candidates == totals.expected, "interrupted": interrupted,
                          "limit_reached": args.limit is not None and found >= args.limit,
                          "puzzles": [{"formula": p.formula, "solution": {"mapping": p.solution.mapping,
                                                                           "text": p.solution.text},
                                       **({"difficulty": rated[p.formula]} if args.difficulty else {})}
                                      for p in puzzles], "seconds": round(totals.seconds, 3)}))
    else:
        ending = "; interrupted" if interrupted else ""
        if args.limit is not None and found >= args.limit and totals.candidates < totals.expected:
            ending += (f"; stopped early at --limit {args.limit}: the totals count the {totals.candidates:,} of "
                       f"{totals.expected:,} candidates decided so far")
        print(summary(totals) + ending, file=sys.stderr)
    if interrupted:
        return 130
    return 0 if found else 1
