"""MkDocs hook: the command-line reference, generated from smtcrypt's own argparse parsers.

A page holds a marker `<!-- cli-reference: smtcrypt -->` (or `smtcrypt generate`); the hook
puts there the usage, every option with its help text, the mutually exclusive options and the
epilog, as the parser defines them. Nothing is copied by hand, so the reference cannot drift.
"""

from __future__ import annotations

import argparse
import os
import re
from contextlib import contextmanager
from typing import Iterator
from unittest import mock

MARKER = "<!-- cli-reference: {prog} -->"
MARKED = re.compile(r"<!-- cli-reference: (smtcrypt(?: [a-z-]+)*) -->")
WIDTH = "100"  # columns of the usage and epilog text


class Captured(Exception):
    """Carries a parser out of the function that built it, before it parses anything."""


def parser_of(prog: str) -> argparse.ArgumentParser:
    """The parser of `smtcrypt` or of a subcommand (`smtcrypt generate`), as the command builds it:
    the command is started and stopped as it is about to parse its arguments."""
    from smtcrypt.cli import main
    from smtcrypt.cli.solve import build_parser

    words = prog.split()[1:]
    if not words:
        return build_parser()

    def capture(self, *args, **kwargs):
        raise Captured(self)

    with mock.patch.object(argparse.ArgumentParser, "parse_args", capture), \
            mock.patch.object(argparse.ArgumentParser, "parse_known_args", capture):
        try:
            main(words)
        except Captured as captured:
            return captured.args[0]
    raise LookupError(f"{prog} builds no parser")


def parsers(page: str = "") -> dict[str, argparse.ArgumentParser]:
    """The parsers of `smtcrypt` and `smtcrypt generate`, and of any other command a page's markers name."""
    progs = ["smtcrypt", "smtcrypt generate", *MARKED.findall(page)]
    return {prog: parser_of(prog) for prog in dict.fromkeys(progs)}


@contextmanager
def fixed_width() -> Iterator[None]:
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        yield
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous


def cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def argument(action: argparse.Action) -> str:
    """How the argument is written: `--limit N`, `--json`, `FORMULA ...`."""
    if not action.option_strings:
        name = action.metavar or action.dest
        return f"`{name} ...`" if action.nargs in ("+", "*") else f"`{name}`"
    takes_value = action.nargs != 0
    metavar = action.metavar or ("NAME" if action.choices is not None else action.dest.upper())
    shown = []
    for option in action.option_strings:
        shown.append(f"`{option} {metavar}`" if takes_value and metavar else f"`{option}`")
    return ", ".join(shown)


def meaning(action: argparse.Action, prog: str) -> str:
    text = action.help or ""
    if "%(" in text:
        text = text % {"default": action.default, "prog": prog}
    if action.choices is not None:
        text += " (one of: " + ", ".join(f"`{choice}`" for choice in action.choices) + ")"
    return cell(text)


def reference(prog: str) -> str:
    """The Markdown reference of one command."""
    with fixed_width():
        parser = parser_of(prog)
        usage = parser.format_usage().strip()
    lines = [f"```text\n{usage}\n```", ""]
    if parser.description:
        lines += [cell(parser.description), ""]
    for group in parser._action_groups:
        actions = [action for action in group._group_actions if action.help != argparse.SUPPRESS]
        if not actions:
            continue
        title = group.title or "arguments"
        lines += [f"**{title[0].upper()}{title[1:]}**" + (f": {cell(group.description)}" if group.description else ""), ""]
        lines += ["| argument | meaning |", "| --- | --- |"]
        lines += [f"| {argument(action)} | {meaning(action, prog)} |" for action in actions]
        lines.append("")
    for group in parser._mutually_exclusive_groups:
        names = ", ".join(f"`{action.option_strings[0]}`" for action in group._group_actions)
        lines += [f"At most one of {names} may be given.", ""]
    if parser.epilog:
        lines += [f"```text\n{parser.epilog.rstrip()}\n```", ""]
    return "\n".join(lines)


def on_page_markdown(markdown: str, page, config, files) -> str:
    """The MkDocs event: replace each marker with its command's reference."""
    return MARKED.sub(lambda match: reference(match[1]), markdown)
