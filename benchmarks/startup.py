"""How long the command takes from start to exit, for two commands that do little: `smtcrypt --version`
(target 0.1 s) and `smtcrypt "SEND + MORE = MONEY"` (target 0.25 s: a sum the linear backend solves,
without Z3). Each run is a fresh process; the median of the runs is held to the target.

    python benchmarks/startup.py [--runs N]

Python's bytecode is cached (in a temporary folder, whatever PYTHONDONTWRITEBYTECODE says) and one
run of each command warms it, so that the runs measure an installed package, not the compiler.
Prints, per command, the median and the fastest wall-clock time and the median CPU time (user and
system) in seconds; exit status 1 if a median is over its target. On a busy machine the wall-clock
times grow while the CPU times barely do: compare those when other work runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COMMANDS = [(["--version"], 0.1), (["SEND + MORE = MONEY"], 0.25)]  # arguments, target in seconds


def command() -> list[str]:
    """The installed `smtcrypt` script beside this Python, or `python -m smtcrypt`."""
    script = shutil.which("smtcrypt", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "smtcrypt"]


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each command (default 10)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="smtcrypt-pyc-") as cache:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        over = False
        for arguments, target in COMMANDS:
            argv = command() + arguments
            timed(argv, env)  # writes the bytecode cache
            runs = [timed(argv, env) for _ in range(args.runs)]
            walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
            median = statistics.median(walls)
            over |= median > target
            print(f"smtcrypt {' '.join(arguments)!r:24} median {median:.3f} s, fastest {min(walls):.3f} s, "
                  f"CPU {statistics.median(cpus):.3f} s (target {target} s: "
                  f"{'met' if median <= target else 'missed'})")
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
