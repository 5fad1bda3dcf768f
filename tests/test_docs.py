"""Every example of the README and of the docs runs here, and what it prints must be what the
page shows (see doc_examples.py for the forms of example and the two placeholders). The docs'
CLI reference is generated from the parser: it is checked to hold every option."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import importlib.util
import io
import re
import sys

import pytest
from doc_examples import (
    ROOT,
    TIME,
    Block,
    Command,
    blocks,
    console_commands,
    documents,
    following_output,
    matches,
    pattern,
    setup_command,
)

from smtcrypt.core.rules import MAX_BASE, MIN_BASE


def collect() -> tuple[list, list]:
    """(commands, snippets): the shell commands and the Python blocks, as pytest parameters."""
    commands, snippets = [], []
    for path in documents():
        found = blocks(path)
        for index, block in enumerate(found):
            marks = [pytest.mark.skip(reason=block.skip)] if block.skip else []
            if block.language == "console":
                commands += [pytest.param(command, id=command.where, marks=marks) for command in console_commands(block)]
            elif block.language == "sh" and block.skip:
                commands.append(pytest.param(None, id=block.where, marks=marks))
            elif block.language == "sh":
                command = setup_command(block, following_output(found, index))
                if command is not None:
                    commands.append(pytest.param(command, id=command.where, marks=marks))
            elif block.language in ("pycon", "python"):
                snippets.append(pytest.param(block, following_output(found, index), id=block.where, marks=marks))
    return commands, snippets


COMMANDS, SNIPPETS = collect()


def run_command(argv: tuple[str, ...]) -> str:
    """What `smtcrypt ARGV` prints, stdout and stderr in the order written, run in this process."""
    from smtcrypt.cli import main

    printed = io.StringIO()
    # --help, --version and usage errors end in argparse's SystemExit
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), contextlib.suppress(SystemExit):
        main(list(argv))
    return printed.getvalue()


@pytest.fixture
def in_repository(monkeypatch, tmp_path):
    """Examples run as from the repository's root (they name examples/words/...), at a fixed
    width, in a scratch directory that holds the examples, so that the files they write
    (worksheets) stay out of the repository."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")


@pytest.mark.parametrize("command", COMMANDS)
def test_command(command: Command, in_repository):
    printed = run_command(command.argv)
    assert matches(command.expected, printed, command.block.any_order), (
        f"{command.where}: smtcrypt {' '.join(command.argv)}\n--- shown ---\n{command.expected}"
        f"--- printed ---\n{printed}")


class Checker(doctest.OutputChecker):
    """doctest's comparison, with the `<time>` placeholder for seconds."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return matches(want, got) or super().check_output(want, got, optionflags)


@pytest.mark.parametrize("block, output", SNIPPETS)
def test_snippet(block: Block, output: Block | None, in_repository):
    if block.language == "pycon":
        test = doctest.DocTestParser().get_doctest(block.text, {}, block.where, str(block.path), block.line)
        report = io.StringIO()
        runner = doctest.DocTestRunner(checker=Checker(), optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(test, out=report.write)
        assert runner.failures == 0 and runner.tries > 0, report.getvalue()
        return
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block.text, block.where, "exec"), {"__name__": "__main__"})
    if output is not None:
        assert matches(output.text, printed.getvalue()), (
            f"{block.where}\n--- shown ---\n{output.text}--- printed ---\n{printed.getvalue()}")


def test_every_page_has_examples_and_few_are_skipped():
    examples = COMMANDS + SNIPPETS
    skipped = [param for param in examples if param.marks]
    assert len(examples) >= 40
    assert len(skipped) <= len(examples) // 10, [param.id for param in skipped]
    pages = {param.id.split(":")[0] for param in examples}
    assert "README.md" in pages and len(pages) >= 6


@pytest.mark.parametrize("expected, printed, same", [
    ("2 solutions (search complete, <time> s)\n", "2 solutions (search complete, 0.05 s)\n", True),
    ("2 solutions (search complete, <time> s)\n", "3 solutions (search complete, 0.05 s)\n", False),
    ("a\n...\nz\n", "a\nb\nc\nz\n", True),
    ("a\n...\nz\n", "a\nz\n", True),
    ("a\n...\nz\n", "a\nb\n", False),
    ("seconds: parse <time>, check <time>\n", "seconds: parse 0.016, check 0.000\n", True),
    ("a\n", "a\nb\n", False),
])
def test_the_placeholders(expected, printed, same):
    assert matches(expected, printed) is same
    assert TIME not in pattern(expected)


def test_any_order_lets_only_the_solution_lines_move():
    shown = "1 + 2 = 3  /  A=1\n2 + 1 = 3  /  A=2\n2 solutions (search complete, <time> s)\n"
    assert matches(shown, "2 + 1 = 3  /  A=2\n1 + 2 = 3  /  A=1\n2 solutions (search complete, 0.1 s)\n", True)
    assert not matches(shown, "2 + 1 = 3  /  A=2\n1 + 2 = 3  /  A=1\n2 solutions (search complete, 0.1 s)\n")
    assert not matches(shown, "1 + 2 = 3  /  A=1\n2 solutions (search complete, 0.1 s)\n", True)
    elided = "2 + 1 = 3  /  A=2\n...\n3 solutions (search complete, <time> s)\n"
    printed = "1 + 2 = 3  /  A=1\n0 + 3 = 3  /  A=0\n2 + 1 = 3  /  A=2\n3 solutions (search complete, 0.1 s)\n"
    assert matches(elided, printed, True) and not matches(shown, printed, True)


def load_hook():
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "docs" / "hooks" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cli_reference", module)
    spec.loader.exec_module(module)
    return module


def test_the_cli_reference_holds_every_option_of_every_command():
    hook = load_hook()
    cli_page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for prog, parser in hook.parsers(cli_page).items():
        assert hook.MARKER.format(prog=prog) in cli_page, f"the CLI reference page leaves out {prog}"
        page = hook.reference(prog)
        for action in parser._actions:
            for option in action.option_strings:
                assert f"`{option}" in page, (prog, option)
            if action.help and action.help != "==SUPPRESS==":
                words = re.sub(r"\s+", " ", action.help % {"default": action.default, "prog": prog}
                               if "%" in action.help else action.help)
                assert words.split(" (")[0][:40] in re.sub(r"\s+", " ", page), (prog, action.dest)
    main = hook.reference("smtcrypt")
    assert "at most one of --first, --limit, --count and --unique" in main
    assert "smtcrypt generate" in main


def test_the_cli_page_uses_the_generated_reference():
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    hook = load_hook()
    assert hook.MARKER.format(prog="smtcrypt") in page
    assert hook.MARKER.format(prog="smtcrypt generate") in page
    assert "| `--first`" not in page  # no hand-copied table of options


@pytest.mark.parametrize("module", ["smtcrypt", "smtcrypt.api", "smtcrypt.errors", "smtcrypt.setters.generate",
                                    "smtcrypt.teach.explain", "smtcrypt.core.longhand", "smtcrypt.setters.answers",
                                    "smtcrypt.notations.layout", "smtcrypt.cli.batch"])
def test_docstring_examples(module):
    """The API reference shows the docstrings: their `>>>` examples run too."""
    imported = importlib.import_module(module)
    tests = [test for test in doctest.DocTestFinder().find(imported) if test.examples]
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    for test in tests:
        runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()


def test_the_readme_links_lead_to_files_of_the_repository():
    """mkdocs --strict checks the links between the docs pages; this checks the README's."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [target for target in targets if "://" not in target]
    missing = [target for target in local if not (ROOT / target).exists()]
    assert not missing, missing


