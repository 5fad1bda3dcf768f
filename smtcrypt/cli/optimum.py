"""`smtcrypt --maximize EXPR` / `--minimize EXPR`: the best value over the solutions, proved."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from smtcrypt.cli.answers import asked
from smtcrypt.cli.options import Exit
from smtcrypt.core.results import Status
from smtcrypt.present.optimum import lines
from smtcrypt.present.report import Report
from smtcrypt.setters.optimum import optimize

if TYPE_CHECKING:
    from smtcrypt.api import Puzzle


def command(puzzle: Puzzle, args: argparse.Namespace) -> int:
    """The solution attaining the optimum (two with --unique where more do), then the optimum, as
    lines or one JSON object; the exit code: 0 optimal, proved (with --unique: attained once), 1 no
    solution or no optimum, proved (with --unique: attained more than once), 2 a bad objective, 3 the
    search ended first."""
    sense = "maximize" if args.maximize is not None else "minimize"
    objective = args.maximize if args.maximize is not None else args.minimize
    result = asked(f"--{sense}", lambda: optimize(puzzle.reading, objective, sense=sense, unique=args.unique,
                                                  timeout=args.timeout, strategy=args.strategy))
    if result is None:
        return Exit.USAGE
    output = Report(puzzle.reading)
    if args.json:
        print(json.dumps(output.optimum(result, stats=args.stats), ensure_ascii=False))
    else:
        for solution in result.solutions:  # in the puzzle's own notation, as a search prints it
            print(output.line(solution))
            if args.show == "long" and solution.long_hand():
                print(solution.long_hand() + "\n")
        for line in lines(result):
            print(line)
    if result.status is Status.UNKNOWN:
        return Exit.UNKNOWN
    if result.status in (Status.NONE, Status.INFINITE) or (args.unique and result.attained is not Status.UNIQUE):
        return Exit.NONE if result.attained is not Status.UNKNOWN else Exit.UNKNOWN
    return Exit.FOUND
