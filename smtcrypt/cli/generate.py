"""`smtcrypt generate`: puzzles with exactly one solution, proved, from a word list."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smtcrypt.cli import longmul
from smtcrypt.cli.generate_crossword import run_crosswords
from smtcrypt.cli.options import (
    DEFAULT_TIMEOUT,
    Exit,
    difficulty_range,
    positive,
    positive_number,
    rule_options,
    rules_from,
)
from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules, make_rules
from smtcrypt.engine.sums.compiled import numba_version
from smtcrypt.errors import FormulaError
from smtcrypt.setters.distribute import CheckpointError
from smtcrypt.setters.generate import Generated, Totals, generate, parse_template, sample
from smtcrypt.setters.generate.doubly import UnknownLanguage, WordsUnavailable, doubly_true, language_code
from smtcrypt.setters.generate.keys import COMPILE_AFTER, LOAD_FIRST
from smtcrypt.setters.generate.sample import DEFAULT_DRAWS
from smtcrypt.setters.generate.template import MAX_ADDENDS

__all__ = ["main"]

MAX_NUMBER = 10**6  # the largest number --numbers takes


def summary(totals: Totals) -> str:
    v = totals.verdicts
    shapes = ("; unique by shape: " + ", ".join(f"{shape} {count:,}" for shape, count in totals.by_shape.items())
              if len(totals.by_shape) > 1 else "")
    return (f"{totals.words} words ({totals.skipped_words} skipped), {totals.candidates:,} candidates, "
            f"{totals.filtered:,} filtered; unique {v['unique']:,}, multiple {v['multiple']:,}, none {v['none']:,}, "
            f"unknown {v['unknown']:,}{shapes}{f', {totals.draws:,} draws' if totals.draws else ''} "
            f"({totals.seconds:.1f} s)")


def stats_data(totals: Totals, confirm: bool) -> dict[str, Any]:
    """--stats as data: the sums searched by the search numba compiled and by the one in plain
    Python, the candidates the solver decided, and Z3's second proofs (with --confirm)."""
    work = totals.work
    return {"search": {"compiled": work["compiled"], "python": work["python"]}, "numba": numba_version(),
            "solver": work["solver"], "confirm": confirm, "second_proofs": work["proofs"]}


def stats_lines(totals: Totals, confirm: bool) -> list[str]:
    """--stats as text, after the totals: which search decided the sums (compiled by numba, or in
    plain Python, and why), what the solver decided, and what proved each puzzle."""
    data = stats_data(totals, confirm)
    compiled, python, version = data["search"]["compiled"], data["search"]["python"], data["numba"]
    lines = []
    if compiled or python:
        ways = [f"compiled by numba {version} for {compiled:,} sums"] if compiled else []
        if python:
            ways.append(f"plain Python for {python:,}")
            if version is None:
                ways[-1] += " (numba is not installed)"
            else:
                ways[-1] += (f" (a run loads numba at once from {LOAD_FIRST:,} candidates, else once a process has "
                             f"searched {COMPILE_AFTER:,} sums; sums of fewer than four letters, of letters that may "
                             "share a digit, or past 64-bit integers stay in Python)")
        lines.append("search: " + ", ".join(ways))
    if data["solver"]:
        lines.append(f"solver: Z3 decided {data['solver']:,} candidates (products, or rules the search does not "
                     "model), each solution re-checked exactly")
    if compiled or python:
        second = (f"Z3's second proof: {data['second_proofs']:,} (once per shape of sum)" if confirm else
                  "Z3's second proof: not asked for (--confirm)")
        lines.append("proof: each puzzle by the exhaustive search (every assignment the rules allow covered) and "
                     f"the exact re-check of its solution; {second}")
    return lines


