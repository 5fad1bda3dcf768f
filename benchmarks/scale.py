"""Generation and batch solving at scale: time and peak memory, local processes against Dask.

    python benchmarks/scale.py                       # 100, 200, 400, 800, 1600 words, then batch
    python benchmarks/scale.py --sizes 100,200,400 --no-dask
    python benchmarks/scale.py --only batch
    python benchmarks/scale.py --only generate --sizes 200 --no-dask --confirm   # with Z3's second proof

Generation: all `A + B = C` puzzles (each proved once, as by default; `--confirm` adds Z3's
second proof of each) over the first N words of examples/words/english1600.txt (1,600 words of
3-7 letters drawn with a fixed seed from the 20,000 most frequent English words of the `wordfreq`
package), once with `--jobs 2` and once on a local Dask cluster of 2 single-threaded worker
processes (`--scheduler`); the two outputs must be the same, byte for byte. Peak memory is the largest sum of the resident sizes of the run's processes
(the command and its workers, or the command and the Dask workers), sampled every 0.1 s from
/proc. The time for 10,000 words on N workers is projected from the largest two sizes measured:
the time grows as the list to the power fitted between them, and is shared by the workers.

Batch: the 67 formulas of tests/data/notebook.txt with `--first`, in one `smtcrypt batch` call
against the same formulas solved in one Python process (`Puzzle(formula).search(limit=1)`,
imports included in both), and the corpus (benchmarks/corpus.tsv) with `--unique --timeout 60`
on `--jobs 1` and `--jobs 2`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ROOT / "examples" / "words" / "english1600.txt"
SMTCRYPT = [sys.executable, "-m", "smtcrypt"]


def proc_bytes(path: str, field: str) -> int:
    """A size in kB from a /proc file (`VmRSS:` of status, `Pss:` of smaps_rollup), in bytes; 0 for
    a process gone."""
    try:
        with open(path) as sizes:
            for line in sizes:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def rss_bytes(pid: int) -> int:
    return proc_bytes(f"/proc/{pid}/status", "VmRSS:")


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo += [int(child) for child in children.read().split()]
        except OSError:
            pass
    return found


def pss_bytes(pid: int) -> int:
    """The proportional set size: the process's private memory plus its share of pages it shares
    (the libraries processes map alike, the pages forked children share with their parent)."""
    return proc_bytes(f"/proc/{pid}/smaps_rollup", "Pss:")


class PeakMemory:
    """The largest total resident size of some processes and their descendants, sampled; and the
    largest total proportional size (shared pages counted once over the processes)."""

    def __init__(self, roots):
        self.roots, self.peak, self.peak_pss, self.running = roots, 0, 0, True
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self) -> None:
        while self.running:
            pids = {pid for root in self.roots() for pid in descendants(root)}
            self.peak = max(self.peak, sum(rss_bytes(pid) for pid in pids))
            self.peak_pss = max(self.peak_pss, sum(pss_bytes(pid) for pid in pids))
            time.sleep(0.1)

    def stop(self) -> int:
        self.running = False
        self.thread.join()
        return self.peak


def run_generate(words: Path, extra: list[str], extra_roots=lambda: []) -> dict:
    start = time.monotonic()
    process = subprocess.Popen([*SMTCRYPT, "generate", "--words", str(words), *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    memory = PeakMemory(lambda: [process.pid, *extra_roots()])
    out, err = process.communicate()
    seconds = time.monotonic() - start
    peak = memory.stop()
    if process.returncode not in (0, 1):
        raise SystemExit(f"generate failed: {err}")
    return {"seconds": round(seconds, 1), "peak_mb": round(peak / 2**20), "peak_pss_mb": round(memory.peak_pss / 2**20),
            "summary": err.strip().splitlines()[-1], "output": out}


def scale(sizes: list[int], dask: bool, confirm: bool = False) -> list[dict]:
    words = WORDS.read_text().split()
    rows = []
    cluster = None
    if dask:
        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=50)
    with tempfile.TemporaryDirectory() as scratch:
        for size in sizes:
            path = Path(scratch) / f"words{size}.txt"
            path.write_text("\n".join(words[:size]) + "\n")
            proof = ["--confirm"] if confirm else []
            local = run_generate(path, ["--jobs", "2", *proof])
            row = {"words": size, "local": {k: v for k, v in local.items() if k != "output"}}
            if cluster is not None:
                workers = lambda: [os.getpid()]  # the Dask workers are this process's children
                remote = run_generate(path, ["--scheduler", cluster.scheduler_address, *proof], workers)
                row["dask"] = {k: v for k, v in remote.items() if k != "output"}
                row["same_output"] = remote["output"] == local["output"]
            rows.append(row)
            print(json.dumps(row), flush=True)
    if cluster is not None:
        cluster.close()
    return rows


def projection(rows: list[dict], target: int = 10_000) -> list[str]:
    if len(rows) < 2:
        return []
    (n1, t1), (n2, t2) = [(row["words"], row["local"]["seconds"]) for row in rows[-2:]]
    power = math.log(t2 / t1) / math.log(n2 / n1)
    one = t2 * 2 * (target / n2) ** power  # the measured time was on 2 processes
    lines = [f"time grows as words**{power:.2f} between {n1} and {n2} words; projected for {target:,} words:"]
    for workers in (2, 8, 32, 128):
        hours = one / workers / 3600
        lines.append(f"  {workers:>4} workers: {hours:,.1f} h")
    return lines


def batch_rows() -> list[dict]:
    notebook = ROOT / "tests" / "data" / "notebook.txt"
    formulas = [line.strip() for line in notebook.read_text().splitlines() if line.strip() and not line.startswith("#")]
    loop = ("import sys, smtcrypt\nfor line in open(sys.argv[1]):\n    line = line.strip()\n"
            "    if line and not line.startswith('#'):\n        smtcrypt.Puzzle(line).search(limit=1).verdict()\n")
    rows = []
    for _ in range(3):
        start = time.monotonic()
        subprocess.run([sys.executable, "-c", loop, str(notebook)], check=True)
        single = time.monotonic() - start
        start = time.monotonic()
        done = subprocess.run([*SMTCRYPT, "batch", "--first", str(notebook)], capture_output=True, text=True)
        batch = time.monotonic() - start
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert len(answers) == len(formulas) and all(a["status"] == "found" for a in answers), done.stderr
        rows.append({"notebook_first": len(formulas), "one_process_s": round(single, 2), "batch_s": round(batch, 2),
                     "ratio": round(batch / single, 2)})
        print(json.dumps(rows[-1]), flush=True)
    corpus = [line.split("\t")[0] for line in (ROOT / "benchmarks" / "corpus.tsv").read_text().splitlines()
              if line.strip() and not line.startswith("#") and "first" not in line.split("\t")[1]]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as file:
        file.write("\n".join(corpus) + "\n")
    for jobs in (1, 2):
        start = time.monotonic()
        done = subprocess.run([*SMTCRYPT, "batch", "--unique", "--timeout", "60", "--jobs", str(jobs), file.name],
                              capture_output=True, text=True)
        seconds = time.monotonic() - start
        rows.append({"corpus_unique": len(corpus), "jobs": jobs, "seconds": round(seconds, 1),
                     "per_second": round(len(corpus) / seconds, 2), "totals": done.stderr.strip().splitlines()[-1]})
        print(json.dumps(rows[-1]), flush=True)
    os.unlink(file.name)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,200,400,800,1600", help="word counts (default 100,...,1600)")
    parser.add_argument("--no-dask", action="store_true", help="local processes only")
    parser.add_argument("--only", choices=("generate", "batch"), help="one half of the benchmark")
    parser.add_argument("--confirm", action="store_true",
                        help="generate with --confirm: Z3 proves each puzzle a second time (default: one proof)")
    args = parser.parse_args()
    if args.only != "batch":
        rows = scale([int(size) for size in args.sizes.split(",")], dask=not args.no_dask, confirm=args.confirm)
        print("\n".join(projection(rows)))
    if args.only != "generate":
        batch_rows()


if __name__ == "__main__":
    main()
