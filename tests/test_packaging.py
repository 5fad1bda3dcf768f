"""The wheel: it holds the grammar and py.typed, declares the `smtcrypt` command, and once
installed elsewhere it works without the source checkout (the grammar comes from the package)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _missing_tools() -> str | None:
    for module in ("pip", "hatchling"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed in this Python ({sys.executable}); install the test extras"
    return None


pytestmark = pytest.mark.skipif(_missing_tools() is not None, reason=_missing_tools() or "")


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without any PYTHONPATH pointing at the checkout."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                             "--no-cache-dir", "-w", str(out), str(REPO)],
                            capture_output=True, text=True, env=clean_env(), cwd=out, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    (built,) = out.glob("smtcrypt-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("install") / "site"
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--no-cache-dir",
                             "--target", str(site), str(wheel)],
                            capture_output=True, text=True, env=clean_env(), cwd=wheel.parent, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return site


def test_wheel_contents(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "smtcrypt/grammar/smtcrypt.lark" in names
    assert "smtcrypt/py.typed" in names
    assert {"smtcrypt/__init__.py", "smtcrypt/__main__.py", "smtcrypt/cli/__init__.py", "smtcrypt/encode/__init__.py",
            "smtcrypt/encode/general.py"} <= names
    assert not any(name.startswith("tests/") or "__pycache__" in name for name in names)
    assert {"smtcrypt/web/__init__.py", "smtcrypt/web/app.py", "smtcrypt/web/static/index.html",
            "smtcrypt/web/static/app.js", "smtcrypt/web/static/style.css", "smtcrypt/teach/worksheet.py"} <= names


def test_wheel_declares_the_web_extra(wheel):
    archive = zipfile.ZipFile(wheel)
    (metadata,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
    meta = archive.read(metadata).decode("utf-8")
    assert "Provides-Extra: web" in meta
    assert "Requires-Dist: starlette" in meta and "Requires-Dist: uvicorn" in meta
    core = [line for line in meta.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line]
    # the core keeps z3-solver, lark, numpy and numba (the last only where it has wheels: one line per marker)
    assert {re.match(r"Requires-Dist: ([\w-]+)", line)[1] for line in core} == {"z3-solver", "lark", "numpy", "numba"}


def test_installed_page_files_are_read_from_the_package(installed):
    script = ("from importlib import resources; "
              "print(len(resources.files('smtcrypt.web').joinpath('static', 'index.html').read_text()))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=clean_env(PYTHONPATH=str(installed)), cwd=installed.parent, timeout=60)
    assert result.returncode == 0 and int(result.stdout) > 1000, result.stderr


def test_wheel_grammar_is_the_repository_grammar(wheel):
    packaged = zipfile.ZipFile(wheel).read("smtcrypt/grammar/smtcrypt.lark").decode("utf-8")
    assert packaged == (REPO / "grammar" / "smtcrypt.lark").read_text(encoding="utf-8")


def test_wheel_declares_the_console_script(wheel):
    archive = zipfile.ZipFile(wheel)
    (entry_points,) = [name for name in archive.namelist() if name.endswith(".dist-info/entry_points.txt")]
    text = archive.read(entry_points).decode("utf-8")
    assert "[console_scripts]" in text
    assert "smtcrypt = smtcrypt.cli:run" in text
    (metadata,) = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
    meta = archive.read(metadata).decode("utf-8")
    assert "Requires-Dist: z3-solver" in meta and "Requires-Dist: lark" in meta


SCRIPT = """
import json, smtcrypt
from smtcrypt.core import parse
solution = next(smtcrypt.solve("SEND + MORE = MONEY"))
print(json.dumps({"file": smtcrypt.__file__, "text": solution.text, "mapping": solution.mapping,
                  "count": smtcrypt.count("ODD * ODD = FREAKY"), "grammar": len(parse.grammar_text())}))
"""


def test_installed_package_works_from_another_directory(installed, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=elsewhere,
                            env=clean_env(PYTHONPATH=str(installed)), timeout=120)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert Path(data["file"]).resolve().is_relative_to(installed.resolve())
    assert data["text"] == "9567 + 1085 = 10652"
    assert data["mapping"] == {"D": 7, "E": 5, "M": 1, "N": 6, "O": 0, "R": 8, "S": 9, "Y": 2}
    assert data["count"] == 2
    assert data["grammar"] > 0


def test_installed_grammar_is_read_from_the_package(installed):
    grammar = installed / "smtcrypt" / "grammar" / "smtcrypt.lark"
    assert grammar.is_file()
    assert not (installed / "grammar").exists()  # no fallback to a checkout's grammar/ folder


def test_installed_module_runs_as_a_command(installed, tmp_path):
    result = subprocess.run([sys.executable, "-m", "smtcrypt", "--count", "NUM + BER = PLAY"], capture_output=True,
                            text=True, cwd=tmp_path, env=clean_env(PYTHONPATH=str(installed)), timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "96\n"


def test_installed_console_script(installed, tmp_path):
    script = installed / "bin" / "smtcrypt"
    if not script.exists():
        pytest.skip(f"pip did not write a script into {script.parent}")
    result = subprocess.run([str(script), "--unique", "SEND + MORE = MONEY"], capture_output=True, text=True,
                            cwd=tmp_path, env=clean_env(PYTHONPATH=str(installed)), timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "9567 + 1085 = 10652  /  D=7 E=5 M=1 N=6 O=0 R=8 S=9 Y=2"
