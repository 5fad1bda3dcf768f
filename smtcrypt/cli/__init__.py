"""The command line: `smtcrypt [options] FORMULA...` and its subcommands. Only wiring: options in,
lines or JSON out; each subcommand is a module of this package, imported when it runs.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

from smtcrypt._version import VERSION_LINE
from smtcrypt.cli.exits import Exit

# Each subcommand's module, imported only when it runs, so that `smtcrypt --help` stays fast.
SUBCOMMANDS = {
    "generate": "smtcrypt.cli.generate",
    "batch": "smtcrypt.cli.batch",
    "explain": "smtcrypt.cli.explain",
    "serve": "smtcrypt.cli.serve",
    "page": "smtcrypt.cli.page",
    "worksheet": "smtcrypt.cli.worksheet",
    "play": "smtcrypt.cli.play",
}


# The web server handles Ctrl-C itself (it ends its searches' processes and closes its connections).
UNGUARDED = {"serve"}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the subcommand named first (`generate`, `batch`, ...) or solve; the exit code. Every
    command but `serve` runs in a `CommandGuard` (cli/interrupt.py): Ctrl-C and the time limit end it at
    any stage, and a command says stage by stage how."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if version_only(argv):
        return Exit.FOUND
    from smtcrypt.cli.interrupt import CommandGuard

    name = argv[0] if argv[:1] and argv[0] in SUBCOMMANDS else None
    if name in UNGUARDED:
        return int(importlib.import_module(SUBCOMMANDS[name]).main(argv[1:]))
    with CommandGuard():  # its clock starts now: a command's --timeout counts from here
        if name is not None:
            return int(importlib.import_module(SUBCOMMANDS[name]).main(argv[1:]))
        return int(importlib.import_module("smtcrypt.cli.solve").main(argv))


def version_only(argv: Sequence[str]) -> bool:
    """`smtcrypt --version` alone is answered (VERSION_LINE, as solve's parser prints it) before the
    options, the guard and the formula's types load: half the start-up."""
    if list(argv) != ["--version"]:
        return False
    print(VERSION_LINE)
    return True


def run() -> None:
    """The console entry point: the program is ours, so that Ctrl-C and the time limit may end it
    (cli/interrupt.py)."""
    if version_only(sys.argv[1:]):
        sys.exit(Exit.FOUND)
    try:
        from smtcrypt.cli.interrupt import owning_process

        with owning_process():
            code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`smtcrypt ... | head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = Exit.BROKEN_PIPE
    except KeyboardInterrupt:  # Ctrl-C in a stage without a handler of its own (loading modules, reading)
        print("interrupted", file=sys.stderr)
        code = Exit.INTERRUPTED
    except MemoryError:  # past --max-memory where no stage caught it: unknown, as a search's memory limit
        print("smtcrypt: memory limit reached (--max-memory)", file=sys.stderr)
        code = Exit.UNKNOWN
    sys.exit(code)
