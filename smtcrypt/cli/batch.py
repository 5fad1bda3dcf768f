"""`smtcrypt batch FILE`: many puzzles, one a line, each answered by one JSON line, in input order.

The options on the command line apply to every puzzle. Each answer is the object `smtcrypt
--json` prints, with the puzzle's line number; a line that is not a valid formula is answered
by `{"line", "formula", "error"}` and the others go on. The puzzles are chunks for
`distribute.run_chunks`: solved here, on `--jobs N` local processes or on a Dask cluster
(`--scheduler ADDRESS`), and printed in input order whichever finishes first. The totals go to
stderr.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.cli.interrupt import current, owns_process
from smtcrypt.cli.options import (
    DEFAULT_MEMORY_MB,
    MIN_MEMORY_MB,
    RESERVE_MB,
    STRATEGIES,
    Exit,
    add_own_options,
    integer_in,
    own_options,
    positive,
    positive_number,
    rule_options,
    rules_from,
    syntax_help,
    take_syntax,
)
from smtcrypt.core.results import Ending, Status
from smtcrypt.engine.base import Executor
from smtcrypt.engine.memory import cap_process_memory
from smtcrypt.errors import FormulaError
from smtcrypt.notations import shared_options
from smtcrypt.present.data import to_dict
from smtcrypt.present.report import Report
from smtcrypt.search import set_memory_limit
from smtcrypt.search.verdicts import impossible, unfinished
from smtcrypt.setters.distribute import run_chunks


def read_puzzles(lines: Iterable[str]) -> list[tuple[int, str]]:
    """(line number, formula) for each line that is neither blank nor a `#` comment."""
    return [(number, line.strip()) for number, line in enumerate(lines, 1)
            if line.strip() and not line.lstrip().startswith("#")]


@dataclass(frozen=True)
class BatchTask:
    """The puzzles of one batch and how to search each; `task(c)` answers the puzzles of chunk c (`group` a
    chunk) as JSON data."""

    puzzles: tuple[tuple[int, str], ...]
    rules: dict[str, Any] = field(default_factory=dict)
    limit: int | None = None
    decide: bool = False  # --unique: stop after two
    count: bool = False  # --count: solutions counted, not listed
    timeout: float | None = None  # per puzzle
    strategy: str = "auto"
    stats: bool = False
    max_memory: int = DEFAULT_MEMORY_MB
    syntax: str = "smtcrypt"  # or "cryptator" or "enigma": each line in that notation
    # max_memory caps the whole process too: where it is ours (the command's, and its pool's), not a
    # host's that called `main()` nor a Dask worker's, which other work shares
    cap_process: bool = False
    group: int = 1  # puzzles a chunk: several a chunk spare a process pool one exchange per puzzle
    compiled_kernels: bool = False  # the searches run the compiled kernels (each process loads them once)
    objective: tuple[str, str] | None = None  # --maximize or --minimize: (sense, expression) of every puzzle

    own: dict[str, Any] = field(default_factory=dict)  # the notation's own options (Cryptator's relax_min, ...)

    @cached_property
    def door(self) -> dict[str, Any]:
        """The notation's options for the shared rules and its own, built once a batch (typed rules for ours)."""
        return {**shared_options(self.syntax, self.rules), **self.own}

    @property
    def chunks(self) -> int:
        return -(-len(self.puzzles) // self.group)

    def __call__(self, chunk: int) -> list[dict[str, Any]]:
        """The answers to the puzzles of one chunk, in order."""
        return [self.answer(index) for index in range(chunk * self.group,
                                                      min(len(self.puzzles), (chunk + 1) * self.group))]

    def answer(self, index: int) -> dict[str, Any]:
        """The i-th puzzle's answer, as JSON data."""
        line, formula = self.puzzles[index]
        set_memory_limit(self.max_memory)
        if self.cap_process:  # in each process that solves puzzles, from its size when first capped
            cap_process_memory(self.max_memory)
        started = time.monotonic()
        output: Report | None = None
        try:
            puzzle = Puzzle.read(formula, self.syntax, **self.door)
            output = Report(puzzle.reading)
            if puzzle.reading.impossible is not None:  # ruled out before any search, as on the command line
                verdict = impossible(puzzle.reading.text, time.monotonic() - started)
            elif self.objective is not None:  # the best value of each puzzle, proved (decide: attained once?)
                sense, expression = self.objective
                result = puzzle.optimize(expression, sense=sense, unique=self.decide, timeout=self.timeout,
                                         strategy=self.strategy)
                return {"line": line, **output.optimum(result, stats=self.stats)}
            else:
                search = puzzle.search(limit=self.limit, timeout=self.timeout, decide=self.decide,
                                       strategy=self.strategy, keep=not self.count,
                                       executor=Executor.COMPILED if self.compiled_kernels else Executor.AUTO)
                for solution in search:
                    output.found(solution)
                verdict = search.verdict()
        except (FormulaError, ValueError) as error:  # a bad formula, or a strategy that cannot search it
            return {"line": line, "formula": formula, "error": str(error)}
        except MemoryError:  # reading it, or starting its search, took more than --max-memory
            verdict = unfinished(formula, Ending.MEMORY, time.monotonic() - started)
        data = to_dict(verdict, self.stats, solutions=not self.count) if output is None else \
            output.verdict(verdict, stats=self.stats, solutions=not self.count)
        return {"line": line, **data}


@dataclass
class BatchTotals:
    solved: int = 0  # a finished answer: found, unique, multiple, none or infinite
    errors: int = 0
    unknown: int = 0
    seconds: list[float] = field(default_factory=list)  # each puzzle's own search time

    def add(self, answer: dict[str, Any]) -> None:
        if "error" in answer:
            self.errors += 1
            return
        self.seconds.append(answer["seconds"])
        if Status(answer["status"]) is Status.UNKNOWN:
            self.unknown += 1
        else:
            self.solved += 1

    def exit_code(self, interrupted: bool) -> Exit:
        """130 after Ctrl-C, 2 if some line was not a valid formula, 3 if some search ended unknown, else 0."""
        if interrupted:
            return Exit.INTERRUPTED
        return Exit.USAGE if self.errors else Exit.UNKNOWN if self.unknown else Exit.FOUND

    def line(self, wall: float) -> str:
        median = statistics.median(self.seconds) if self.seconds else 0.0
        total = self.solved + self.errors + self.unknown
        return (f"{total:,} puzzles: solved {self.solved:,}, errors {self.errors:,}, "
                f"unknown {self.unknown:,} ({wall:.2f} s, median {median:.3f} s per puzzle)")


GROUP = 8  # puzzles a chunk at most, where other processes solve them
# puzzles a process from which its searches run the compiled kernels (the sums' and the digit search's),
# where their load pays (the measurements are in docs/batch.md, "Many puzzles a process")
COMPILED_FROM = 1000
SHARES = 16  # chunks a process at least, so that a few slow puzzles still spread over the processes


def batch(puzzles: Sequence[tuple[int, str]], *, jobs: int = 1, scheduler: Any = None,
          **options: Any) -> Iterator[dict[str, Any]]:
    """Each puzzle's answer (JSON data), in input order; `options` as for `BatchTask`. Solved elsewhere
    (`jobs` > 1, a scheduler), the puzzles go GROUP a chunk where there are many of them."""
    elsewhere = scheduler is not None or jobs > 1
    group = max(1, min(GROUP, len(puzzles) // (max(jobs, 2) * SHARES))) if elsewhere else 1
    processes = max(jobs, 1) if scheduler is None else 1  # a cluster's size unknown here: one is the safe guess
    options.setdefault("compiled_kernels", len(puzzles) >= COMPILED_FROM * processes)
    task = BatchTask(tuple(puzzles), group=group, **options)
    for _, answers in run_chunks(task, task.chunks, jobs=jobs, scheduler=scheduler):
        yield from answers


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="smtcrypt batch", parents=[rule_options()],
                                     description="Solve many puzzles, one per line of FILE (- for stdin); "
                                                 "one JSON object per line on stdout, in input order.")
    parser.add_argument("file", metavar="FILE", help="puzzles, one a line; blank lines and # comments are skipped")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--first", action="store_true", help="stop each puzzle at its first solution")
    mode.add_argument("--limit", type=positive, metavar="N", help="stop each puzzle after N solutions")
    mode.add_argument("--count", action="store_true", help="count each puzzle's solutions without listing them")
    mode.add_argument("--unique", action="store_true", help="decide each puzzle's uniqueness: stop after two")
    best = parser.add_mutually_exclusive_group()
    best.add_argument("--maximize", metavar="EXPR", help="each puzzle's largest value of EXPR, proved, as smtcrypt "
                                                         "--maximize (with --unique: whether one solution attains it)")
    best.add_argument("--minimize", metavar="EXPR", help="each puzzle's smallest value of EXPR, as --maximize")
    parser.add_argument("--timeout", type=positive_number, metavar="S", help="bound each puzzle's search to S seconds")
    parser.add_argument("--strategy", choices=STRATEGIES, default="auto",
                        help="how to search each puzzle (default auto)")
    parser.add_argument("--stats", action="store_true", help="add each search's statistics to its object")
    parser.add_argument("--max-memory", type=integer_in(MIN_MEMORY_MB), default=DEFAULT_MEMORY_MB, metavar="MB",
                        help=f"the solver's memory cap, and each process's at MB + {RESERVE_MB} more than at start "
                             f"(default {DEFAULT_MEMORY_MB}, at least {MIN_MEMORY_MB})")
    parser.add_argument("--jobs", type=positive, default=1, metavar="N", help="processes to use (default 1)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help='solve on the Dask cluster at ADDRESS; needs pip install "smtcrypt[dask]"')
    syntax_help(parser)
    return parser


def read_lines(name: str) -> list[str]:
    """The lines of a file, or of standard input for `-`."""
    if name == "-":
        return sys.stdin.read().splitlines()
    with open(name, encoding="utf-8") as source:
        return source.read().splitlines()


def main(argv: Sequence[str]) -> int:
    """`smtcrypt batch FILE`: exit 0 if every puzzle was answered, 3 if some ended unknown, 2 if
    some line was not a valid formula (or bad usage), 130 after Ctrl-C (answers so far printed)."""
    syntax, argv = take_syntax(list(argv), usage=build_parser)
    parser = build_parser()
    add_own_options(parser, syntax)
    args = parser.parse_args(argv)
    rules = rules_from(args, parser)
    objective = ("maximize", args.maximize) if args.maximize is not None else \
        ("minimize", args.minimize) if args.minimize is not None else None
    if objective is not None and (args.first or args.limit or args.count):
        parser.error(f"--{objective[0]} finds each puzzle's best value; it takes no --first, --limit or --count")
    try:
        shared_options(syntax, rules)  # checked once, up front
        lines = read_lines(args.file)
    except FormulaError as error:
        parser.error(str(error))
    except OSError as error:
        parser.error(f"cannot read {args.file}: {error.strerror or error}")
    puzzles = read_puzzles(lines)
    start = time.monotonic()
    totals = BatchTotals()
    interrupted = False

    def cut_short(ending: Ending) -> int:  # Ctrl-C's last resort (a long solver call): the answers so far
        print(totals.line(time.monotonic() - start) + "; interrupted", file=sys.stderr)
        return totals.exit_code(interrupted=True)

    capped = owns_process() and args.scheduler is None
    try:
        with current().stage(words=cut_short):
            for answer in batch(puzzles, jobs=args.jobs, scheduler=args.scheduler, rules=rules,
                                limit=1 if args.first else args.limit, decide=args.unique, count=args.count,
                                timeout=args.timeout, strategy=args.strategy, stats=args.stats,
                                max_memory=args.max_memory, syntax=syntax, own=own_options(args, syntax),
                                cap_process=capped, objective=objective):
                print(json.dumps(answer, ensure_ascii=False), flush=True)
                totals.add(answer)
    except KeyboardInterrupt:
        interrupted = True
    except BrokenPipeError:
        raise
    except (RuntimeError, OSError) as error:  # no Dask, or no scheduler at the address
        print(f"smtcrypt batch: error: {error}", file=sys.stderr)
        return Exit.USAGE
    print(totals.line(time.monotonic() - start) + ("; interrupted" if interrupted else ""), file=sys.stderr)
    return totals.exit_code(interrupted)
