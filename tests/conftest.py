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


WARM_UP = """
from smtcrypt.engine.kernels import load_compiled
from smtcrypt.engine.sums import loaded_compiled
load_compiled()
loaded_compiled().count_first([1, 10, -11], [1022, 1022, 1022], 0, 10, True, 2)
"""


def pytest_configure(config: pytest.Config) -> None:
    """Compile the kernels (the sums' and the digit search's) into numba's cache once, before the workers start: a fresh clone
    otherwise compiles it (about 10 s of CPU) in each worker and in many of the commands the tests
    run. Both copies of the package are warmed: the installed one, which commands run from elsewhere
    import, and the checkout's, which the tests and the commands run from the checkout import. Nothing is compiled where numba is not installed, or in a worker (its controller did it)."""
    if hasattr(config, "workerinput") or importlib.util.find_spec("numba") is None:
        return
    # the checkout's copy (found first from the checkout) and the installed one (found from elsewhere),
    # warmed side by side; where they are one copy (an editable install), numba writes its cache twice
    places = [config.rootpath, Path(tempfile.gettempdir())]
    warming = [subprocess.Popen([sys.executable, "-c", WARM_UP], cwd=place, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL) for place in places]
    for process in warming:
        process.wait()
