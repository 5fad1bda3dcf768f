"""The examples of the README and of the docs, read from their Markdown so that the tests run them.

A fenced block is an example by its language:

- `console`: lines `$ smtcrypt ARGS` (or `$ python -m smtcrypt ARGS`), each followed by what it
  prints, stdout and stderr together as a terminal shows them;
- `pycon`: a Python session (`>>> ` and `... ` lines, then the output), run by doctest;
- `python`: a script, run as it stands; if a `text` block follows, that is what it prints;
- `sh`: setup commands (`pip install ...`), which CI runs as .ci/run says; if such a block ends
  in `smtcrypt ARGS` and a `text` block follows, that command is run and compared with it.

The shown output may hold two placeholders, for what truly varies from run to run:
`<time>` stands for a number of seconds (`0.05`), and a line `...` alone for any number of lines
(for long output). An HTML comment just before a block may say more: `<!-- example: skip
REASON -->` skips it with that reason; `<!-- example: any order -->` lets its solution lines
(`text  /  A=1 ...`) come in any order, for a search whose order depends on which backend
finishes it (see "Order" in the guarantees). Blocks in other languages (`json`, `text` alone,
none) are not examples.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_LANGUAGES = {"console", "pycon", "python", "sh"}
TIME = "<time>"
ANY_LINES = "..."
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<info>[^\n`]*)$")
SKIP = re.compile(r"<!--\s*example:\s*skip\s+(?P<reason>.+?)\s*-->")
ANY_ORDER = re.compile(r"<!--\s*example:\s*any order\s*-->")
SOLUTION = "  /  "  # in every solution line
SETUP = re.compile(r"^(python3? -m venv|\. \.venv|source |pip install|cd |git clone)")


@dataclass(frozen=True)
class Block:
    """One fenced block of a Markdown file."""

    path: Path
    line: int  # of the opening fence, counted from 1
    language: str
    text: str
    skip: str | None  # the reason, if the block is marked to skip
    any_order: bool = False  # its solution lines may come in any order

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


@dataclass(frozen=True)
class Command:
    """One shell command of the docs and the output shown for it."""

    block: Block
    line: int
    argv: tuple[str, ...]
    expected: str

    @property
    def where(self) -> str:
        return f"{self.block.path.relative_to(ROOT)}:{self.line}"


def documents() -> list[Path]:
    """The README and every page of the docs."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, with their language and skip marks."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        fence, indent = match["fence"], len(match["indent"])
        language = match["info"].strip().split(" ")[0].lower()
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        body = "\n".join(line[indent:] for line in lines[index + 1:end])
        before = next((line for line in reversed(lines[:index]) if line.strip()), "")
        skip = SKIP.search(before)
        found.append(Block(path, index + 1, language, body + "\n" if body else "", skip and skip["reason"],
                           bool(ANY_ORDER.search(before))))
        index = end + 1
    return found


def program(words: list[str]) -> tuple[str, ...] | None:
    """The arguments of an `smtcrypt ...` (or `python -m smtcrypt ...`) command; None for other commands."""
    if words[:1] == ["smtcrypt"]:
        return tuple(words[1:])
    if words[:3] in (["python", "-m", "smtcrypt"], ["python3", "-m", "smtcrypt"]):
        return tuple(words[3:])
    return None


def console_commands(block: Block) -> list[Command]:
    """The `$ ` commands of a console block, each with the lines that follow it."""
    commands: list[Command] = []
    current: list[str] | None = None
    start = 0
    output: list[str] = []

    def close() -> None:
        if current is not None:
            argv = program(shlex.split(current[0]))
            if argv is None:
                raise ValueError(f"{block.where}: a console example runs smtcrypt, not {current[0]!r}")
            commands.append(Command(block, start, argv, "".join(line + "\n" for line in output)))

    for offset, line in enumerate(block.text.splitlines()):
        if line.startswith("$ "):
            close()
            current, start, output = [line[2:]], block.line + 1 + offset, []
        elif current is None:
            raise ValueError(f"{block.where}: a console block starts with a `$ ` command")
        else:
            output.append(line)
    close()
    return commands


def following_output(path_blocks: list[Block], index: int) -> Block | None:
    """The `text` block right after block `index`, if any: what that block prints."""
    if index + 1 < len(path_blocks) and path_blocks[index + 1].language == "text":
        return path_blocks[index + 1]
    return None


def setup_command(block: Block, output: Block | None) -> Command | None:
    """In a `sh` block of setup lines, the trailing `smtcrypt ARGS` to compare with the `text` block after it."""
    lines = [line for line in block.text.splitlines() if line.strip() and not line.startswith("#")]
    steps = [step.strip() for line in lines for step in line.split("&&")]
    for step in steps[:-1]:
        if not SETUP.match(step):
            raise ValueError(f"{block.where}: a sh block holds setup commands only, not {step!r}")
    last = steps[-1] if steps else ""
    argv = program(shlex.split(last)) if last else None
    if argv is None:
        if not SETUP.match(last) and last != "pytest":
            raise ValueError(f"{block.where}: a sh block holds setup commands only, not {last!r}")
        return None
    if output is None:
        raise ValueError(f"{block.where}: the output of {last!r} must follow in a `text` block")
    return Command(block, block.line + 1, argv, output.text)


def matches(expected: str, actual: str, any_order: bool = False) -> bool:
    """True if the output shown is what was printed, up to the placeholders (and, with
    `any_order`, up to the order of the solution lines)."""
    if any_order:  # each solution line shown is one printed (all of them, unless `...` leaves some out)
        expected_lines, actual_lines = expected.splitlines(keepends=True), actual.splitlines(keepends=True)
        printed = [line for line in actual_lines if SOLUTION in line]
        for line in (line for line in expected_lines if SOLUTION in line):
            match = next((index for index, other in enumerate(printed) if matches(line, other)), None)
            if match is None:
                return False
            del printed[match]
        rest = "".join(line for line in expected_lines if SOLUTION not in line)
        return ((not printed or ANY_LINES + "\n" in expected_lines)
                and matches(rest, "".join(line for line in actual_lines if SOLUTION not in line)))
    return re.fullmatch(pattern(expected), actual, re.DOTALL) is not None


def pattern(expected: str) -> str:
    parts = []
    for line in expected.splitlines(keepends=True):
        if line.rstrip("\n") == ANY_LINES:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(r"\d+(?:\.\d+)?".join(re.escape(piece) for piece in line.split(TIME)))
    return "".join(parts)
