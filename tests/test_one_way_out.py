"""One way out: the same puzzle gives the same JSON object from `smtcrypt --json`, `smtcrypt batch`
and the web API, in every notation, in the user's own symbols and formula (present/report.py writes
it for all three). Only each interface's own fields differ: the seconds, batch's `line`, and which
search ran (`strategy`, and so the words of its `proof`), which the cost model may choose by the
clock under load; that a proof is given or not is the same everywhere."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

from test_layout import MULTIPLICATION  # noqa: E402  (the long multiplication as printed, one copy)
from webserver import get, running_server  # noqa: E402

from smtcrypt.cli import main  # noqa: E402
from smtcrypt.cli.batch import batch  # noqa: E402
from smtcrypt.web.browser import handle  # noqa: E402

# (notation, the puzzle's text as batch and the web take it, the command line's arguments, the rules)
PUZZLES: list[tuple[str, str, list[str], dict[str, Any]]] = [
    ("smtcrypt", "SEND + MORE = MONEY", ["SEND + MORE = MONEY"], {}),
    ("smtcrypt", "ODD * ODD = FREAKY", ["ODD * ODD = FREAKY"], {}),
    ("smtcrypt", "AB + ? = 2?", ["AB + ? = 2?", "--base", "8"], {"base": 8}),  # wildcards, another base
    ("layout", MULTIPLICATION, ["--layout", "{layout}"], {}),
    ("enigma", 'SubstitutedExpression "ADD + ADD = CAB"', ["SubstitutedExpression", "ADD + ADD = CAB"], {}),
    ("enigma", 'SubstitutedExpression "SEND + MORE = MONEY" --answer="MONEY"',
     ["SubstitutedExpression", "SEND + MORE = MONEY", "--answer=MONEY"], {}),
    ("enigma", 'SubstitutedSum -b7 "SEND + MORE = MONEY"', ["SubstitutedSum", "-b7", "SEND + MORE = MONEY"], {}),
    ("cryptator", "nrgy = MC ^ 2", ["nrgy = MC ^ 2", "-b", "4"], {"base": 4}),
    ("cryptator", "send + more = money", ["send + more = money"], {}),
]
OWN = {"seconds", "line"}  # each interface's own: its timings, batch's line number
RUN = {"strategy", "proof"}  # which search ran: the same kind of answer, not always the same search


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server(timeout=30.0, searches=4) as url:
        yield url


def from_command_line(syntax: str, argv: list[str], layout: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    argv = [argument.replace("{layout}", str(layout)) for argument in argv]
    main(["--json", *([] if syntax in ("smtcrypt", "layout") else ["--syntax", syntax]), *argv])
    return json.loads(capsys.readouterr().out)


def same(first: dict, second: dict) -> None:
    """Field by field, but for each interface's own fields; a proof given by both or by neither."""
    assert {key: value for key, value in first.items() if key not in OWN | RUN} == \
        {key: value for key, value in second.items() if key not in OWN | RUN}
    assert set(first) - OWN == set(second) - OWN  # no field only one interface writes
    assert (first["proof"] is None) == (second["proof"] is None)


@pytest.mark.parametrize("syntax, text, argv, rules", PUZZLES, ids=[f"{p[0]}: {p[1][:30]}" for p in PUZZLES])
def test_the_same_puzzle_gives_the_same_object_everywhere(syntax: str, text: str, argv: list[str],
                                                           rules: dict[str, Any], server: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    layout = tmp_path / "layout.txt"
    layout.write_text(text, encoding="utf-8")
    cli = from_command_line(syntax, argv, layout, capsys)
    answered = next(batch([(1, text)], syntax=syntax, rules=rules))
    status, web = get(server, "/api/solve", {"formula": text, "syntax": syntax, **rules})
    assert status == 200, web
    assert answered["line"] == 1
    same(cli, answered)
    same(cli, web)


def test_the_object_speaks_the_users_symbols(server: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Cryptator's `nrgy = MC ^ 2` in base 4 maps its own symbols (`2` among them), names its formula
    as written and its symbols' letters, and keeps our digit-count conditions out of `text`."""
    status, web = get(server, "/api/solve", {"formula": "nrgy = MC ^ 2", "syntax": "cryptator", "base": "4"})
    assert status == 200
    assert web["cryptator"] == "nrgy = MC ^ 2" and web["syntax"] == "cryptator" and web["letters"]["2"] == "A"
    assert all(set(solution["mapping"]) == {"n", "r", "g", "y", "M", "C", "2"} for solution in web["solutions"])
    assert all("<=" not in solution["text"] for solution in web["solutions"])
    main(["--json", "--syntax", "enigma", "SubstitutedExpression", "ADD + ADD = CAB"])
    assert json.loads(capsys.readouterr().out)["formula"] == get(
        server, "/api/solve", {"formula": 'SubstitutedExpression "ADD + ADD = CAB"', "syntax": "enigma"})[1]["formula"]


def test_an_impossible_enigma_puzzle_is_none_by_every_interface_without_a_search(server: str) -> None:
    answered = next(batch([(1, 'SubstitutedSum -b7 "SEND + MORE = MONEY"')], syntax="enigma", stats=True))
    assert (answered["status"], answered["complete"], answered["strategy"]) == ("none", True, None)
    assert answered["proof"] == "more symbols that must differ than digits for them"
    assert answered["stats"]["search_space"] == 0


@pytest.mark.parametrize("syntax, text, argv, rules", PUZZLES, ids=[f"{p[0]}: {p[1][:30]}" for p in PUZZLES])
def test_the_page_without_a_server_answers_as_the_server(syntax: str, text: str, argv: list[str],
                                                          rules: dict[str, Any], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The page's Web Worker (web/browser.py, here in CPython) streams the verdict the command line prints,
    its solutions sent before it, one line each, as the server's stream sends them."""
    layout = tmp_path / "layout.txt"
    layout.write_text(text, encoding="utf-8")
    cli = from_command_line(syntax, argv, layout, capsys)
    posted: list[dict] = []
    query = [["formula", text], ["syntax", syntax], *([name, str(value)] for name, value in rules.items())]
    handle(json.dumps({"id": 7, "path": "/api/stream", "query": query}), lambda line: posted.append(json.loads(line)))
    assert {message["id"] for message in posted} == {7} and posted[-1] == {"id": 7, "end": True}
    lines = [message["line"] for message in posted[:-1]]
    assert lines[0]["event"] == "start" and lines[-1]["event"] == "done"
    solutions = [line for line in lines if line["event"] == "solution"]
    assert [line["mapping"] for line in solutions] == [solution["mapping"] for solution in cli["solutions"]]
    same({key: value for key, value in cli.items() if key != "solutions"}, lines[-1]["verdict"])
