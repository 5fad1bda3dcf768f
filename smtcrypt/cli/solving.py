"""`smtcrypt [options] FORMULA...` once its command line is read (cli/solve.py), in every notation:
the puzzle read through its notation's door, searched under Ctrl-C, each solution printed as it is
found (as the notation shows it), then the verdict and the exit code. The one driver: streaming,
Ctrl-C, JSON, --count, --first, the summary, infinite families and bad input are handled here once.

`--timeout` bounds the whole command, from its start: reading the puzzle takes from the search's
time, and the command's guard (cli/interrupt.py) ends a stage that overruns it (the reading, say)
with an `unknown` verdict (exit 3). `--max-memory` caps the process (engine/memory.py)."""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time

from smtcrypt.api import Puzzle
from smtcrypt.cli import reading
from smtcrypt.cli.answers import command as answer_command
from smtcrypt.cli.interrupt import current, owns_process
from smtcrypt.cli.optimum import command as optimum_command
from smtcrypt.cli.options import Exit, exit_code, notation_options, own_options, print_json_error
from smtcrypt.core.results import Ending, Status, Verdict
from smtcrypt.engine.memory import cap_process_memory
from smtcrypt.errors import FormulaError
from smtcrypt.notations.cryptator.options import CryptatorOptions
from smtcrypt.notations.layout.options import LayoutOptions
from smtcrypt.present.data import LISTED, to_dict
from smtcrypt.present.report import Report
from smtcrypt.present.text import stats_lines, summary_line
from smtcrypt.search import Search, set_memory_limit
from smtcrypt.search.verdicts import impossible, unfinished


def bad_input(error: Exception, json_errors: bool, what: str = "error") -> Exit:
    """A formula, layout or option the reader refused: the message on stderr (and as JSON under --json)."""
    print(f"smtcrypt: {what}: {error}", file=sys.stderr)
    if json_errors:
        print_json_error(getattr(error, "message", str(error)), error)
    return Exit.USAGE


def read_puzzle(args: argparse.Namespace) -> Puzzle:
    """The puzzle of the command line, through its notation's door (`cli.reading`)."""
    if args.syntax == "cryptator":  # Cryptator's parser: its own options, no shared rule options
        return reading.read_puzzle([args.formula], "cryptator", {}, own=notation_options(args, CryptatorOptions))
    if args.syntax == "enigma":
        return reading.read_puzzle(args.formula, "enigma", {})
    own = notation_options(args, LayoutOptions) if args.layout is not None else own_options(args, args.syntax)
    return reading.read_puzzle(args.formula, args.syntax, args.rules, layout=args.layout, own=own)


def solve(args: argparse.Namespace) -> int:
    """The puzzle of the parsed command line searched and reported; the exit code."""
    started = time.perf_counter()
    guard = current()
    set_memory_limit(args.max_memory)
    if owns_process():  # not a host's that called `main()` from Python
        cap_process_memory(args.max_memory)
    unfinished = functools.partial(unfinished_words, args, guard.started)
    try:
        with guard.stage(words=unfinished):  # reading: the readers end only by the last resort
            guard.limit(args.timeout)  # (from the command's start)
            puzzle = read_puzzle(args)
    except (FormulaError, OSError) as error:
        return bad_input(error, machine(args))
    except MemoryError:
        return unfinished(Ending.MEMORY)
    except KeyboardInterrupt:  # Ctrl-C while reading (the stage takes it at a safe point)
        return unfinished(Ending.INTERRUPTED)
    if args.answer is not None or args.maximize is not None or args.minimize is not None:
        with guard.stage(words=unfinished, clocked=True):
            args.timeout = guard.left()
            return (answer_command if args.answer is not None else optimum_command)(puzzle, args)
    try:
        output = Report(puzzle.reading)
    except FormulaError as error:
        return bad_input(error, machine(args), "error in --answer")
    if puzzle.reading.impossible is not None:  # ruled out before any search, as the notation's own tool does
        print(f"smtcrypt: {puzzle.reading.impossible}", file=sys.stderr)
        return report(output, impossible(puzzle.reading.text, time.perf_counter() - started), args)
    if guard.left() == 0:  # the reading took all the time: no search (the API refuses a timeout of 0)
        return unfinished(Ending.TIME)
    try:
        with guard.stage(words=unfinished, clocked=True):  # the search's own refusals read its deadline
            search = puzzle.search(limit=1 if (args.first or puzzle.reading.first) else args.limit,
                                   timeout=guard.left(), decide=args.unique, strategy=args.strategy,
                                   keep=not args.count)
    except ValueError as error:  # a strategy that cannot search this puzzle
        return bad_input(error, machine(args))
    except MemoryError:
        return unfinished(Ending.MEMORY)
    except KeyboardInterrupt:  # Ctrl-C while the search is made (a plan, a strategy's refusal)
        return unfinished(Ending.INTERRUPTED)
    return stream(output, search, args)


