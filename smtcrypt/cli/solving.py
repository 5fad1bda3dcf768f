"""`smtcrypt [options] FORMULA...` once its command line is read (cli/solve.py), in every notation:
the puzzle read through its notation's door, searched under Ctrl-C, each solution printed as it is
found (as the notation shows it), then the verdict and the exit code. The one driver: streaming,
Ctrl-C, JSON, --count, --first, the summary, infinite families and bad input are handled here once."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.cli.answers import command as answer_command
from smtcrypt.cli.interrupt import stopped_by_ctrl_c
from smtcrypt.cli.options import Exit, exit_code, print_json_error
from smtcrypt.core.results import Status, Verdict
from smtcrypt.errors import FormulaError
from smtcrypt.notations.files import read_text
from smtcrypt.present.answers import value_json, value_text
from smtcrypt.present.data import to_dict
from smtcrypt.present.text import stats_lines, summary_line
from smtcrypt.search import set_memory_limit
from smtcrypt.setters.answers import Expression, Value


def bad_input(error: Exception, json_errors: bool, what: str = "error") -> Exit:
    """A formula, layout or option the reader refused: the message on stderr (and as JSON under --json)."""
    print(f"smtcrypt: {what}: {error}", file=sys.stderr)
    if json_errors:
        print_json_error(getattr(error, "message", str(error)), error)
    return Exit.USAGE


def read_puzzle(args: argparse.Namespace) -> Puzzle:
    """The puzzle of the command line, through its notation's door."""
    if args.syntax == "enigma":
        command = args.formula
        if command[:1] == ["--run"]:
            if len(command) != 2:
                raise FormulaError("--run takes one FILE and nothing after it")
            return Puzzle.read(read_text(command[1]), "enigma")
        return Puzzle.read(command, "enigma")
    if args.syntax == "cryptator":
        return Puzzle.read(args.formula, "cryptator", base=args.base, allow_leading_zeros=args.allow_leading_zeros,
                           assign=args.assign, relax_min=args.relax_min, relax_max=args.relax_max)
    if args.layout is not None:
        return Puzzle.read(read_text(args.layout), "layout", conditions=list(args.formula) or None, **args.rules)
    return Puzzle(list(args.formula), **args.rules)


def solve(args: argparse.Namespace) -> int:
    """The puzzle of the parsed command line searched and reported; the exit code."""
    started = time.perf_counter()
    try:
        puzzle = read_puzzle(args)
    except (FormulaError, OSError) as error:
        return bad_input(error, args.json)
    set_memory_limit(args.max_memory)
    if args.answer is not None:
        return answer_command(puzzle, args)
    view = puzzle.view
    try:
        answer = None if view.answer is None else Expression(view.answer, puzzle.problem)
    except FormulaError as error:
        return bad_input(error, args.json, "error in --answer")
    if puzzle.reading.impossible is not None:  # ruled out before any search, as the notation's own tool does
        print(f"smtcrypt: {puzzle.reading.impossible}", file=sys.stderr)
        verdict = impossible(puzzle, time.perf_counter() - started)
        return report(puzzle, verdict, [], {}, args)
    try:
        search = puzzle.search(limit=1 if (args.first or puzzle.reading.first) else args.limit, timeout=args.timeout,
                               decide=args.unique, strategy=args.strategy, keep=not args.count)
    except ValueError as error:  # a strategy that cannot search this puzzle
        return bad_input(error, args.json)
    streaming = not (args.json or args.count)
    header = view.header()
    if streaming and header is not None:
        print(header, flush=True)
    tally: dict[Value, int] = {}
    shown: list[dict[str, Any]] = []
    with stopped_by_ctrl_c(search):
        for solution in search:
            value = None
            if answer is not None:
                found = answer.value(solution.mapping, puzzle.rules.base)
                tally[found] = tally.get(found, 0) + 1
                value = value_text(found)
            if streaming:
                print(view.line(solution, value), flush=True)
                if args.show == "long":
                    print(solution.long_hand() + "\n", flush=True)
            fields = view.solution_fields(solution, value)
            if fields is not None and not args.count:
                shown.append(fields)
    return report(puzzle, search.verdict(), shown, tally, args)


def impossible(puzzle: Puzzle, seconds: float) -> Verdict:
    """The verdict of a puzzle its reader found has no solution: complete, no search, and why."""
    stats = {"strategy": None, "proof": "more symbols that must differ than digits for them", "search_space": 0,
             "search_space_exact": True, "models": 0, "seconds": {"read": seconds}}
    return Verdict(puzzle.reading.text, Status.NONE, (), True, None, seconds, stats=stats)


def report(puzzle: Puzzle, verdict: Verdict, shown: list[dict[str, Any]], tally: dict[Value, int],
           args: argparse.Namespace) -> int:
    """The verdict: one JSON object, the count, or the summary lines; then --stats; the exit code."""
    view = puzzle.view
    answers = sorted(tally.items(), key=lambda item: str(item[0]))
    if args.json:
        data = to_dict(verdict, stats=args.stats, solutions=not args.count)
        data.update(view.fields())
        if shown:
            data["solutions"] = shown
        if view.answer is not None:
            data["answers"] = [{"value": value_json(value), "count": count} for value, count in answers]
        print(json.dumps(data, ensure_ascii=False))
    elif args.count:
        print("infinite" if verdict.status is Status.INFINITE else verdict.count)
        if verdict.status is Status.UNKNOWN:
            print(f"smtcrypt: {summary_line(verdict)}", file=sys.stderr)
    else:
        lines = view.summary(verdict, [(value_text(value), count) for value, count in answers])
        for line in lines if lines is not None else [summary_line(verdict)]:
            print(line)
    if args.stats and not args.json:
        for line in stats_lines(verdict):
            print(line)
    return exit_code(verdict, args.unique)
