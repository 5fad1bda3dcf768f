"""The command line: `smtcrypt [options] FORMULA...` and its subcommands. Only wiring: options in,
lines or JSON out; each subcommand is a module of this package, imported when it runs.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence

from smtcrypt.cli.options import Exit

# Each subcommand's module, imported only when it runs, so that `smtcrypt --help` stays fast.
SUBCOMMANDS = {
    "generate": "smtcrypt.cli.generate",
    "batch": "smtcrypt.cli.batch",
    "explain": "smtcrypt.cli.explain",
    "serve": "smtcrypt.cli.serve",
    "worksheet": "smtcrypt.cli.worksheet",
    "play": "smtcrypt.cli.play",
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the subcommand named first (`generate`, `batch`, ...) or solve; the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] and argv[0] in SUBCOMMANDS:
        command = importlib.import_module(SUBCOMMANDS[argv[0]])
        return int(command.main(argv[1:]))
    command = importlib.import_module("smtcrypt.cli.solve")
    return int(command.main(argv))


def run() -> None:
    """The console entry point."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`smtcrypt ... | head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = Exit.BROKEN_PIPE
    except KeyboardInterrupt:  # Ctrl-C before a command's own handler is in place (while modules load)
        print("interrupted", file=sys.stderr)
        code = Exit.INTERRUPTED
    sys.exit(code)
