"""The page without a server (`smtcrypt page`): the folder it writes, the worker's answers in CPython,
and the page itself in a real headless Chromium, with Pyodide and Z3's WebAssembly wheel, served by
`python -m http.server` and asking nothing of any other address.

The browser test needs Pyodide (the npm package pyodide@PYODIDE_VERSION, unpacked: SMTCRYPT_PYODIDE)
and the wheels of z3-solver for Pyodide and of lark (SMTCRYPT_WASM_WHEELS); `.ci/run` fetches both.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from smtcrypt.web.browser import handle
from smtcrypt.web.site import PYODIDE_VERSION, SiteError, build_wheel, find_wheels

CHROMIUM = Path(os.environ.get("SMTCRYPT_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
PYODIDE = os.environ.get("SMTCRYPT_PYODIDE", "")
WHEELS = os.environ.get("SMTCRYPT_WASM_WHEELS", "")
LONG = "x*x*x + y*y*y + z*z*z = 42"
PAGE_TIMEOUT = 4  # the page's limit on a search, seconds: short, so that the time limit is met in the test
WAIT_MS = 90_000  # Pyodide starts in a few seconds; a loaded machine takes longer


def answers(request: dict) -> list[dict]:
    posted: list[dict] = []
    handle(json.dumps({"id": 1, **request}), lambda text: posted.append(json.loads(text)), 10.0)
    assert posted[-1] == {"id": 1, "end": True}
    return posted[:-1]


def test_the_worker_answers_each_request_as_the_server():
    [check] = answers({"path": "/api/check", "query": [["formula", "SEND + MORE = MONEY"]]})
    assert check["status"] == 200 and check["body"]["letters"] == list("SENDMORY")
    [bad] = answers({"path": "/api/check", "query": [["formula", "SEND + = MONEY"]]})
    assert bad["status"] == 400 and bad["body"]["column"] == 8 and "^" in bad["body"]["snippet"]
    [unknown] = answers({"path": "/api/check", "query": [["formula", "A = B"], ["mode", "all"]]})
    assert unknown["status"] == 400 and "unknown option 'mode'" in unknown["body"]["error"]
    [explained] = answers({"path": "/api/explain", "query": [["formula", "SEND + MORE = MONEY"]]})
    assert explained["status"] == 200 and explained["body"]["steps"]
    [move] = answers({"path": "/api/play", "body": {"formula": "SEND + MORE = MONEY", "decisions": [], "move": "M = 1"}})
    assert move["status"] == 200 and move["body"]["move"]["verdict"] == "accepted"
    [sheet] = answers({"path": "/worksheet", "query": [["formula", "SEND + MORE = MONEY"], ["title", "Sums"]]})
    assert sheet["status"] == 200 and "<html" in sheet["html"] and "Sums" in sheet["html"]
    [health] = answers({"path": "/api/health"})
    assert health["body"]["timeout"] == 10.0
    [missing] = answers({"path": "/api/nothing"})
    assert missing["status"] == 404
    lines = [message["line"] for message in answers({"path": "/api/stream", "query": [["formula", "A + = B"]]})
             if "line" in message]
    assert lines == []  # refused before it starts: a status, no stream


def test_smtcrypts_own_wheel_is_made_from_the_installed_package(tmp_path):
    wheel = build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        record = archive.read(next(name for name in names if name.endswith("RECORD"))).decode()
    assert {"smtcrypt/__init__.py", "smtcrypt/grammar/smtcrypt.lark", "smtcrypt/web/browser.py"} <= names
    assert not any("__pycache__" in name for name in names)
    assert all(name in record for name in names)


def page_command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "smtcrypt", "page", *args], capture_output=True, text=True,
                          timeout=120)


def test_the_page_command_says_what_it_lacks(tmp_path):
    (tmp_path / "wheels").mkdir()
    done = page_command("--out", str(tmp_path / "site"), "--wheels", str(tmp_path / "wheels"),
                        "--pyodide", "https://example.org/pyodide/")
    assert done.returncode == 2 and "no Z3's WebAssembly wheel" in done.stderr and "pip download" in done.stderr
    (tmp_path / "wheels" / "z3_solver-9.0.0-py3-none-manylinux_2_17_x86_64.whl").write_bytes(b"")
    with pytest.raises(SiteError, match="WebAssembly"):  # a wheel for this machine is not one for the browser
        find_wheels(tmp_path / "wheels")
    (tmp_path / "pyodide").mkdir()
    done = page_command("--out", str(tmp_path / "site"), "--pyodide", str(tmp_path / "pyodide"),
                        "--wheels", str(tmp_path / "nowhere"))
    assert done.returncode == 2 and "no such folder of wheels" in done.stderr
    assert "Traceback" not in done.stderr


# ---- the page in Chromium ----------------------------------------------------------------------------

def browser_missing() -> str | None:
    for module in ("playwright",):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed: pip install '.[test]'"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM}: apt-get install chromium (.ci/run does), or set SMTCRYPT_CHROMIUM"
    if not PYODIDE or not Path(PYODIDE).is_dir():
        return (f"no Pyodide: set SMTCRYPT_PYODIDE to the unpacked npm package pyodide@{PYODIDE_VERSION} "
                f"(npm pack pyodide@{PYODIDE_VERSION}; .ci/run does)")
    if not WHEELS or not Path(WHEELS).is_dir():
        return "no wheels for Pyodide: set SMTCRYPT_WASM_WHEELS to a folder of them (.ci/run fetches them with pip)"
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[str]:
    """The folder `smtcrypt page` writes, served by `python -m http.server` on a free port."""
    folder = tmp_path_factory.mktemp("site")
    done = page_command("--out", str(folder), "--pyodide", PYODIDE, "--wheels", WHEELS,
                        "--timeout", str(PAGE_TIMEOUT))
    assert done.returncode == 0, done.stderr
    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(folder)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        port = re.search(r"port (\d+)", server.stdout.readline())
        assert port, "python -m http.server did not say its port"
        yield f"http://127.0.0.1:{port.group(1)}"
    finally:
        server.kill()
        server.wait()


def status_of(page, *expected: str) -> str:
    page.wait_for_function("kinds => kinds.includes(document.getElementById('status').dataset.status)",
                           arg=list(expected))
    return page.inner_text("#status")


@pytest.mark.skipif(browser_missing() is not None, reason=browser_missing() or "")
def test_the_static_page_solves_proves_plays_stops_and_shares_in_the_browser(site):
    from playwright.sync_api import sync_playwright

    elsewhere: list[str] = []  # every request the page makes outside its folder
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        context = chromium.new_context(viewport={"width": 1000, "height": 900}, base_url=site)
        context.on("request", lambda request: None if request.url.startswith((site + "/", "blob:", "data:"))
                   else elsewhere.append(request.url))
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.set_default_timeout(WAIT_MS)

        # a shared link opens and solves: unique, proved (the link a page shares is checked below)
        started = time.monotonic()
        page.goto("/?formula=SEND+%2B+MORE+%3D+MONEY&mode=unique")
        assert "1 solution, and no other: the puzzle is unique" in status_of(page, "unique")
        first_answer = time.monotonic() - started
        assert page.locator("#solutions li .line").all_inner_texts() == ["9567 + 1085 = 10652"]
        assert "proved" in page.inner_text("#status")

        # typed and solved: two solutions; the letters are checked as typed
        page.select_option("#mode", "all")
        page.fill("#formula", "ODD * ODD = FREAKY")
        page.wait_for_function("document.getElementById('letters').textContent.startsWith('8 letters')")
        page.click("#solve")
        assert "2 solutions, and no other" in status_of(page, "multiple")
        assert page.locator("#solutions li .line").all_inner_texts() == ["677 * 677 = 458329", "799 * 799 = 638401"]
        assert "formula=ODD+*+ODD+%3D+FREAKY" in page.url

        # hints: the explanation, step by step
        page.click("#next-hint")
        page.wait_for_selector("#steps li")

        # played by hand: a move rejected with its reasons, one accepted
        page.fill("#formula", "SEND + MORE = MONEY")
        page.click("#play")
        page.wait_for_selector("#board .box")
        page.locator("#board .box[data-letter=S]").first.fill("8")
        page.wait_for_function("document.getElementById('verdict').dataset.verdict === 'rejected'")
        assert page.locator("#reason li").count() >= 2
        page.locator("#board .box[data-letter=M]").first.fill("1")
        page.wait_for_function("document.getElementById('verdict').textContent.includes('M = 1: accepted')")

        # the best value, proved
        page.fill("#formula", "SEND + MOST = MONEY")
        page.select_option("#sense", "maximize")
        page.fill("#objective", "MONEY")
        page.click("#solve")
        assert "maximum MONEY = 10876: optimal" in status_of(page, "optimal")
        page.select_option("#sense", "")

        # infinitely many
        page.fill("#formula", "x - y = 1")
        page.click("#solve")
        assert "infinitely many solutions: x = 1 + t" in status_of(page, "infinite")

        # an error with its caret, as typed and when solved
        page.fill("#formula", "SEND + MORE = = MONEY")
        page.wait_for_function("document.getElementById('syntax').innerText.includes('column 15')")
        message, line, carets = page.inner_text("#syntax").split("\n")
        assert message == "unexpected '=': missing operand at line 1, column 15"
        assert carets == "  " + " " * 14 + "^"
        page.click("#solve")
        assert "missing operand at line 1, column 15" in status_of(page, "error")

        # Stop ends a long search (its worker ends, and a new one takes the next)
        page.fill("#formula", LONG)
        page.click("#solve")
        page.wait_for_function("document.getElementById('progress-text').textContent.includes('found')")
        page.click("#stop")
        assert "search incomplete (interrupted)" in status_of(page, "unknown")
        assert page.is_hidden("#busy") and page.is_enabled("#solve")

        # the page's time limit ends one too
        page.click("#solve")
        assert "search incomplete (time limit)" in status_of(page, "unknown")

        # after both, the next puzzle is solved by the new worker; its link is the page's address
        page.fill("#formula", "NUM + BER = PLAY")
        page.select_option("#mode", "count")
        page.click("#solve")
        assert "96 solutions" in status_of(page, "multiple")
        page.click("#share")
        link = page.input_value("#link")
        assert link == page.url and link.startswith(site + "/?")
        assert urllib.parse.parse_qs(urllib.parse.urlsplit(link).query) == \
            {"formula": ["NUM + BER = PLAY"], "mode": ["count"]}

        # a worksheet, made in the page and opened as a page of its own
        page.fill("#ws-formulas", "SEND + MORE = MONEY\n")
        page.dispatch_event("#ws-formulas", "input")
        with context.expect_page() as opened:
            page.click("#ws-open")
        sheet = opened.value
        sheet.wait_for_function("document.body && document.body.innerText.includes('SEND')")
        context.close()
        chromium.close()
    assert not errors, errors
    assert not elsewhere, elsewhere  # Pyodide, the wheels and the page: all from the folder
    print(f"first answer {first_answer:.1f} s after opening the page")
