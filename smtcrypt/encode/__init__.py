"""Stage 3: a checked `Problem` -> Z3 terms and constraints.

Each encoding is a module behind one small protocol (`Encoding`); `choose`
picks the first that accepts the problem. The general encoding accepts every
problem and is the reference the others are tested against.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import z3

from ..check import Problem


@dataclass
class Encoded:
    """The Z3 side of a problem: one Int per letter (and per integer unknown), the constraints, the solver to use."""

    context: z3.Context
    letters: dict[str, z3.ArithRef]
    constraints: list[z3.BoolRef]
    strategies: tuple[str, ...] = ()  # solvers to try before the general one (see solver.make_solver)
    notes: list[str] = field(default_factory=list)
    unbounded: bool = False  # some unknowns have no bounds: the models may never run out


class Encoding(Protocol):
    """One way to turn problems into Z3 terms."""

    name: str

    def accepts(self, problem: Problem) -> bool:
        """True if this encoding can express the problem exactly."""

    def encode(self, problem: Problem, context: z3.Context) -> Encoded:
        """The problem as Z3 constraints over one Int per letter, in `context`."""


def encodings() -> list[Encoding]:
    """Every encoding, the most specialised first and the general one last."""
    from .general import GeneralEncoding

    return [GeneralEncoding()]


def choose(problem: Problem) -> Encoding:
    """The first encoding that accepts the problem (the general one accepts all)."""
    return next(encoding for encoding in encodings() if encoding.accepts(problem))
