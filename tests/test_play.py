"""The play engine (smtcrypt/teach/play/), `smtcrypt play` and `Puzzle.play()`: every verdict held
to the brute-force reference, a play-through to "solved" through the command line, undo, hints,
pencil marks, bad input with a caret, and a time limit that gives `unknown`, never `rejected`."""

from __future__ import annotations

import operator
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from reference import brute_force, is_solution

from smtcrypt import Puzzle
from smtcrypt.teach.play import Decision, DecisionError, MoveVerdict

ROOT = Path(__file__).resolve().parent.parent
COMPARE = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge}

# small puzzles the brute force decides at once: sums with carries, a product, several solutions or one
PUZZLES = ["TO + GO = OUT", "ODD + ODD = EVEN", "AB + BA = CDC", "AB * C = DEA", "SO + SO = TOO"]


def solutions(formula: str) -> list[dict[str, int]]:
    return [dict(solution) for solution in brute_force(formula)]


def holds(decision: Decision, values: dict[str, int]) -> bool:
    return bool(COMPARE[decision.op](values[decision.name], decision.value))


def leading(formula: str) -> set[str]:
    return {word[0] for word in re.findall(r"[A-Z]+", formula) if len(word) > 1}


def sum_carries(formula: str, values: dict[str, int]) -> dict[str, int]:
    """The carry into each column of a sum of words (c2: into the tens), from the addends' digits alone."""
    left, right = formula.split("=")
    addends = [int("".join(str(values[ch]) for ch in word)) for word in re.findall(r"[A-Z]+", left)]
    width = len(right.strip())
    return {f"c{k}": sum(a % 10 ** (k - 1) for a in addends) // 10 ** (k - 1) for k in range(2, width + 1)}


def left_by_decisions(letter: str, first: set[str], decisions: list[Decision]) -> list[int]:
    """The digits the rules and the decisions on `letter` leave it."""
    return [d for d in range(10) if (d or letter not in first) and
            all(holds(x, {letter: d}) for x in decisions if x.name == letter)]


def expected_forced(formula: str, everything: list[dict[str, int]], consistent: list[dict[str, int]],
                    decisions: list[Decision]) -> dict[str, int]:
    """Letters fixed in every consistent solution, not by the puzzle alone, and not decided to one digit."""
    letters = sorted(everything[0]) if everything else []
    first = leading(formula)
    forced = {}
    for letter in letters:
        digits = {values[letter] for values in consistent}
        if len(digits) != 1 or len({values[letter] for values in everything}) == 1:
            continue
        if len(left_by_decisions(letter, first, decisions)) > 1:
            forced[letter] = digits.pop()
    return forced


@pytest.mark.parametrize("formula", PUZZLES)
def test_verdicts_agree_with_brute_force(formula: str) -> None:
    """Random decisions, each answered as the brute force says: accepted when a solution satisfies
    every accepted decision and this one, rejected when none does; the forced letters as it finds them."""
    everything = solutions(formula)
    game = Puzzle(formula).play()
    names = sorted(everything[0]) + list(game.carries if "*" not in formula else ())
    rng = random.Random(formula)
    accepted: list[Decision] = []
    verdicts = set()
    for _ in range(40):
        if game.solved:
            game.undo()
            accepted.pop()
        name = rng.choice(names)
        decision = Decision(name, rng.choice(list(COMPARE)), rng.randrange(0, 10 if not name.startswith("c") else 3))
        with_carries = [{**values, **sum_carries(formula, values)} if "*" not in formula else values
                        for values in everything]
        consistent = [values for values in with_carries if all(holds(d, values) for d in [*accepted, decision])]
        move = game.decide(decision)
        verdicts.add(move.verdict)
        if consistent:
            assert move.verdict in (MoveVerdict.ACCEPTED, MoveVerdict.SOLVED), (formula, decision, move)
            accepted.append(decision)
            letters_only = [{k: v for k, v in values.items() if k in everything[0]} for values in consistent]
            assert all(is_solution(formula, values) for values in letters_only)
            forced_now = expected_forced(formula, everything, letters_only, accepted)
            decided = {letter for letter in everything[0]
                       if len(left_by_decisions(letter, leading(formula), accepted)) == 1}
            assert {k: v for k, v in game.fixed().items() if k not in decided} == \
                {k: v for k, v in forced_now.items() if k not in decided}
            assert set(move.forced) <= set(forced_now.items())
        else:
            assert move.verdict is MoveVerdict.REJECTED, (formula, decision, move)
            assert move.reason
    assert MoveVerdict.REJECTED in verdicts and MoveVerdict.ACCEPTED in verdicts


def test_forced_letters_are_the_brute_forces() -> None:
    """After a decision that leaves one solution of several, the letters named forced are exactly
    those that solution fixes beyond what the puzzle alone fixes and what was decided."""
    formula = "ODD + ODD = EVEN"
    everything = solutions(formula)
    assert len(everything) > 1
    digit = everything[0]["D"]
    game = Puzzle(formula).play()
    decision = Decision("D", "=", digit)
    move = game.decide(decision)
    consistent = [values for values in everything if values["D"] == digit]
    assert dict(move.forced) == expected_forced(formula, everything, consistent, [decision])


def test_carries_are_named_as_the_explanations_name_them() -> None:
    """`c2 = 1` decides the carry into the tens, as an explanation's steps write it."""
    game = Puzzle("SEND + MORE = MONEY").play()
    assert game.carries == ("c2", "c3", "c4", "c5")
    assert game.decide("c5 = 0").verdict is MoveVerdict.REJECTED
    assert game.decide("c2 = 1").verdict is MoveVerdict.ACCEPTED
    assert game.decide("c3 = 0").verdict is MoveVerdict.REJECTED


def test_rejection_is_a_chain_of_proved_steps() -> None:
    """A rejected move's reason is the explainer's steps from the decisions to a contradiction."""
    game = Puzzle("SEND + MORE = MONEY").play()
    move = game.decide("S = 8")
    assert move.verdict is MoveVerdict.REJECTED
    assert move.steps and move.steps[-1].kind == "contradiction"
    assert "cannot hold" in move.steps[-1].text
    assert move.reason == " ".join(step.text for step in move.steps)
    assert len(move.steps) < len(Puzzle("SEND + MORE = MONEY").explain().steps)


def test_a_rejection_that_needs_cases_is_refuted_case_by_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """No column alone refutes O < 6 in ODD * ODD = FREAKY: a letter is split into cases, each refuted.
    (The reason's search is bounded by its work here, not by the seconds a loaded machine gives it.)"""
    monkeypatch.setattr("smtcrypt.teach.play.reasons.REASON_SECONDS", 60.0)
    move = Puzzle("ODD * ODD = FREAKY").play(timeout=None).decide("O < 6")
    assert move.verdict is MoveVerdict.REJECTED
    cases = [step for step in move.steps if step.kind == "case"]
    assert cases and all(step.text.startswith("Suppose ") for step in cases)
    assert move.steps[-1].kind == "contradiction" and move.steps[-1].text.endswith("can take no digit.")


def test_rules_and_distinctness_reject_without_a_search() -> None:
    game = Puzzle("SEND + MORE = MONEY").play()
    assert game.decide("S = 0").reason == "S can only be {1, 2, 3, 4, 5, 6, 7, 8, 9} by the puzzle's rules (S != 0)"
    assert game.decide("S = 9").verdict is MoveVerdict.ACCEPTED
    assert game.decide("E = 9").reason == "S = 9 already, and E and S must differ"
    assert game.decide("S < 5").reason == "S < 5 contradicts your decision S = 9"
    assert game.decide("c2 = 2").reason == "c2 can only be {0, 1}: the carries that column can make"


def test_undo_and_hint() -> None:
    game = Puzzle("SEND + MORE = MONEY").play()
    assert game.hint() == Puzzle("SEND + MORE = MONEY").explain().steps[0].text  # the same step, the same words
    assert Puzzle("SEND + MORE = MONY").play().hint().startswith("the puzzle has no solution")
    assert game.undo() is None
    game.decide("M = 1")
    game.decide("O = 0")
    assert game.undo() == Decision("O", "=", 0)
    assert game.decisions == [Decision("M", "=", 1)]
    assert game.play("undo") == "undone: M = 1"
    assert game.play("undo") == "nothing to undo"


def test_pencil_marks_note_the_digits_no_solution_allows() -> None:
    game = Puzzle("SEND + MORE = MONEY").play()
    assert game.play("marks") == "no pencil marks"
    assert game.play("S: 8 9") == "S: (8) 9"
    assert game.play("S:") == "no pencil marks"
    assert game.marks == {}
    with pytest.raises(ValueError):
        game.mark("S", [10])


def test_the_game_shows_itself_long_hand() -> None:
    game = Puzzle("SEND + MORE = MONEY").play()
    game.decide("M = 1")
    game.decide("S = 9")
    assert repr(game) == "  9END\n+ 1ORE\n------\n 1ONEY"
    assert "<pre>" in game._repr_html_() and "M = 1, S = 9" in game._repr_html_()
    product = Puzzle("ODD * ODD = FREAKY").play()
    assert repr(product) == "   ODD\n × ODD\n------\nFREAKY"
    other = Puzzle(["gcd(AB, CD) = 2", "G + C + D = 9"]).play()  # no letters in gcd's name
    other.decide("C = 2")
    assert repr(other) == "gcd(AB, 2D) = 2\nG + 2 + D = 9"


def test_a_layout_is_drawn_as_printed() -> None:
    printed = (ROOT / "examples" / "layouts" / "letters.txt").read_text()
    division = Puzzle.from_layout(printed).play()
    assert repr(division) == printed.rstrip("\n")
    assert division.decide("C = 4").verdict is MoveVerdict.ACCEPTED
    assert repr(division).split("\n")[2] == " 4? ) ????"


def test_bad_decisions_say_where() -> None:
    game = Puzzle("SEND + MORE = MONEY").play()
    with pytest.raises(DecisionError) as caught:
        game.parse("X = 3")
    assert caught.value.column == 1 and "no letter or carry 'X'" in caught.value.message
    with pytest.raises(DecisionError) as caught:
        game.parse("S = nine")
    assert caught.value.column == 5
    assert caught.value.snippet == "  S = nine\n      ^^^^"
    with pytest.raises(DecisionError):
        game.play("S 9")
    with pytest.raises(DecisionError):
        game.play("S: 1 x")


def test_a_time_limit_gives_unknown_never_rejected() -> None:
    """A hard puzzle with a tiny limit: a move is unknown (or accepted, if a solution turned up), never
    rejected without a proof."""
    game = Puzzle("gcd(ABCDE, FGHIJ) > 500").play(timeout=0.001)  # seconds to list its 5,994 solutions
    verdicts = []
    for text in ("A = 1", "F = 2", "B < 3", "J != 4"):
        move = game.decide(text)
        verdicts.append(move.verdict)
        assert move.verdict in (MoveVerdict.UNKNOWN, MoveVerdict.ACCEPTED)
        if move.verdict is MoveVerdict.UNKNOWN:
            assert move.reason.startswith("the search ended (time limit) before it found a solution with")
    assert MoveVerdict.UNKNOWN in verdicts


def play(formula: str, lines: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "smtcrypt", "play", formula, *options], input=lines,
                          capture_output=True, text=True, timeout=60)