def progress_bar(totals: Totals, width: int = 30) -> str:
    """Finished chunks (one per shape and word, wherever they ran) out of all; candidates and unique
    puzzles handed out so far. A --sample run has no end to measure: its draws and candidates."""
    if totals.draws:
        return (f"\r{totals.draws:,} draws, {totals.candidates:,} candidates, {totals.verdicts['unique']:,} unique "
                f"({totals.seconds:.0f} s)")
    return bar(totals.chunks_done, totals.chunks, totals.candidates, totals.verdicts["unique"], totals.seconds, width)


def bar(chunks_done: int, chunks: int, candidates: int, unique: int, seconds: float, width: int = 30) -> str:
    share = chunks_done / chunks if chunks else 1.0
    done = round(share * width)
    return (f"\r[{'#' * done}{'.' * (width - done)}] {share:4.0%} {chunks_done:,}/{chunks:,} "
            f"chunks, {candidates:,} candidates, {unique:,} unique ({seconds:.0f} s)")


def shape_text(text: str) -> str:
    """A template the generator takes: `A + B = C`, `A * B = C * D`, `A + B = MONEY`; or a genre."""
    if " ".join(text.lower().split()) == longmul.SHAPE:
        return longmul.SHAPE
    try:
        return parse_template(text).text
    except FormulaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def addend_range(text: str) -> range:
    """`2-6` or `3`: how many words a sum has on its left, low to high."""
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        first = last = 0
    if not 1 <= first <= last <= MAX_ADDENDS:
        raise argparse.ArgumentTypeError(f"must be a number of addends 1-{MAX_ADDENDS} or a range such as 2-6, "
                                         f"not {text!r}")
    return range(first, last + 1)


def looks_like_a_path(text: str) -> bool:
    """A positional argument that names a file, not a word: it exists, has a slash, or ends in .txt and the like."""
    return os.path.exists(text) or "/" in text or "\\" in text or re.search(r"\.[A-Za-z0-9]{1,5}$", text) is not None


def read_words(source: str) -> list[str]:
    """The words of a file, or of stdin for `-`."""
    if source == "-":
        return sys.stdin.read().split()
    return Path(source).read_text(encoding="utf-8").split()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="smtcrypt generate", parents=[rule_options()],
                                     description="Find puzzles with exactly one solution (proved) from a word list.")
    parser.add_argument("words", nargs="*", metavar="WORD", help="words to combine (or use --words FILE)")
    parser.add_argument("--words", dest="file", metavar="FILE", help="a word list, one word a line (- for stdin)")
    parser.add_argument("--shape", type=shape_text, metavar="TEMPLATE",
                        help="the puzzle shape, an equation of slots (single capitals, filled by words) and fixed "
                             "words: A + B = C (the default), A + B + C = D, A * B = C, A - B = C, A * B = C * D, "
                             "A + B = MONEY; a slot used twice is the same word; or \"long multiplication\": "
                             "multiplicand, multiplier (2+ letters), every partial product and the product are "
                             "words, printed as a layout")
    parser.add_argument("--addends", type=addend_range, metavar="RANGE",
                        help="sums of RANGE words (2-6, or 4) onto the right side of --shape, in one run: "
                             "A + B = C, A + B + C = D, ...")
    parser.add_argument("--crossword", type=positive, metavar="N",
                        help="N x N crosswords (3 to 6): grids of distinct words whose rows and columns are sums, "
                             "the first N - 1 words of each adding up to the last")
    parser.add_argument("--distinct-words", action="store_true",
                        help="no word twice in a puzzle (nor a word the shape fixes)")
    parser.add_argument("--limit", type=positive, metavar="N", help="stop after N unique puzzles")
    parser.add_argument("--sample", type=positive, metavar="N",
                        help="N random unique puzzles (of each shape) found without enumerating every candidate: "
                             "for big word lists")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="the random seed of --sample (default 0): the same seed gives the same puzzles")
    parser.add_argument("--draws", type=positive, default=DEFAULT_DRAWS, metavar="N",
                        help=f"with --sample, give up after N random draws (default {DEFAULT_DRAWS:,})")
    parser.add_argument("--timeout", type=positive_number, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"solver seconds per candidate (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--jobs", type=positive, default=1, metavar="N", help="processes to use (default 1)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786); "
                             'needs pip install "smtcrypt[dask]"')
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="record finished chunks in FILE; a rerun with the same FILE skips them")
    parser.add_argument("--confirm", dest="confirm", action="store_true", default=False,
                        help="have Z3 prove each puzzle unique a second time, independently (its solution "
                             "blocked, unsat), at a cost per puzzle docs/generating.md gives. By default a puzzle is "
                             "proved once, by the "
                             "search that decides it (for sums, the exhaustive search: every assignment the rules "
                             "allow is covered), and its solution re-checked with exact arithmetic")
    parser.add_argument("--no-confirm", dest="confirm", action="store_false",
                        help="no second proof by Z3 (the default; for scripts that say so)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--stats", action="store_true",
                        help="after the totals, say which search decided the sums (compiled by numba, or plain "
                             "Python), how many candidates the solver decided, and what proved each puzzle")
    parser.add_argument("--progress", action="store_true",
                        help="show progress on stderr even when it is not a terminal")
    parser.add_argument("--difficulty", type=difficulty_range, metavar="RANGE",
                        help="keep only puzzles whose difficulty (1-5, see smtcrypt explain) is in RANGE: 2, or 1-2")
    doubly_options(parser)
    return parser


