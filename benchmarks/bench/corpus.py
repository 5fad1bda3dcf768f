"""The corpus: benchmarks/corpus.tsv, one `formula<TAB>tags[<TAB>solutions]` a line.

Tags are comma-separated. The optional third column is the number of solutions (all of them,
under the default rules), counted by the exact brute force; the runner checks every method that
finishes against it. Lines starting with '#' and blank lines are skipped.
"""

from __future__ import annotations

from pathlib import Path

from . import HERE
from .results import Puzzle

DEFAULT_CORPUS = HERE / "corpus.tsv"


def load_corpus(path: Path) -> list[Puzzle]:
    puzzles = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        formula, _, rest = line.partition("\t")
        tags, _, expected = rest.partition("\t")
        formula = formula.strip()
        if not formula:
            raise SystemExit(f"{path}:{number}: empty formula")
        count = None
        if expected.strip():
            try:
                count = int(expected.strip().replace(",", "").replace("_", ""))
            except ValueError:
                raise SystemExit(f"{path}:{number}: the third column must be a number of solutions, "
                                 f"not {expected.strip()!r}") from None
        puzzles.append(Puzzle(formula, [tag.strip() for tag in tags.split(",") if tag.strip()], count))
    return puzzles


def select(puzzles: list[Puzzle], only: str | None) -> list[Puzzle]:
    """Puzzles with a tag of `only`: "A,B" for either, "A+B" for both (`sum+10letters`)."""
    if not only:
        return puzzles
    wanted = [{t.strip() for t in group.split("+")} for group in only.split(",")]
    return [p for p in puzzles if any(group <= set(p.tags) for group in wanted)]
