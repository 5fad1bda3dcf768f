"""The web server and its JSON API (smtcrypt/web/): the answers are `smtcrypt --json`'s, each request
has its own search, bad input gets a 4xx without harming the server, a client that goes away or
presses Stop ends its search, and the server listens on this machine only unless told otherwise."""

from __future__ import annotations

import http.client
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

from webserver import get, running_server, searches_running, wait_for  # noqa: E402

import smtcrypt  # noqa: E402
from smtcrypt.cli import main  # noqa: E402
from smtcrypt.cli.serve import build_parser  # noqa: E402
from smtcrypt.cli.serve import main as serve_main
from smtcrypt.web import DEFAULT_HOST, missing_stack
from smtcrypt.web.query import MAX_FORMULA_CHARS, BadQuery, read_query  # noqa: E402

LONG = "x*x*x + y*y*y + z*z*z = 42"  # Z3 searches this for as long as it is let (no solution in reach)
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def base():
    with running_server(timeout=20.0, searches=20) as url:  # room for twenty at once (the cap: test_web_limits.py)
        yield url


def cli_json(argv: list[str], capsys) -> dict:
    main(["--json", *argv])
    return json.loads(capsys.readouterr().out)


def comparable(answer: dict) -> dict:
    """What must agree between two runs: everything but the time (the strategy may differ with the load)."""
    return {key: value for key, value in answer.items() if key not in ("seconds", "strategy", "proof")}


# ---- the query string -------------------------------------------------------------------------

def test_query_reads_rules_and_modes():
    query = read_query([("formula", "XAB * CD = EFGHJ"), ("assign", "X=7"), ("mode", "unique"), ("digits", "0-9"),
                        ("distinct", "true"), ("allow_leading_zeros", "0"), ("base", "10"), ("timeout", "99")],
                       max_timeout=5)
    assert query.rules == {"distinct": True, "allow_leading_zeros": False, "base": 10, "digits": "0-9",
                           "assign": ["X=7"]}
    assert query.search_options == {"limit": None, "timeout": 5, "decide": True, "strategy": "auto"}  # never longer
    several = read_query([("formula", "A**N + B**N = C**N"), ("formula", "N > 1"), ("assign", "A=3,B=4")], max_timeout=5)
    assert several.formula == "A**N + B**N = C**N\nN > 1" and several.rules["assign"] == ["A=3", "B=4"]
    assert read_query([("formula", "A = B"), ("domain", "A=1,3,5 B=2-4")], max_timeout=5).rules["domains"] == \
        ["A=1,3,5", "B=2-4"]  # a domain's commas are its digits


@pytest.mark.parametrize("pairs, status, option", [
    ([("formula", "A = B"), ("colour", "red")], 400, "colour"),
    ([("formula", "A = B"), ("mode", "all"), ("mode", "first")], 400, "mode"),
    ([("formula", "A = B"), ("mode", "every")], 400, "mode"),
    ([("formula", "A = B"), ("limit", "0")], 400, "limit"),
    ([("formula", "A = B"), ("limit", "2"), ("mode", "unique")], 400, "limit"),
    ([("formula", "A = B"), ("timeout", "nan")], 400, "timeout"),
    ([("formula", "A = B"), ("base", "ten")], 400, "base"),
    ([("formula", "A = B"), ("distinct", "maybe")], 400, "distinct"),
    ([("formula", "A = B"), ("strategy", "magic")], 400, "strategy"),
    ([("formula", "  ")], 400, "formula"),
    ([], 400, "formula"),
    ([("formula", "A" * (MAX_FORMULA_CHARS + 1))], 413, "formula"),
])
def test_query_refuses_bad_options(pairs, status, option):
    with pytest.raises(BadQuery) as refused:
        read_query(pairs, max_timeout=5)
    assert refused.value.status == status and refused.value.body["option"] == option
    assert option in refused.value.body["error"] or "formula" in refused.value.body["error"]


# ---- answers ----------------------------------------------------------------------------------

