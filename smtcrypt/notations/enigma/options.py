"""enigma.py's options read as it reads them (`--invalid=D,SYMS`, `-aS,D`, `--digits=0-8`, ...) and
turned into our rules over our capital letters; see command.py for the rules."""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from smtcrypt.core.numerals import MAX_NUMBER_DIGITS, too_many_digits
from smtcrypt.core.rules import MAX_BASE, MIN_BASE, Rules, make_rules
from smtcrypt.errors import FormulaError

LETTERS = string.ascii_uppercase  # ours
VALUE_OPTIONS = {"symbols", "distinct", "invalid", "assign", "digits", "base", "answer", "extra", "template",
                 "solution"}
IGNORED_OPTIONS = {"verbose", "header", "denest", "reorder", "opt", "quiet", "warn"}
REFUSED_OPTIONS = {"code": "runs Python code", "env": "names Python values", "output": "runs Python code",
                   "decl": "runs Python code", "accumulate": "is not supported", "literal": "is not supported",
                   "sane": "is not supported", "macro": "is not supported"}
# enigma.py's one-letter spellings (its usage text: -s<str>, -a<s>,<d>, -i<ds>,<ss>, ...)
SHORT_OPTIONS = {"i": "invalid", "s": "symbols", "b": "base", "a": "assign", "d": "digits", "D": "distinct",
                 "A": "answer", "E": "extra", "v": "verbose", "r": "reorder", "T": "template", "S": "solution",
                 "H": "header", "X": "denest", "W": "warn", "C": "code", "O": "output", "G": "decl",
                 "M": "accumulate", "L": "literal", "Y": "sane"}
FLAG_OPTIONS = {"first"}


@dataclass
class Options:
    symbols: str | None = None
    distinct: tuple[str, str] | None = None  # (value, the argument it came from)
    invalid: list[tuple[str, str]] = field(default_factory=list)
    assign: list[tuple[str, str]] = field(default_factory=list)
    digits: tuple[str, str] | None = None
    base: tuple[str, str] | None = None
    answer: tuple[str, str] | None = None
    extra: list[tuple[str, str]] = field(default_factory=list)
    template: tuple[str, str] | None = None  # how each solution is printed: this text, then it filled in
    solution: tuple[str, str] | None = None  # the symbols whose digits each solution lists
    first: bool = False



def split_options(argv: Sequence[str]) -> tuple[Options, list[str]]:
    options, arguments = Options(), []
    items = list(argv)
    index = 0
    while index < len(items):
        argument = items[index]
        index += 1
        if argument == "-1":  # enigma.py's short --first
            options.first = True
            continue
        if not (argument.startswith("--") or re.match(r"-[a-zA-Z]", argument)):
            arguments.append(argument)  # an expression, a row, or an empty argument
            continue
        if argument.startswith("--"):
            name, has_value, value = argument[2:].partition("=")
        else:
            short = argument[1:2]
            if short not in SHORT_OPTIONS:
                raise FormulaError(f"unknown option -{short}", argument, 0, 2)
            name, value = SHORT_OPTIONS[short], argument[2:]
            has_value = "=" if value else ""
        if name in IGNORED_OPTIONS:
            continue
        if name in REFUSED_OPTIONS:
            raise FormulaError(f"--{name} {REFUSED_OPTIONS[name]}: smtcrypt does not support it", argument, 0,
                               len(argument))
        if name in FLAG_OPTIONS:
            options.first = True
            continue
        if name not in VALUE_OPTIONS:
            shown = name if len(name) <= 40 else name[:37] + "..."  # the caret shows the rest
            raise FormulaError(f"unknown option --{shown}", argument, 0, len(name) + 2)
        if not has_value:
            if index >= len(items):
                raise FormulaError(f"--{name} needs a value", argument, 0, len(argument))
            value, argument = items[index], f"--{name}={items[index]}"
            index += 1
        where = (value, argument)
        if name in ("invalid", "assign", "extra"):
            getattr(options, name).append(where)
        elif name == "symbols":
            options.symbols = value
        else:
            setattr(options, name, where)
    return options, arguments


