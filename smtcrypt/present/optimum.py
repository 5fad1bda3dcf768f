"""An optimum as text lines and as the fields `--json` adds (`--maximize`, `--minimize`)."""

from __future__ import annotations

from typing import Any

from smtcrypt.core.results import Status
from smtcrypt.present.answers import value_json, value_text
from smtcrypt.setters.optimum import Optimum

WORDS = {"maximize": "maximum", "minimize": "minimum"}
ATTAINED = {Status.UNIQUE: "attained by one solution only, proved",
            Status.MULTIPLE: "attained by more than one solution",
            Status.UNKNOWN: "whether another solution attains it is unknown"}


def lines(result: Optimum) -> list[str]:
    """How the optimisation ended, after its solutions' lines."""
    seconds, searches = f"{result.seconds:.2f} s", f"{result.searches} search{'es' if result.searches != 1 else ''}"
    word = WORDS[result.sense]
    if result.status is Status.OPTIMAL:
        proof = f"proved by {result.proof.value}" if result.proof else "proved"
        line = f"{word} {result.objective} = {value_text(result.value)} (optimal, {proof}; {searches}, {seconds})"
        return [line] if result.attained is None else [line, f"the {word} is {ATTAINED[result.attained]}"]
    if result.status is Status.NONE:
        return [f"no {word}: the puzzle has no solution ({searches}, {seconds})"]
    if result.status is Status.INFINITE:
        return [f"no {word}: {result.reason}, proved ({searches}, {seconds})"]
    if result.value is None:
        return [f"{word} {result.objective} unknown: no solution found; search incomplete ({result.reason}) "
                f"({searches}, {seconds})"]
    relation = "at least" if result.sense == "maximize" else "at most"
    return [f"{word} {result.objective} {relation} {value_text(result.value)} (the best found: not proved optimal, "
            f"search incomplete ({result.reason}); {searches}, {seconds})"]


def to_dict(result: Optimum) -> dict[str, Any]:
    """What `--json` adds: objective, sense, optimum (null unless proved), bound (the best found, where
    the search ended first), searches, and with --unique, attained (unique, multiple or unknown). An
    objective without an optimum (status infinite) says why in the verdict's `reason`."""
    proved = result.status is Status.OPTIMAL
    data: dict[str, Any] = {"objective": result.objective, "sense": result.sense,
                            "optimum": value_json(result.value) if proved else None, "searches": result.searches}
    if result.status is Status.UNKNOWN and result.value is not None:
        data["bound"] = value_json(result.value)
    if result.attained is not None:
        data["attained"] = result.attained.value
    return data
