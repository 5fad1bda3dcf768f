"""The web page in a real headless Chromium (Debian's, driven by Playwright): type a puzzle and see its
solutions and status, a syntax error with its caret, Stop, a shared link that solves on load, hints
where smtcrypt explains, and a worksheet that prints on A4 and Letter with the key on its own page.

Screenshots of each state go to the test's temporary folder; with SMTCRYPT_SCREENSHOTS=DIR they are
also copied there (`SMTCRYPT_SCREENSHOTS=docs pytest tests/test_browser.py` renews docs/web-page.png).
"""

from __future__ import annotations

import os
import re
import shutil
import urllib.parse
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("playwright", reason="Playwright is not installed: pip install '.[test]'")

from webserver import get, running_server, searches_running, wait_for  # noqa: E402

import smtcrypt  # noqa: E402

CHROMIUM = Path(os.environ.get("SMTCRYPT_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
LONG = "x*x*x + y*y*y + z*z*z = 42"
WAIT_MS = 15_000

if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's chromium package (apt-get install chromium; "
                ".ci/run does) or point SMTCRYPT_CHROMIUM at one", allow_module_level=True)


@pytest.fixture(scope="module")
def base():
    with running_server(timeout=10.0) as url:  # the default of smtcrypt serve
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # Playwright starts Chromium with a new, empty profile (--user-data-dir) of its own
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, base):
    context = browser.new_context(viewport={"width": 1000, "height": 900}, base_url=base)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(WAIT_MS)
    yield page
    context.close()
    assert not errors, errors  # no script error on any page


def screenshot(page, tmp_path: Path, name: str, selector: str | None = None) -> Path:
    """A full-page PNG (or of the element `selector` picks) in the test's folder (and in
    $SMTCRYPT_SCREENSHOTS, when set)."""
    path = tmp_path / f"{name}.png"
    if selector is None:
        page.screenshot(path=str(path), full_page=True)
    else:
        page.locator(selector).screenshot(path=str(path))
    assert path.stat().st_size > 10_000  # a page, not a blank
    if os.environ.get("SMTCRYPT_SCREENSHOTS"):
        folder = Path(os.environ["SMTCRYPT_SCREENSHOTS"])
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, folder / path.name)
    return path


def open_page(page, address: str = "/"):
    page.goto(address)
    page.wait_for_selector("body[data-ready=true]")


def status_of(page, *expected: str) -> str:
    page.wait_for_function("kinds => kinds.includes(document.getElementById('status').dataset.status)",
                           arg=list(expected))
    return page.inner_text("#status")


def test_type_a_formula_and_see_solutions_and_status(page, tmp_path):
    open_page(page)
    page.fill("#formula", "ODD * ODD = FREAKY")
    page.wait_for_function("document.getElementById('letters').textContent.startsWith('8 letters')")
    page.click("#solve")
    status = status_of(page, "multiple")
    assert "2 solutions, and no other" in status and "proved" in status
    assert page.locator("#solutions li .line").all_inner_texts() == ["677 * 677 = 458329", "799 * 799 = 638401"]
    assert page.locator("#solutions li .mapping").first.inner_text() == "A=3 D=7 E=8 F=4 K=2 O=6 R=5 Y=9"
    assert page.is_hidden("#busy") and page.is_disabled("#stop")
    assert "formula=ODD+*+ODD+%3D+FREAKY" in page.url  # the address holds the puzzle
    page.select_option("#mode", "unique")
    page.fill("#formula", "SEND + MORE = MONEY")
    page.press("#formula", "Enter")  # Enter solves (Shift-Enter starts a new constraint line)
    status = status_of(page, "unique")
    assert "1 solution, and no other: the puzzle is unique" in status
    assert page.locator("#solutions li .line").all_inner_texts() == ["9567 + 1085 = 10652"]
    page.wait_for_selector("#hints:not([hidden])")  # a solved puzzle offers hints
    page.wait_for_function("document.getElementById('letters').textContent === '8 letters: S E N D M O R Y'")
    screenshot(page, tmp_path, "web-page")


