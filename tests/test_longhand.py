"""Long-hand layouts, compared with the layouts written out by hand."""

from __future__ import annotations

import smtcrypt
from smtcrypt.api import Puzzle
from smtcrypt.cli import main
from smtcrypt.core.longhand import layout


def long_hand(formula: str, mapping: dict[str, int], **rules) -> str:
    puzzle = Puzzle(formula, **rules)
    assert puzzle.is_solution(mapping)
    return layout(puzzle.problem, mapping, "").text()


def test_sum_with_carries():
    assert long_hand("SEND + MORE = MONEY", {"D": 7, "E": 5, "M": 1, "N": 6, "O": 0, "R": 8, "S": 9, "Y": 2}) == "\n".join([
        " 1 11",
        "  9567",
        "+ 1085",
        "------",
        " 10652",
    ])


def test_difference_with_borrows():
    assert long_hand("ABC - DE = FGH", {"A": 2, "B": 0, "C": 4, "D": 3, "E": 5, "F": 1, "G": 6, "H": 9}) == "\n".join([
        " 11",
        " 204",
        "- 35",
        "----",
        " 169",
    ])


def test_long_multiplication():
    assert long_hand("ODD * ODD = FREAKY", {"A": 3, "D": 7, "E": 8, "F": 4, "K": 2, "O": 6, "R": 5, "Y": 9}) == "\n".join([
        "   677",
        " × 677",
        "------",
        "  4739",
        " 4739",
        "4062",
        "------",
        "458329",
    ])


def test_long_division():
    assert long_hand("ABCD / EF = GH", {"A": 1, "B": 3, "C": 6, "D": 8, "E": 2, "F": 4, "G": 5, "H": 7}) == "\n".join([
        "       57",
        "    -----",
        "24 ) 1368",
        "     120",
        "     ---",
        "      168",
        "      168",
        "      ---",
        "        0",
    ])


def test_other_shapes_are_the_plain_line():
    puzzle = Puzzle("ONE < TWO")
    solution = puzzle.first()
    assert solution.long_hand() == solution.text


def test_solution_api_text_svg_and_notebook_display():
    solution = Puzzle("SEND + MORE = MONEY").first()
    assert solution.long_hand().splitlines()[-1] == " 10652"
    svg = solution.svg()
    assert svg.startswith("<svg") and "9567" in svg and "<line" in svg
    assert solution._repr_svg_() == svg
    verdict = Puzzle("SEND + MORE = MONEY").verdict()
    page = verdict._repr_html_()
    assert "unique" in page and "<svg" in page


def test_cli_show_long(capsys):
    assert main(["--show", "long", "SEND + MORE = MONEY"]) == 0
    out = capsys.readouterr().out
    assert "  9567\n+ 1085\n------\n 10652\n" in out


def test_wildcard_digits_are_written_out_long_hand():
    solution = next(smtcrypt.solve("?? * ?? = 1?0?"))
    assert solution.long_hand() == "  11\n× 91\n----\n  11\n 99\n----\n1001"


def test_the_picture_draws_each_carry_over_its_column():
    import re

    from smtcrypt.api import Puzzle

    solution = next(iter(Puzzle("SEND + MORE = MONEY").solve()))
    lines = solution.layout().text().split("\n")
    svg = solution.svg()
    char_w = 14 * 0.62
    carries = [(float(x), text) for x, text in re.findall(r'<text x="([\d.]+)"[^>]*fill="#888">([^<]*)</text>', svg)]
    expected = [(round(4 + (column + 0.5) * char_w, 1), char) for column, char in enumerate(lines[0]) if char != " "]
    assert carries == expected and carries  # each carry over its own column of digits
    for x, _ in carries:
        column = int((x - 4) / char_w)
        assert any(line[column:column + 1].isdigit() for line in lines[1:])  # digits below it, in the same column