def test_the_command_line_plays_send_more_money_to_the_end() -> None:
    moves = "M = 1\nS = 8\nO = 0\nS = 9\nE = 5\nhint\nN = 6\nR = 8\nD = 7\nY = 3\nY = 2\n"
    result = play("SEND + MORE = MONEY", moves)
    lines = result.stdout.splitlines()
    assert result.returncode == 0, result.stderr
    assert lines[0] == "accepted"
    # a rejection's reasons numbered one a line, as the web page numbers them, in printed symbols
    assert lines[1] == "rejected:" and lines[2].startswith("  1. ")
    reasons = [line for line in lines[2:] if re.match(r"  \d+\. ", line)][:lines.index("accepted", 2) - 2]
    assert reasons[-1].endswith("cannot hold: E + O + c3 = N + 10·c4 with O = 0, c4 = 1 and the letters all different.")
    lines = [line for line in lines if not re.match(r"  \d+\. ", line)]
    assert lines[2:5] == ["accepted"] * 3
    assert lines[5].startswith("hint: ") and re.search(r"So .*[A-Z] ", lines[5])  # a hint names a letter
    assert lines[6:9] == ["accepted"] * 3
    assert lines[9] == "rejected:" or lines[9].startswith("rejected: ")
    assert lines[10] == "solved: 9567 + 1085 = 10652  /  D=7 E=5 M=1 N=6 O=0 R=8 S=9 Y=2"
    assert len(lines) == 11


