"""The solve stage: the search loop over the engine's models, and the proof of infinite families.

The limits load at once; `Search`, and with it the engine, with its first use (PEP 562)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smtcrypt.search.limits import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, MIN_MEMORY_MB, set_memory_limit

if TYPE_CHECKING:
    from smtcrypt.search.loop import Search

__all__ = ["DEFAULT_MEMORY_MB", "DEFAULT_TIMEOUT", "MIN_MEMORY_MB", "Search", "set_memory_limit"]


def __getattr__(name: str) -> Any:
    """`Search`, imported from the search loop the first time it is asked for."""
    if name != "Search":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from smtcrypt.search.loop import Search

    globals()[name] = Search
    return Search
