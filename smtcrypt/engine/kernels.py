"""The compiled kernels a process loads at once, where numba is installed: the sum kernel
(engine/sums/compiled.py) and the digit search's (engine/digits/kernel.py). Loading them costs
about a second from numba's cache (10 to 20 s to compile once an install), which pays for a batch
of many puzzles or a generator's run, not for one puzzle: their callers decide when."""

from __future__ import annotations

from smtcrypt.engine import digits, sums

__all__ = ["load_compiled"]


def load_compiled() -> bool:
    """Load both kernels into this process for the engine's backends (the linear one's sums, the
    digit search's plans). False, and nothing loaded, where numba is not installed."""
    if not sums.load_compiled():
        return False
    from smtcrypt.engine.digits.kernel import load  # numpy and numba: only once chosen

    digits.COMPILED_PLAN[:] = [load()]
    return True
