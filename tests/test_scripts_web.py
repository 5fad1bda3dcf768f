"""The web API with letters of every script and the single-letter rule: what `smtcrypt --json` says."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

from webserver import get, running_server  # noqa: E402

from smtcrypt.cli import main  # noqa: E402


@pytest.fixture(scope="module")
def base():
    with running_server(timeout=20.0) as url:
        yield url


def test_the_page_checks_and_solves_letters_of_every_script(base, capsys):
    assert get(base, "/api/check", {"formula": "उनतालीस + उनसठ = हिन्दुस्तान"}) == (  # a letter with its marks: ता, न्
        200, {"ok": True, "letters": ["उ", "न", "ता", "ली", "स", "ठ", "हि", "न्", "दु", "स्"], "unknowns": []})
    assert get(base, "/api/check", {"formula": "Д? + д = 12"})[1]["letters"] == ["Д"]  # no hidden names of ?s
    status, answer = get(base, "/api/check", {"formula": "ДВА × 2 = ЧЕ"})
    assert status == 400 and "'×'" in answer["error"] and answer["column"] == 5
    status, answer = get(base, "/api/solve", {"formula": "ДВЕСТИ = ДВА * СТО", "mode": "unique"})
    main(["--json", "--unique", "ДВЕСТИ = ДВА * СТО"])
    expected = json.loads(capsys.readouterr().out)
    assert status == 200 and answer["solutions"] == expected["solutions"] and answer["status"] == "unique"


def test_the_single_letter_rule_on_the_web(base):
    status, answer = get(base, "/api/solve", {"formula": "A // B = C", "mode": "count",
                                              "nonzero_single_letters": "1"})
    assert status == 200 and answer["count"] == 25
    status, answer = get(base, "/api/solve", {"formula": "A // B = C", "mode": "count"})
    assert status == 200 and answer["count"] == 61
