"""What every subcommand shares: exit codes, the puzzle-rule options, argparse types, and usage
errors as JSON under --json.

The rule options are spelled once, in `rule_options()`, a parent parser that each subcommand
taking a puzzle's rules includes with `parents=[rule_options()]`; `rules_from(args)` turns the
parsed options into the keyword rules of `Puzzle`, `make_rules` and `generate`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Collection
from typing import Any, NoReturn

from smtcrypt.cli.exits import Exit
from smtcrypt.core.results import Ending, Status, Verdict
from smtcrypt.core.rules import MAX_BASE, MIN_BASE
from smtcrypt.engine.base import STRATEGIES  # the names only: the engine loads with the first search
from smtcrypt.engine.memory import RESERVE_MB
from smtcrypt.notations import NOTATIONS, RULE_KEYWORDS, named_syntaxes
from smtcrypt.notations.options import specs
from smtcrypt.present.data import LISTED
from smtcrypt.search import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, MIN_MEMORY_MB

__all__ = ["DEFAULT_MEMORY_MB", "DEFAULT_TIMEOUT", "MIN_MEMORY_MB", "RESERVE_MB", "STRATEGIES", "Exit"]


# --- argparse types ---------------------------------------------------------------------------------


def positive_number(text: str) -> float:
    """An argparse type: a number of seconds above 0."""
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return value


def integer_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in [low, high] (no upper end without `high`), with a message
    that says the range."""
    def parse(text: str) -> int:
        value = int(text)
        if value < low or (high is not None and value > high):
            allowed = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {allowed}, not {text!r}")
        return value

    parse.__name__ = "integer"  # argparse's message for a non-number: "invalid integer value: 'x'"
    return parse


positive = integer_in(1)  # a count: processes, puzzles, solutions


def difficulty_range(text: str) -> range:
    """`2` or `1-2`: the difficulties from 1 to 5 a puzzle may have, low to high."""
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a difficulty 1-5 or a range such as 1-2, not {text!r}") from None
    if not 1 <= first <= last <= 5:
        raise argparse.ArgumentTypeError(f"must be a difficulty 1-5 or a range such as 1-2, not {text!r}")
    return range(first, last + 1)


# --- the puzzle's rules -----------------------------------------------------------------------------


def rule_options() -> argparse.ArgumentParser:
    """The parent parser of the puzzle-rule options, for `parents=[rule_options()]`."""
    parser = argparse.ArgumentParser(add_help=False)
    rules = parser.add_argument_group(
        "puzzle rules", "by default distinct letters take distinct digits and no word of two or more letters starts "
        "with 0; letters are uppercase letters of any script, or letters and marks of a script without case")
    rules.add_argument("--allow-leading-zeros", action="store_true", help="words may start with 0")
    rules.add_argument("--nonzero-single-letters", action="store_true",
                       help="a word of one letter is not 0 either: every word's first letter is nonzero (Cryptator's "
                       "rule)")
    rules.add_argument("--no-distinct", action="store_true", help="different letters may share a digit")
    rules.add_argument("--distinct", metavar="GROUPS",
                       help="only letters of the same group differ, e.g. ABC,DEF (instead of all letters)")
    rules.add_argument("--assign", action="append", metavar="L=D",
                       help="fix letter L to digit D (repeatable); L still differs from the other letters")
    rules.add_argument("--digits", metavar="SET", help="the digits every letter may take: 1-9 or 1,3,5,7,9")
    rules.add_argument("--domain", action="append", metavar="L=SET",
                       help="the digits letter L may take, e.g. A=1-5 (repeatable)")
    rules.add_argument("--base", type=integer_in(MIN_BASE, MAX_BASE), default=10, metavar="B",
                       help=f"words are base-B numbers ({MIN_BASE} to {MAX_BASE}; default 10)")
    return parser


def rules_from(args: argparse.Namespace, parser: argparse.ArgumentParser) -> dict[str, Any]:
    """The keyword rules (`Puzzle(..., **rules)`) the rule options ask for; a usage error through
    `parser` when they contradict each other."""
    if args.distinct is not None and args.no_distinct:
        parser.error("--distinct and --no-distinct exclude each other")
    if args.nonzero_single_letters and args.allow_leading_zeros:
        parser.error("--nonzero-single-letters and --allow-leading-zeros exclude each other")
    rules = {"distinct": args.distinct if args.distinct is not None else not args.no_distinct,
             "allow_leading_zeros": args.allow_leading_zeros, "base": args.base, "digits": args.digits,
             "domains": args.domain, "assign": args.assign}
    if args.nonzero_single_letters:  # only when asked: a rule left out is the default everywhere
        rules["nonzero_single_letters"] = True
    return rules


