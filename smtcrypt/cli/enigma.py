"""`smtcrypt --syntax enigma SOLVER ARGS...` and `smtcrypt --syntax enigma --run FILE`: an enigma.py
command line or run file, read as written. Our options `--json`, `--timeout S`, `--stats`, `--first`
and `--count` may stand before `--syntax`, after it, or among the solver's arguments (`split_argv`).

SOLVER is `SubstitutedExpression`, `SubstitutedDivision` or `SubstitutedSum`; the rest is read as enigma.py reads it
(see smtcrypt.notations.enigma). Each solution is printed much as enigma.py prints it, the expressions
and then the same with the digits in, and the user's symbols; then each value of the `--answer`
with how many solutions give it, and `[N solutions]`.

Exit codes as every subcommand's (smtcrypt.cli.options.Exit): 0 a solution, 1 none, 2 bad input
(a caret under the fault), 3 unknown (the time limit: never reported as none), 130 stopped.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.cli.interrupt import stopped_by_ctrl_c
from smtcrypt.cli.options import (
    Exit,
    JsonErrorParser,
    add_output_options,
    end_of_output,
    print_json_error,
)
from smtcrypt.core.numerals import digit_char
from smtcrypt.core.results import Solution, Status, Verdict
from smtcrypt.errors import FormulaError
from smtcrypt.notations.enigma import SOLVERS, EnigmaPuzzle, read_command, read_runfile
from smtcrypt.present.answers import value_json, value_text
from smtcrypt.present.data import to_dict
from smtcrypt.present.text import plural
from smtcrypt.setters.answers import Expression, Value

USAGE = ("smtcrypt --syntax enigma [--json] [--timeout S] [--stats] [--first] [--count] "
         f"{{{','.join(SOLVERS)}}} ARGS...\n       smtcrypt --syntax enigma [...] --run FILE\n"
         "       (our options may also stand before --syntax or among the solver's arguments)")


def build_parser() -> JsonErrorParser:
    parser = JsonErrorParser(prog="smtcrypt --syntax enigma", usage=USAGE,
                             description="Read an enigma.py command line (python3 enigma.py SOLVER ARGS...) or run "
                                         "file as written, and solve it.")
    add_output_options(parser)
    return parser


OUR_FLAGS = ("--json", "--stats", "--count", "--first")  # add_output_options', besides --timeout S
HELP = ("-h", "--help")  # ours before the solver's name


def split_argv(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """Our options and the enigma.py command line. Ours may stand before `--syntax enigma`, after it,
    or among the solver's arguments; after the solver's name, a name enigma.py has too (`--first`) is
    enigma.py's (it means the same). After `--run FILE` every option is ours."""
    argv = list(argv)
    index = argv.index("--syntax")
    ours, theirs = argv[:index], []
    solver: str | None = None
    rest = argv[index + 2:]
    position = 0
    while position < len(rest):
        argument = rest[position]
        position += 1
        if solver is None and argument in HELP:
            ours.append(argument)
        elif solver is None and (argument == "--run" or not argument.startswith("-")):
            solver = argument
            theirs.append(argument)
            if argument == "--run":  # its FILE
                theirs += rest[position:position + 1]
                position += 1
        elif argument == "--timeout" or argument.startswith("--timeout="):
            ours.append(argument)
            if argument == "--timeout":  # its value
                ours += rest[position:position + 1]
                position += 1
        elif argument in OUR_FLAGS and not (argument == "--first" and solver in SOLVERS):
            ours.append(argument)
        else:
            theirs.append(argument)
    return ours, theirs


def main(argv: Sequence[str]) -> int:
    started = time.perf_counter()
    parser = build_parser()
    ours, theirs = split_argv(argv)
    parser.json_errors = "--json" in ours
    args = parser.parse_args(ours)
    try:
        if theirs[:1] == ["--run"]:
            if len(theirs) != 2:
                parser.error("--run takes one FILE and nothing after it")
            with open(theirs[1], encoding="utf-8") as handle:
                theirs = read_runfile(handle.read())
        puzzle = read_command(theirs)
        searched = None if puzzle.impossible else build(puzzle)
    except (FormulaError, OSError) as error:
        print(f"smtcrypt: error: {error}", file=sys.stderr)
        if args.json:
            print_json_error(getattr(error, "message", str(error)), error)
        return Exit.USAGE
    if searched is None:
        return no_solution(puzzle, args, time.perf_counter() - started)
    return solve(puzzle, searched, args)


def no_solution(puzzle: EnigmaPuzzle, args: argparse.Namespace, seconds: float) -> int:
    """More symbols that must differ than digits for them (`SubstitutedSum -b7 "SEND + MORE = MONEY"`):
    no solution, as enigma.py reports it, with the reason on stderr; no search."""
    assert puzzle.impossible is not None
    print(f"smtcrypt: {puzzle.impossible}", file=sys.stderr)
    stats = {"strategy": None, "proof": "more symbols that must differ than digits for them", "search_space": 0,
             "search_space_exact": True, "models": 0, "seconds": {"read": seconds}}
    verdict = Verdict(puzzle.text, Status.NONE, (), True, None, seconds, stats=stats)
    return report(puzzle, verdict, [], {}, args)


def build(puzzle: EnigmaPuzzle) -> Puzzle:
    """Our puzzle: the formulas, or the long division with the extra conditions."""
    if puzzle.layout is None:
        return Puzzle(puzzle.formulas, **puzzle.rules)
    if puzzle.formulas:
        if "conditions" not in inspect.signature(Puzzle.from_layout).parameters:
            raise FormulaError("--extra on a SubstitutedDivision needs layouts with conditions, which this version "
                               "of smtcrypt does not have")
        return Puzzle.from_layout(puzzle.layout, conditions=puzzle.formulas, **puzzle.rules)
    return Puzzle.from_layout(puzzle.layout, **puzzle.rules)


