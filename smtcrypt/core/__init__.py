"""The language and its exact meaning: the tree, parsing, the rules, checking, results and the exact re-check.

Nothing here imports from the rest of the package: every later stage builds on these.
"""
