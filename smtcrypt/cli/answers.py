"""`smtcrypt --answer EXPR`: the values one expression takes over the solutions, or a proof it is unique."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from smtcrypt.cli.options import Exit
from smtcrypt.core.results import Status
from smtcrypt.errors import FormulaError
from smtcrypt.present.answers import lines, to_dict
from smtcrypt.present.report import Report
from smtcrypt.setters.answers import answers

if TYPE_CHECKING:
    from smtcrypt.api import Puzzle


Result = TypeVar("Result")


def asked(option: str, question: Callable[[], Result]) -> Result | None:
    """The answer to a question about the solutions (`--answer`, `--maximize`, ...), or None once its
    refusal is printed: an expression that cannot be read (with its caret), or a strategy that cannot
    search the puzzle; the caller exits 2."""
    try:
        return question()
    except FormulaError as error:
        print(f"smtcrypt: error in {option}: {error}", file=sys.stderr)
    except ValueError as error:
        print(f"smtcrypt: error: {error}", file=sys.stderr)
    return None


def command(puzzle: Puzzle, args: argparse.Namespace) -> int:
    """`smtcrypt --answer EXPR`: the values as lines (or in the JSON object), and the exit code:
    0 answers found (with --unique: the answer proved unique), 1 none (--unique: none or several),
    2 a bad expression, 3 unknown."""
    result = asked("--answer", lambda: answers(puzzle.reading, args.answer, unique=args.unique, timeout=args.timeout,
                                               strategy=args.strategy))
    if result is None:
        return Exit.USAGE
    if args.json:
        output = Report(puzzle.reading)
        data = output.verdict(result.verdict, stats=args.stats)
        if args.unique:  # the first solution, and the one with another answer if there is one
            shown = output.verdict(replace(result.verdict, solutions=result.solutions))
            data.update(solutions=shown["solutions"], count=len(result.solutions))
        data.update(to_dict(result))
        data["seconds"] = round(result.seconds, 6)
        print(json.dumps(data, ensure_ascii=False))
    else:
        for line in lines(result):
            print(line)
    if result.status is Status.UNKNOWN:
        return Exit.UNKNOWN
    if args.unique:
        return Exit.FOUND if result.status is Status.UNIQUE else Exit.NONE
    return Exit.FOUND if result.values else Exit.NONE
