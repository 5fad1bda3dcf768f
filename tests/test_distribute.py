"""Chunks in order on processes or Dask; checkpoints that survive a kill at any moment."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from smtcrypt.setters.distribute import Checkpoint, CheckpointError, run_chunks
from smtcrypt.setters.generate import Totals, generate

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
PLANETS = (ROOT / "examples" / "words" / "planets.txt").read_text().split()
WORDS40 = (ROOT / "examples" / "words" / "words200.txt").read_text().split()[:40]


def square(chunk: int) -> int:
    return chunk * chunk


def test_results_come_in_chunk_order_on_processes():
    seen = []
    results = list(run_chunks(square, 20, jobs=2, finished=lambda done, chunks: seen.append((done, chunks))))
    assert results == [(chunk, chunk * chunk) for chunk in range(20)]
    assert seen[0] == (0, 20) and seen[-1] == (20, 20) and len(seen) == 21


def test_a_checkpoint_replays_finished_chunks_and_drops_a_cut_line(tmp_path):
    path = tmp_path / "run.ckpt"
    saved = Checkpoint(path, {"run": 1})
    for _chunk, _ in zip(range(5), run_chunks(square, 10, checkpoint=saved)):
        pass
    saved.close()
    with open(path, "ab") as file:
        file.write(b'{"chunk":7,"res')  # what a kill in the middle of a write leaves
    resumed = Checkpoint(path, {"run": 1})
    assert resumed.done() == {0, 1, 2, 3, 4}

    def only_new(chunk):
        assert chunk >= 5, "a recorded chunk was run again"
        return chunk * chunk

    assert list(run_chunks(only_new, 10, checkpoint=resumed)) == [(c, c * c) for c in range(10)]
    resumed.close()
    assert Checkpoint(path, {"run": 1}).done() == set(range(10))
    with pytest.raises(CheckpointError, match="another run"):
        Checkpoint(path, {"run": 2})


def test_a_generator_run_resumed_from_its_checkpoint_gives_the_whole_run(tmp_path):
    full_totals = Totals()
    full = [(p.formula, p.solution.mapping) for p in generate(PLANETS, confirm=False, totals=full_totals)]
    path = tmp_path / "planets.ckpt"
    part = []
    for puzzle in generate(PLANETS, confirm=False, checkpoint=path):
        part.append(puzzle.formula)
        if len(part) == 5:
            break  # stopped early: the chunks finished so far are recorded
    lines = path.read_text().splitlines()
    assert 1 < len(lines) < len(PLANETS) + 1
    totals = Totals()
    resumed = [(p.formula, p.solution.mapping) for p in generate(PLANETS, confirm=False, checkpoint=path,
                                                                 totals=totals)]
    assert resumed == full
    assert (totals.candidates, totals.filtered, totals.verdicts) == (
        full_totals.candidates, full_totals.filtered, full_totals.verdicts)
    with pytest.raises(CheckpointError):  # other options: another run
        list(generate(PLANETS, confirm=True, checkpoint=path))


def generate_command(*args):
    return [sys.executable, "-m", "smtcrypt", "generate", "--no-confirm", *args]


@pytest.mark.slow  # a killed run resumed; a worker lost mid-run is redone every run
def test_a_run_killed_in_the_middle_loses_only_unfinished_chunks(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS40))
    whole = subprocess.run(generate_command("--words", str(words)), capture_output=True, text=True, env=ENV,
                           timeout=300)
    path = tmp_path / "run.ckpt"
    killed = subprocess.Popen(generate_command("--words", str(words), "--checkpoint", str(path)),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not path.exists() or len(path.read_bytes().splitlines()) < 4):
        time.sleep(0.02)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    recorded = len(path.read_bytes().splitlines()) - 1
    assert 3 <= recorded < len(WORDS40), "the run should have been killed in the middle"
    resumed = subprocess.run(generate_command("--words", str(words), "--checkpoint", str(path)),
                             capture_output=True, text=True, env=ENV, timeout=300)
    assert resumed.stdout == whole.stdout
    assert resumed.stderr.rsplit("(", 1)[0] == whole.stderr.rsplit("(", 1)[0]  # the same totals, but the time
    assert len(path.read_text().splitlines()) == len(WORDS40) + 1


def test_words_from_stdin_and_a_path_given_as_a_word(tmp_path):
    planets = str(ROOT / "examples" / "words" / "planets.txt")
    result = subprocess.run(generate_command(planets), capture_output=True, text=True, env=ENV, timeout=60)
    assert result.returncode == 2 and f"did you mean --words {planets}?" in result.stderr
    result = subprocess.run(generate_command("words.txt"), capture_output=True, text=True, env=ENV, timeout=60)
    assert result.returncode == 2 and "looks like a file path" in result.stderr
    piped = subprocess.run(generate_command("--words", "-"), input="\n".join(PLANETS), capture_output=True,
                           text=True, env=ENV, timeout=60)
    direct = subprocess.run(generate_command("--words", planets), capture_output=True, text=True, env=ENV,
                            timeout=60)
    assert piped.returncode == 0 and piped.stdout == direct.stdout and "24 words" in piped.stderr


# --- Dask: one LocalCluster for the module -------------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed", reason='Dask is not installed: pip install ".[dask]"')
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as local, distributed.Client(local, set_as_default=False) as client:
        yield local, client


def test_a_dask_cluster_gives_exactly_the_local_output(cluster):
    local, _ = cluster
    words = PLANETS
    here, there = Totals(), Totals()
    expected = [(p.formula, p.solution.mapping) for p in generate(words, totals=here, jobs=2)]
    chunks_seen = []
    found = [(p.formula, p.solution.mapping) for p in generate(
        words, totals=there, scheduler=local.scheduler_address, progress=lambda t: chunks_seen.append(t.chunks_done))]
    assert found == expected and found
    assert (there.candidates, there.filtered, there.verdicts) == (here.candidates, here.filtered, here.verdicts)
    assert chunks_seen[-1] == len(words) and chunks_seen == sorted(chunks_seen)


def test_dask_batch_in_input_order(cluster):
    from smtcrypt.cli.batch import batch, read_puzzles

    local, _ = cluster
    puzzles = read_puzzles(["SEND + MORE = MONEY", "A + + B", "ODD * ODD = FREAKY", "TWO + TWO = FOUR"])
    answers = list(batch(puzzles, scheduler=local.scheduler_address, decide=True))
    assert [a["line"] for a in answers] == [1, 2, 3, 4]
    assert [a.get("status", "error" if "error" in a else None) for a in answers] == [
        "unique", "error", "multiple", "multiple"]


def slow_square(chunk: int) -> int:
    time.sleep(0.2)
    return chunk * chunk


def test_a_worker_lost_mid_run_has_its_chunks_redone(cluster):
    local, client = cluster
    killed = []
    pids = client.run(os.getpid)

    def finished(done, chunks):
        if done == 2 and not killed:  # one worker dies while both hold chunks
            pid = pids[sorted(pids)[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    results = list(run_chunks(slow_square, 16, scheduler=local.scheduler_address, finished=finished))
    assert killed and results == [(chunk, chunk * chunk) for chunk in range(16)]
    client.wait_for_workers(2, timeout=60)  # the nanny starts a new worker for the next tests


def test_ctrl_c_cancels_the_clusters_work_and_keeps_what_was_printed(cluster, tmp_path):
    local, client = cluster
    words = tmp_path / "words.txt"
    # 100 words: work enough (about 20 s) that the run is still going when the signal arrives, even on a
    # loaded machine (40 words take the generator 1.5 s now)
    words.write_text("\n".join((ROOT / "examples" / "words" / "words200.txt").read_text().split()[:100]))
    run = subprocess.Popen(generate_command("--words", str(words), "--scheduler", local.scheduler_address),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = run.stdout.readline()  # the first chunk is in: the run is under way
    run.send_signal(signal.SIGINT)
    rest, err = run.communicate(timeout=60)
    assert run.returncode == 130 and err.rstrip().endswith("; interrupted")
    assert " + " in first and "/" in first
    deadline = time.monotonic() + 20
    while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0
