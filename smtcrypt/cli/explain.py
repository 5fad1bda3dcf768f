"""`smtcrypt explain`: a puzzle step by step, every step proved, and its difficulty."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from smtcrypt.api import Puzzle
from smtcrypt.cli.options import (
    Exit,
    JsonErrorParser,
    integer_in,
    positive_number,
    print_json_error,
    rule_options,
    rules_from,
)
from smtcrypt.core.results import Status
from smtcrypt.errors import FormulaError
from smtcrypt.notations.cryptator import keywords as cryptator_keywords


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
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    parser.add_argument("--syntax", choices=("smtcrypt", "cryptator"), default="smtcrypt",
                        help="the notation of FORMULA: smtcrypt (default) or cryptator (Cryptator's, under its rules; "
                             "--assign then names the formula's symbols)")
    return parser


def main(argv: Sequence[str]) -> int:
    """`smtcrypt explain`: the steps, the difficulty and the solution; exit codes as for solving."""
    parser = build_parser()
    parser.json_errors = "--json" in argv
    args = parser.parse_args(argv)
    rules = rules_from(args, parser)
    try:
        puzzle = (Puzzle.from_cryptator(" ".join(args.formula), **cryptator_keywords(rules))
                  if args.syntax == "cryptator" else Puzzle(list(args.formula), **rules))
    except FormulaError as error:
        print(f"smtcrypt: error: {error}", file=sys.stderr)
        if args.json:  # a script reading stdout still gets JSON
            print_json_error(error.message, error)
        return Exit.USAGE
    explanation = puzzle.explain(timeout=args.timeout)
    if args.json:
        print(json.dumps(explanation.to_dict(args.hint)))
    else:
        print(explanation.text(args.hint))
    if explanation.status == Status.UNKNOWN:
        return Exit.UNKNOWN
    return Exit.FOUND if explanation.solutions else Exit.NONE