@pytest.mark.parametrize("formula, mode, options, argv", [
    ("SEND + MORE = MONEY", "unique", {}, ["--unique"]),
    ("ODD * ODD = FREAKY", "all", {}, []),
    ("NUM + BER = PLAY", "count", {}, ["--count"]),
    ("TWO * TWO = SQUARE", "first", {}, ["--first"]),
    ("XAB * CD = EFGHJ", "unique", {"assign": "X=7"}, ["--unique", "--assign", "X=7"]),
    ("ABCDE * 4 = EDCBA", "all", {"digits": "1-9", "distinct": "false"}, ["--digits", "1-9", "--no-distinct"]),
    ("ADD + ADD = CAB", "all", {"base": "16"}, ["--base", "16"]),
    ("A + B = C", "all", {"allow_leading_zeros": "true", "limit": "3"}, ["--allow-leading-zeros", "--limit", "3"]),
    ("SEND + MORE = MONEY", "all", {"stats": "true"}, ["--stats"]),
    ("A + A = B + B + 1", "all", {}, []),
    ("SEND + MOST = MONEY", "unique", {"maximize": "MONEY"}, ["--unique", "--maximize", "MONEY"]),
    ("ABC + DEF = GHIJ", "all", {"minimize": "ABC * DEF"}, ["--minimize", "ABC * DEF"]),
])
def test_solve_answers_what_the_command_line_prints(base, capsys, formula, mode, options, argv):
    status, answer = get(base, "/api/solve", {"formula": formula, "mode": mode, **options})
    expected = cli_json([*argv, formula], capsys)
    assert status == 200
    assert answer.keys() == expected.keys()
    if "stats" in answer:
        answer.pop("stats"), expected.pop("stats")
    if mode == "first":  # which solution comes first may depend on a race between backends
        puzzle = smtcrypt.Puzzle(formula)
        assert len(answer["solutions"]) == 1 and puzzle.is_solution(answer["solutions"][0]["mapping"])
        answer.pop("solutions"), expected.pop("solutions")
    assert comparable(answer) == comparable(expected)


def test_twenty_concurrent_requests_each_get_their_own_answer(base):
    puzzles = [("SEND + MORE = MONEY", {}), ("ODD * ODD = FREAKY", {}), ("NUM + BER = PLAY", {}),
               ("TWO * TWO = SQUARE", {}), ("EVE / DID = 0.(TALK)", {})]
    puzzles += [("A + B = CD", {"assign": f"A={digit}"}) for digit in range(2, 10)]
    puzzles += [("AB + C = DE", {"assign": f"C={digit}"}) for digit in range(2, 9)]
    assert len(puzzles) == 20
    expected = [smtcrypt.Puzzle(formula, assign=[options["assign"]] if options else None).count()
                for formula, options in puzzles]

    def ask(puzzle):
        formula, options = puzzle
        return get(base, "/api/solve", {"formula": formula, **options}, timeout=60)

    with ThreadPoolExecutor(len(puzzles)) as pool:
        answers = list(pool.map(ask, puzzles))
    for (formula, options), count, (status, answer) in zip(puzzles, expected, answers):
        assert status == 200, answer
        assert answer["formula"] == formula and answer["count"] == count and answer["complete"]
        puzzle = smtcrypt.Puzzle(formula, assign=[options["assign"]] if options else None)
        assert all(puzzle.is_solution(solution["mapping"]) for solution in answer["solutions"])
        if options:
            letter, digit = options["assign"].split("=")
            assert all(solution["mapping"][letter] == int(digit) for solution in answer["solutions"])
    assert wait_for(lambda: searches_running(base) == 0)


def test_a_bad_objective_is_400_with_its_caret(base):
    status, answer = get(base, "/api/solve", {"formula": "SEND + MOST = MONEY", "maximize": "MONEY +"})
    assert status == 400 and answer["option"] == "maximize" and answer["column"] == 8 and "^" in answer["snippet"]
    status, answer = get(base, "/api/solve", {"formula": "SEND + MOST = MONEY", "maximize": "MONEY", "mode": "count"})
    assert status == 400 and "takes no mode=count" in answer["error"]


