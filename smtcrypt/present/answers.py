"""An answer's values as text lines and as the fields `--json` adds."""

from __future__ import annotations

from typing import Any

from smtcrypt.core.numerals import decimal_text
from smtcrypt.core.results import Status
from smtcrypt.present.text import plural
from smtcrypt.setters.answers import Answers, Value


def value_text(value: Value) -> str:
    """5, 3/7, (1, 23), or "undefined"."""
    if value is None:
        return "undefined"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(value_text, value)) + ")"
    if isinstance(value, int):
        return decimal_text(value)
    return f"{decimal_text(value.numerator)}/{decimal_text(value.denominator)}"


def value_json(value: Value) -> Any:
    """An int, "p/q" for a fraction, a list for a tuple; null where undefined. An int too long for
    Python's JSON writer (over 4,300 digits; a value may have up to 100,000) is its digits as a string."""
    if isinstance(value, int) and value.bit_length() >= JSON_INT_BITS:
        return decimal_text(value)
    if value is None or isinstance(value, int):
        return value
    if isinstance(value, tuple):
        return [value_json(part) for part in value]
    return f"{decimal_text(value.numerator)}/{decimal_text(value.denominator)}"


JSON_INT_BITS = 13_000  # under 3,914 digits: within what `int.__str__` (and so `json.dumps`) writes


def lines(result: Answers) -> list[str]:
    """Each value with how many solutions give it, then how the search ended."""
    shown = [value_text(answer.value) + (f"  ({plural(answer.count)})" if answer.count is not None else "")
             for answer in result.values]
    seconds = f"{result.seconds:.2f} s"
    if result.status is Status.UNIQUE:
        how = (f"unique, proved by {result.proof}" if result.proof else
               f"unique ({plural(result.values[0].count or 0)}, search complete)")
    elif result.status is Status.MULTIPLE:
        how = (f"{len(result.values)} values ({plural(sum(a.count or 0 for a in result.values))}, search complete)"
               if result.complete else f"not unique ({len(result.values)} values found)")
    elif result.status is Status.NONE:
        how = "none: the puzzle has no solution"
    else:
        how = f"unknown: search incomplete ({result.reason})"
    return shown + [f"answer {result.expression}: {how} ({seconds})"]


def to_dict(result: Answers) -> dict[str, Any]:
    """What `--json` adds: answer, answers [{value, count}], answer_status (and answer_proof, answer_reason)."""
    data: dict[str, Any] = {
        "answer": result.expression,
        "answers": [{"value": value_json(answer.value), "count": answer.count} for answer in result.values],
        "answer_status": result.status.value,
    }
    if result.proof:
        data["answer_proof"] = result.proof
    if result.status is Status.UNKNOWN and result.reason:
        data["answer_reason"] = result.reason
    return data
