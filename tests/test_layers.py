"""Data flows one way: every import between smtcrypt's modules points down the layers, and no
modules import each other in a circle. An import inside a function is still an import; only
imports under `if TYPE_CHECKING:` (never run) are left out."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "smtcrypt"

# The layers, lowest first: a module may import its own layer's modules and those of lower layers.
# Packages in one layer are peers that never import each other.
LAYERS: list[tuple[str, ...]] = [
    ("smtcrypt._version", "smtcrypt.errors"),
    ("smtcrypt.core",),  # the language and its exact meaning
    ("smtcrypt.notations",),  # one reader per notation: text -> the checked problem, its rules, its view
    ("smtcrypt.analysis",),  # facts worked out once
    ("smtcrypt.encode",),  # encodings into Z3 terms
    ("smtcrypt.engine",),  # search backends and the portfolio
    ("smtcrypt.search",),  # the search loop: models re-checked, solutions, verdicts
    ("smtcrypt.setters", "smtcrypt.teach"),  # the tools, independent of each other
    ("smtcrypt.api", "smtcrypt.present"),  # the facade; output formats
    ("smtcrypt.web",),  # the web page
    ("smtcrypt.cli",),  # the command line (`smtcrypt serve` starts the web page)
    ("smtcrypt", "smtcrypt.__main__"),  # the package's public names
]

# Modules that re-check models exactly; no backend may share that arithmetic.
VERIFIER = "smtcrypt.core.verify"
BACKENDS = ("smtcrypt.encode", "smtcrypt.engine")
# The teaching tools and what they may not read (see test_teaching_reads_analysis_not_the_backends).
TEACHING = "smtcrypt.teach"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under `if TYPE_CHECKING:`."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(inner) for statement in node.body for inner in ast.walk(statement))
    return hidden


def imported(module: str, path: Path) -> set[str]:
    """The smtcrypt modules `module` imports, wherever in the file the import is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = type_checking_only(tree)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add(target if target in MODULES else base)
    return {name for name in found if name in MODULES and name != module}


@functools.cache
def edges() -> dict[str, set[str]]:
    """Every module's imports of smtcrypt modules: read once, when a test first asks (not at collection)."""
    return {module: imported(module, path) for module, path in MODULES.items()}


def layer_of(module: str) -> int:
    """The index of the layer whose package (the longest that matches) holds `module`."""
    best, index = -1, -1
    for position, packages in enumerate(LAYERS):
        for package in packages:
            if (module == package or module.startswith(package + ".")) and len(package) > best:
                best, index = len(package), position
    return index


def peer_package(module: str) -> str:
    """The layer's package that holds `module` (for peers that must not import each other)."""
    return max((package for package in LAYERS[layer_of(module)]
                if module == package or module.startswith(package + ".")), key=len)


def test_every_module_has_a_layer():
    assert [module for module in MODULES if layer_of(module) < 0] == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module):
    wrong = []
    for target in sorted(edges()[module]):
        if layer_of(target) > layer_of(module):
            wrong.append(f"{module} imports {target}, a higher layer")
        elif layer_of(target) == layer_of(module) and peer_package(target) != peer_package(module):
            wrong.append(f"{module} imports its peer {target}")
    assert wrong == []


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other in a circle (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


def test_no_import_cycles():
    assert strongly_connected(edges()) == []


def test_the_cycle_finder_finds_cycles():
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_function_level_imports_are_counted(tmp_path):
    """An import inside a function is an edge; one under TYPE_CHECKING is not."""
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from smtcrypt.api import Puzzle\n"
              "def f():\n    from smtcrypt.core import tree\n")
    path = PACKAGE / "core" / "example.py"
    tree = ast.parse(source)
    hidden = type_checking_only(tree)
    names = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and id(node) not in hidden]
    assert [node.module for node in names] == ["typing", "smtcrypt.core"]
    assert module_name(path) == "smtcrypt.core.example"


def test_no_backend_shares_the_verifiers_arithmetic():
    """The exact re-check is independent of every backend: no encoding or engine imports it."""
    sharing = [module for module, targets in edges().items()
               if module.startswith(BACKENDS) and VERIFIER in targets]
    assert sharing == []


def test_teaching_reads_analysis_not_the_backends():
    """Teaching explains a puzzle from the facts `analysis/` works out (columns, polynomials,
    bounds), as the encoders do, and asks the search layer for Z3 terms: never from an encoder's or
    a backend's internals, which change with the solver's needs, not the explanation's."""
    reaching = sorted(f"{module} imports {target}" for module, targets in edges().items()
                      if module == TEACHING or module.startswith(TEACHING + ".")
                      for target in targets if target.startswith(BACKENDS))
    assert reaching == []