def test_a_bad_formula_is_400_with_its_position(base):
    status, answer = get(base, "/api/solve", {"formula": "SEND + MORE = = MONEY"})
    assert status == 400
    assert answer["error"] == "unexpected '=': missing operand"
    assert (answer["line"], answer["column"]) == (1, 15)
    assert answer["snippet"].splitlines()[1].index("^") == 2 + 14
    status, answer = get(base, "/api/check", {"formula": "SEND + MORE = MONEY\nA + +"})
    assert status == 400 and answer["line"] == 2
    assert get(base, "/api/check", {"formula": "ODD * ODD = FREAKY"}) == \
        (200, {"ok": True, "letters": ["O", "D", "F", "R", "E", "A", "K", "Y"], "unknowns": []})


def test_bad_input_gets_a_4xx_and_the_server_keeps_serving(base):
    refused = [
        "formula=%ZZ%",  # malformed percent-encoding: the formula is then not the puzzle asked for
        "formula=A+%3D+B&colour=red",  # an unknown option
        "formula=A+%3D+B&mode=all&mode=first",
        "formula=A+%3D+B&base=1",  # base out of range (the rules' own message)
        "formula=A+%3D+B&assign=A%3D99",
        "formula=ABCDEFGHIJK+%3D+A",  # eleven letters
        "mode=all",
        "",
        "formula=" + "A" * (MAX_FORMULA_CHARS + 1),
        "formula=" + "A%2B" * 150_000,  # 150,000 characters, 600,000 in the URL
    ]
    for query in refused:
        status, answer = get(base, "/api/solve", query)
        assert 400 <= status < 500, (query[:40], status, answer)
        if query.startswith("formula=" + "A" * 100):
            assert status == 413 and "limit" in answer["error"]
    try:  # 4 MB: refused unread (the server may close the connection before the client has sent it all)
        assert get(base, "/api/solve", "formula=" + "A%2B" * 1_000_000)[0] in (400, 413, 431)
    except ConnectionError:
        pass
    except urllib.error.URLError as error:
        assert isinstance(error.reason, ConnectionError), error
    assert get(base, "/api/stream", {"formula": "SEND + + MORE"})[0] == 400
    assert get(base, "/api/solve", {"formula": "A + B = C", "strategy": "linear", "mode": "unique"})[0] == 200
    assert get(base, "/api/solve", {"formula": "x + A = 3", "strategy": "linear"})[0] == 400
    status, answer = get(base, "/api/solve", {"formula": "SEND + MORE = MONEY"})
    assert status == 200 and answer["status"] == "unique"
    assert searches_running(base) == 0


def test_a_search_past_the_time_limit_is_unknown(base):
    started = time.monotonic()
    status, answer = get(base, "/api/solve", {"formula": LONG, "timeout": "0.5"})
    assert status == 200
    assert answer["status"] == "unknown" and answer["reason"] == "time limit" and not answer["complete"]
    assert time.monotonic() - started < 3


def stream(base: str, params: dict) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=20)
    connection.request("GET", "/api/stream?" + urllib.parse.urlencode(params))
    return connection, connection.getresponse()


def test_stream_sends_start_solutions_progress_and_done(base):
    connection, response = stream(base, {"formula": "ODD * ODD = FREAKY"})
    events = [json.loads(line) for line in response.read().decode().splitlines()]
    connection.close()
    assert response.status == 200 and response.getheader("Content-Type").startswith("application/x-ndjson")
    kinds = [event["event"] for event in events if event["event"] != "progress"]
    assert kinds == ["start", "solution", "solution", "done"]
    assert [event["text"] for event in events if event["event"] == "solution"] == \
        ["677 * 677 = 458329", "799 * 799 = 638401"]
    assert events[-1]["verdict"]["status"] == "multiple" and events[-1]["shown"] == 2
    assert "solutions" not in events[-1]["verdict"]  # sent one by one already
    connection, response = stream(base, {"formula": "ABCD < EFGH", "mode": "count"})
    events = [json.loads(line) for line in response.read().decode().splitlines()]
    connection.close()
    assert events[-1]["verdict"]["count"] == smtcrypt.count("ABCD < EFGH")
    assert not [event for event in events if event["event"] == "solution"]


