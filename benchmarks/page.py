"""The page without a server in headless Chromium: how long it takes to start, and how much slower
its searches run in Pyodide than the same searches in CPython, measured in the same run.

    python benchmarks/page.py --pyodide DIR --wheels DIR [--runs N]

`--pyodide` is the unpacked npm package pyodide@314.0.8, `--wheels` a folder with z3-solver's wheel
for Pyodide and lark's (as for `smtcrypt page`). The folder `smtcrypt page` writes is served by
`python -m http.server`; each run opens `?formula=SEND+%2B+MORE+%3D+MONEY` in a fresh browser
context and times Pyodide's start (the searches' worker ready) and the first answer. Then, in the
last page, each puzzle of PUZZLES is solved once more from the form: the seconds the verdict reports
(the search itself, in Pyodide) beside the same search's seconds in this CPython process (warm), and
their ratio. Needs Playwright and Chromium (SMTCRYPT_CHROMIUM, default /usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

import smtcrypt

CHROMIUM = os.environ.get("SMTCRYPT_CHROMIUM", "/usr/bin/chromium")
PUZZLES = ["SEND + MORE = MONEY", "NUM + BER = PLAY", "ODD * ODD = FREAKY", "TWO * TWO = SQUARE",
           "EVE / DID = 0.(TALK)", "NORTH / SOUTH = EAST / WEST"]
WAIT_MS = 120_000


def seconds_of(status: str) -> float:
    """The search's seconds from the page's status line (`9.5 ms` or `0.12 s`)."""
    found = re.search(r"([\d.]+) (ms|s)\s*$", status)
    if not found:
        raise ValueError(f"no time in {status!r}")
    return float(found.group(1)) / (1000 if found.group(2) == "ms" else 1)


def wait_status(page) -> str:
    page.wait_for_function("!['searching', undefined].includes(document.getElementById('status').dataset.status)")
    return page.inner_text("#status")


def in_cpython(formula: str, runs: int = 3) -> float:
    smtcrypt.Puzzle(formula).search().run()  # warm: the parser, the backend's first use
    return statistics.median(smtcrypt.Puzzle(formula).search().run().seconds for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyodide", required=True)
    parser.add_argument("--wheels", required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    site = Path(tempfile.mkdtemp())
    subprocess.run([sys.executable, "-m", "smtcrypt", "page", "--out", str(site), "--pyodide", args.pyodide,
                    "--wheels", args.wheels, "--timeout", "60"], check=True, stdout=subprocess.DEVNULL)
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(site)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        base = "http://127.0.0.1:" + re.search(r"port (\d+)", server.stdout.readline()).group(1)  # type: ignore[union-attr]
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            ready, first = [], []
            for _ in range(args.runs):
                context = chromium.new_context()
                page = context.new_page()
                page.set_default_timeout(WAIT_MS)
                started = time.monotonic()
                page.goto(base + "/?formula=" + urllib.parse.quote("SEND + MORE = MONEY"))
                wait_status(page)
                first.append(time.monotonic() - started)
                page.wait_for_function("performance.getEntriesByName('smtcrypt-ready').length > 0")
                mark = page.evaluate("performance.getEntriesByName('smtcrypt-ready')[0].startTime")
                ready.append(mark / 1000)
                if _ < args.runs - 1:
                    context.close()
            print(f"Pyodide and smtcrypt ready: median {statistics.median(ready):.2f} s "
                  f"(runs: {', '.join(f'{value:.2f}' for value in ready)})")
            print(f"first answer (SEND + MORE = MONEY from its link): median {statistics.median(first):.2f} s "
                  f"(runs: {', '.join(f'{value:.2f}' for value in first)})")
            print(f"{'puzzle':32} {'page s':>9} {'CPython s':>10} {'ratio':>7}")
            ratios = []
            for formula in PUZZLES:
                page.fill("#formula", formula)
                page.click("#solve")
                browser = seconds_of(wait_status(page))
                native = in_cpython(formula)
                ratios.append(browser / native)
                print(f"{formula:32} {browser:9.4f} {native:10.4f} {browser / native:7.1f}")
            print(f"median ratio page / CPython: {statistics.median(ratios):.1f}")
            chromium.close()
    finally:
        server.kill()


if __name__ == "__main__":
    main()