def test_rules_are_controls(page):
    open_page(page)
    page.fill("#formula", "XAB * CD = EFGHJ")
    page.fill("#assign", "X=7")
    page.select_option("#mode", "unique")
    page.click("#solve")
    assert "unique" in status_of(page, "unique")
    assert page.locator("#solutions li .line").all_inner_texts() == ["715 * 46 = 32890"]
    assert "assign=X%3D7" in page.url and "mode=unique" in page.url
    page.fill("#assign", "")
    page.fill("#formula", "ABCDE * 4 = EDCBA")
    page.fill("#digits", "1-9")
    page.uncheck("#distinct")
    page.select_option("#mode", "all")
    page.click("#solve")
    status_of(page, "unique")
    assert page.locator("#solutions li .line").all_inner_texts() == ["21978 * 4 = 87912"]


def test_a_syntax_error_shows_its_caret_as_you_type(page, tmp_path):
    open_page(page)
    page.type("#formula", "SEND + MORE = = MONEY", delay=5)
    page.wait_for_selector("#syntax:not([hidden])")
    # a loaded machine may check a word typed half-way first: wait for the check of the whole formula
    page.wait_for_function("document.getElementById('formula').value.endsWith('MONEY') && "
                           "document.getElementById('syntax').innerText.includes('column 15')")
    message, line, carets = page.inner_text("#syntax").split("\n")
    assert message == "unexpected '=': missing operand at line 1, column 15"
    assert line == "  SEND + MORE = = MONEY" and carets == "  " + " " * 14 + "^"
    assert page.get_attribute("#formula", "aria-invalid") == "true"
    screenshot(page, tmp_path, "syntax-error")
    page.fill("#formula", "SEND + MORE = MONEY")
    page.wait_for_selector("#syntax", state="hidden")
    assert page.get_attribute("#formula", "aria-invalid") is None
    page.fill("#formula", "SEND + MORE = = MONEY")
    page.click("#solve")  # solving it anyway says the same
    assert "missing operand at line 1, column 15" in status_of(page, "error")


def test_stop_ends_a_long_search(page, base, tmp_path):
    open_page(page)
    page.fill("#formula", LONG)
    page.click("#solve")
    page.wait_for_function("document.getElementById('progress-text').textContent.includes('found')")
    page.wait_for_function("document.getElementById('progress').value > 0")  # the bar moves with the time limit
    assert "of at most 10 s" in page.inner_text("#progress-text")
    # exactly this search runs, once any other the worker's shared server had (a check of the formula as
    # it was typed, another test's search winding down: a loaded machine saw 2) has ended
    assert wait_for(lambda: searches_running(base) == 1, seconds=5)
    screenshot(page, tmp_path, "searching")
    page.click("#stop")
    status = status_of(page, "unknown")
    assert "search incomplete (interrupted)" in status
    # the verdict shows as it arrives; the page is idle once its stream has closed, a moment later
    page.wait_for_selector("#busy", state="hidden", timeout=5000)
    assert page.is_hidden("#busy") and page.is_enabled("#solve")
    assert wait_for(lambda: searches_running(base) == 0, seconds=3)


def test_leaving_the_page_stops_its_search(browser, base):
    context = browser.new_context(base_url=base)
    page = context.new_page()
    open_page(page)
    page.fill("#formula", LONG)
    page.click("#solve")
    assert wait_for(lambda: searches_running(base) == 1)
    context.close()
    assert wait_for(lambda: searches_running(base) == 0, seconds=3)


def test_a_shared_link_solves_on_load(page):
    open_page(page, "/?formula=NUM+%2B+BER+%3D+PLAY&mode=count")
    status = status_of(page, "multiple")
    assert "96 solutions" in status
    assert page.input_value("#formula") == "NUM + BER = PLAY" and page.input_value("#mode") == "count"
    open_page(page, "/?formula=XAB+*+CD+%3D+EFGHJ&assign=X%3D7&mode=unique")
    status_of(page, "unique")
    assert page.input_value("#assign") == "X=7"
    assert page.locator("#solutions li .line").all_inner_texts() == ["715 * 46 = 32890"]