def number_range(text: str) -> range:
    """`1-100` or `20`: the numbers whose words a doubly-true puzzle takes, low to high."""
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        first, last = 1, 0
    if not 0 <= first <= last <= MAX_NUMBER:
        raise argparse.ArgumentTypeError(f"must be a range of numbers 0-{MAX_NUMBER:,} such as 1-100, not {text!r}")
    return range(first, last + 1)


def doubly_options(parser: argparse.ArgumentParser) -> None:
    """The doubly-true genre's options."""
    parser.add_argument("--doubly-true", metavar="LANG",
                        help="doubly-true puzzles instead of a word list: sums of number words in LANG whose numbers "
                             "add up too (EIGHT + TEN + SIXTEEN + SEVENTEEN + EIGHTEEN = SIXTYNINE), any number of "
                             "distinct words unless --addends; --shape 'A * B = C' multiplies them. LANG is a "
                             "language num2words spells (en, es, fr, ar, ru, pt, id, de, tr, it, uk, pl, ro, and "
                             "more; not Cryptagen's hi and el); needs pip install 'smtcrypt[words]'")
    parser.add_argument("--numbers", type=number_range, metavar="LO-HI",
                        help="the numbers whose words --doubly-true takes, such as 1-100; every number of a "
                             "puzzle is in it")