def test_the_command_line_ends_unsolved_bad_input_and_forced_letters() -> None:
    result = play("ODD * ODD = FREAKY", "D = 9\nX = 1\nshow\n")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "accepted; forced: A=4 F=6 K=0 O=7 R=3 Y=1",
        "error: the puzzle has no letter or carry 'X': its letters are O D F R E A K Y "
        "and its carries c2 to c6 at column 1",
        "  X = 1", "  ^",
        "   799", " × 799", "------", "63E401"]
    bad = play("SEND +", "")
    assert bad.returncode == 2 and "^" in bad.stderr and not bad.stdout


def test_a_layouts_digits_agree_with_its_search_under_assign() -> None:
    """The digits a letter may still take, held to the puzzle searched with the decision as --assign."""
    printed = (ROOT / "examples" / "layouts" / "letters.txt").read_text()
    game = Puzzle.from_layout(printed).play()
    assert game.decide("C = 4").verdict is MoveVerdict.ACCEPTED
    assigned = list(Puzzle.from_layout(printed, assign={"C": 4}).solve())
    for letter in "ABD":
        assert game.possible(letter) == tuple(sorted({s.mapping[letter] for s in assigned}))


# --- POST /api/play: the game replayed from the decisions a page (or its link) holds ---------------------


def test_the_play_api_replays_the_decisions_and_answers_the_move() -> None:
    from smtcrypt.web.play import play as play_api
    from smtcrypt.web.query import BadQuery

    answer = play_api({"formula": "SEND + MORE = MONEY", "decisions": ["M = 1", "S = 8"], "move": "O = 0",
                       "hint": True}, timeout=10.0)
    assert answer["decisions"] == ["M = 1", "O = 0"]  # S = 8 is rejected on replay, and said so
    assert [d["decision"] for d in answer["dropped"]] == ["S = 8"] and answer["dropped"][0]["verdict"] == "rejected"
    assert answer["move"]["verdict"] == "accepted" and answer["fixed"] == {"M": 1, "O": 0}
    assert answer["lines"] == ["  SEND", "+ MORE", "------", " MONEY"]
    assert answer["left"]["S"] == [2, 3, 4, 5, 6, 7, 8, 9] and answer["hint"]
    undone = play_api({"formula": "SEND + MORE = MONEY", "decisions": ["M = 1", "O = 0"], "undo": True}, timeout=10.0)
    assert undone["decisions"] == ["M = 1"] and undone["move"] is None
    rules = play_api({"formula": "A + B = C", "distinct": False, "digits": "1-3", "decisions": [], "move": "A = 3"},
                     timeout=10.0)
    assert rules["move"]["verdict"] == "rejected" and "by the puzzle's rules" not in rules["move"]["reason"]
    for body, status, part in [
        ({"formula": "SEND + MORE = MONEY", "decisions": ["X = 1"]}, 400, "no letter or carry 'X'"),
        ({"formula": "SEND + MORE = MONEY", "move": "S ="}, 400, "expected a number"),
        ({"formula": "SEND +"}, 400, "missing operand"),
        ({"formula": "SEND + MORE = MONEY", "colour": "red"}, 400, "unknown option 'colour'"),
        ({"formula": "SEND + MORE = MONEY", "decisions": "S = 9"}, 400, "decisions must be a list"),
        (["SEND + MORE = MONEY"], 400, "JSON object"),
        ({"formula": "SEND + MORE = MONEY", "decisions": ["S != 1"] * 201}, 413, "at most 200"),
    ]:
        with pytest.raises(BadQuery) as caught:
            play_api(body, timeout=10.0)
        assert caught.value.status == status and part in caught.value.body["error"]
    with pytest.raises(BadQuery) as caught:
        play_api({"formula": "SEND + MORE = MONEY", "decisions": ["M = 1", "S = nine"]}, timeout=10.0)
    assert caught.value.body["index"] == 1 and caught.value.body["snippet"] == "  S = nine\n      ^^^^"


