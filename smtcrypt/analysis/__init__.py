"""Facts about a checked problem worked out once (its equations, their linear forms and
polynomials, leading-digit bounds and interval arithmetic, carries, bounded unknowns, folded
constants, the size of the search space), read by the encodings, the backends and the tools."""
