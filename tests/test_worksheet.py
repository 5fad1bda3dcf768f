"""Worksheets (smtcrypt/worksheet.py): puzzles long-hand with blank boxes, the key on its own page,
from formulas, a file or the generator; bad input is exit 2 with the formula's caret."""

from __future__ import annotations

import argparse
import html
import re
import time
from pathlib import Path

import pytest

import smtcrypt
from smtcrypt import api
from smtcrypt.cli import main
from smtcrypt.cli.worksheet import difficulty_range
from smtcrypt.teach.worksheet import StackedFormula, build_worksheet, layout, stacked

REPO = Path(__file__).resolve().parent.parent
PLANETS = REPO / "examples" / "words" / "planets.txt"


@pytest.mark.parametrize("formula, rows", [
    ("SEND + MORE = MONEY", StackedFormula((("", "SEND"), ("+", "MORE")), "MONEY")),
    ("MONEY = SEND + MORE", StackedFormula((("", "SEND"), ("+", "MORE")), "MONEY")),
    ("TEN + TEN + FORTY = SIXTY", StackedFormula((("", "TEN"), ("+", "TEN"), ("+", "FORTY")), "SIXTY")),
    ("WELL - DO + YOU = PUNK", StackedFormula((("", "WELL"), ("-", "DO"), ("+", "YOU")), "PUNK")),
    ("ODD * ODD = FREAKY", StackedFormula((("", "ODD"), ("×", "ODD")), "FREAKY")),
    ("7AB * CD = EFGHJ", StackedFormula((("", "7AB"), ("×", "CD")), "EFGHJ")),
    ("A + (B + C) = DE", None),
    ("A * B * C = DE", None),
    ("SEND + MORE < MONEY", None),
    ("NORTH / SOUTH = EAST / WEST", None),
    ("A + B = C, A > 2", None),
    ("SEND + MORE", None),
])
def test_stacked_layouts(formula, rows):
    try:
        puzzle = smtcrypt.Puzzle(formula)
    except smtcrypt.FormulaError:
        assert rows is None
        return
    assert stacked(puzzle.problem) == rows


def test_layout_boxes_are_blank_on_the_sheet_and_filled_in_the_key():
    puzzle = smtcrypt.Puzzle("SEND + MORE = MONEY")
    blank = layout(puzzle.problem)
    assert blank.count('class="cell"') == 13 and '<span class="digit"></span>' in blank
    filled = layout(puzzle.problem, next(puzzle.solve()).mapping)
    assert re.findall(r'<span class="digit">(\d)</span>', filled) == list("956710851" "0652")
    literal = layout(smtcrypt.Puzzle("7AB * CD = EFGHJ").problem)
    assert '<span class="cell fixed">7</span>' in literal
    inline = layout(smtcrypt.Puzzle("EVE / DID = 0.(TALK)").problem)
    assert inline.count('class="chunk"') == 5  # EVE, /, DID, =, 0.(TALK): lines break only between them
    assert "0.(TALK)" not in inline and '<span class="symbol">(</span>' in inline


def test_worksheet_page():
    page = build_worksheet(["SEND + MORE = MONEY", "ODD * ODD = FREAKY", "A + A = B + B + 1"], title="<Week 1>",
                           paper="letter")
    assert "@page { size: letter;" in page and "&lt;Week 1&gt;" in page and "<Week 1>" not in page
    questions, key = page.split('<section class="sheet key">')
    assert questions.count('class="puzzle"') == 3 and key.count('class="puzzle"') == 3
    assert not re.search(r'class="digit">\d', questions)  # nothing of the answers on the sheet
    assert "9567 + 1085 = 10652" in key and "unique (proved)" in key
    assert "not unique" in key and "no solution (proved)" in key
    assert ".key { break-before: page;" in page
    assert "@page { size: A4;" in build_worksheet(["SEND + MORE = MONEY"])
    with pytest.raises(ValueError):
        build_worksheet(["SEND + MORE = MONEY"], paper="a3")


def test_worksheet_uses_the_long_hand_layout_where_it_exists():
    page = build_worksheet(["SEND + MORE = MONEY", "ODD * ODD = FREAKY"])
    for formula in ("SEND + MORE = MONEY", "ODD * ODD = FREAKY"):
        written = html.escape(next(smtcrypt.solve(formula)).long_hand())
        assert f'<pre class="long-hand">{written}</pre>' in page


