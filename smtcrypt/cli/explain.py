"""`smtcrypt explain`: a puzzle step by step, every step proved, and its difficulty."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from smtcrypt.api import Puzzle
from smtcrypt.cli.options import (
    EXIT_FOUND,
    EXIT_NONE,
    EXIT_UNKNOWN,
    EXIT_USAGE,
    JsonErrorParser,
    integer_at_least,
    positive_number,
    print_json_error,
)
from smtcrypt.errors import FormulaError


def main(argv: Sequence[str]) -> int:
    """`smtcrypt explain`: the steps, the difficulty and the solution; exit codes as for solving."""
    parser = JsonErrorParser(
        prog="smtcrypt explain",
        description="Explain a puzzle step by step, in the order a person would find the solution; every step is "
                    "proved by Z3 before it is shown. Also rates the puzzle's difficulty from 1 to 5.")
    parser.add_argument("formula", nargs="+", metavar="FORMULA", help="the puzzle, as for solving")
    parser.add_argument("--hint", type=integer_at_least(0), metavar="N", help="show only the first N steps")
    parser.add_argument("--allow-leading-zeros", action="store_true", help="words may start with 0")
    parser.add_argument("--no-distinct", action="store_true", help="different letters may share a digit")
    parser.add_argument("--distinct", metavar="GROUPS",
                        help="only letters of the same group differ, e.g. ABC,DEF (instead of all letters)")
    parser.add_argument("--assign", action="append", metavar="L=D", help="fix letter L to digit D (repeatable)")
    parser.add_argument("--digits", metavar="SET", help="the digits every letter may take: 1-9 or 1,3,5,7,9")
    parser.add_argument("--domain", action="append", metavar="L=SET", help="the digits letter L may take")
    parser.add_argument("--base", type=integer_at_least(2, 36), default=10, metavar="B", help="words are base-B numbers")
    parser.add_argument("--timeout", type=positive_number, metavar="S",
                        help="bound the explanation to about S seconds (by default it is bounded by the work it "
                             "does, so that it is the same on every machine)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    parser.json_errors = "--json" in argv
    args = parser.parse_args(argv)
    if args.distinct is not None and args.no_distinct:
        parser.error("--distinct and --no-distinct exclude each other")
    try:
        puzzle = Puzzle(list(args.formula), distinct=args.distinct if args.distinct is not None else not args.no_distinct, allow_leading_zeros=args.allow_leading_zeros,
                        base=args.base, digits=args.digits, domains=args.domain, assign=args.assign)
    except FormulaError as error:
        print(f"smtcrypt: error: {error}", file=sys.stderr)
        if args.json:  # a script reading stdout still gets JSON
            print_json_error(error.message, error)
        return EXIT_USAGE
    explanation = puzzle.explain(timeout=args.timeout)
    if args.json:
        print(json.dumps(explanation.to_dict(args.hint)))
    else:
        print(explanation.text(args.hint))
    if explanation.status == "unknown":
        return EXIT_UNKNOWN
    return EXIT_FOUND if explanation.solutions else EXIT_NONE
