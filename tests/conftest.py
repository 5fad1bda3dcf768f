"""Hypothesis draws the same examples in every run (a fixed seed), so that a suite that passed passes
again, the slow one (`pytest -m slow`) included. To draw new examples, run with
`--hypothesis-profile=explore`, and keep a formula that fails as an `@example` of its test.

Before the workers start, the controller compiles the kernels into numba's cache (`pytest_configure`)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("fixed")


# what compiles each kernel into numba's cache (or loads it from there): one call with the argument types
# of every later call
SUMS = """
from smtcrypt.engine.sums.compiled import compiled
compiled()
"""
DIGITS = """
from smtcrypt.engine.digits.kernel import load
load()
"""


def pytest_configure(config: pytest.Config) -> None:
    """Compile the kernels into numba's cache once, before the workers start: a fresh clone otherwise
    compiles them (about 5 s of CPU each) in each worker and in the commands the tests run. numba
    keeps a cache for each copy of the package: the installed one, which the tests import and the
    commands run from elsewhere, gets both kernels; the checkout's, which `python -m smtcrypt` run from
    the checkout imports, the sum kernel (the generator's commands load it; no command run from the
    checkout loads the digit search's). Three processes side by side: about 8 s on two cores, where
    one process a copy took 12 s. Nothing is compiled where numba is not installed, or in a worker
    (its controller did it)."""
    if hasattr(config, "workerinput") or importlib.util.find_spec("numba") is None:
        return
    elsewhere = Path(tempfile.gettempdir())  # where `python -c` finds the installed copy, not the checkout's
    warming = [subprocess.Popen([sys.executable, "-c", code], cwd=place, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
               for code, place in [(SUMS, elsewhere), (DIGITS, elsewhere), (SUMS, config.rootpath)]]
    for process in warming:
        process.wait()
