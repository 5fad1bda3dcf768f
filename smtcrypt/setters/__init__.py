"""Tools for puzzle setters: the answer to a puzzle, printed layouts, generation, distribution."""
