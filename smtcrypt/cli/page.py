"""`smtcrypt page`: the web page as a static folder that solves in the browser, no server needed."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from smtcrypt.cli.options import Exit, positive_number
from smtcrypt.web import DEFAULT_TIMEOUT
from smtcrypt.web.site import PYODIDE_CDN, PYODIDE_VERSION, WHEEL_PLATFORM, SiteError, write_site


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="smtcrypt page",
        description="Write the smtcrypt web page to a folder that any static web server can publish: it solves, "
                    "proves, explains and makes worksheets in the browser (Pyodide and Z3's WebAssembly build).",
        epilog="example: smtcrypt page --out site && python -m http.server -d site, then open "
               "http://127.0.0.1:8000/?formula=SEND+%2B+MORE+%3D+MONEY")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="the folder to write (made if need be)")
    parser.add_argument("--pyodide", metavar="DIR_OR_URL",
                        help=f"Pyodide {PYODIDE_VERSION}: a folder holding it (the npm package "
                             f"pyodide@{PYODIDE_VERSION}, unpacked: copied into the page, which then asks "
                             f"nothing of any other site) or its URL "
                             f"(default: {PYODIDE_CDN})")
    parser.add_argument("--wheels", type=Path, metavar="DIR",
                        help=f"a folder with the wheels of z3-solver (built for {WHEEL_PLATFORM}) and lark "
                             "(default: fetched with pip download)")
    parser.add_argument("--timeout", type=positive_number, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"bound each search in the page to S seconds (default {DEFAULT_TIMEOUT:g})")
    return parser


def main(argv: Sequence[str]) -> int:
    """Write the folder: exit 0, or 2 when it cannot be written as asked."""
    args = build_parser().parse_args(argv)
    try:
        index = write_site(args.out, pyodide=args.pyodide, wheels=args.wheels, timeout=args.timeout)
    except (SiteError, OSError) as error:
        print(f"smtcrypt page: error: {error}", file=sys.stderr)
        return Exit.USAGE
    print(index)
    return Exit.FOUND
