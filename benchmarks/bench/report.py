"""Reporting: the table, per-method totals, medians of time ratios, the speed target, JSON and the plot."""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import smtcrypt

from . import ROOT
from .results import Puzzle, Result

NOTEBOOK_REFERENCE_SECONDS = 51.7  # Norvig's notebook: first solutions of its 67 formulas, brute force
SHORT = {"smtcrypt": "smtcrypt", "notebook": "notebook", "bruteforce": "brute", "cpsat": "cpsat"}
# (summary key, column heading, numerator method, denominator method)
RATIOS = (("smtcrypt/cpsat", "smt/cp", "smtcrypt", "cpsat"),
          ("bruteforce/smtcrypt", "brute/smt", "bruteforce", "smtcrypt"),
          ("smtcrypt/notebook", "smt/nb", "smtcrypt", "notebook"))
TARGET_FLOOR = 0.25  # seconds: the speed target is smtcrypt <= max(TARGET_FLOOR, TARGET_FACTOR x notebook)
TARGET_FACTOR = 2.0
TARGET_RULE = f"smtcrypt <= max({TARGET_FLOOR:g} s, {TARGET_FACTOR:g} x notebook)"


def show_count(result: Result | None, mode: str) -> str:
    if result is None:
        return ""
    if result.status == "ok":
        return ("1+" if result.count else "0") if mode == "first" else str(result.count)
    if result.status == "skip":
        return "-"
    if result.status == "error":
        return "ERROR"
    return f"T/O({result.count or 0})" if result.status == "timeout" else f"?({result.count or 0})"


def show_ms(result: Result | None) -> str:
    if result is None or result.seconds is None:
        return "-"
    text = f"{result.seconds * 1000:.0f}" if result.seconds >= 0.1 else f"{result.seconds * 1000:.1f}"
    return (">" + text) if result.status in ("timeout", "unknown") else text


def ratio(top: Result | None, bottom: Result | None) -> tuple[float | None, str]:
    """top/bottom of times; a lower or upper bound (marked > or <) when one of them did not finish."""
    if top is None or bottom is None or top.seconds is None or bottom.seconds is None:
        return None, "-"
    if top.status in ("skip", "error") or bottom.status in ("skip", "error"):
        return None, "-"
    value = top.seconds / max(bottom.seconds, 1e-9)
    if top.finished and bottom.finished:
        return value, f"{value:.3g}"
    if not top.finished and not bottom.finished:
        return None, "?"
    return None, (">" if not top.finished else "<") + f"{value:.3g}"


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def machine_info() -> dict:
    info = {"platform": platform.platform(), "machine": platform.machine(), "cpu_count": os.cpu_count(),
            "python": sys.version.split()[0], "smtcrypt": getattr(smtcrypt, "__version__", "?")}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        import z3
        info["z3"] = z3.get_version_string()
    except Exception:
        info["z3"] = None
    try:
        import ortools
        info["ortools"] = ortools.__version__
    except Exception:
        info["ortools"] = None
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "smtcrypt", "grammar"],
                               capture_output=True, text=True, timeout=10)
        if commit.returncode == 0:
            info["git"] = commit.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return info


class Table:
    """The table's layout for one run: the methods, their shown names and the ratio columns."""

    def __init__(self, methods: list[str], labels: dict[str, str]):
        self.methods = methods
        self.names = {m: labels.get(m, SHORT[m]) for m in methods}  # column headings
        self.full = {m: labels.get(m, m) for m in methods}  # in the summary
        self.widths = {m: max(9, len(self.names[m])) for m in methods}
        self.ratios = [(heading, top, bottom) for _, heading, top, bottom in RATIOS
                       if top in methods and bottom in methods]

    def header(self) -> str:
        names = " ".join(f"{self.names[m]:>{self.widths[m]}}" for m in self.methods)
        span = sum(self.widths.values()) + len(self.methods) - 1
        ratios = " ".join(f"{heading:>9}" for heading, _, _ in self.ratios)
        return f"{'#':>3} {'formula':44} {'L':>2}  | {names} | {names} | {ratios}\n" \
               f"{'':3} {'':44} {'':2}  | {'solutions':^{span}} | {'ms':^{span}} |"

    def row(self, index: int, puzzle: Puzzle) -> str:
        r = puzzle.results
        counts = " ".join(f"{show_count(r.get(m), puzzle.mode):>{self.widths[m]}}" for m in self.methods)
        times = " ".join(f"{show_ms(r.get(m)):>{self.widths[m]}}" for m in self.methods)
        ratios = " ".join(f"{ratio(r.get(top), r.get(bottom))[1]:>9}" for _, top, bottom in self.ratios)
        mark = "*" if puzzle.mode == "first" else " "
        line = f"{index:3} {clip(puzzle.formula, 44):44} {puzzle.letters or 0:2}{mark} | {counts} | {times} | {ratios}"
        if puzzle.disagreement:
            line += "   <-- DISAGREE"
        elif puzzle.remark:
            line += f"   ({puzzle.remark})"
        return line

    def print_row(self, index: int, puzzle: Puzzle) -> None:
        print(self.row(index, puzzle), flush=True)
        for method in self.methods:
            result = puzzle.results.get(method)
            if result is not None and result.status == "error":
                print(f"      {self.full[method]} ERROR: {result.note}", flush=True)


