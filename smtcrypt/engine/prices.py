"""What the portfolio's choices cost: the prices its `auto` policy compares, in one place.

Rough rates and budgets, set from the project's benchmarks (docs/engine.md, "The cost model"): what a
candidate costs to try is measured per puzzle, but what a model, a node of the sum search or a
solution handed over costs varies little between puzzles, so it is a constant here. The policy reads
them at the moment it decides, so that a test can move a price and see the decision move with it.
"""

from __future__ import annotations

from types import MappingProxyType

SMALL_SPACE = 20_000  # candidates: tried at once, without measuring
SAMPLE = 1024  # candidates drawn at random to measure the exhaustive price
EXHAUSTIVE_AT_ONCE = 0.2  # seconds: below this exhaustive price, Z3 is not even started (its start costs about as much)
FIRST_AT_ONCE = 0.5  # for one solution, below this price no race: Z3's thread would slow Python more than it gains
PROBE_SECONDS = 0.05  # for one solution where the sample met some: every assignment tried this long first
JOIN_SPLIT = 2  # `auto` joins where the join evaluates at most 1/JOIN_SPLIT of all the assignments
# of the exhaustive price, the cubes' solver time before they give up: a cube's cost is per cube, not per
# solution, so on dense puzzles they are worth more than a model's share; at worst a puzzle costs 1.75 times that price
CUBES_SHARE = 0.75
# of the exhaustive price, before switching
Z3_SHARE = MappingProxyType({"columns": 1.0, "products": 0.5, "bitvec": 0.5, "general": 0.5})
Z3_AT_LEAST = 0.15  # seconds Z3 gets on sums and products (it answers fast), however low the exhaustive price
# seconds per model, by encoding
Z3_PER_MODEL = MappingProxyType({"columns": 0.5e-3, "products": 8e-3, "bitvec": 1e-3, "general": 3e-3})
RACE_AFTER = 0.5  # seconds of Z3 alone, at most half the exhaustive price, before the exhaustive backend races it
# handing one solution over: listed (a Solution made) or counted
SECONDS_PER_SOLUTION = MappingProxyType({True: 6e-6, False: 0.4e-6})

# The sum search (the linear backend): a node's cost in plain Python, and the nodes it takes before
# its progress is judged against its plan's estimate (engine/sums/plan.py, `estimated_nodes`)
SECONDS_PER_NODE = 0.7e-6
LINEAR_FIRST = 1 << 18
LINEAR_HOPELESS = 1e9  # estimated nodes past which a system of sums goes to the digit search at once
# The digit search (compiled): a step's cost; the estimated steps past which its progress is judged (plans
# underestimate by up to about 5 times), and the steps it takes before that
SECONDS_PER_STEP = 1e-6
DIGITS_LONG = 1 << 22
DIGITS_FIRST = 1 << 18
