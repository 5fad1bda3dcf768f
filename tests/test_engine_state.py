"""Which executor and which backend run is decided by what is passed in, never by state a process
keeps: no module of `engine/` holds a mutable container at module level (a list of loaded kernels,
a cache filled as a side effect). Constant tables are read-only mappings or tuples; `__all__` is
Python's own convention and is left out."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "smtcrypt" / "engine"
MUTABLE_DISPLAYS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
MUTABLE_CALLS = {"list", "dict", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray"}


def mutable_globals(path: Path) -> list[str]:
    """The module-level names of `path` bound to a mutable container, with their lines."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        names = [target.id for target in targets if isinstance(target, ast.Name)]
        if names == ["__all__"]:
            continue
        called = value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else None
        if isinstance(value, MUTABLE_DISPLAYS) or called in MUTABLE_CALLS:
            found.append(f"{path.name}:{node.lineno} {', '.join(names)}")
    return found


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda path: str(path.relative_to(ENGINE)))
def test_no_engine_module_holds_a_mutable_container(path):
    assert mutable_globals(path) == []


def test_the_check_sees_a_mutable_container(tmp_path):
    module = tmp_path / "module.py"
    module.write_text('__all__ = ["x"]\nLOADED: list[object] = []\nTABLE = {"a": 1}\nNAMES = ("a",)\n', encoding="utf-8")
    assert mutable_globals(module) == ["module.py:2 LOADED", "module.py:3 TABLE"]