def ratio_stats(puzzles: list[Puzzle], top: str, bottom: str) -> dict:
    values = [v for p in puzzles for v in [ratio(p.results.get(top), p.results.get(bottom))[0]] if v is not None]
    return {"puzzles": len(values), "median": statistics.median(values) if values else None,
            "geometric_mean": math.exp(statistics.fmean(math.log(max(v, 1e-12)) for v in values))
            if values else None,
            "min": min(values) if values else None, "max": max(values) if values else None}


def target(puzzles: list[Puzzle]) -> dict:
    """The speed target on these puzzles: smtcrypt <= max(0.25 s, 2 x notebook), both in this run.

    met: smtcrypt finished within it; missed: smtcrypt took longer (or ran out of time beyond it);
    undecided: the notebook ran out of time and smtcrypt finished after twice that time.
    Puzzles where either was skipped or crashed are not judged.
    """
    met, missed, undecided, worst = 0, [], 0, None
    for p in puzzles:
        smt, nb = p.results.get("smtcrypt"), p.results.get("notebook")
        if smt is None or nb is None or smt.seconds is None or nb.seconds is None:
            continue
        if smt.status in ("skip", "error") or nb.status in ("skip", "error"):
            continue
        bound = max(TARGET_FLOOR, TARGET_FACTOR * nb.seconds)
        if smt.finished and smt.seconds <= bound:
            met += 1
        elif nb.finished or not smt.finished:
            missed.append(p.formula)
        else:
            undecided += 1
        value = smt.seconds / max(nb.seconds, 1e-9)
        if worst is None or value > worst[0]:
            worst = (value, p.formula, smt.finished and nb.finished)
    return {"rule": TARGET_RULE, "judged": met + len(missed) + undecided, "met": met, "missed": missed,
            "undecided": undecided, "worst_ratio": worst[0] if worst else None,
            "worst_formula": worst[1] if worst else None, "worst_is_exact": worst[2] if worst else None}


def summarise(puzzles: list[Puzzle], methods: list[str], first_mode: bool) -> dict:
    summary: dict = {"methods": {}}
    for method in methods:
        results = [p.results[method] for p in puzzles if method in p.results]
        done = [r for r in results if r.finished]
        summary["methods"][method] = {
            "finished": len(done),
            "timeouts": sum(r.status in ("timeout", "unknown") for r in results),
            "skipped": sum(r.status == "skip" for r in results),
            "errors": sum(r.status == "error" for r in results),
            "total_seconds_finished": sum(r.seconds for r in done),
            "median_ms_finished": 1000 * statistics.median(r.seconds for r in done) if done else None,
        }
    common = [p for p in puzzles if all(p.results[m].finished for m in methods if m in p.results)]
    summary["common_puzzles"] = len(common)
    summary["common_total_seconds"] = {m: sum(p.results[m].seconds for p in common) for m in methods}
    for name, _, top, bottom in RATIOS:
        if top in methods and bottom in methods:
            summary[name] = ratio_stats(puzzles, top, bottom)
    if "smtcrypt" in methods and "notebook" in methods:
        general = [p for p in puzzles if "general" in p.tags]
        summary["target"] = {"general": target(general)} if general else {}
        if len(general) < len(puzzles):
            summary["target"]["all"] = target(puzzles)
    if first_mode and "smtcrypt" in methods:
        summary["first_solution_total_seconds"] = {
            m: sum(p.results[m].seconds or 0 for p in puzzles if m in p.results and p.results[m].seconds)
            for m in methods}
    return summary


