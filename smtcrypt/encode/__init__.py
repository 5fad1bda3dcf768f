"""Stage 3: a checked `Problem` -> Z3 terms and constraints, by the first encoding that accepts it
(each behind `base.Encoding`); the general one accepts every problem and is the reference the
others are tested against."""

from __future__ import annotations

import z3

from smtcrypt.analysis.fold import fold
from smtcrypt.core.check import Problem
from smtcrypt.encode.base import Encoded, Encoding, EncodingStopped, Unsupported, indicator, stop_encoding, watched
from smtcrypt.encode.bitvec import BitVecEncoding
from smtcrypt.encode.columns import ColumnsEncoding
from smtcrypt.encode.general import GeneralEncoding
from smtcrypt.encode.products import ProductsEncoding

__all__ = ["Encoded", "EncodingStopped", "choose", "encode", "encodings", "indicator", "stop_encoding", "watched"]


def encodings() -> list[Encoding]:
    """Every encoding, the most specialised first and the general one last."""
    return [ColumnsEncoding(), ProductsEncoding(), BitVecEncoding(), GeneralEncoding()]


def choose(problem: Problem) -> Encoding:
    """The first encoding that accepts the problem (the general one accepts all but a variable exponent
    with more values than a power is split into: `Unsupported` then, see core/check.splits)."""
    chosen = next((encoding for encoding in encodings() if encoding.accepts(problem)), None)
    if chosen is None:
        raise Unsupported("a variable exponent takes more values than Z3's encodings split a power into")
    return chosen


def encode(problem: Problem, context: z3.Context) -> Encoded:
    """The problem, with its foldable logic folded (see analysis/fold.py), in the first encoding that accepts it."""
    folded = fold(problem)
    return choose(folded).encode(folded, context)
