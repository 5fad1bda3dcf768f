"""Misuse gets a clear word: operators as written on paper (`x`, `×`, `÷`) are named as ours, a formula of
lowercase words that comes out infinite is told about capitals and Cryptator's notation, and a
subcommand's usage error prints that subcommand's usage."""

from __future__ import annotations

import json

import pytest

from smtcrypt.cli import main
from smtcrypt.core.parse import parse
from smtcrypt.errors import FormulaSyntaxError


@pytest.mark.parametrize("formula, column, hint", [
    ("AB x C = DE", 4, "write '*' for this operator"),
    ("AB × C = DE", 4, "write '*' for this operator"),  # as before
    ("AB ÷ C = D", 4, "write '/' for this operator"),
])
def test_operators_as_written_on_paper_get_a_hint(formula: str, column: int, hint: str) -> None:
    with pytest.raises(FormulaSyntaxError) as caught:
        parse(formula)
    assert hint in caught.value.message and caught.value.column == column


def test_a_name_x_keeps_its_meaning() -> None:
    assert main(["--count", "x * 2 = 4"]) == 0  # x a name, not an operator
    assert main(["--count", "AB * x = 24", "x < 10"]) == 0


def test_lowercase_words_that_come_out_infinite_get_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["send + more = money"]) == 0
    captured = capsys.readouterr()
    assert "infinitely many" in captured.out
    assert "hint: lowercase names such as 'send' are whole numbers" in captured.err
    assert "capitals (SEND)" in captured.err and "--syntax cryptator" in captured.err
    assert main(["--json", "send + more = money"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["status"] == "infinite" and "hint:" in captured.err  # stdout stays JSON
    assert main(["x - y = 1"]) == 0
    assert "hint" not in capsys.readouterr().err  # names of one letter: an equation of unknowns, as meant


@pytest.mark.parametrize("command", ["worksheet", "batch", "explain", "play"])
def test_a_subcommand_prints_its_own_usage(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "--syntax", "fortran", "x"])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.startswith(f"usage: smtcrypt {command} [-h]")
    assert "invalid choice: 'fortran'" in err and "--syntax" in err.split("error:")[0]  # the whole usage
