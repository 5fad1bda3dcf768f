"""Z3's memory in this process: glibc's pad of freed heap, and the cap Z3 keeps on what it uses.

Both are set by the search before Z3 is needed (the cap as it starts, where Z3 is loaded, and
before each context it makes); this module does not load Z3, so that a search no backend of which
uses the solver (a sum for the linear backend) never loads it.
"""

from __future__ import annotations

import ctypes
import functools
import sys


def retain_freed_memory(megabytes: int = 64) -> bool:
    """Ask glibc to keep up to `megabytes` of freed heap instead of returning it to the system.

    Every search makes a fresh Z3 context (one per search keeps threads apart); a context touches
    tens of megabytes as it starts, and once the previous one's memory has gone back to the
    system, each start page-faults it all in again, which costs small searches much of their
    time. Elsewhere than on Linux with glibc it does nothing. The search loop calls it before its
    first search (see `retain_freed_memory_once`), not on import: a host application that only
    imports smtcrypt keeps its allocator as it was.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        return bool(libc.mallopt(-2, megabytes << 20))  # -2 is M_TOP_PAD
    except (OSError, AttributeError):  # no glibc (musl has no mallopt)
        return False


@functools.cache
def retain_freed_memory_once() -> bool:
    """`retain_freed_memory()`, called once per process."""
    return retain_freed_memory()


def cap_z3_memory(megabytes: int) -> None:
    """Cap the memory Z3 may use, in MB (one limit per process): set before each Z3 context a
    search makes, the first of which loads Z3."""
    import z3

    z3.set_param("memory_max_size", megabytes)


def cap_loaded_z3_memory(megabytes: int) -> None:
    """`cap_z3_memory`, now, where Z3 is loaded already: another part of the process (an
    explanation, a proof) may use it outside the search; where it is not, nothing."""
    if "z3" in sys.modules:
        cap_z3_memory(megabytes)
