"""Names that say where things are: no module reaches into another's private names, so that what
a module hides it may change; no two classes share a name, so that a name found in a traceback or a
search leads to one place; and the modules and files the docstrings and comments point to exist,
so that a module moved leaves no reader following a stale name."""

from __future__ import annotations

import ast
import functools
import importlib
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "smtcrypt"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
@functools.cache
def trees() -> dict[str, ast.Module]:
    """Every module's syntax tree: parsed once, when a test first asks (not at collection)."""
    return {module: ast.parse(path.read_text(encoding="utf-8")) for module, path in SOURCES.items()}

def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(module: str, tree: ast.AST, is_package: bool) -> list[tuple[str, str]]:
    """(module, name) for each `from smtcrypt... import _name` of a name private to another module;
    a private module itself (`from smtcrypt import _version`) may be imported."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
        if base != "smtcrypt" and not base.startswith("smtcrypt."):
            continue
        for alias in node.names:
            if is_private(alias.name) and f"{base}.{alias.name}" not in SOURCES and base != module:
                found.append((module, alias.name))
    return found


def test_no_private_name_is_imported_from_another_module():
    found = {pair for module, tree in trees().items()
             for pair in private_imports(module, tree, SOURCES[module].name == "__init__.py")}
    assert sorted(found) == []


def test_the_private_import_finder_finds_them():
    tree = ast.parse("from smtcrypt.core.check import _check_node, check\nfrom .. import _version\n"
                     "from .tree import __all__\nfrom smtcrypt._version import __version__\n")
    assert private_imports("smtcrypt.core.example", tree, False) == [("smtcrypt.core.example", "_check_node")]
    relative = ast.parse("from .encoder import _Encoder\n")
    assert private_imports("smtcrypt.encode.bitvec", relative, True) == [("smtcrypt.encode.bitvec", "_Encoder")]


def class_homes() -> dict[str, list[str]]:
    """Each class name in smtcrypt/ with the modules that define a class of that name (nested too)."""
    homes: dict[str, list[str]] = {}
    for module, tree in trees().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                homes.setdefault(node.name, []).append(module)
    return homes


def test_every_class_name_is_defined_once():
    shared = {name: modules for name, modules in class_homes().items() if len(modules) > 1}
    assert shared == {}


# Stale names in docstrings or comments still to be fixed, (file, name): empty it, never add.
PENDING_STALE_NAMES: set[tuple[str, str]] = set()
# Files named that are not smtcrypt's: Jim Randell's enigma.py, whose puzzle files the enigma notation reads.
OUTSIDE_FILES = {"enigma.py"}

DOTTED = re.compile(r"(?<![\w./-])smtcrypt(?:\.[A-Za-z_]\w*)+")
FILE_PATH = re.compile(r"(?<![\w./-])((?:[A-Za-z_][\w-]*/)*[A-Za-z_]\w*\.py)\b")


def prose(path: Path) -> list[str]:
    """The comments and docstrings (every string standing alone as a statement) of a file."""
    source = path.read_text(encoding="utf-8")
    comments = [token.string for token in tokenize.generate_tokens(io.StringIO(source).readline)
                if token.type == tokenize.COMMENT]
    strings = [node.value.value for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Expr)
               and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]
    return comments + strings


def dotted_name_exists(name: str) -> bool:
    """`smtcrypt.core.tree` or `smtcrypt.solve`: the longest module that imports, then attributes."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def file_exists(name: str, path: Path) -> bool:
    """`core/verify.py` from the repository, the package or a folder of the file that names it;
    a bare `walk.py` from the file's folder or one above it in the package."""
    folders = [path.parent, *(folder for folder in path.parent.parents if folder.is_relative_to(PACKAGE))]
    if "/" in name:
        folders += [ROOT, PACKAGE]
    return name in OUTSIDE_FILES or any((folder / name).is_file() for folder in folders)


def stale_names() -> set[tuple[str, str]]:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        for text in prose(path):
            found |= {(where, name) for name in DOTTED.findall(text) if not dotted_name_exists(name)}
            found |= {(where, name) for name in FILE_PATH.findall(text) if not file_exists(name, path)}
    return found


def test_docstrings_and_comments_name_modules_and_files_that_exist():
    found = stale_names()
    assert sorted(found - PENDING_STALE_NAMES) == []
    assert sorted(PENDING_STALE_NAMES - found) == []  # a name fixed: take it off the list


def test_the_name_finders_tell_real_names_from_stale_ones():
    here = PACKAGE / "encode" / "general.py"
    assert dotted_name_exists("smtcrypt.core.tree") and dotted_name_exists("smtcrypt.solve")
    assert dotted_name_exists("smtcrypt.core.longhand.Layout.text")
    assert not dotted_name_exists("smtcrypt.longhand") and not dotted_name_exists("smtcrypt.no_such_name")
    assert file_exists("core/verify.py", here) and file_exists("walk.py", here)
    assert file_exists("bitvec/rationals.py", here) and file_exists("tests/test_names.py", here)
    assert not file_exists("engine/digits.py", here) and not file_exists("verify.py", here)
    assert FILE_PATH.findall("see encode/walk.py and walk.py, not walk.pyc") == ["encode/walk.py", "walk.py"]
    assert DOTTED.findall("`smtcrypt.core.tree`. Then smtcrypt solves") == ["smtcrypt.core.tree"]