def check_doubly(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """A usage error for what --doubly-true does not take, and for a language num2words cannot spell."""
    if args.numbers is None:
        parser.error("--doubly-true needs --numbers LO-HI (1-100)")
    if args.words or args.file is not None:
        parser.error("--doubly-true spells its own words: give no WORD nor --words")
    if args.jobs > 1 or args.scheduler is not None or args.checkpoint is not None:
        parser.error("--doubly-true runs in one process: it takes no --jobs, --scheduler nor --checkpoint")
    try:
        args.doubly_true = language_code(args.doubly_true)
    except (UnknownLanguage, WordsUnavailable) as error:
        parser.error(f"--doubly-true: {error}")


def check_genre(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Usage errors for options that do not go together: --sample and --doubly-true each run in one
    process, and --doubly-true spells its own words; the default shape where none was given."""
    if args.sample is not None:
        alone = [option for option, given in (("--limit", args.limit is not None), ("--jobs", args.jobs != 1),
                                              ("--scheduler", args.scheduler is not None),
                                              ("--checkpoint", args.checkpoint is not None),
                                              ("--doubly-true", args.doubly_true is not None)) if given]
        if alone:
            parser.error(f"--sample runs in one process until it has its puzzles: {', '.join(alone)} does not apply")
    if args.shape == longmul.SHAPE:
        others = [option for option, given in (("--sample", args.sample is not None),
                                               ("--doubly-true", args.doubly_true is not None),
                                               ("--crossword", args.crossword is not None)) if given]
        if others:
            parser.error(f"--shape \"long multiplication\" does not take {', '.join(others)}")
    if args.stats and (args.shape == longmul.SHAPE or args.crossword is not None):
        parser.error("--stats goes with sums, products, --sample and --doubly-true: not with --crossword nor "
                     "--shape \"long multiplication\"")
    if args.doubly_true:
        check_doubly(args, parser)
    elif args.numbers is not None:
        parser.error("--numbers goes with --doubly-true LANG")
    if args.shape is None and not args.doubly_true:
        args.shape = "A + B = C"


def words_of(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[str]:
    """The words of the command line and of --words FILE; a usage error where there are none."""
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
    return words


def difficulty(formula: str, rules: Rules) -> int:
    """A puzzle's difficulty 1-5 under the run's rules, from its explanation (as `Puzzle.difficulty`
    rates it): checked under the `Rules` the run made once, not validated again per puzzle."""
    from smtcrypt.teach.explain import explain  # z3 loads with the first explanation, not on import

    return explain(check(parse(formula), rules)).difficulty


@dataclass
class GenerateRun:
    """One `smtcrypt generate` run: the puzzles kept so far (rated with --difficulty) and how it ended."""

    args: argparse.Namespace
    rules: Rules  # made once from the rule options (`make_rules`), for every part of the run
    totals: Totals = field(default_factory=Totals)
    kept: list[Generated] = field(default_factory=list)  # held for --json's one object only
    count: int = 0  # puzzles handed out
    rated: dict[str, int] = field(default_factory=dict)
    interrupted: bool = False

    @property
    def limit_reached(self) -> bool:
        return self.args.limit is not None and self.count >= self.args.limit

    def puzzles(self, words: list[str], show: bool) -> Iterator[Generated]:
        """The generator's puzzles that pass --difficulty, until --limit of them."""
        args = self.args
        progress = (lambda totals: print(progress_bar(totals), end="", file=sys.stderr, flush=True)) if show else None
        for puzzle in self.found(words, progress):
            if args.difficulty:
                self.rated[puzzle.formula] = difficulty(puzzle.formula, self.rules)
                if self.rated[puzzle.formula] not in args.difficulty:
                    continue
            self.count += 1
            if args.json:
                self.kept.append(puzzle)
            yield puzzle
            if args.difficulty and self.limit_reached:
                return

    def found(self, words: list[str], progress: Callable[[Totals], None] | None) -> Iterator[Generated]:
        """Every unique puzzle in the order of the list, or with --sample random ones, or the
        doubly-true puzzles of --doubly-true."""
        args = self.args
        limit = None if args.difficulty else args.limit
        if args.doubly_true:
            return doubly_true(args.doubly_true, args.numbers, args.addends, shape=args.shape, limit=limit,
                               timeout=args.timeout, totals=self.totals, progress=progress, confirm=args.confirm,
                               rules=self.rules)
        if args.sample is not None:
            return sample(words, args.shape, args.sample, seed=args.seed, draws=args.draws, timeout=args.timeout,
                          totals=self.totals, progress=progress, confirm=args.confirm, addends=args.addends,
                          distinct_words=args.distinct_words, rules=self.rules)
        return generate(words, args.shape, limit=limit, timeout=args.timeout,
                        totals=self.totals, progress=progress, jobs=args.jobs, confirm=args.confirm,
                        scheduler=args.scheduler, checkpoint=args.checkpoint, addends=args.addends,
                        distinct_words=args.distinct_words, rules=self.rules)

    def line(self, puzzle: Generated) -> str:
        rated = f"  (difficulty {self.rated[puzzle.formula]})" if self.args.difficulty else ""
        return f"{puzzle.formula}  /  {puzzle.solution.text}{rated}"

    def to_json(self) -> str:
        totals = self.totals
        puzzles = [{"formula": p.formula, "solution": {"mapping": p.solution.mapping, "text": p.solution.text},
                    **({"difficulty": self.rated[p.formula]} if self.args.difficulty else {})} for p in self.kept]
        return json.dumps({"shape": self.args.shape, "words": totals.words, "skipped_words": totals.skipped_words,
                           "totals": {"candidates": totals.candidates, "filtered": totals.filtered,
                                      **totals.verdicts, **({"draws": totals.draws} if self.args.sample else {})},
                           "complete": totals.candidates == totals.expected, "interrupted": self.interrupted,
                           "limit_reached": self.limit_reached, "puzzles": puzzles,
                           **({"sample": {"count": self.args.sample, "seed": self.args.seed}} if self.args.sample
                              else {}),
                           **({"shapes": totals.by_shape} if self.args.addends or self.args.doubly_true else {}),
                           **({"stats": stats_data(totals, self.args.confirm)} if self.args.stats else {}),
                           "seconds": round(totals.seconds, 3)})

    def ending(self) -> str:
        """The summary line for stderr: the totals, and whether the run was cut short."""
        totals = self.totals
        ending = "; interrupted" if self.interrupted else ""
        wanted = (self.args.sample or 0) * max(1, len(totals.by_shape), len(self.args.addends or ()))
        if self.count < wanted and not self.interrupted and not self.args.difficulty:
            ending += f"; found {self.count} of the {wanted} asked for in {totals.draws:,} draws"
        if self.limit_reached and totals.candidates < totals.expected:
            ending += (f"; stopped early at --limit {self.args.limit}: the totals count the {totals.candidates:,} of "
                       f"{totals.expected:,} candidates decided so far")
        stats = stats_lines(totals, self.args.confirm) if self.args.stats else []
        return "\n".join([summary(totals) + ending, *stats])


def main(argv: Sequence[str]) -> int:
    """`smtcrypt generate ...`: exit 0 if a unique puzzle was found, 1 if none, 2 for bad usage,
    130 if Ctrl-C ended the run (the puzzles found so far are printed, the totals say so)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    check_genre(args, parser)
    options = rules_from(args, parser)
    words = [] if args.doubly_true else words_of(args, parser)
    try:
        rules = make_rules(**options)  # the edge: validated once, typed for the whole run
    except FormulaError as error:  # rules that contradict one another or the base
        print(f"smtcrypt generate: error: {error}", file=sys.stderr)
        return Exit.USAGE
    run = GenerateRun(args, rules)
    if args.crossword is not None:
        return run_crosswords(args, parser, run.rules, words)
    show = args.progress or sys.stderr.isatty()
    if args.shape == longmul.SHAPE:
        return longmul.run(args, run.rules, words, show, bar)
    try:
        for puzzle in run.puzzles(words, show):
            if not args.json:
                print(run.line(puzzle), flush=True)
    except KeyboardInterrupt:  # Ctrl-C: keep what was found, say the run is incomplete
        run.interrupted = True
    except BrokenPipeError:  # the reader went away: the console entry point ends quietly
        raise
    except (CheckpointError, FormulaError, RuntimeError, OSError, ValueError) as error:
        # a checkpoint of another run, rules the generator refuses, no Dask, no scheduler
        if show:
            print(file=sys.stderr)
        print(f"smtcrypt generate: error: {error}", file=sys.stderr)
        return Exit.USAGE
    if show:
        print(file=sys.stderr)
    if args.json:
        print(run.to_json())
    else:
        print(run.ending(), file=sys.stderr)
    if run.interrupted:
        return Exit.INTERRUPTED
    return Exit.FOUND if run.count else Exit.NONE

