"""`smtcrypt explain`: a puzzle step by step, every step proved, and its difficulty."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from smtcrypt.cli.interrupt import current
from smtcrypt.cli.options import (
    Exit,
    JsonErrorParser,
    add_own_options,
    integer_in,
    own_options,
    positive_number,
    print_json_error,
    rule_options,
    rules_from,
    syntax_help,
    take_syntax,
)
from smtcrypt.cli.reading import read_puzzle
from smtcrypt.core.results import Ending, Status
from smtcrypt.errors import FormulaError


def build_parser() -> JsonErrorParser:
    parser = JsonErrorParser(
        prog="smtcrypt explain", parents=[rule_options()],
        description="Explain a puzzle step by step, in the order a person would find the solution; every step is "
                    "proved by Z3 before it is shown. Also rates the puzzle's difficulty from 1 to 5.")
    parser.add_argument("formula", nargs="+", metavar="FORMULA", help="the puzzle, as for solving")
    parser.add_argument("--hint", type=integer_in(0), metavar="N", help="show only the first N steps")
    parser.add_argument("--timeout", type=positive_number, metavar="S",
                        help="bound the explanation to about S seconds (by default it is bounded by the work it "
                             "does, so that it is the same on every machine)")
    parser.add_argument("--terse", action="store_true",
                        help="the reasoning's own steps, one small conclusion each (carries too), without the legend")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    syntax_help(parser)
    return parser


def main(argv: Sequence[str]) -> int:
    """`smtcrypt explain`: the steps, the difficulty and the solution; exit codes as for solving."""
    syntax, argv = take_syntax(list(argv), usage=build_parser)
    parser = build_parser()
    add_own_options(parser, syntax)
    parser.json_errors = "--json" in argv
    args = parser.parse_args(argv)
    rules = rules_from(args, parser)
    try:
        puzzle = read_puzzle(args.formula, syntax, rules, own=own_options(args, syntax))
    except FormulaError as error:
        print(f"smtcrypt: error: {error}", file=sys.stderr)
        if args.json:  # a script reading stdout still gets JSON
            print_json_error(error.message, error)
        return Exit.USAGE
    guard = current()
    guard.limit(args.timeout)  # the whole command: the explainer's own budget ends it about then
    if guard.left() == 0:  # the reading took all the time (the API refuses a timeout of 0)
        return explain_cut_short(Ending.TIME)
    from smtcrypt.teach.explain import StopSwitch  # z3 loads with the search, not with the options

    stop = StopSwitch()

    def stopped(ending: Ending) -> None:  # Ctrl-C: the running stage ends at once, its Z3 call interrupted
        if ending is Ending.INTERRUPTED:
            stop.request()

    try:
        with guard.stage(stopped, explain_cut_short, clocked=True):
            explanation = puzzle.explain(timeout=guard.left(), stop=stop)
        if stop.requested:  # what a stopped explanation returns is cut short: not the puzzle's
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        with guard.stage(final=True):  # no second KeyboardInterrupt while this is said
            return explain_cut_short(Ending.INTERRUPTED)
    guard.limit(None)
    if args.json:
        print(json.dumps(explanation.to_dict(args.hint, terse=args.terse)))
    else:
        print(explanation.text(args.hint, terse=args.terse))
    if explanation.status == Status.UNKNOWN:
        return Exit.UNKNOWN
    return Exit.FOUND if explanation.solutions else Exit.NONE


def explain_cut_short(ending: Ending) -> int:
    """The last resort's words: the explanation did not end in time (or at Ctrl-C), so there is none."""
    if ending is Ending.INTERRUPTED:
        print("interrupted", file=sys.stderr)
        return Exit.INTERRUPTED
    print("smtcrypt explain: the time limit ran out before the explanation was done", file=sys.stderr)
    return Exit.UNKNOWN