def print_summary(summary: dict, table: Table, puzzles: list[Puzzle], first_mode: bool) -> None:
    methods, names = table.methods, table.full
    width = max([12] + [len(names[m]) for m in methods])
    print()
    print(f"{'method':{width}} {'finished':>8} {'timeout':>8} {'skipped':>8} {'errors':>7} {'total s (finished)':>19}"
          f" {'median ms':>10}")
    for method in methods:
        s = summary["methods"][method]
        median = f"{s['median_ms_finished']:10.1f}" if s["median_ms_finished"] is not None else f"{'-':>10}"
        print(f"{names[method]:{width}} {s['finished']:8} {s['timeouts']:8} {s['skipped']:8} {s['errors']:7} "
              f"{s['total_seconds_finished']:19.2f} {median}")
    common = ", ".join(f"{names[m]} {summary['common_total_seconds'][m]:.2f} s" for m in methods)
    print(f"on the {summary['common_puzzles']} puzzles every method finished: {common}")
    for name, _, top, bottom in RATIOS:
        if name in summary and summary[name]["median"] is not None:
            s = summary[name]
            shown = f"{names[top]}/{names[bottom]}"
            print(f"ratio {shown:20} median {s['median']:.3g}  geometric mean {s['geometric_mean']:.3g}  "
                  f"range {s['min']:.3g}..{s['max']:.3g}  over {s['puzzles']} puzzles (both finished)")
    for scope, t in summary.get("target", {}).items():
        if not t["judged"]:
            continue
        what = "general puzzles" if scope == "general" else "puzzles of this run"
        undecided = f", {t['undecided']} undecided (notebook out of time)" if t["undecided"] else ""
        worst = f"{t['worst_ratio']:.3g}" + ("" if t["worst_is_exact"] else " (a bound)")
        rule = TARGET_RULE.replace("smtcrypt", names["smtcrypt"], 1)
        print(f"target {rule}: {t['met']} of {t['judged']} {what} meet it{undecided}; "
              f"worst {names['smtcrypt']}/notebook {worst} on {t['worst_formula']!r}")
        for formula in t["missed"]:
            print(f"  missed: {formula!r}")
    if first_mode:
        totals = summary.get("first_solution_total_seconds", {})
        for method in methods:
            statuses = [p.results[method].status for p in puzzles if method in p.results]
            cut, skipped = sum(s in ("timeout", "unknown") for s in statuses), statuses.count("skip")
            notes = ([f"{cut} stopped by the time limit, counted at it"] if cut else []) + \
                ([f"{skipped} not modelled, not counted"] if skipped else [])
            note = f" ({'; '.join(notes)})" if notes else ""
            print(f"first solutions, {names[method]}: total {totals.get(method, 0):.2f} s{note}")
        print(f"(reference: Norvig's notebook, brute force, {NOTEBOOK_REFERENCE_SECONDS} s for its 67 formulas)")


def plot(puzzles: list[Puzzle], table: Table, path: Path, title: str) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    style = {"smtcrypt": ("o", "tab:blue"), "notebook": ("D", "tab:red"), "bruteforce": ("s", "tab:orange"),
             "cpsat": ("^", "tab:green")}
    fig, ax = plt.subplots(figsize=(max(8, 0.22 * len(puzzles) + 2), 6))
    for method in table.methods:
        marker, colour = style[method]
        name = table.full[method]
        done = [(i, p.results[method].seconds * 1000) for i, p in enumerate(puzzles)
                if method in p.results and p.results[method].finished]
        cut = [(i, p.results[method].seconds * 1000) for i, p in enumerate(puzzles)
               if method in p.results and p.results[method].status in ("timeout", "unknown")]
        if done:
            ax.scatter(*zip(*done), marker=marker, color=colour, label=name, s=22)
        if cut:
            ax.scatter(*zip(*cut), marker=marker, facecolors="none", edgecolors=colour, s=44,
                       label=f"{name} (time limit)")
    ax.set_yscale("log")
    ax.set_ylabel("time, ms (log)")
    ax.set_xticks(range(len(puzzles)))
    ax.set_xticklabels([clip(p.formula, 30) + (" *" if p.mode == "first" else "") for p in puzzles],
                       rotation=90, fontsize=6)
    ax.grid(True, which="both", axis="y", alpha=0.3)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def save(out: Path, record: dict, puzzles: list[Puzzle], table: Table, info: dict) -> None:
    """results-<timestamp>.json and latest.json, and the plot (results-<timestamp>.png, latest.png)."""
    out.mkdir(parents=True, exist_ok=True)
    stamp = record["timestamp"]
    record = dict(record)
    record["puzzles"] = [{"formula": p.formula, "tags": p.tags, "mode": p.mode, "letters": p.letters,
                          "expected": p.expected, "remark": p.remark,
                          "results": {m: asdict(r) for m, r in p.results.items()},
                          "ratios": {name: ratio(p.results.get(top), p.results.get(bottom))[0]
                                     for name, _, top, bottom in RATIOS
                                     if top in p.results and bottom in p.results}} for p in puzzles]
    text = json.dumps(record, indent=1)
    (out / f"results-{stamp}.json").write_text(text, encoding="utf-8")
    (out / "latest.json").write_text(text, encoding="utf-8")
    title = f"smtcrypt benchmark {stamp} ({record['mode']} solutions), {info.get('cpu', info['machine'])}"
    if plot(puzzles, table, out / f"results-{stamp}.png", title):
        (out / "latest.png").write_bytes((out / f"results-{stamp}.png").read_bytes())
        print(f"wrote {out}/results-{stamp}.json, latest.json and results-{stamp}.png")
    else:
        print(f"wrote {out}/results-{stamp}.json and latest.json (no plot: matplotlib missing)")
