"""Play: a person solves a puzzle by hand, and every move is checked and answered with a reason.

A `Game` holds a checked puzzle, the player's accepted decisions (`S = 9`, `E < 5`, `N != 3`,
`c2 = 1` for a carry, named as the explanations name them) and pencil marks (`S: 1 2 9`, notes that
decide nothing). Each new decision is

- **accepted** when some solution satisfies every accepted decision and this one: proved by
  finding one (a solution of the search, re-checked exactly as every solution is);
- **rejected** when none does: proved by a complete search of the puzzle with the decisions'
  digits as the letters' domains (`Problem.allowed`), the carries read off each solution; the
  reason is the shortest chain of the explainer's proved steps from the decisions to a
  contradiction where local reasoning finds one, else "no solution has ...";
- **unknown** when the search could not finish in the time limit: never guessed.

After an accepted move the game names the letters the decisions now *force*: those that every
solution consistent with the decisions gives one digit, and that the puzzle alone does not fix
(a puzzle with one solution fixes every letter; telling the player so would give the answer
away). The game is *solved* when the decisions (and the letters they force) fix every letter.
A hint is the explainer's next proved step from the decisions.

Moves are answered from the solutions of a complete search, kept (at most `MAX_KEPT`) and
filtered for each decision; a decision that narrows a letter past a search that did not finish
searches again with the narrower domains.

The modules, one job each: `decisions` (reading a decision or pencil marks, and the answer to a
move), `reasons` (why a decision is wrong, and hints: the explainer's proved steps), `game` (the
`Game`: its state, moves, undo, the search behind the verdicts and the letters decisions force),
`drawing` (the position long-hand, with the known digits written in).
"""

from smtcrypt.teach.play.decisions import Decision, DecisionError, Move, MoveVerdict
from smtcrypt.teach.play.drawing import position_layout
from smtcrypt.teach.play.game import MAX_KEPT, MOVE_TIMEOUT, Game
from smtcrypt.teach.play.reasons import CASE_DEPTH, REASON_SECONDS, REASON_WORK

__all__ = ["CASE_DEPTH", "MAX_KEPT", "MOVE_TIMEOUT", "REASON_SECONDS", "REASON_WORK", "Decision", "DecisionError",
           "Game", "Move", "MoveVerdict", "position_layout"]

