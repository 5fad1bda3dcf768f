"""The limits every search shares: the default time a tool gives one search, and the cap on Z3's
memory in this process. Apart from the search loop, so that reading or setting them loads neither
the loop nor the solver."""

from __future__ import annotations

DEFAULT_TIMEOUT = 10.0  # seconds a tool gives one search (a candidate, a request, a worksheet's puzzle) by default
DEFAULT_MEMORY_MB = 4096
MIN_MEMORY_MB = 256  # below this Z3 may abort the whole process instead of giving up
_memory_limit_mb = DEFAULT_MEMORY_MB


def set_memory_limit(megabytes: int) -> None:
    """Cap the memory Z3 may use, in MB, for every search in this process (Z3 keeps one such limit
    per process); a search that reaches it ends as `unknown` with the reason "memory limit"."""
    global _memory_limit_mb
    if megabytes < MIN_MEMORY_MB:
        raise ValueError(f"the memory limit must be at least {MIN_MEMORY_MB} MB")
    _memory_limit_mb = int(megabytes)


def memory_limit() -> int:
    """The cap on Z3's memory, in MB, that the next search sets (see `set_memory_limit`)."""
    return _memory_limit_mb
