"""`smtcrypt --layout FILE FORMULA...`: the formulas are conditions on the layout's letters; errors
in them point at their own text, exit code 2; lowercase layouts are shown as written."""

from __future__ import annotations

import json

import pytest
from test_layout import ENIGMA_206, LETTERED_DIVISION, brute_letters

from smtcrypt.cli import main

CONDITION = "(A != 2) + (B != 9) + (C != 4) + (D != 6) = 1"


@pytest.fixture
def division(tmp_path):
    path = tmp_path / "division.txt"
    path.write_text(LETTERED_DIVISION)
    return str(path)


def test_formulas_given_with_a_layout_are_its_conditions(division, capsys):
    wanted = [letters for letters in brute_letters(LETTERED_DIVISION)
              if (letters["A"] != 2) + (letters["B"] != 9) + (letters["C"] != 4) + (letters["D"] != 6) == 1]
    assert main(["--count", "--layout", division, CONDITION]) == 0
    assert capsys.readouterr().out.strip() == str(len(wanted)) == "3"
    assert main(["--count", "--layout", division, CONDITION, "A = 2"]) == 0  # several: all must hold
    assert capsys.readouterr().out.strip() == str(sum(letters["A"] == 2 for letters in wanted))
    assert main(["--layout", division, "A = 9", "A = 8"]) == 1
    assert capsys.readouterr().out.startswith("0 solutions")


def test_json_gives_the_layout_then_its_conditions_and_the_filled_in_layouts(division, capsys):
    assert main(["--json", "--layout", division, CONDITION]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["formula"] == LETTERED_DIVISION.rstrip("\n") + "\n" + CONDITION
    assert data["count"] == 3 and len(data["solutions"]) == 3
    for solution in data["solutions"]:
        lines = solution["text"].splitlines()
        divisor, dividend = (int(part) for part in lines[2].split(")"))
        assert divisor * int(lines[0]) == dividend and set(solution["mapping"]) == set("ABCD")


@pytest.mark.parametrize("conditions, message, caret", [
    (["A > 1", "B + = 2"], "missing operand at line 2, column 5", "  B + = 2\n      ^"),
    (["foo(A) = 1"], "unknown function 'foo'", "  foo(A) = 1\n  ^^^^^^"),
])
def test_an_error_in_a_condition_points_at_it_with_exit_code_2(division, capsys, conditions, message, caret):
    assert main(["--layout", division, *conditions]) == 2
    err = capsys.readouterr().err
    assert message in err and caret in err and "Â" not in err  # the condition as written, not the formula made
    assert main(["--json", "--layout", division, *conditions]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "error" and message.split(" at line")[0] in data["error"] and "^" in data["snippet"]


def test_a_layout_with_neither_formula_nor_file_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--count"])
    assert caught.value.code == 2
    assert "give a FORMULA or --layout FILE" in capsys.readouterr().err


def test_a_lowercase_layout_is_filled_in_as_written(tmp_path, capsys):
    path = tmp_path / "enigma206.txt"
    path.write_text(ENIGMA_206)
    assert main(["--layout", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("         619\n      -----\n  77 ) 47670\n")
    assert "  /  b=9 d=2 g=3 h=0 k=7 m=6 p=4 x=1\n" in out  # the letters as the layout writes them
    assert main(["--count", "--layout", str(path), "K = 7"]) == 0  # conditions name them in capitals
    assert capsys.readouterr().out.strip() == "1"
