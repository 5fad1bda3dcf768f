"""The compiled kernels, loaded ahead of the first search that asks for them, where numba is
installed: the sum kernel (engine/sums/compiled.py) and the digit search's (engine/digits/kernel.py).

A search runs them where its executor says so (`Executor.COMPILED`, handed down in `Means`): each
is loaded once a process, on that first use. Loading costs about a second from numba's cache (10
to 20 s to compile once an install), which pays for a batch of many puzzles or a generator's run,
not for one puzzle; a caller about to time many searches, or to fork processes that will, loads
them here first."""

from __future__ import annotations

from smtcrypt.engine.base import Executor
from smtcrypt.engine.sums import compiled_kernel

__all__ = ["load_compiled"]


def load_compiled() -> bool:
    """Load both kernels into this process now. False, and nothing loaded, where numba is not installed."""
    if compiled_kernel(Executor.COMPILED) is None:
        return False
    from smtcrypt.engine.digits.kernel import load  # numpy and numba: only once chosen

    load()
    return True
