"""The solve stage: the search loop over the engine's models, and the proof of infinite families."""

from smtcrypt.search.loop import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, MIN_MEMORY_MB, Search, set_memory_limit

__all__ = ["DEFAULT_MEMORY_MB", "DEFAULT_TIMEOUT", "MIN_MEMORY_MB", "Search", "set_memory_limit"]
