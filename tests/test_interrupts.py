"""Time limits end the whole search on time; Ctrl-C ends it cleanly with what was found so far."""

import json
import time
from pathlib import Path

import pytest
from interrupting import command, interrupt, stop_once_started

import smtcrypt
import smtcrypt.cli

ROOT = Path(__file__).resolve().parent.parent
ENDLESS = "ONE < TWO < THREE < TWO * TWO"  # 241,920 solutions: far more than a few seconds' work for Z3
# (a model per check); the cubes strategy counts them in about a second, so the tests below force Z3
HARD_NONLINEAR = "NUM * BER * AY > PLAY * 17 * NUM"  # bit-blasted: a tactic solver, watched by the watchdog


@pytest.mark.parametrize("formula, seconds", [(ENDLESS, 1.5), (HARD_NONLINEAR, 1.0)])
def test_timeout_ends_the_whole_search_within_ten_percent(formula, seconds):
    start = time.monotonic()
    verdict = smtcrypt.Puzzle(formula).search(timeout=seconds, strategy="z3").verdict()
    elapsed = time.monotonic() - start
    assert verdict.status is smtcrypt.Status.UNKNOWN and verdict.reason == "time limit"
    assert not verdict.complete
    assert elapsed <= seconds * 1.1 + 0.2, f"overshoot {elapsed - seconds:.3f} s"


def test_count_under_a_time_limit_raises_rather_than_guesses():
    with pytest.raises(smtcrypt.IncompleteSearch) as caught:
        smtcrypt.count(ENDLESS, timeout=0.5, strategy="z3")
    assert caught.value.reason == "time limit" and caught.value.found >= 0


def test_ctrl_c_prints_what_was_found_and_exits_130():
    run = interrupt(command("--strategy", "z3", ENDLESS), lines=1)  # a solution printed: the search is under way
    code, out, err = run.code, run.out, run.err
    assert code == 130
    lines = out.splitlines()
    assert "search incomplete (interrupted)" in lines[-1]
    assert all("  /  " in line for line in lines[:-1]) and len(lines) > 1
    assert "Traceback" not in err


def test_ctrl_c_with_json_is_still_valid_json():
    # a model per check: still going once it has found its first
    run = interrupt(command("--json", "--strategy", "z3", ENDLESS), sign="solution")
    code, out, err = run.code, run.out, run.err
    assert code == 130
    data = json.loads(out)
    assert data["status"] == "unknown" and data["complete"] is False and data["reason"] == "interrupted"
    assert data["count"] == len(data["solutions"]) > 0
    assert "Traceback" not in err


def test_a_time_limit_that_strikes_between_check_and_model_is_still_unknown():
    # Found by the fuzzer: the watchdog cancelled the context after a `sat` answer, before the model
    # was read, and the cancellation escaped as a Z3 exception.
    for index in range(40):
        verdict = smtcrypt.Puzzle(ENDLESS).search(timeout=0.005 + (index % 30) * 0.002, strategy="z3").verdict()
        assert verdict.status is smtcrypt.Status.UNKNOWN and verdict.reason == "time limit"


def test_ctrl_c_stops_a_long_solver_call_at_once():
    # One check of this puzzle runs for seconds: Python's own handler would wait for it to end.
    run = interrupt(command("--strategy", "z3", "NORTH / SOUTH = EAST / WEST"), sign="search")
    assert run.code == 130 and "search incomplete (interrupted)" in run.out.splitlines()[-1]
    assert run.seconds < 2, "the running solver call was not interrupted"
    assert "Traceback" not in run.err


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_ctrl_c_ends_the_generator_with_its_totals(jobs):
    words = str(ROOT / "examples" / "words" / "words200.txt")
    # once the run is under way, its first puzzle printed (numpy and numba load first: seconds on a busy machine)
    run = interrupt(command("generate", "--jobs", jobs, "--words", words), lines=1)
    code, out, err = run.code, run.out, run.err
    assert code == 130
    assert err.rstrip().endswith("; interrupted") and "Traceback" not in err
    assert all("  /  " in line for line in out.splitlines())


def test_request_stop_from_another_thread_ends_a_long_solver_call():
    # From Python, Ctrl-C raises KeyboardInterrupt once the running call returns; a program that
    # wants to stop at once calls request_stop, from any thread.

    search = smtcrypt.Puzzle("NORTH / SOUTH = EAST / WEST").search(strategy="z3")
    start = time.monotonic()
    stop_once_started(search)
    verdict = search.verdict()
    assert verdict.status is smtcrypt.Status.UNKNOWN and verdict.reason == "interrupted"
    assert time.monotonic() - start < 5



def test_ctrl_c_while_the_command_starts_is_no_traceback(monkeypatch, capsys):
    """Ctrl-C before a command puts its own handler in place (while numpy or numba loads) exits 130."""
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(smtcrypt.cli, "main", interrupted)
    with pytest.raises(SystemExit) as ended:
        smtcrypt.cli.run()
    assert ended.value.code == 130 and capsys.readouterr().err == "interrupted\n"
