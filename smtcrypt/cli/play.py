"""`smtcrypt play`: solve a puzzle by hand, one decision a line on stdin, each answered on stdout."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from smtcrypt.cli.interrupt import current, quietly
from smtcrypt.cli.options import (
    DEFAULT_TIMEOUT,
    Exit,
    JsonErrorParser,
    add_own_options,
    own_options,
    positive_number,
    rule_options,
    rules_from,
    syntax_help,
    take_syntax,
)
from smtcrypt.cli.reading import read_puzzle
from smtcrypt.errors import FormulaError
from smtcrypt.teach.play import DecisionError

COMMANDS = "decisions such as 'S = 9', 'E < 5', 'N != 3' or 'c2 = 1'; pencil marks 'S: 1 2 9'; undo, hint, marks, show"


def build_parser() -> JsonErrorParser:
    parser = JsonErrorParser(
        prog="smtcrypt play", parents=[rule_options()],
        description="Solve a puzzle by hand: type one decision a line (S = 9, E < 5, N != 3, c2 = 1 for a carry) "
                    "and each is answered at once, every answer proved: accepted (with the letters the decisions "
                    "now force), rejected with the reason, or unknown if the time limit ran out. Also: pencil "
                    "marks (S: 1 2 9), undo, hint, marks, show. One answer a line, so that it can be scripted; "
                    "on a terminal the puzzle is drawn again after each move.",
        epilog="example: printf 'M = 1\\nS = 8\\nhint\\n' | smtcrypt play \"SEND + MORE = MONEY\"")
    parser.add_argument("formula", nargs="+", metavar="FORMULA", help="the puzzle, as for solving")
    syntax_help(parser)
    parser.add_argument("--timeout", type=positive_number, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"seconds each move's search may take before it is answered unknown "
                             f"(default {DEFAULT_TIMEOUT:g})")
    return parser


def main(argv: Sequence[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """`smtcrypt play`: exit 0 once solved, 1 when the input ends first, 2 for a bad formula or options."""
    syntax, argv = take_syntax(list(argv), usage=build_parser)
    parser = build_parser()
    add_own_options(parser, syntax)
    args = parser.parse_args(argv)
    rules = rules_from(args, parser)
    source = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    guard = current()
    try:
        # Ctrl-C, at any point of the game, ends it quietly (exit 130): KeyboardInterrupt, or the last
        # resort where it cannot be raised in time (a long solver call of the first search, or of a move)
        with guard.stage(words=quietly):
            puzzle = read_puzzle(args.formula, syntax, rules, own=own_options(args, syntax))
            game = puzzle.play(timeout=args.timeout)  # the first search runs here
        drawing = out.isatty()
        if drawing:
            print(f"{game.layout().text()}\n({COMMANDS})", file=out, flush=True)
        for line in source:
            if not line.strip():
                continue
            try:
                with guard.stage(lambda ending: game.request_stop(), quietly):  # a move: its search stops too
                    answer = game.play(line.rstrip("\n"))
            except DecisionError as error:
                print(f"error: {error.message} at column {error.column}\n{error.snippet}", file=out, flush=True)
                continue
            if guard.ending is not None:  # stopped during the move: its answer is no answer
                return Exit.INTERRUPTED
            print(answer, file=out, flush=True)
            if drawing and line.strip() != "show":
                print(game.layout().text(), file=out, flush=True)
            if game.solved:
                return Exit.FOUND
    except FormulaError as error:
        print(f"smtcrypt: error: {error}", file=sys.stderr)
        return Exit.USAGE
    except KeyboardInterrupt:  # Ctrl-C at the prompt or during a move: the game ends, quietly
        return Exit.INTERRUPTED
    return Exit.NONE