# --- a notation's own options -------------------------------------------------------------------------


def add_notation_options(group: argparse._ArgumentGroup, kind: type, skip: Collection[str] = ()) -> None:
    """The command-line options of a notation's options record (`smtcrypt.notations.options`), from its
    fields: flags, default, help, and how a word reads; a flag of a boolean with no value shown
    (`--nonzero-remainders`) is a switch. Fields without flags come by other arguments (a layout's
    conditions are its FORMULAs); fields named in `skip` by the shared rule options."""
    for spec in specs(kind):
        if not spec.flags or spec.name in skip:
            continue
        if spec.default is False and spec.metavar is None:
            group.add_argument(*spec.flags, dest=spec.name, action="store_true", help=spec.help)
        else:
            group.add_argument(*spec.flags, dest=spec.name, type=argument_type(spec.text), default=spec.default,
                               metavar=spec.metavar, action="append" if spec.repeatable else "store", help=spec.help)


def argument_type(read: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type of a record's reader of text: its `ValueError`'s reason is argparse's message."""
    def parse(text: str) -> Any:
        try:
            return read(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return parse


def notation_options(args: argparse.Namespace, kind: type, skip: Collection[str] = ()) -> dict[str, Any]:
    """The keywords of a notation's options record the parsed command line gives (its flagged fields)."""
    return {spec.name: getattr(args, spec.name) for spec in specs(kind) if spec.flags and spec.name not in skip}


def add_own_options(parser: argparse.ArgumentParser, syntax: str) -> None:
    """Notation `syntax`'s own options, but those the shared rule options spell (Cryptator's `--base`),
    as a group of a command that takes the shared ones (Cryptator's `-min`, `-max` in `explain`)."""
    kind = NOTATIONS[syntax].options
    if any(spec.flags and spec.name not in RULE_KEYWORDS for spec in specs(kind)):
        add_notation_options(parser.add_argument_group(f"options of --syntax {syntax}"), kind, skip=RULE_KEYWORDS)


def own_options(args: argparse.Namespace, syntax: str) -> dict[str, Any]:
    """The keywords of notation `syntax`'s own options `add_own_options` added, as parsed."""
    return notation_options(args, NOTATIONS[syntax].options, skip=RULE_KEYWORDS)


# --- usage errors under --json ----------------------------------------------------------------------


class JsonErrorParser(argparse.ArgumentParser):
    """With `json_errors` set (the command line has --json), a usage error is also one JSON
    object on stdout, so that a script reading stdout always gets JSON."""

    json_errors = False

    def error(self, message: str) -> NoReturn:
        if self.json_errors:
            print_json_error(f"usage: {message}")
        super().error(message)


def print_json_error(message: str, error: Exception | None = None) -> None:
    """Bad input under --json: `{"status": "error", "error": ...}` on stdout (exit code 2, as without --json)."""
    data: dict[str, Any] = {"status": "error", "error": message}
    if error is not None and getattr(error, "position", None) is not None:
        data.update(line=getattr(error, "line", None), column=getattr(error, "column", None),
                    snippet=getattr(error, "snippet", None))
    print(json.dumps(data, ensure_ascii=False))


def exit_code(verdict: Verdict, unique: bool = False) -> Exit:
    """0 a solution (with --unique: exactly one, proved), 1 none (or several), 3 unknown, 130 stopped."""
    if verdict.ending is Ending.INTERRUPTED:
        return Exit.INTERRUPTED
    if verdict.status is Status.UNKNOWN:
        return Exit.UNKNOWN
    if unique:
        return Exit.FOUND if verdict.status is Status.UNIQUE else Exit.NONE
    return Exit.FOUND if verdict.count else Exit.NONE


# --- the search and its output, and the notation ----------------------------------------------------


def add_search_options(parser: argparse.ArgumentParser) -> None:
    """What to report and how to search, the same for every notation. (Added to each parser rather
    than shared as a parent: argparse drops the title of a parent's group of exclusive options.)"""
    mode = parser.add_argument_group(
        "what to report", "at most one of --first, --limit, --count and --unique; without them, every "
        "solution").add_mutually_exclusive_group()
    mode.add_argument("--first", action="store_true", help="stop at the first solution")
    mode.add_argument("--limit", type=positive, metavar="N", help="stop after N solutions")
    mode.add_argument("--count", action="store_true", help="print only the number of solutions")
    mode.add_argument("--unique", action="store_true",
                      help="decide uniqueness: stop after two; exit 0 only if exactly one is proved")
    parser.add_argument("--stats", action="store_true",
                        help="also report the search space, Z3's counters and the time per stage")
    parser.add_argument("--timeout", type=positive_number, metavar="S",
                        help="bound the whole command to S seconds, reading the puzzle included; past it the search "
                             "ends as unknown (exit 3)")
    parser.add_argument("--max-memory", type=integer_in(MIN_MEMORY_MB), metavar="MB", default=DEFAULT_MEMORY_MB,
                        help=f"cap the solver's memory, and the whole process's at MB + {RESERVE_MB} more than at "
                             f"start (default {DEFAULT_MEMORY_MB}, at least {MIN_MEMORY_MB}); reaching it ends the "
                             "search as unknown")
    parser.add_argument("--strategy", choices=STRATEGIES, default="auto",
                        help="how to search: z3 (the solver, model by model), linear (a sum's equation, digit "
                             "by digit within its bounds), digits (equations of products, column by column from the "
                             "right), join (an equation searched side by side: "
                             "the sides' values matched, or a word read off the other side's value), cubes (the "
                             "solver, blocking proved cubes of solutions), exhaustive (every assignment, compiled), "
                             "or auto (default: by estimated cost, switching while running)")
    parser.add_argument("--show", choices=("line", "long"), default="line",
                        help="how to show each solution: line (default) or long (written out long-hand: a sum "
                             "with its carries, long multiplication, long division)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true",
                        help=f"print one JSON object instead of lines (listing at most {LISTED:,} solutions, and "
                             "counting them all); cut short, it says \"complete\": false and keeps what was found")
    output.add_argument("--json-lines", action="store_true",
                        help="print one JSON object a line: each solution as it is found, then the verdict (the "
                             "--json object without its list), also when cut short")


# Our options that take a value, as `search_options` spells them: an enigma.py command line is split by them.
VALUED = ("--limit", "--timeout", "--max-memory", "--strategy", "--show")
FLAGS = ("--first", "--count", "--unique", "--stats", "--json", "--json-lines")


def take_syntax(argv: list[str], allowed: tuple[str, ...] | None = None,
                usage: Callable[[], argparse.ArgumentParser] | None = None) -> tuple[str, list[str]]:
    """The notation `--syntax NAME` (or `--syntax=NAME`) names, wherever it stands, and the command
    line without it: the one place `--syntax` is read. A usage error (exit 2) for an unknown name,
    with the usage of the command's own parser (`usage` makes it: `smtcrypt worksheet`'s, say).
    `allowed`: the notations the command takes, by default every one a user names (`--layout FILE` besides)."""
    allowed = named_syntaxes() if allowed is None else allowed
    for index, argument in enumerate(argv):
        if argument == "--syntax" or argument.startswith("--syntax="):
            name = argument.partition("=")[2] if "=" in argument else (argv[index + 1] if index + 1 < len(argv) else "")
            rest = argv[:index] + argv[index + (1 if "=" in argument else 2):]
            if name not in allowed:
                parser = usage() if usage is not None else JsonErrorParser(prog="smtcrypt")
                if isinstance(parser, JsonErrorParser):
                    parser.json_errors = "--json" in argv or "--json-lines" in argv
                parser.error(f"argument --syntax: invalid choice: {name!r} (choose from {', '.join(allowed)})")
            return name, rest
        if argument == "--":
            break
    return "smtcrypt", list(argv)


def syntax_help(parser: argparse.ArgumentParser, allowed: tuple[str, ...] | None = None) -> None:
    """`--syntax` in a command's help (it is read before the parser runs, by `take_syntax`), each
    notation as its row of the door's table says."""
    allowed = named_syntaxes() if allowed is None else allowed
    parser.add_argument("--syntax", choices=allowed, default="smtcrypt",
                        help="the notation of the puzzle: " + ", ".join(NOTATIONS[name].help for name in allowed)
                             + "; our options stand before or after it")
