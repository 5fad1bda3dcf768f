"""`POST /api/play`: one move of a game played on the page, as plain data in and out.

The server keeps no game: each request carries the puzzle, its rules and the decisions accepted so
far (as the page's link does), and the game is replayed before the new move is answered. The body
is JSON with the option names of a check's query string (`formula`, `syntax`, the rules `distinct`,
`allow_leading_zeros`, `base`, `digits`, `domain`, `assign`, and the notation's own options) and

- `decisions`: the decisions so far, as typed (`["M = 1", "S = 9"]`);
- `move` (optional): the new decision;
- `undo` (optional, true): take back the last decision;
- `hint` (optional, true): the next proved step from the decisions.

Nothing here imports the web framework.
"""

from __future__ import annotations

from typing import Any

from smtcrypt.notations import NOTATIONS
from smtcrypt.teach.play import DecisionError, Game, Move, MoveVerdict, position_layout
from smtcrypt.web.query import CHECK_OPTIONS, BadQuery, Query, Values, notation_options, puzzle_of

PLAY_OPTIONS = CHECK_OPTIONS  # the puzzle, its notation and rules; besides, every notation's own options
PLAY_FIELDS = ("decisions", "move", "undo", "hint")
MAX_DECISIONS = 200  # more than a puzzle of 10 letters needs, with every wrong try kept


def _pairs(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The body's puzzle options as the query string's (name, value) pairs."""
    pairs = []
    for name, value in body.items():
        if name in PLAY_FIELDS:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, bool):
                item = "true" if item else "false"
            if not isinstance(item, (str, int, float)):
                raise BadQuery(400, f"option {name!r} must be text, a number or true/false", option=name)
            pairs.append((name, str(item)))
    return pairs


def _texts(body: dict[str, Any]) -> list[str]:
    decisions = body.get("decisions", [])
    if not isinstance(decisions, list) or not all(isinstance(text, str) for text in decisions):
        raise BadQuery(400, "decisions must be a list of texts such as \"S = 9\"", option="decisions")
    if len(decisions) > MAX_DECISIONS:
        raise BadQuery(413, f"{len(decisions)} decisions: at most {MAX_DECISIONS}", option="decisions")
    return decisions


def decision_error(error: DecisionError, text: str, index: int | None) -> BadQuery:
    """A decision that cannot be read: 400 with the message, the decision and a caret under the fault."""
    return BadQuery(400, error.message, decision=text, index=index, column=error.column, snippet=error.snippet)


def _move_data(move: Move) -> dict[str, Any]:
    return {"decision": str(move.decision), "verdict": move.verdict.value, "reason": move.reason,
            "steps": [{"text": step.text, "depth": step.depth} for step in move.steps],
            "forced": dict(move.forced), "line": move.line, "solution": move.solution or None}


def play(body: Any, timeout: float) -> dict[str, Any]:
    """The answer to one request (see the module's docstring); `BadQuery` for bad input."""
    if not isinstance(body, dict):
        raise BadQuery(400, "the body must be a JSON object with the formula and the decisions")
    known = (*PLAY_OPTIONS, *notation_options(), *PLAY_FIELDS)
    unknown = sorted(set(body) - set(known))
    if unknown:
        raise BadQuery(400, f"unknown option {unknown[0]!r} (known: {', '.join(known)})", option=unknown[0])
    values = Values(_pairs(body), PLAY_OPTIONS)
    syntax = values.choice("syntax", tuple(NOTATIONS), "smtcrypt")
    query = Query(values.formula(), values.rules(), syntax=syntax, options=values.own(syntax))
    texts = _texts(body)
    move_text = body.get("move")
    if move_text is not None and not isinstance(move_text, str):
        raise BadQuery(400, "move must be a text such as \"S = 9\"", option="move")
    puzzle = puzzle_of(query)  # through the one door of every notation, as a search's
    game = puzzle.play(timeout=timeout)
    dropped = []
    for index, text in enumerate(texts):  # the position: each decision replayed, as the page's link holds them
        try:
            replayed = game.decide(text)
        except DecisionError as error:
            raise decision_error(error, text, index) from None
        if replayed.verdict not in (MoveVerdict.ACCEPTED, MoveVerdict.SOLVED):
            dropped.append(_move_data(replayed))
    if body.get("undo"):
        game.undo()
    move = None
    if move_text is not None and move_text.strip():
        try:
            move = game.decide(move_text)
        except DecisionError as error:
            raise decision_error(error, move_text, None) from None
    return {
        "formula": puzzle.formula,
        "letters": list(game.letters),
        "carries": list(game.carries),
        "lines": _puzzle_lines(game),
        "decisions": [str(decision) for decision in game.decisions],
        "dropped": dropped,
        "move": None if move is None else _move_data(move),
        "fixed": game.fixed(),
        "left": {letter: list(digits) for letter, digits in game.left().items()},
        "solved": game.solved,
        "solution": game.history[-1].solution if game.solved else None,
        "hint": game.hint() if body.get("hint") else None,
    }


def _puzzle_lines(game: Game) -> list[str]:
    """The puzzle long-hand with letters only (the page puts a box under each), one string a row."""
    if game.drawing is not None:
        return game.drawing.rstrip("\n").split("\n")
    return position_layout(game.problem, {}).text().split("\n")
