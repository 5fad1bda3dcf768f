"""Facts about a checked problem worked out once, read by the encodings, the backends and the tools."""