def machine(args: argparse.Namespace) -> bool:
    """Output for programs: one JSON document (`--json`) or a JSON object a line (`--json-lines`)."""
    return bool(args.json or args.json_lines)


def stream(output: Report, search: Search, args: argparse.Namespace) -> int:
    """Each solution printed as it is found (a line of text, or of JSON with `--json-lines`), then
    the verdict; Ctrl-C and the time limit stop the search (or, if it does not end in time, the
    guard's last resort reports what it found). `--json` lists at most LISTED solutions and counts
    the rest; `--json-lines` keeps none, for it has written each."""
    guard = current()
    streaming = not (machine(args) or args.count)
    if args.json:
        search.retain = LISTED
    elif args.json_lines:
        search.retain = 0
    header = output.view.header()
    if streaming and header is not None:
        print(header, flush=True)

    def cut_short(ending: Ending) -> int:  # the last resort's words: what was found so far
        return report(output, search.verdict_so_far(ending), args)

    try:
        with guard.stage(search.request_stop, cut_short, raises=False):
            for solution in search:
                value = output.found(solution)
                if streaming:
                    print(output.line(solution, value), flush=True)
                    if args.show == "long":
                        print(solution.long_hand() + "\n", flush=True)
                if args.json_lines:
                    print(json.dumps(output.entry(solution, value), ensure_ascii=False), flush=True)
    except MemoryError:  # the solutions kept for the verdict filled --max-memory: they go, their count stays
        search.abandon(Ending.MEMORY)
    guard.limit(None)  # the verdict is known: the clock no longer matters
    with guard.stage(final=True):  # and Ctrl-C (once) no longer cuts the report short
        try:
            return report(output, search.verdict(), args)
        except MemoryError:  # too many to list within the cap: the verdict without its list
            search.drop_solutions()
            return report(output, search.verdict(), args)


def unfinished_words(args: argparse.Namespace, started: float, ending: Ending) -> int:
    """The verdict of a command that ran out of time, memory or patience before its search began:
    unknown, no solutions, the reason; as the summary line (or JSON) says it. Ctrl-C: `interrupted`
    on stderr, and for a program reading JSON its verdict too (so that it always gets JSON)."""
    if ending is Ending.INTERRUPTED:
        print("interrupted", file=sys.stderr)
        if not machine(args):
            return Exit.INTERRUPTED
    formula = args.layout if args.layout is not None else \
        args.formula if isinstance(args.formula, str) else " ".join(args.formula)
    verdict = unfinished(formula, ending, time.monotonic() - started)
    if machine(args):
        print(json.dumps(to_dict(verdict, solutions=bool(args.json and not args.count)), ensure_ascii=False))
    elif args.count:
        print(count_line(verdict))
        print(f"smtcrypt: {summary_line(verdict)}", file=sys.stderr)
    else:
        print(summary_line(verdict))
    return exit_code(verdict)


def count_line(verdict: Verdict) -> str:
    """`--count`'s line: the number; `infinite`; or, for a search cut short, a lower bound that says
    so (`at least 136191; search incomplete (time limit)`), never a bare number that looks complete."""
    if verdict.status is Status.INFINITE:
        return "infinite"
    if verdict.status is Status.UNKNOWN:
        return f"at least {verdict.count}; search incomplete ({verdict.reason})"
    return str(verdict.count)


def report(output: Report, verdict: Verdict, args: argparse.Namespace) -> int:
    """The verdict: one JSON object (with `--json-lines`, its last line, without the list), the
    count, or the summary lines; then --stats; the exit code."""
    if machine(args):
        data = output.verdict(verdict, stats=args.stats, solutions=not (args.count or args.json_lines), limit=LISTED)
        print(json.dumps(data, ensure_ascii=False))
    elif args.count:
        print(count_line(verdict))
        if verdict.status is Status.UNKNOWN:
            print(f"smtcrypt: {summary_line(verdict)}", file=sys.stderr)
    else:
        for line in output.summary(verdict):
            print(line)
    if args.stats and not machine(args):
        for line in stats_lines(verdict):
            print(line)
    hint = output.hint(verdict)
    if hint is not None:
        print(f"smtcrypt: hint: {hint}", file=sys.stderr)
    return exit_code(verdict, args.unique)
