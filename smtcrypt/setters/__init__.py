"""Tools for puzzle setters: the answer to a puzzle, printed layouts, generation, distribution."""

DEFAULT_TIMEOUT = 10.0  # seconds a tool gives one search (a candidate, a request, a worksheet's puzzle) by default