def test_the_readme_is_short():
    """The README holds the install commands, a few examples and links; the rest is in the docs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme) <= 8000, len(readme)


# A statement of the bases --base takes: "bases go from 2 to 64", "`--base B` (2 to 64)", "takes any base from
# 2 to 64", "the base (up to 64)" (the words of a page joined on one line, so a statement may wrap)
BASE_LIMIT = re.compile(r"(?:[Bb]ases?|-b B)(?: go| B)?`?\s*(?:\(|takes any base )?(?:from )?(?:(\d+) to|up to) (\d+)\b")


def test_each_page_states_the_base_limit_once_as_the_code_has_it():
    """The limit is the code's (core/rules.py): a page that gives it gives it once, and right."""
    stated = {}
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if page.name == "changelog.md":  # history: what each version took
            continue
        text = " ".join(page.read_text(encoding="utf-8").split())
        found = [match.groups() for match in BASE_LIMIT.finditer(text)]
        if found:
            stated[page.name] = found
    assert {"formula-language.md", "toolkit.md", "cryptator.md"} <= stated.keys(), stated
    for name, found in stated.items():
        assert len(found) == 1, (name, found)
        ((low, high),) = found
        assert low in (None, str(MIN_BASE)) and int(high) == MAX_BASE, (name, found)


def test_the_examples_of_help_are_valid_commands():
    """`smtcrypt --help` (and so the CLI reference) ends with example commands: each parses, and
    each formula in them is accepted, under the options given."""
    import shlex

    import smtcrypt
    from smtcrypt.cli import main
    from smtcrypt.cli.solve import EXAMPLES, build_parser

    lines = [line.strip() for line in EXAMPLES.splitlines() if line.strip().startswith("smtcrypt ")]
    assert len(lines) >= 10
    for line in lines:
        command = re.split(r"(?<=[\w\"'])\s{2,}(?=[a-z(])", line)[0]  # without the comment after two spaces
        words = shlex.split(command)[1:]
        if "--syntax" in words:  # an enigma.py command line, read by its own reader: run it
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(words) == 0, line
            continue
        if words[0] in ("generate", "serve", "worksheet", "explain", "batch", "play"):
            hook = load_hook()
            parser = hook.parser_of(f"smtcrypt {words[0]}")
            parser.parse_args(words[1:])
            continue
        args = build_parser().parse_args(words)
        if args.layout is not None:  # a file of the reader's
            continue
        distinct = args.distinct if args.distinct is not None else not args.no_distinct
        puzzle = smtcrypt.Puzzle(list(args.formula), distinct=distinct, allow_leading_zeros=args.allow_leading_zeros,
                                 base=args.base, digits=args.digits, domains=args.domain, assign=args.assign)
        if args.answer is not None:
            puzzle.answers(args.answer)
