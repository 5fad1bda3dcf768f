"""`smtcrypt [options] FORMULA...` once its command line is read (cli/solve.py): the puzzle read,
searched under Ctrl-C, each solution printed as it is found, then the verdict and the exit code."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from smtcrypt.api import Puzzle
from smtcrypt.cli.answers import command as answer_command
from smtcrypt.cli.interrupt import stopped_by_ctrl_c
from smtcrypt.cli.options import Exit, exit_code, print_json_error
from smtcrypt.core.results import Status, Verdict
from smtcrypt.errors import FormulaError
from smtcrypt.notations.layout import read_layout
from smtcrypt.present.data import to_json
from smtcrypt.present.text import solution_line, stats_lines, summary_line
from smtcrypt.search import set_memory_limit

if TYPE_CHECKING:
    from smtcrypt.search import Search


def bad_input(error: Exception, json_errors: bool) -> Exit:
    """A formula, layout or option the checker refused: the message on stderr (and as JSON under --json)."""
    print(f"smtcrypt: error: {error}", file=sys.stderr)
    if json_errors:
        print_json_error(getattr(error, "message", str(error)), error)
    return Exit.USAGE


def read_puzzle(args: argparse.Namespace, rules: dict[str, Any]) -> Puzzle:
    """The puzzle of the formula arguments, or of the --layout file with the formulas as its conditions."""
    if args.layout is not None:
        return Puzzle.from_layout(read_layout(args.layout), list(args.formula) or None, **rules)
    return Puzzle(list(args.formula), **rules)


def run(search: Search, puzzle: Puzzle, args: argparse.Namespace) -> None:
    """The search to its end (or Ctrl-C), each solution printed as it is found unless the output is
    one JSON object or a count: a line (or a filled-in layout), and long-hand with --show long."""
    streaming = not (args.json or args.count)
    with stopped_by_ctrl_c(search):
        for solution in search:
            if streaming:
                print(solution_line(solution) if puzzle.layout is None else puzzle.layout.block(solution), flush=True)
                if args.show == "long":
                    print(solution.long_hand() + "\n", flush=True)


def report(verdict: Verdict, args: argparse.Namespace) -> None:
    """The verdict: one JSON object, the count, or the summary line; and --stats."""
    if args.json:
        print(to_json(verdict, stats=args.stats, solutions=not args.count))
    elif args.count:
        print("infinite" if verdict.status is Status.INFINITE else verdict.count)
        if verdict.status is Status.UNKNOWN:
            print(f"smtcrypt: {summary_line(verdict)}", file=sys.stderr)
    else:
        print(summary_line(verdict))
    if args.stats and not args.json:
        for line in stats_lines(verdict):
            print(line)


def solve(args: argparse.Namespace, rules: dict[str, Any]) -> int:
    """The puzzle of the parsed command line (`rules` from its rule options) searched and reported; the exit code."""
    try:
        puzzle = read_puzzle(args, rules)
    except (FormulaError, OSError) as error:
        return bad_input(error, args.json)
    set_memory_limit(args.max_memory)
    if args.answer is not None:
        return answer_command(puzzle, args)
    try:
        search = puzzle.search(limit=1 if args.first else args.limit, timeout=args.timeout, decide=args.unique,
                               strategy=args.strategy, keep=not args.count)
    except ValueError as error:  # a strategy that cannot search this puzzle
        return bad_input(error, args.json)
    run(search, puzzle, args)
    verdict = search.verdict()
    report(verdict, args)
    return exit_code(verdict, args.unique)