# Every status the page can show, from a shared link: (the address, its status, what the status says)
STATUSES = [
    ("/?formula=x+-+y+%3D+1", "infinite", "10 solutions shown; infinitely many solutions: x = 1 + t"),
    ("/?formula=A+%2B+B+%3D+C&digits=1-2", "none", "no solution"),
    ("/?syntax=enigma&formula=SubstitutedSum+-b7+%22SEND+%2B+MORE+%3D+MONEY%22", "none",  # impossible: no search
     "proved: more symbols that must differ than digits for them"),
    ("/?formula=SEND+%2B+MORE+%3D+MONEY", "unique", "1 solution, and no other: the puzzle is unique"),
    ("/?formula=ODD+*+ODD+%3D+FREAKY", "multiple", "2 solutions, and no other"),
    ("/?formula=ODD+*+ODD+%3D+FREAKY&mode=unique", "multiple", "2 solutions: not unique (stopped after two)"),
    ("/?formula=NUM+%2B+BER+%3D+PLAY&mode=first", "found", "1 solution (stopped as asked; more may exist)"),
    ("/?formula=x+-+y+%3D+1&mode=count", "infinite", "shown; infinitely many solutions"),
    ("/?syntax=cryptator&base=4&formula=nrgy+%3D+MC+%5E+2", "multiple", "2 solutions, and no other"),
]


@pytest.mark.parametrize("address, status, words", STATUSES, ids=[f"{s[1]}: {s[0][2:40]}" for s in STATUSES])
def test_the_page_renders_every_status(page, address, status, words):
    open_page(page, address)
    assert words in status_of(page, status, "error")
    assert page.get_attribute("#status", "data-status") == status  # not an error, nor "cannot be reached"
    page.wait_for_selector("#busy", state="hidden")  # the search has ended


def test_the_page_shows_a_notations_own_symbols(page):
    open_page(page, "/?syntax=cryptator&base=4&formula=nrgy+%3D+MC+%5E+2")
    status_of(page, "multiple")
    assert page.input_value("#notation") == "cryptator"
    mappings = page.locator("#solutions li .mapping").all_inner_texts()
    assert "2=3" in mappings[0].split() and "A=" not in mappings[0]  # the symbol 2, not our letter for it


def test_the_page_renders_unknown_at_the_time_limit(browser):
    with running_server(timeout=1.0) as hurried:
        context = browser.new_context(base_url=hurried)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        open_page(page, "/?" + urllib.parse.urlencode({"formula": LONG}))
        assert "search incomplete (time limit), so more may exist" in status_of(page, "unknown", "error")
        context.close()
        assert not errors, errors


def test_the_link_follows_the_puzzle(page, base):
    open_page(page)
    page.fill("#formula", "TWO + TWO = FOUR")
    page.click("#share")
    assert page.input_value("#link") == base + "/?formula=TWO+%2B+TWO+%3D+FOUR"
    page.fill("#formula", "SEND + MORE = MONEY")  # a new puzzle: the link shown is its own
    assert page.input_value("#link") == base + "/?formula=SEND+%2B+MORE+%3D+MONEY"
    assert page.inner_text("#share") == "Copy link"
    page.select_option("#notation", "cryptator")
    assert page.input_value("#link") == base + "/?formula=SEND+%2B+MORE+%3D+MONEY&syntax=cryptator"
    page.select_option("#notation", "smtcrypt")
    page.fill("#formula", "ODD * ODD = FREAKY")
    page.click("#solve")
    status_of(page, "multiple")
    assert page.input_value("#link") == page.url == base + "/?formula=ODD+*+ODD+%3D+FREAKY"


def test_copy_link_puts_the_puzzle_in_the_address(page, base):
    open_page(page)
    page.fill("#formula", "TWO + TWO = FOUR")
    page.check("#allow_leading_zeros")
    page.click("#share")
    link = page.input_value("#link")
    assert link == base + "/?formula=TWO+%2B+TWO+%3D+FOUR&allow_leading_zeros=true"
    assert page.url == link