def solve(puzzle: EnigmaPuzzle, searched: Puzzle, args: argparse.Namespace) -> int:
    answer = None
    if puzzle.answer is not None:
        try:
            answer = Expression(puzzle.answer.formula, searched)
        except FormulaError as error:
            print(f"smtcrypt: error in --answer: {error.message}\n  {puzzle.answer.text}", file=sys.stderr)
            return Exit.USAGE
    search = searched.search(limit=1 if (args.first or puzzle.first) else None, timeout=args.timeout)
    streaming = not (args.json or args.count)
    tally: dict[Any, int] = {}
    shown: list[dict[str, Any]] = []
    with stopped_by_ctrl_c(search):
        for solution in search:
            value = answer.value(solution.mapping, searched.rules.base) if answer is not None else None
            if answer is not None:
                tally[value] = tally.get(value, 0) + 1
            line = solution_line(puzzle, solution, value, answer is not None)
            if streaming:
                print(line, flush=True)
            shown.append({"mapping": puzzle.user_mapping(solution.mapping), "text": line})
    return report(puzzle, search.verdict(), shown, tally, args)


def report(puzzle: EnigmaPuzzle, verdict: Verdict, shown: list[dict[str, Any]], tally: dict[Any, int],
           args: argparse.Namespace) -> int:
    """The end of a run: one JSON object, the count, or the answers and the count; the exit code."""
    if args.json:
        print(json.dumps(json_object(puzzle, verdict, shown, tally, args.stats), ensure_ascii=False))
    elif args.count:
        print(verdict.count)
    else:
        for line in summary(puzzle, verdict, tally):
            print(line)
    return end_of_output(verdict, args)


def solution_line(puzzle: EnigmaPuzzle, solution: Solution, value: Value, answered: bool) -> str:
    """One solution as enigma.py prints it: `(SEND + MORE = MONEY) (9567 + 1085 = 10652) / D=7 ...`
    (a division: `47670 / 77 = 619 (rem 7) [476 - 462 = 14, ...] / b=9 ...`), then ` / ANSWER`."""
    symbols = " ".join(f"{symbol}={digit_char(digit)}" for symbol, digit in puzzle.listed(solution.mapping).items())
    if puzzle.division is not None:
        head = division_text(solution.text, puzzle.rules["base"])
        extra = " ".join(f"({puzzle.substitute(e, solution.mapping)})" for e in puzzle.expressions)
        line = " ".join(part for part in (head, extra) if part)
    elif puzzle.template is not None:  # --template: as written, then filled in
        line = f"{puzzle.template.written} {puzzle.substitute(puzzle.template, solution.mapping)}"
    else:
        written = " ".join(f"({expression.written})" for expression in puzzle.expressions)
        filled = " ".join(f"({puzzle.substitute(expression, solution.mapping)})" for expression in puzzle.expressions)
        line = f"{written} {filled}"
    if symbols:
        line += f" / {symbols}"
    if answered:
        line += f" / {value_text(value)}"
    return line


def division_text(filled: str, base: int) -> str:
    """`a / b = c (rem r) [x - y = z, ...]` from the filled-in long division (its first and third lines)."""
    lines = filled.split("\n")
    quotient = lines[0].strip()
    divisor_text, _, dividend_text = lines[2].partition(")")
    divisor = int(divisor_text.strip(), base)
    steps, current = [], 0
    for digit in dividend_text.strip():
        current = current * base + int(digit, base)
        times, remainder = divmod(current, divisor)
        if times:
            steps.append(f"{number(current, base)} - {number(divisor * times, base)} = {number(remainder, base)}")
        current = remainder
    return (f"{dividend_text.strip()} / {divisor_text.strip()} = {quotient} (rem {number(current, base)}) "
            f"[{', '.join(steps)}]")


def number(value: int, base: int) -> str:
    digits = ""
    while True:
        value, digit = divmod(value, base)
        digits = digit_char(digit) + digits
        if not value:
            return digits


def summary(puzzle: EnigmaPuzzle, verdict: Verdict, tally: dict[Any, int]) -> list[str]:
    """The answers with their counts, then `[N solutions]` (and why the search is incomplete)."""
    lines = []
    if puzzle.answer is not None:
        for value, count in sorted(tally.items(), key=lambda item: str(item[0])):
            lines.append(f"answer = {value_text(value)} [{plural(count)}]")
    seconds = f"{verdict.seconds:.2f} s"
    if verdict.status is Status.UNKNOWN:
        lines.append(f"[{plural(verdict.count)} found; search incomplete ({verdict.reason}), so more may exist; "
                     f"{seconds}]")
    elif verdict.status is Status.FOUND:
        lines.append(f"[{plural(verdict.count)}; stopped as asked, more may exist; {seconds}]")
    else:
        lines.append(f"[{plural(verdict.count)}; search complete, {seconds}]")
    return lines


def json_object(puzzle: EnigmaPuzzle, verdict: Verdict, shown: list[dict[str, Any]], tally: dict[Any, int],
                stats: bool) -> dict[str, Any]:
    """Our usual object (`count`, `status`, ...) with the solutions in the user's symbols and the answers."""
    data = to_dict(verdict, stats=stats)
    data["formula"] = puzzle.text
    data["syntax"] = "enigma"
    data["solver"] = puzzle.solver
    data["solutions"] = shown
    if puzzle.answer is not None:
        data["answer"] = puzzle.answer.text
        data["answers"] = [{"value": value_json(value), "count": count}
                           for value, count in sorted(tally.items(), key=lambda item: str(item[0]))]
    return data
