"""A request's query string read as a puzzle, its rules and a way of searching, or refused with a 4xx.

The names are the API's keywords (`distinct`, `allow_leading_zeros`, `nonzero_single_letters`, `base`,
`digits`, `domain`, `assign`) and the command line's modes (`mode=all|first|count|unique`, `limit`), so that a URL
says what `smtcrypt --json` says. Nothing here imports the web framework: the parsing is plain
data in, plain data out, and is tested on its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.core.parse import MAX_SOURCE_LENGTH
from smtcrypt.engine.portfolio import STRATEGIES
from smtcrypt.errors import FormulaError
from smtcrypt.notations import NOTATIONS, shared_options  # every notation, read from the table (layout too)
from smtcrypt.notations.options import FALSE as BOOLEAN_FALSE
from smtcrypt.notations.options import TRUE as BOOLEAN_TRUE
from smtcrypt.notations.options import OptionSpec, specs
from smtcrypt.search import DEFAULT_TIMEOUT
from smtcrypt.teach.worksheet import PAPERS

MODES = ("all", "first", "count", "unique")
MAX_FORMULA_CHARS = MAX_SOURCE_LENGTH  # the parser's own limit: over it, 413 before any parsing
MAX_JSON_DEPTH = 20  # a move's body is two levels deep; Python's JSON reader would recurse ~1,000 levels
SURROGATE = re.compile("[\ud800-\udfff]")  # half of a UTF-16 pair: no text, and no UTF-8 can carry it back
RULES = ("distinct", "allow_leading_zeros", "nonzero_single_letters", "base", "digits", "domain", "assign")


def own_specs(syntax: str) -> list[OptionSpec]:
    """Notation `syntax`'s own options, from its options record (`smtcrypt.notations.options`), but those
    the shared rules above carry (Cryptator's base, leading zeros and assignments)."""
    return [spec for spec in specs(NOTATIONS[syntax].options) if spec.name not in RULES]


def notation_options() -> dict[str, OptionSpec]:
    """Every notation's own options by name (read from the table each time: a notation added is known)."""
    return {spec.name: spec for syntax in NOTATIONS for spec in own_specs(syntax)}


REPEATABLE = {"formula", "assign", "domain"}  # several constraints; one letter each (or comma-separated)
# besides every notation's own options (`notation_options`)
KNOWN = ("formula", "mode", "limit", "timeout", "strategy", "stats", *RULES, "syntax", "maximize", "minimize")
CHECK_OPTIONS = ("formula", *RULES, "syntax")  # a check's and an explanation's: the puzzle and its rules
WORKSHEET_OPTIONS = ("formula", "title", "paper", "timeout")
MAX_WORKSHEET_PUZZLES = 60
TRUE, FALSE = set(BOOLEAN_TRUE), {*BOOLEAN_FALSE, ""}  # the records' booleans; an empty value (a form's) is false


class BadQuery(Exception):
    """A request the server refuses: the HTTP status and the JSON body to answer with."""

    def __init__(self, status: int, error: str, **details: Any):
        super().__init__(error)
        self.status = status
        self.body = {"error": error, **details}


@dataclass
class Query:
    """What one request asks: the formula, the rules (keywords of `Puzzle`) and how to search."""

    formula: str
    rules: dict[str, Any] = field(default_factory=dict)
    mode: str = "all"
    limit: int | None = None
    timeout: float = DEFAULT_TIMEOUT
    strategy: str = "auto"
    stats: bool = False
    syntax: str = "smtcrypt"
    options: dict[str, Any] = field(default_factory=dict)  # the notation's own (its options record's fields)
    objective: tuple[str, str] | None = None  # maximize= or minimize=: (sense, expression), as the command line's

    @property
    def search_options(self) -> dict[str, Any]:
        """`Puzzle.search` keywords, exactly as the command line chooses them for `--json`."""
        limit = 1 if self.mode == "first" else self.limit
        return {"limit": limit, "timeout": self.timeout, "decide": self.mode == "unique", "strategy": self.strategy}


def formula_error(error: FormulaError) -> BadQuery:
    """A formula the parser or checker refused: 400 with the message and where it points."""
    return BadQuery(400, error.message, line=error.line, column=error.column, length=error.length,
                    snippet=error.snippet)


def puzzle_of(query: Query) -> Puzzle:
    """The request's puzzle, read through the one door of every notation; `BadQuery` for a bad formula."""
    try:
        return Puzzle.read(query.formula, query.syntax, **shared_options(query.syntax, query.rules), **query.options)
    except FormulaError as error:
        raise formula_error(error) from None


def read_json(raw: bytes) -> Any:
    """A request body as JSON data; `BadQuery` (400) for what is not UTF-8 JSON text.

    Python's reader takes lone surrogates (`"\\ud800"`) that no response could then encode, and
    recurses once per level of nesting: both are refused here, by name, before any work.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadQuery(400, f"the body is not UTF-8 text (byte {error.start})") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise BadQuery(400, f"the JSON is nested more than {MAX_JSON_DEPTH} levels deep") from None
    except ValueError as error:
        raise BadQuery(400, f"the body must be JSON: {{\"formula\": ..., \"decisions\": [...], \"move\": ...}} "
                            f"({error})") from None
    _check_json(data)
    return data


def _check_json(data: Any) -> None:
    """Refuse JSON deeper than MAX_JSON_DEPTH, or with a lone surrogate in any text (walked without recursion)."""
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                raise BadQuery(400, "the JSON holds a lone surrogate (\\ud800-\\udfff), which is no character")
        elif isinstance(item, (list, dict)):
            if depth > MAX_JSON_DEPTH:
                raise BadQuery(400, f"the JSON is nested more than {MAX_JSON_DEPTH} levels deep")
            items = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((inner, depth + 1) for inner in items)


class Values:
    """A request's options by name, each read once as the type it must have."""

    def __init__(self, pairs: Iterable[tuple[str, str]], known: tuple[str, ...]):
        own = notation_options()
        known += tuple(own)
        repeatable = REPEATABLE | {name for name, spec in own.items() if spec.repeatable}
        self.values: dict[str, list[str]] = {}
        for name, value in pairs:
            if SURROGATE.search(name) or SURROGATE.search(value):
                raise BadQuery(400, f"option {name!r} holds a lone surrogate, which is no character", option=name)
            if name not in known:
                raise BadQuery(400, f"unknown option {name!r} (known: {', '.join(known)})", option=name)
            if name in self.values and name not in repeatable:
                raise BadQuery(400, f"option {name!r} given more than once", option=name)
            self.values.setdefault(name, []).append(value)

    def one(self, name: str, default: str | None = None) -> str | None:
        return self.values[name][0] if name in self.values else default

    def choice(self, name: str, choices: Iterable[str], default: str) -> str:
        text = self.one(name, default)
        allowed = tuple(choices)
        if text not in allowed:
            raise BadQuery(400, f"{name} must be one of {', '.join(allowed)}, not {text!r}", option=name)
        return text

    def flag(self, name: str, default: bool) -> bool:
        text = self.one(name)
        if text is None:
            return default
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        raise BadQuery(400, f"option {name!r} must be true or false, not {text!r}", option=name)

    def number(self, name: str, kind: type, low: float) -> Any:
        text = self.one(name)
        if text is None:
            return None
        try:
            value = kind(text)
        except ValueError:
            raise BadQuery(400, f"option {name!r} must be a number, not {text!r}", option=name) from None
        if not value >= low:  # also refuses nan
            raise BadQuery(400, f"option {name!r} must be at least {low}, not {text!r}", option=name)
        return value

    def letter_items(self, name: str) -> list[str]:
        """`assign=X=7 Y=3` or repeated; `assign` may also use commas (`X=7,Y=3`), `domain` not (`A=1,3,5`)."""
        texts = self.values.get(name, [])
        if name == "assign":
            texts = [text.replace(",", " ") for text in texts]
        return [item for text in texts for item in text.split()]

    def own(self, syntax: str) -> dict[str, Any]:
        """The options of notation `syntax`'s own the request gives, each read as its record reads text;
        another notation's option is refused, naming the notation it belongs to."""
        mine = {spec.name: spec for spec in own_specs(syntax)}
        every = notation_options()
        for name in self.values:
            if name in every and name not in mine:
                owner = next(other for other in NOTATIONS if name in {spec.name for spec in own_specs(other)})
                raise BadQuery(400, f"option {name!r} is syntax={owner}'s, not syntax={syntax}'s", option=name)
        options = {}
        for name, spec in mine.items():
            if name in self.values:
                try:
                    read = [spec.text(text) for text in self.values[name]]
                except ValueError as error:
                    raise BadQuery(400, f"option {name!r}: {error}", option=name) from None
                options[name] = tuple(read) if spec.repeatable else read[0]
        return options

    def formula(self) -> str:
        """The constraints, one a line; 400 without one, 413 over the parser's limit."""
        formula = "\n".join(self.values.get("formula", []))
        if not formula.strip():
            raise BadQuery(400, "no formula: give one as ?formula=SEND+%2B+MORE+%3D+MONEY", option="formula")
        if len(formula) > MAX_FORMULA_CHARS:
            raise BadQuery(413, f"formula of {len(formula):,} characters: the limit is {MAX_FORMULA_CHARS:,}",
                           option="formula")
        return formula

    def rules(self) -> dict[str, Any]:
        """The `Puzzle` keywords the request gives (the checker judges their values)."""
        rules: dict[str, Any] = {"distinct": self.flag("distinct", True),
                                 "allow_leading_zeros": self.flag("allow_leading_zeros", False)}
        if self.flag("nonzero_single_letters", False):
            rules["nonzero_single_letters"] = True
        base = self.number("base", int, 0)
        if base is not None:
            rules["base"] = base
        if self.one("digits"):
            rules["digits"] = self.one("digits")
        if self.letter_items("domain"):
            rules["domains"] = self.letter_items("domain")
        if self.letter_items("assign"):
            rules["assign"] = self.letter_items("assign")
        return rules


def read_query(pairs: Iterable[tuple[str, str]], *, max_timeout: float, known: Iterable[str] = KNOWN) -> Query:
    """The request's (name, value) pairs as a `Query`; `BadQuery` for anything unknown, repeated or malformed.

    `timeout` may shorten the server's time limit per request, never lengthen it.
    """
    values = Values(pairs, tuple(known))
    formula = values.formula()
    mode = values.choice("mode", MODES, "all")
    limit = values.number("limit", int, 1)
    if limit is not None and mode != "all":
        raise BadQuery(400, f"limit goes with mode=all, not mode={mode}", option="limit")
    strategy = values.choice("strategy", STRATEGIES, "auto")
    timeout = values.number("timeout", float, 0.001)
    given = [(sense, values.one(sense)) for sense in ("maximize", "minimize") if values.one(sense)]
    if len(given) > 1:
        raise BadQuery(400, "give maximize or minimize, not both", option="minimize")
    if given and (mode in ("first", "count") or limit is not None):
        raise BadQuery(400, f"{given[0][0]} finds the best value (with mode=unique, whether one solution attains "
                            f"it); it takes no mode={mode} or limit", option=given[0][0])
    syntax = values.choice("syntax", tuple(NOTATIONS), "smtcrypt")
    return Query(formula, values.rules(), mode, limit, max_timeout if timeout is None else min(timeout, max_timeout),
                 strategy, values.flag("stats", False), syntax, values.own(syntax),
                 (given[0][0], str(given[0][1])) if given else None)


def worksheet_request(pairs: list[tuple[str, str]]) -> tuple[list[str], str, str]:
    """The formulas, paper and title a worksheet request asks for; `BadQuery` where it cannot be made."""
    values = dict(pairs)
    unknown = sorted({name for name, _ in pairs} - set(WORKSHEET_OPTIONS))
    formulas = [value for name, value in pairs if name == "formula" and value.strip()]
    paper = values.get("paper", "a4").lower()
    if unknown:
        raise BadQuery(400, f"unknown option {unknown[0]!r} (known: {', '.join(WORKSHEET_OPTIONS)})")
    if not formulas:
        raise BadQuery(400, "no puzzles: give them as formula=...&formula=...")
    if len(formulas) > MAX_WORKSHEET_PUZZLES:
        raise BadQuery(413, f"{len(formulas)} puzzles: at most {MAX_WORKSHEET_PUZZLES} on a worksheet")
    if paper not in PAPERS:
        raise BadQuery(400, f"paper must be one of {', '.join(PAPERS)}")
    return formulas, paper, values.get("title", "Cryptarithms")
