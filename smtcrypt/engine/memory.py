"""The process's memory: glibc's pad of freed heap, the cap Z3 keeps on what it uses, and the cap
on the whole process (the command line's `--max-memory`: Z3's own cap leaves out what Python, numpy
and the compiled formula allocate, which a hostile formula can make gigabytes). This module does not
load Z3, so that a search none of whose backends uses the solver never loads it.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys

MEGABYTE = 1 << 20
# MB the process may hold beyond its --max-memory: the libraries that load with the first search that
# needs them (Z3, numpy: about 100 MB), thread stacks (8 MB each), and room for Z3 to reach its own cap
# (the same MB) before the process reaches its: a thread Z3 starts past the process's cap cannot get its
# thread-local data, and glibc aborts the process
RESERVE_MB = 256
_data_at_start: int | None = None  # the process's data size when it was first capped, in bytes


def retain_freed_memory(megabytes: int = 64) -> bool:
    """Ask glibc to keep up to `megabytes` of freed heap instead of returning it to the system: each
    search's fresh Z3 context touches tens of megabytes as it starts, which would otherwise be
    page-faulted in again every time. Linux with glibc only; called by the search loop before its
    first search (`retain_freed_memory_once`), not on import, so that an application that only
    imports smtcrypt keeps its allocator as it was."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return bool(ctypes.CDLL(None).mallopt(-2, megabytes << 20))  # -2 is M_TOP_PAD
    except (OSError, AttributeError):  # no glibc (musl has no mallopt)
        return False


retain_freed_memory_once = functools.cache(retain_freed_memory)  # called once per process


def cap_z3_memory(megabytes: int) -> None:
    """Cap the memory Z3 may use, in MB (one limit per process), before each Z3 context a search makes."""
    import z3

    z3.set_param("memory_max_size", megabytes)


def cap_loaded_z3_memory(megabytes: int) -> None:
    """`cap_z3_memory`, now, where Z3 is loaded already: another part of the process (an
    explanation, a proof) may use it outside the search; where it is not, nothing."""
    if "z3" in sys.modules:
        cap_z3_memory(megabytes)


def data_size() -> int | None:
    """The process's data size in bytes as Linux counts it against RLIMIT_DATA (VmData), or None."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmData:"))
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def cap_process_memory(megabytes: int) -> bool:
    """Cap the whole process's data at `megabytes` + RESERVE_MB more than it held when first capped, for a
    process that is ours (the command line's): past it an allocation fails as MemoryError (the search ends
    as unknown, "memory limit"); Z3's own cap stops the solver first. True if set; called again, it moves
    the cap from the same starting size. RLIMIT_DATA, not the address space, which counts the large ranges
    Z3, BLAS and LLVM reserve and never use; numpy's BLAS gets one thread (smtcrypt makes no BLAS call)
    unless the environment says otherwise, so that its share does not grow with the cores. Linux only
    (since 4.7); elsewhere Z3's own cap alone holds."""
    global _data_at_start
    if not sys.platform.startswith("linux"):
        return False
    import resource  # on every Unix

    if _data_at_start is None:
        _data_at_start = data_size()
        if _data_at_start is None:
            return False
    if "numpy" not in sys.modules:  # a BLAS thread's stack and buffers each: 40 MB on a 2-core machine
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    wanted = _data_at_start + (megabytes + RESERVE_MB) * MEGABYTE
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    try:
        resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))
    except (ValueError, OSError):
        return False
    return True