def test_worksheet_builder_and_printing(page, tmp_path):
    open_page(page)
    for formula in ("SEND + MORE = MONEY", "ODD * ODD = FREAKY", "EVE / DID = 0.(TALK)"):
        page.fill("#formula", formula)
        page.click("#ws-add")
    assert page.input_value("#ws-formulas").split("\n")[:3] == ["SEND + MORE = MONEY", "ODD * ODD = FREAKY",
                                                                 "EVE / DID = 0.(TALK)"]
    page.fill("#ws-title", "Class 4B")
    page.select_option("#ws-paper", "letter")
    with page.context.expect_page() as opened:
        page.click("#ws-open")
    sheet = opened.value
    sheet.wait_for_load_state()
    assert sheet.inner_text("h1") == "Class 4B"
    assert sheet.locator(".questions .puzzle").count() == 3 and sheet.locator(".key .puzzle").count() == 3
    assert sheet.locator(".questions .stack").count() == 2  # the sum and the product in columns
    assert sheet.locator(".questions .cell .digit").all_inner_texts() == [""] * sheet.locator(".questions .cell .digit").count()
    assert "9567 + 1085 = 10652" in sheet.inner_text(".key")
    screenshot(sheet, tmp_path, "worksheet")
    for paper, size in (("letter", (612, 792)), ("a4", (595, 842))):
        if paper == "a4":
            sheet.goto(sheet.url.replace("paper=letter", "paper=a4"))
        pdf = sheet.pdf(prefer_css_page_size=True)
        boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
        assert len(boxes) >= 2  # the answer key starts a page of its own
        assert {(round(float(width)), round(float(height))) for width, height in boxes} == {size}
        (tmp_path / f"worksheet-{paper}.pdf").write_bytes(pdf)


def test_hints_one_step_at_a_time(page, tmp_path):
    explained = smtcrypt.Puzzle("SEND + MORE = MONEY").explain()
    solution = next(smtcrypt.solve("SEND + MORE = MONEY"))
    open_page(page, "/?formula=SEND+%2B+MORE+%3D+MONEY")
    status_of(page, "unique")
    assert page.inner_text("#solutions li .long-hand") == solution.long_hand()
    page.wait_for_selector("#hints:not([hidden])")
    assert page.locator("#steps li").count() == 0
    page.click("#next-hint")
    page.wait_for_selector("#steps li")
    assert page.locator("#steps li").all_inner_texts() == [explained.steps[0].text]
    assert page.inner_text("#difficulty") == f"difficulty {explained.difficulty} of 5"
    assert page.locator("#legend p").all_inner_texts() == list(explained.legend)  # how to read the steps, first
    for shown in range(2, len(explained.steps) + 1):
        page.click("#next-hint")
        page.wait_for_function(f"document.querySelectorAll('#steps li').length === {shown}")
    assert page.locator("#steps li").all_inner_texts() == [step.text for step in explained.steps]
    assert page.is_disabled("#next-hint") and page.inner_text("#next-hint") == f"all {len(explained.steps)} steps shown"
    screenshot(page, tmp_path, "hints")


def test_an_unreachable_server_is_reported(browser, base):
    context = browser.new_context(base_url=base)
    page = context.new_page()
    open_page(page)
    page.route("**/api/stream*", lambda route: route.abort())
    page.fill("#formula", "A + B = C")
    page.click("#solve")
    assert "cannot be reached" in status_of(page, "error")
    context.close()
    assert get(base, "/api/health")[0] == 200


def verdict_of(page, kind: str, saying: str = "") -> str:
    """The move's verdict once it is `kind` and its text holds `saying`."""
    page.wait_for_function("([kind, saying]) => document.getElementById('verdict').dataset.verdict === kind"
                           " && document.getElementById('verdict').textContent.includes(saying)", arg=[kind, saying])
    return page.inner_text("#verdict")


def box(page, letter: str):
    return page.locator(f"#board .box[data-letter={letter}]").first