def test_stream_shows_the_first_solutions_and_counts_the_rest(base):
    from smtcrypt.web.searches import STREAMED_SOLUTIONS

    connection, response = stream(base, {"formula": "ABC < DEF"})
    events = [json.loads(line) for line in response.read().decode().splitlines()]
    connection.close()
    solutions = [event for event in events if event["event"] == "solution"]
    assert len(solutions) == STREAMED_SOLUTIONS == events[-1]["shown"]
    assert [event["index"] for event in solutions] == list(range(1, STREAMED_SOLUTIONS + 1))
    assert len({event["text"] for event in solutions}) == STREAMED_SOLUTIONS
    assert events[-1]["verdict"]["count"] == 60_480 and events[-1]["verdict"]["status"] == "multiple"
    assert events[-1]["verdict"]["complete"]


def test_a_streamed_answer_tallies_every_solution_not_only_those_shown(base, capsys):
    from smtcrypt.web.searches import STREAMED_SOLUTIONS

    command = 'SubstitutedExpression "AB < CD" --answer="A"'  # 2,016 solutions, the page shows 200
    connection, response = stream(base, {"formula": command, "syntax": "enigma"})
    events = [json.loads(line) for line in response.read().decode().splitlines()]
    connection.close()
    assert events[-1]["shown"] == STREAMED_SOLUTIONS and events[-1]["verdict"]["count"] == 2016
    main(["--json", "--syntax", "enigma", *shlex.split(command)])
    assert events[-1]["verdict"]["answers"] == json.loads(capsys.readouterr().out)["answers"]
    assert sum(answer["count"] for answer in events[-1]["verdict"]["answers"]) == 2016


def test_stop_ends_a_streamed_search_with_its_verdict(base):
    connection, response = stream(base, {"formula": LONG})
    start = json.loads(response.readline())
    assert start["event"] == "start"
    progress = json.loads(response.readline())
    assert progress["event"] == "progress" and progress["found"] == 0
    stopper = http.client.HTTPConnection(*urllib.parse.urlsplit(base).netloc.split(":"), timeout=5)
    json_type = {"Content-Type": "application/json"}  # a POST of any other type is refused (415)
    stopper.request("POST", "/api/stop?id=" + urllib.parse.quote(start["id"]), headers=json_type)
    answer = stopper.getresponse()
    assert answer.status == 200 and json.loads(answer.read()) == {"stopped": start["id"]}
    stopped = time.monotonic()
    events = [json.loads(line) for line in response.read().decode().splitlines()]
    assert time.monotonic() - stopped < 3
    assert events[-1]["event"] == "done"
    assert events[-1]["verdict"]["status"] == "unknown" and events[-1]["verdict"]["reason"] == "interrupted"
    connection.close()
    assert get(base, "/api/stop", "id=nosuch")[0] == 405  # POST only
    stopper.request("POST", "/api/stop?id=nosuch", headers=json_type)
    assert stopper.getresponse().status == 404
    assert wait_for(lambda: searches_running(base) == 0)


@pytest.mark.parametrize("path", ["/api/solve", "/api/stream"])
def test_a_client_that_disconnects_stops_its_search(base, path):
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    client = socket.create_connection((host, int(port)))
    query = urllib.parse.urlencode({"formula": LONG})
    client.sendall(f"GET {path}?{query} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    assert wait_for(lambda: searches_running(base) == 1)
    time.sleep(0.3)
    client.close()
    gone = time.monotonic()
    assert wait_for(lambda: searches_running(base) == 0, seconds=5)
    assert time.monotonic() - gone < 3  # not the 20 s time limit


def test_page_assets_and_health(base):
    import urllib.request

    with urllib.request.urlopen(base + "/?formula=SEND+%2B+MORE+%3D+MONEY") as response:
        page = response.read().decode()
    assert response.headers["Content-Type"].startswith("text/html") and 'id="formula"' in page
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        with urllib.request.urlopen(f"{base}/static/{name}") as response:
            assert response.headers["Content-Type"].startswith(kind) and response.read()
    assert get(base, "/static/secret.py")[0] == 404
    assert get(base, "/static/..%2f__init__.py")[0] == 404
    status, health = get(base, "/api/health")
    assert status == 200 and health["version"] == smtcrypt.__version__ and health["timeout"] == 20.0
    assert set(health) == {"version", "searches", "timeout"}


def test_the_page_loads_nothing_from_elsewhere():
    from smtcrypt.web.app import STATIC, static_file

    for name in STATIC:
        text = static_file(name)
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE), name  # no CDN, no fonts


