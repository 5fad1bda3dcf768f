"""The play class (`run.py --only play`): scripted play-throughs of `Puzzle.play()`, each move timed
beside a reference that decides the same move from scratch.

A play-through is a list of moves a person might type: decisions that stand (`S = 9`), decisions
that fall (`S = 8`), inequalities, carries, hints and undos. Each move is timed through the game,
as `smtcrypt play` and the web page make it. The reference decides each letter decision by
itself: the puzzle with every decision accepted so far and the new one as extra constraints,
searched from scratch for a first solution, by brute force (`--strategy exhaustive`) for a formula
and by the default search for a layout (whose `?` cells put brute force out of reach); a carry, a
hint or an undo has no reference (`-`). Where both decide a move, they must agree (DISAGREE and exit status 1
otherwise): accepted where the reference finds a solution, rejected where it finds none.

The target, from the issue that brought the game: the median move of each play-through under
0.2 s.
"""

from __future__ import annotations

import re
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import smtcrypt

TAG = "play"
TARGET_SECONDS = 0.2  # the median move of a play-through
LETTER_DECISION = re.compile(r"^[A-Z]\s*(=|!=|<|<=|>|>=)\s*\d+$")
LAYOUTS = Path(__file__).resolve().parents[2] / "examples" / "layouts"


@dataclass(frozen=True)
class PlayThrough:
    name: str
    formula: str | None  # None: the layout file `layout`
    moves: tuple[str, ...]
    layout: str | None = None

    def puzzle(self) -> smtcrypt.Puzzle:
        if self.layout is not None:
            return smtcrypt.Puzzle.from_layout((LAYOUTS / self.layout).read_text(encoding="utf-8"))
        assert self.formula is not None
        return smtcrypt.Puzzle(self.formula)


PLAY_THROUGHS = [
    PlayThrough("SEND + MORE = MONEY", "SEND + MORE = MONEY",
                ("M = 1", "S = 8", "O = 0", "E < 5", "S = 9", "hint", "E = 4", "E = 5", "N = 6", "c2 = 0", "R = 8",
                 "D = 7", "Y = 3", "Y = 2")),
    PlayThrough("ODD * ODD = FREAKY", "ODD * ODD = FREAKY",
                ("D = 5", "O < 6", "hint", "O = 3", "D = 8", "E = 8", "D = 9", "undo", "D = 7", "Y = 9")),
    PlayThrough("a long division (letters.txt)", None,
                ("A = 0", "hint", "A = 1", "B = 9", "C > 5", "C = 4", "D = 1", "D = 6"), layout="letters.txt"),
]


def reference(puzzle: smtcrypt.Puzzle, formula: str, standing: list[str], move: str) -> tuple[bool, float]:
    """Whether some solution satisfies the decisions standing and the move, searched from scratch; its seconds."""
    started = time.perf_counter()
    if puzzle.layout is None:
        extended, strategy = smtcrypt.Puzzle([formula, *standing, move]), "exhaustive"
    else:
        extended, strategy = smtcrypt.Puzzle.from_layout(puzzle.layout.text, [*standing, move]), "auto"
    found = extended.first(strategy=strategy) is not None
    return found, time.perf_counter() - started


def run(play_through: PlayThrough) -> tuple[list[float], int]:
    """Each move's seconds through the game; the number of moves where game and reference disagree."""
    puzzle = play_through.puzzle()
    game = puzzle.play()
    standing: list[str] = []
    seconds, disagreements = [], 0
    print(f"{play_through.name}")
    for move in play_through.moves:
        started = time.perf_counter()
        answer = game.play(move)
        took = time.perf_counter() - started
        seconds.append(took)
        verdict = answer.split(":", 1)[0].split(";", 1)[0]
        shown = "-"
        if LETTER_DECISION.match(move):
            found, reference_seconds = reference(puzzle, play_through.formula or "", standing, move)
            agree = found == (verdict in ("accepted", "solved"))
            disagreements += not agree
            shown = f"{'accepted' if found else 'rejected'} in {reference_seconds:.3f} s" + ("" if agree else "  DISAGREE")
            if verdict in ("accepted", "solved"):
                standing.append(move)
        elif move == "undo" and standing:
            standing.pop()
        print(f"  {move:8} {took:7.4f} s  {verdict:9}  reference {shown}")
    return seconds, disagreements


def main() -> int:
    status = 0
    for play_through in PLAY_THROUGHS:
        seconds, disagreements = run(play_through)
        median = statistics.median(seconds)
        holds = median < TARGET_SECONDS
        status |= 0 if holds and not disagreements else 1
        print(f"  median move {median:.4f} s, slowest {max(seconds):.3f} s: target {TARGET_SECONDS} s "
              f"{'holds' if holds else 'MISSED'}\n")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