def value_error(message: str, where: tuple[str, str], offset: int = 0, length: int | None = None) -> FormulaError:
    value, argument = where
    start = argument.rfind(value) if value else len(argument)
    return FormulaError(message, argument, max(start, 0) + offset, length if length is not None else max(len(value), 1))


def digit_spec(where: tuple[str, str], base: int) -> frozenset[int]:
    """`0-8`, `1,3,5`, `2|4|6|8` or `1+3` (enigma.py takes any of the three separators) into digits; each
    range checked against the base by its ends before it is built."""
    text = where[0]
    digits: set[int] = set()
    offset = 0
    for part in re.split(r"[|,+]", text):
        match = re.fullmatch(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?", part)
        if match is None:
            raise value_error(f"expected digits such as 0-8, 1,3,5 or 2|4, not {part!r}", where, offset,
                               len(part) or 1)
        low = number(match, 1, where, offset)
        high = number(match, 2, where, offset) if match.group(2) is not None else low
        if not 0 <= low <= high < base:
            raise value_error(f"digits run from 0 to {base - 1}", where, offset, len(part))
        digits.update(range(low, high + 1))
        offset += len(part) + 1
    return frozenset(digits)


def number(match: re.Match[str], group: int, where: tuple[str, str], offset: int = 0) -> int:
    """A run of ASCII digits an option's pattern matched, as an integer; more than MAX_NUMBER_DIGITS of
    them refused under it (before Python's own conversion limit)."""
    digits = match.group(group)
    if len(digits) > MAX_NUMBER_DIGITS:
        raise value_error(too_many_digits(len(digits)), where, offset + match.start(group), len(digits))
    return int(digits)


def base_of(options: Options) -> int:
    if options.base is None:
        return 10
    match = re.fullmatch(r"\s*([0-9]+)\s*", options.base[0])
    base = number(match, 1, options.base) if match is not None else None
    if base is None or not MIN_BASE <= base <= MAX_BASE:
        raise value_error(f"the base is a number from {MIN_BASE} to {MAX_BASE}", options.base)
    return base


def invalid_digits(options: Options, base: int) -> dict[str, set[int]]:
    """--invalid=D,SYMS (each time): symbol -> the digits it may not take. As in enigma.py, the
    symbols follow the last separator (`,`, `|` or `+`), so `--invalid=1,3,5,A` is `1|3|5,A`; an
    empty `--invalid=` forbids nothing (and so allows leading zeros)."""
    invalid: dict[str, set[int]] = {}
    for where in options.invalid:
        if not where[0].strip():
            continue
        last = max(where[0].rfind(separator) for separator in ",|+")
        if last < 0:
            raise value_error("--invalid takes DIGITS,SYMBOLS such as 0,ABC", where)
        digits_text, symbols = where[0][:last], where[0][last + 1:]
        digits = digit_spec((digits_text, where[1]), base)
        for symbol in symbols.strip():
            invalid.setdefault(symbol, set()).update(digits)
    return invalid


def assigned_digits(options: Options, base: int) -> dict[str, int]:
    assign: dict[str, int] = {}
    for where in options.assign:  # enigma.py's --assign=S,D; several symbols (--assign=AB,0) take the same digit
        symbols, comma, digit = where[0].partition(",")
        match = re.fullmatch(r"\s*([0-9]+)\s*", digit)
        value = number(match, 1, where, len(symbols) + 1) if comma and match is not None else None
        if value is None or not symbols.strip() or value >= base:
            raise value_error("--assign takes SYMBOL,DIGIT such as O,0", where)
        for symbol in symbols.strip():
            if symbol != "|":
                assign[symbol] = value
    return assign


def letters_for(used: Iterable[str]) -> dict[str, str]:
    """Each symbol's capital letter: an uppercase symbol itself, a lowercase one its capital unless
    that capital is a symbol too, any other the first free letter."""
    used = list(dict.fromkeys(used))
    letters = {symbol: symbol for symbol in used if symbol in LETTERS}
    taken = set(letters.values())
    for symbol in used:
        if symbol not in letters and symbol.isascii() and symbol.islower() and symbol.upper() not in taken \
                and symbol.upper() not in used:
            letters[symbol] = symbol.upper()
            taken.add(symbol.upper())
    free = iter(letter for letter in LETTERS if letter not in taken and letter not in used)
    for symbol in used:
        if symbol not in letters:
            letter = next(free, None)
            if letter is None:
                raise FormulaError(f"more than {len(LETTERS)} symbols: smtcrypt names each by a capital letter")
            letters[symbol] = letter
    return letters


def too_many_symbols(options: Options, used: Sequence[str], base: int) -> str | None:
    """Why no assignment can exist when a group of symbols that must differ is larger than the digits
    they may take (SubstitutedSum -b7 "SEND + MORE = MONEY": 8 symbols, 7 digits), as enigma.py checks
    it before searching and then finds no solution; None otherwise."""
    digits = frozenset(range(base)) if options.digits is None else digit_spec(options.digits, base)
    assign = assigned_digits(options, base)
    spec = options.distinct[0].strip() if options.distinct is not None else "1"
    if spec == "1":
        groups, digits = ["".join(used)], digits - set(assign.values())
    elif spec in ("", "0"):
        groups = []
    else:
        groups = [group.strip() for group in spec.split(",")]
    for group in groups:
        free = sorted(set(group) & set(used) - set(assign))
        if len(free) > len(digits):
            return (f"{len(free)} symbols that must differ ({''.join(free)}) have {len(digits)} digits to take "
                    f"(base {base}), so there is no solution")
    return None


def rules_for(options: Options, used: Sequence[str], letters: Mapping[str, str], leading: Iterable[str],
           base: int, extra_nonzero: Iterable[str] = (), allow_leading_zeros: bool = True) -> Rules:
    """Our rules for enigma.py's options over the used symbols, built (and validated) here, once."""
    digits = frozenset(range(base)) if options.digits is None else digit_spec(options.digits, base)
    invalid = invalid_digits(options, base) if options.invalid else {symbol: {0} for symbol in leading}
    for symbol in extra_nonzero:
        invalid.setdefault(symbol, set()).add(0)
    assign = assigned_digits(options, base)
    # as in enigma.py, an assigned symbol takes its digit whatever --digits and --invalid say
    # (SubstitutedSum --digits=1-9 -aO,0 "ELGAR + ENIGMA = NIMROD"): then --digits is each other
    # symbol's domain rather than a rule for every letter
    outside = any(assign[symbol] not in digits for symbol in used if symbol in assign)
    domains: dict[str, list[int]] = {}
    for symbol in used:
        allowed = [assign[symbol]] if symbol in assign else sorted(digits - invalid.get(symbol, set()))
        if not allowed:
            raise FormulaError(f"the symbol {symbol} has no digit left to take (--digits, --invalid)")
        if len(allowed) < (base if outside else len(digits)) or symbol in assign:
            domains[letters[symbol]] = allowed
    distinct: bool | str = True
    if options.distinct is not None and options.distinct[0].strip() in ("0", "1"):
        distinct = options.distinct[0].strip() == "1"  # enigma.py's --distinct=0 (none) and --distinct=1 (all)
    elif options.distinct is not None:
        groups = [group.strip() for group in options.distinct[0].split(",")]
        groups = ["".join(dict.fromkeys(letters[s] for s in group if s in letters)) for group in groups]
        groups = [group for group in groups if len(group) > 1]
        distinct = ",".join(groups) if groups else False
    return make_rules(distinct=distinct, allow_leading_zeros=allow_leading_zeros, base=base,
                      digits=sorted(digits) if len(digits) < base and not outside else None, domains=domains,
                      assign={letters[s]: d for s, d in assign.items() if s in letters})