def test_the_play_api_through_the_server() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
    pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")
    import json
    import urllib.error
    import urllib.request

    from webserver import running_server

    def post(url: str, data: bytes) -> tuple[int, dict]:
        request = urllib.request.Request(url + "/api/play", data=data, method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    with running_server(timeout=5.0) as url:
        status, answer = post(url, json.dumps({"formula": "ODD * ODD = FREAKY", "decisions": [],
                                               "move": "O = 7"}).encode())
        assert status == 200 and answer["move"]["line"] == "accepted; forced: A=4 D=9 F=6 K=0 R=3 Y=1"
        status, answer = post(url, b"{not json")
        assert status == 400 and "JSON" in answer["error"]
        status, answer = post(url, json.dumps({"formula": "SEND + MORE = MONEY", "move": "Q = 1"}).encode())
        assert status == 400 and answer["column"] == 1 and answer["decision"] == "Q = 1"


def test_play_takes_the_rule_options_of_solving() -> None:
    from smtcrypt.cli.options import rule_options, rules_from
    from smtcrypt.cli.play import build_parser

    parser = build_parser()
    rules = {action.dest: action.option_strings for action in rule_options()._actions}
    options = {action.dest: action.option_strings for action in parser._actions}
    assert all(options.get(dest) == strings for dest, strings in rules.items())
    args = parser.parse_args(["--digits", "1-9", "--assign", "A=1", "--timeout", "2", "A + B = C"])
    assert rules_from(args, parser)["digits"] == "1-9" and args.timeout == 2.0
    # A is fixed by --assign, and B = 2 leaves C one digit: solved
    assert play("A + B = C", "A = 0\nB = 2\n", "--digits", "1-9", "--assign", "A=1").stdout.splitlines() == [
        "rejected: A can only be {1} by the puzzle's rules (A = 1)", "solved: 1 + 2 = 3  /  A=1 B=2 C=3"]


def test_a_terminal_sees_the_puzzle_drawn_again_after_each_move() -> None:
    import io

    from smtcrypt.cli.play import main

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal, piped = Terminal(), io.StringIO()
    assert main(["ODD * ODD = FREAKY"], stdin=io.StringIO("D = 9\nE = 8\n"), stdout=terminal) == 0
    assert main(["ODD * ODD = FREAKY"], stdin=io.StringIO("D = 9\nE = 8\n"), stdout=piped) == 0
    assert piped.getvalue().splitlines() == ["accepted; forced: A=4 F=6 K=0 O=7 R=3 Y=1",
                                             "solved: 799 * 799 = 638401  /  A=4 D=9 E=8 F=6 K=0 O=7 R=3 Y=1"]
    drawn = terminal.getvalue().splitlines()
    assert drawn[:4] == ["   ODD", " × ODD", "------", "FREAKY"] and drawn[-4:] == ["   799", " × 799", "------", "638401"]
    assert "   799" in drawn[drawn.index(piped.getvalue().splitlines()[0]) + 1:]
