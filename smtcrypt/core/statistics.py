"""What a search cost (`Statistics`, a verdict's `stats`): the brute-force space, the models found,
the solver's checks and counters, each backend's own figures and the seconds per stage.

Defined here, below the engine, so that a `Verdict` can carry it: the engine and its backends fill
it once a search (`Backend.statistics`), the search loop adds what it counted, and the output
formats read its fields; `as_dict` is the `stats` object of `--json --stats`, batch and the web API.
The proof is not among them: it is the verdict's (`Verdict.proof`), and `as_dict` is given it to
print in its place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (results.py imports this module for `Verdict`)
    from smtcrypt.core.results import Proof

# The fields each built-in backend fills, by its name (`Backend.name`): the JSON object lists them in
# the order the backends started (`Statistics.started`), each once, where the first that fills it
# started (the join and the exhaustive backend both count candidates; the value is the last one's).
BACKEND_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "linear": ("search_nodes", "sum_kernel"),
    "digits": ("digit_search_steps", "digit_search"),
    "join": ("candidates", "candidates_tried", "join"),
    "exhaustive": ("candidates", "candidates_tried"),
    "cubes": ("cubes", "cube_checks"),
})


@dataclass(slots=True)
class Statistics:
    """What a search cost. A field a search did not fill keeps its default (None, or empty): a
    backend's figures are there only where it ran, and a verdict made without a search (one cut
    short from outside, or a puzzle its notation's check rules out) has no solver figures at all
    (`solver_checks` None). Filled in place once a search, by the portfolio, its backends and the
    search loop in turn (one record a search, not a copy per backend: a small sum's search takes
    well under a millisecond), and not changed once its verdict is made."""

    # the assignments a brute force would try (distinctness, leading zeros and domains respected, times
    # the values of the integer unknowns the formula bounds); None: infinite (an unbounded integer
    # unknown), or not counted (`search_space_exact` None: a verdict made without a search)
    search_space: int | None = None
    search_space_exact: bool | None = None  # False: distinct assignments too many to count; the product of domains
    strategy: str | None = None  # the backends that searched: "z3", "exhaustive", "z3 -> exhaustive", ...
    models: int = 0  # solutions found
    solver_checks: int | None = None  # the solver's checks, every backend's (None: no search ran)
    exhaustive_estimate_seconds: float | None = None  # `auto`'s measured price of trying every assignment
    search_nodes: int | None = None  # the linear backend: the steps of its plain search
    sum_kernel: str | None = None  # ... and which search decided the sum, "plain" or "compiled"
    digit_search_steps: int | None = None  # the digits backend: its steps
    digit_search: str | None = None  # ... and its walks: "plain", "compiled", "plain -> compiled"
    candidates: int | None = None  # the exhaustive (or join) backend: the assignments it must try
    candidates_tried: int | None = None  # ... and those it tried
    join: str | None = None  # the join backend: how, "match the sides" or "solve for a word", ...
    cubes: int | None = None  # the cube backend: the cubes blocked
    cube_checks: int | None = None  # ... and the solver checks that shrank them
    # the counters of a backend without fields here (one added to the portfolio's table), by their names
    counters: Mapping[str, Any] = field(default_factory=dict)
    z3: Mapping[str, float] = field(default_factory=dict)  # Z3's own counters, named as the solver used reports them
    seconds: Mapping[str, float] = field(default_factory=dict)  # by stage: parse, check, compile, encode, solve, verify
    started: tuple[str, ...] = ()  # the backends started, in order (some only to price or stand by)

    def as_dict(self, proof: Proof | None = None) -> dict[str, Any]:
        """The JSON object `--stats` adds, with `proof` (the verdict's) in its place among the fields.
        A search's object has every figure of the search, its backends' in the order they started; a
        verdict made without a search lists what it knows."""
        proved = proof.value if proof is not None else None
        space = ({} if self.search_space_exact is None else
                 {"search_space": self.search_space, "search_space_exact": self.search_space_exact})
        if self.solver_checks is None:
            return {"strategy": self.strategy, "proof": proved, **space, "models": self.models,
                    **({"seconds": dict(self.seconds)} if self.seconds else {})}
        data: dict[str, Any] = {**space, "strategy": self.strategy, "proof": proved, "models": self.models,
                                "solver_checks": self.solver_checks}
        if self.exhaustive_estimate_seconds is not None:
            data["exhaustive_estimate_seconds"] = self.exhaustive_estimate_seconds
        for backend in self.started:
            for name in BACKEND_FIELDS.get(backend, ()):
                value = getattr(self, name)
                if value is not None and name not in data:
                    data[name] = value
        data.update(self.counters)
        data["z3"] = dict(self.z3)
        data["seconds"] = dict(self.seconds)
        return data