def decide(page, letter: str, digit: int, expected: str = "accepted") -> str:
    box(page, letter).fill(str(digit))
    return verdict_of(page, expected, "Solved" if expected == "solved" else f"{letter} = {digit}")


def test_play_a_puzzle_to_the_end(page, browser, base, tmp_path):
    """A rejected move with its reason, a pencil mark, undo, a hint, easy mode, the shared link
    restoring the position in a new page, and the puzzle played to "solved"."""
    open_page(page)
    page.fill("#formula", "SEND + MORE = MONEY")
    page.click("#play")
    page.wait_for_selector("#board .box")
    assert page.locator("#board .box").count() == 13  # a box under each letter of SEND, MORE and MONEY
    assert "S = 8: no solution has it" in decide(page, "S", 8, "rejected")
    reason = page.locator("#reason li").all_inner_texts()
    assert reason[-1].startswith("Column 3 cannot hold") and len(reason) >= 2
    assert box(page, "S").input_value() == ""  # a rejected digit is not written in
    assert "M = 1: accepted" in decide(page, "M", 1)
    assert page.locator("#board .box[data-letter=M]").evaluate_all("boxes => boxes.map(b => b.value)") == ["1", "1"]
    page.click("#undo")
    assert "M = 1 taken back" in verdict_of(page, "undone")
    assert box(page, "M").input_value() == ""
    page.click("#game-hint")
    assert verdict_of(page, "hint").endswith("Column 5: c5 = M, with M ≠ 0. So M = 1.")
    page.check("#pencil")
    box(page, "R").fill("7")
    box(page, "R").fill("8")
    page.uncheck("#pencil")
    page.wait_for_function("document.querySelector('#board .cell .box[data-letter=R] + .marks').textContent === '7 8'")
    for letter, digit in (("M", 1), ("O", 0), ("S", 9)):
        decide(page, letter, digit)
    page.fill("#move", "E < 5")  # any decision may be typed, with its reason if it fails
    page.click("#try")
    assert "E < 5: no solution has it" in verdict_of(page, "rejected", "E < 5")
    page.check("#easy")
    assert "out" in page.locator("#palette tr:nth-child(1) button").nth(8).get_attribute("class")  # S = 8 refuted
    screenshot(page, tmp_path, "play-page", "#game")
    page.fill("#move", "E = 5")
    page.press("#move", "Enter")
    verdict_of(page, "accepted", "E = 5")
    page.click("#game-share")
    link = page.input_value("#link")
    assert "play=1" in link and "decision=E+%3D+5" in link and "marks=R%3A78" in link and "easy=1" in link
    shared = browser.new_page(base_url=base)  # the link restores the position in a new page
    shared.set_default_timeout(WAIT_MS)
    shared.goto(link)
    shared.wait_for_selector("#board .box.known")
    assert [box(shared, letter).input_value() for letter in "SEMO"] == ["9", "5", "1", "0"]
    assert shared.is_checked("#easy")
    assert shared.locator("#board .box[data-letter=R] + .marks").first.inner_text() == "7 8"
    for letter, digit in (("N", 6), ("R", 8), ("D", 7)):
        decide(shared, letter, digit)
    assert "Solved: 9567 + 1085 = 10652" in decide(shared, "Y", 2, "solved")
    shared.close()


def test_the_best_value_is_a_control_and_its_link_proves_it(page):
    open_page(page, "/?formula=SEND+%2B+MOST+%3D+MONEY&maximize=MONEY&mode=unique")
    status = status_of(page, "optimal")
    assert "maximum MONEY = 10876: optimal; attained by more than one solution" in status and "proved" in status
    assert page.input_value("#sense") == "maximize" and page.input_value("#objective") == "MONEY"
    assert page.locator("#solutions li .line").count() == 2
    page.select_option("#sense", "minimize")
    page.select_option("#mode", "all")
    page.click("#solve")
    assert "minimum MONEY = 10437: optimal" in status_of(page, "optimal")
    assert "minimize=MONEY" in page.url
    page.wait_for_function("document.getElementById('letters').textContent.startsWith('8 letters')")  # checked without it
