"""What every subcommand shares: exit codes, argparse types, and usage errors as JSON under --json."""

from __future__ import annotations

import argparse
import enum
import json
from collections.abc import Callable
from typing import Any


class Exit(enum.IntEnum):
    """The exit status of every subcommand."""

    FOUND = 0  # a solution (with --unique: exactly one, proved), a puzzle generated, a page served
    NONE = 1  # no solution (with --unique: none or several)
    USAGE = 2  # bad input or usage
    UNKNOWN = 3  # the search could not finish (time limit, the solver gave up)
    INTERRUPTED = 130  # Ctrl-C ended the run (what was found is printed)
    BROKEN_PIPE = 141  # the reader of stdout went away


EXIT_FOUND, EXIT_NONE, EXIT_USAGE, EXIT_UNKNOWN = Exit.FOUND, Exit.NONE, Exit.USAGE, Exit.UNKNOWN
EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = Exit.INTERRUPTED, Exit.BROKEN_PIPE


def positive_number(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return value


def integer_at_least(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in [low, high], with a message that says the range."""
    def parse(text: str) -> int:
        value = int(text)
        if value < low or (high is not None and value > high):
            allowed = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise argparse.ArgumentTypeError(f"must be {allowed}, not {text!r}")
        return value

    parse.__name__ = "integer"  # argparse's message for a non-number: "invalid integer value: 'x'"
    return parse


class JsonErrorParser(argparse.ArgumentParser):
    """With `json_errors` set (the command line has --json), a usage error is also one JSON
    object on stdout, so that a script reading stdout always gets JSON."""

    json_errors = False

    def error(self, message: str):  # type: ignore[override]
        if self.json_errors:
            print_json_error(f"usage: {message}")
        super().error(message)


def print_json_error(message: str, error: Exception | None = None) -> None:
    """Bad input under --json: `{"status": "error", "error": ...}` on stdout (exit code 2, as without --json)."""
    data: dict[str, Any] = {"status": "error", "error": message}
    if error is not None and getattr(error, "position", None) is not None:
        data.update(line=error.line, column=error.column, snippet=error.snippet)  # type: ignore[attr-defined]
    print(json.dumps(data, ensure_ascii=False))
