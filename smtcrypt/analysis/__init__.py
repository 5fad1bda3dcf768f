"""Facts about a checked problem worked out once (carries, bounded unknowns, folded constants,
the size of the search space), read by the encodings, the backends and the tools."""