def test_worksheet_route(base):
    import urllib.request

    query = urllib.parse.urlencode([("formula", "SEND + MORE = MONEY"), ("formula", "ODD * ODD = FREAKY"),
                                    ("paper", "letter"), ("title", "Week <3>")])
    with urllib.request.urlopen(f"{base}/worksheet?{query}") as response:
        sheet = response.read().decode()
    assert sheet.count('class="puzzle"') == 4  # two puzzles, two answers
    assert "size: letter" in sheet and "Week &lt;3&gt;" in sheet and "<3>" not in sheet
    assert "9567 + 1085 = 10652" in sheet
    assert get(base, "/worksheet", "formula=A+%3D+B&paper=a3")[0] == 400
    assert get(base, "/worksheet", "")[0] == 400
    assert get(base, "/worksheet", "formula=SEND+%2B+%2B")[0] == 400
    assert get(base, "/worksheet", "formula=A+%3D+B&colour=red")[0] == 400
    assert get(base, "/worksheet", "&".join(["formula=A+%3D+B"] * 61))[0] == 413


def test_explanations_and_long_hand_layouts_are_served(base):
    status, answer = get(base, "/api/explain", {"formula": "SEND + MORE = MONEY"})
    assert status == 200 and answer["difficulty"] == smtcrypt.Puzzle("SEND + MORE = MONEY").difficulty()
    assert answer["complete"] and answer["steps"][0] == {"kind": "deduce", "text": "Column 5: c5 = M, with M ≠ 0. So M = 1."}
    assert answer["steps"][-1]["kind"] == "solution"
    assert answer["legend"] == list(smtcrypt.Puzzle("SEND + MORE = MONEY").explain().legend)
    assert any("carry" in line for line in answer["legend"])
    assert get(base, "/api/explain", {"formula": "SEND + +"})[0] == 400
    connection, response = stream(base, {"formula": "SEND + MORE = MONEY"})
    events = [json.loads(line) for line in response.read().decode().splitlines()]
    connection.close()
    solution = next(smtcrypt.solve("SEND + MORE = MONEY"))
    assert [event["long_hand"] for event in events if event["event"] == "solution"] == [solution.long_hand()]
    connection, response = stream(base, {"formula": "A**2 + B**2 = C**2", "mode": "first"})
    events = [json.loads(line) for line in response.read().decode().splitlines()]
    connection.close()
    assert [event["long_hand"] for event in events if event["event"] == "solution"] == [None]  # no layout: the line


# ---- the command ------------------------------------------------------------------------------

def test_serve_listens_on_this_machine_unless_told_otherwise():
    args = build_parser().parse_args([])
    assert (args.host, args.port, args.timeout) == (DEFAULT_HOST, 8000, 10.0) and DEFAULT_HOST == "127.0.0.1"
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)
    process = subprocess.Popen([sys.executable, "-m", "smtcrypt", "serve", "--port", "0", "--timeout", "3"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stdout.readline()
        assert line.startswith("smtcrypt: serving on http://127.0.0.1:"), line + process.stderr.read()
        url = line.split()[3]
        assert wait_for(lambda: get(url.rstrip("/"), "/api/health")[0] == 200, seconds=10)
        assert get(url.rstrip("/"), "/api/health")[1]["timeout"] == 3.0
    finally:
        process.terminate()
        process.wait(10)
        process.stdout.close(), process.stderr.close()


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr("smtcrypt.web.NEEDED", ("smtcrypt_no_such_module",))
    assert "pip install" in missing_stack()
    assert serve_main([]) == 2
    assert "web extra" in capsys.readouterr().err


def test_serve_reports_a_port_in_use(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert serve_main(["--port", str(taken.getsockname()[1])]) == 2
    assert "cannot listen" in capsys.readouterr().err
