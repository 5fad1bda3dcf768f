"""The compiled kernels (engine/sums/compiled.py, engine/digits/kernel.py), loaded ahead of the first
search that asks for them: each is loaded once a process on first use, at a cost that pays for a
batch of many puzzles, not for one (docs/batch.md); a caller about to time many searches, or to fork
processes that will, loads them here first."""

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
