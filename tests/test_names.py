"""Names that say where things are: no module reaches into another's private names, so that what
a module hides it may change; no two classes share a name, so that a name found in a traceback or a
search leads to one place."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "smtcrypt"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
TREES = {module: ast.parse(path.read_text(encoding="utf-8")) for module, path in SOURCES.items()}

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
    found = {pair for module, tree in TREES.items()
             for pair in private_imports(module, tree, SOURCES[module].name == "__init__.py")}
    assert sorted(found) == []


def test_the_private_import_finder_finds_them():
    tree = ast.parse("from smtcrypt.core.check import _check_node, check\nfrom .. import _version\n"
                     "from .tree import __all__\nfrom smtcrypt._version import __version__\n")
    assert private_imports("smtcrypt.core.example", tree, False) == [("smtcrypt.core.example", "_check_node")]
    relative = ast.parse("from .encoder import _Encoder\n")
    assert private_imports("smtcrypt.encode.bitvec", relative, True) == [("smtcrypt.encode.bitvec", "_Encoder")]


# Class names still defined twice because a notation reader (smtcrypt/notations/{enigma,cryptator,
# layout}) has one too: empty it as those are renamed, never add.
PENDING_SHARED_CLASS_NAMES = {
    "Division",  # notations/layout/division.py, notations/enigma/command.py
    "Layout",  # notations/layout/formula.py, teach/longhand.py (documented: smtcrypt.teach.longhand.Layout)
    "Reader",  # notations/layout/reader.py, notations/base.py
    "Row",  # notations/layout/formula.py, teach/longhand.py (documented: smtcrypt.teach.longhand.Row)
    "Word",  # notations/cryptator/reader.py, notations/enigma/expression.py, core/tree.py
}
NOTATIONS = ("smtcrypt.notations.enigma", "smtcrypt.notations.cryptator", "smtcrypt.notations.layout")


def class_homes() -> dict[str, list[str]]:
    """Each class name in smtcrypt/ with the modules that define a class of that name (nested too)."""
    homes: dict[str, list[str]] = {}
    for module, tree in TREES.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                homes.setdefault(node.name, []).append(module)
    return homes


def test_every_class_name_is_defined_once():
    shared = {name: modules for name, modules in class_homes().items() if len(modules) > 1}
    assert {name: shared[name] for name in sorted(set(shared) - PENDING_SHARED_CLASS_NAMES)} == {}
    assert sorted(PENDING_SHARED_CLASS_NAMES - set(shared)) == []  # a name made unique: take it off the list


def test_only_the_notation_readers_hold_back_a_shared_class_name():
    homes = class_homes()
    assert [name for name in sorted(PENDING_SHARED_CLASS_NAMES)
            if not any(module.startswith(NOTATIONS) for module in homes.get(name, []))] == []