def test_command_writes_a_sheet(tmp_path, capsys):
    listing = tmp_path / "puzzles.txt"
    listing.write_text("# this week\nODD * ODD = FREAKY\n\nTWO * TWO = SQUARE\n", encoding="utf-8")
    out = tmp_path / "sheet.html"
    assert main(["worksheet", "SEND + MORE = MONEY", "--from", str(listing), "--paper", "letter", "-o", str(out),
                 "--allow-multiple"]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.count('<div class="puzzle">') == 6 and "size: letter" in page
    assert "3 puzzles (1 unique, 2 multiple) written to" in capsys.readouterr().err
    assert main(["worksheet", "SEND + MORE = MONEY"]) == 0
    assert capsys.readouterr().out.startswith("<!doctype html>")


def test_command_refuses_bad_input(tmp_path, capsys):
    assert main(["worksheet", "SEND + MORE = = MONEY", "-o", str(tmp_path / "x.html")]) == 2
    error = capsys.readouterr().err
    assert "missing operand at line 1, column 15" in error and "\n                ^" in error
    assert not (tmp_path / "x.html").exists()
    for argv, message in ([[], "no puzzles"], [["--generate"], "--generate needs --words"],
                          [["--words", str(PLANETS)], "go with --generate"],
                          [["--from", str(tmp_path / "missing.txt")], "cannot read"],
                          [["--generate", "--words", str(PLANETS), "--count", "0"], "--count"]):
        assert main(["worksheet", *argv]) == 2, argv
        assert message in capsys.readouterr().err


def test_generated_puzzles_are_unique_and_repeat_with_a_seed(tmp_path, capsys):
    sheets = []
    for name in ("one", "two"):
        out = tmp_path / f"{name}.html"
        assert main(["worksheet", "--generate", "--words", str(PLANETS), "--count", "3", "--seed", "7", "-o", str(out)]) == 0
        sheets.append(out.read_text(encoding="utf-8"))
        assert "3 puzzles (3 unique)" in capsys.readouterr().err
    assert sheets[0] == sheets[1]
    formulas = re.findall(r'<span class="formula">([^<]+)</span>', sheets[0])[:3]
    assert len(set(formulas)) == 3 and all(smtcrypt.verdict(f).status is smtcrypt.Status.UNIQUE for f in formulas)


def test_difficulty_needs_ratings(tmp_path, capsys, monkeypatch):
    argv = ["worksheet", "--generate", "--words", str(PLANETS), "--count", "2", "--difficulty", "1-2"]
    rated = {}

    def rating(self):  # a stand-in scale, quicker than explaining each puzzle: the number of letters, folded into 1-5
        rated[self.formula] = len(self.letters) % 5 + 1
        return rated[self.formula]

    monkeypatch.setattr(api.Puzzle, "difficulty", rating, raising=False)
    out = tmp_path / "rated.html"
    assert main([*argv, "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    shown = [int(level) for level in re.findall(r"difficulty (\d)/5", page)]
    assert len(shown) == 4 and set(shown) <= {1, 2}  # two puzzles, on the sheet and in the key


def test_difficulty_range():
    assert difficulty_range("1-3") == (1, 3) and difficulty_range("4") == (4, 4)
    for text in ("0-2", "3-1", "a-b", "1-6"):
        with pytest.raises(argparse.ArgumentTypeError):
            difficulty_range(text)


def test_a_puzzle_out_of_time_is_undecided_in_the_key():
    started = time.monotonic()
    page = build_worksheet(["x*x*x + y*y*y + z*z*z = 42", "x*x*x + y*y*y + z*z*z = 33"], timeout=5, total=0.5)
    assert time.monotonic() - started < 3  # the sheet's total, not 5 s a puzzle
    key = page.split('<section class="sheet key">')[1]
    assert key.count("undecided (time limit)") == 2 and "(proved)" not in key


def test_a_puzzle_without_exactly_one_solution_is_refused_by_name(tmp_path, capsys):
    out = tmp_path / "sheet.html"
    assert main(["worksheet", "SEND + MORE = MONEY", "ODD * ODD = FREAKY", "A + B = A + 10", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "'ODD * ODD = FREAKY' has more than one solution, not exactly one: give --allow-multiple" in err
    assert "'A + B = A + 10' has no solution" in err and "SEND" not in err and not out.exists()
    assert main(["worksheet", "--syntax", "cryptator", "A // B = C", "-o", str(out)]) == 2
    assert "'A // B = C' has more than one solution" in capsys.readouterr().err  # as the user wrote it
    assert main(["worksheet", "ODD * ODD = FREAKY", "--allow-multiple", "-o", str(out)]) == 0 and out.exists()
