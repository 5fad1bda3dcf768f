"""The exit status of every subcommand, apart so that the command's entry point can name them before
anything else loads."""

from __future__ import annotations

import enum


class Exit(enum.IntEnum):
    """The exit status of every subcommand."""

    FOUND = 0  # a solution (with --unique: exactly one, proved), a puzzle generated, a page served
    NONE = 1  # no solution (with --unique: none or several)
    USAGE = 2  # bad input or usage
    UNKNOWN = 3  # the search could not finish (time limit, the solver gave up)
    INTERRUPTED = 130  # Ctrl-C ended the run (what was found is printed)
    BROKEN_PIPE = 141  # the reader of stdout went away
