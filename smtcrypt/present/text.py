"""Solutions and verdicts as text lines for people (the same as plain data for JSON: `present.data`)."""

from __future__ import annotations

from smtcrypt.core.results import Solution, Status, Verdict
from smtcrypt.core.statistics import Statistics


def solution_line(solution: Solution) -> str:
    """`677 * 677 = 458329  /  A=3 D=7 ...`, on one line even for a formula of several lines."""
    return str(solution).replace("\n", "; ")


def plural(count: int, noun: str = "solution") -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def summary_line(verdict: Verdict) -> str:
    """How the search ended, e.g. `2 solutions (search complete, 0.21 s)`."""
    found, seconds = plural(verdict.count), f"{verdict.seconds:.2f} s"
    if verdict.status is Status.UNKNOWN:
        return f"{found} found; search incomplete ({verdict.reason}), so more may exist ({seconds})"
    if verdict.status is Status.INFINITE:
        return f"{found} shown; {verdict.reason} ({seconds})"
    if verdict.status is Status.FOUND:
        return f"{found} (stopped as asked; more may exist, {seconds})"
    if verdict.status is Status.MULTIPLE and not verdict.complete:
        return f"{found} (not unique: stopped after two, {seconds})"
    if verdict.status is Status.UNIQUE:
        return f"{found} (unique: search complete, {seconds})"
    if verdict.status is Status.OPTIMAL:
        return f"{found} attaining the optimum (proved, {seconds})"
    return f"{found} (search complete, {seconds})"


def stats_lines(verdict: Verdict) -> list[str]:
    """`--stats` as text: what a brute force would try, what Z3 did, and where the time went."""
    stats = verdict.stats or Statistics()
    space = stats.search_space
    shown = ("infinite (integer unknowns)" if space is None else
             f"{space:,}" if stats.search_space_exact else f"at most {space:,}")
    z3_counters = stats.z3
    work = ", ".join(f"{key} {z3_counters[key]:,}" for key in sorted(z3_counters)
                     if key.endswith("conflicts") or key.endswith("decisions")) or "none reported"
    seconds = ", ".join(f"{stage} {value:.3f}" for stage, value in stats.seconds.items())
    strategy = stats.strategy or "none"
    proof = verdict.proof.value if verdict.proof is not None else None
    how = f"strategy: {strategy}" + (f"; complete by {proof}" if proof else "")
    if stats.candidates_tried is not None:
        how += f" ({stats.candidates_tried:,} of {stats.candidates or 0:,} candidates evaluated)"
    if stats.cubes is not None:
        how += f" ({stats.cubes:,} cubes, {stats.cube_checks or 0:,} checks to shrink them)"
    if stats.sum_kernel == "compiled":
        how += " (decided by the compiled sum kernel)"
    elif stats.search_nodes is not None:
        how += f" ({stats.search_nodes:,} nodes of the linear search)"
    lines = [how, f"search space: {shown} candidate assignments; models found: {stats.models:,}"]
    if stats.solver_checks or z3_counters:
        lines.append(f"solver: {stats.solver_checks or 0} checks; {work}")
    return lines + [f"seconds: {seconds}"]
