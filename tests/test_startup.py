"""What each way of starting loads: `import smtcrypt` and `smtcrypt --version` no third-party
package of weight, solving SEND + MORE = MONEY from the command line the formula parser (lark)
but neither the solver (z3) nor numpy, which a sum solved by the linear backend never needs.
Each case runs in a fresh process. No times here: they are measured by hand (`python -X importtime`,
the command timed over a few runs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# third-party packages that cost tens of milliseconds (or far more) to import
HEAVY = ("z3", "numpy", "numba", "llvmlite", "lark", "interegular", "dask", "distributed", "starlette", "uvicorn",
         "num2words")
# lark imports interegular when it is installed (it checks the grammar's terminals with it)
WITH_LARK = {"interegular"}

REPORT = ("import json, sys\n"
          "print(json.dumps(sorted({name.split('.')[0] for name in sys.modules} & set(sys.argv[1:]))))\n")


def heavy_modules_after(code: str) -> set[str]:
    """The HEAVY packages loaded in a fresh process once `code` has run."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    result = subprocess.run([sys.executable, "-c", code + "\n" + REPORT, *HEAVY], capture_output=True, text=True,
                            env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_import_loads_no_heavy_package():
    assert heavy_modules_after("import smtcrypt") == set()


def test_public_names_are_listed_before_they_load():
    """The names load with their first use; `dir` lists them all, and an unknown name is an AttributeError."""
    import smtcrypt

    assert set(smtcrypt.__all__) <= set(dir(smtcrypt))
    with pytest.raises(AttributeError):
        smtcrypt.no_such_name  # noqa: B018


def test_version_loads_no_heavy_package():
    code = ("import contextlib, io\nfrom smtcrypt.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            "    main(['--version'])\n")
    assert heavy_modules_after(code) == set()


def test_help_loads_no_heavy_package():
    code = ("import contextlib, io\nfrom smtcrypt.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            "    main(['--help'])\n")
    assert heavy_modules_after(code) == set()


def test_a_sum_loads_the_parser_but_not_the_solver():
    """SEND + MORE = MONEY goes to the linear backend: Z3 and numpy stay unloaded."""
    code = ("import contextlib, io\nfrom smtcrypt.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    assert main(['SEND + MORE = MONEY']) == 0\n"
            "assert out.getvalue().startswith('9567 + 1085 = 10652'), out.getvalue()\n")
    assert heavy_modules_after(code) - WITH_LARK == {"lark"}


def test_the_api_loads_the_solver_only_for_a_search_that_needs_it():
    code = ("import smtcrypt\nassert smtcrypt.count('SEND + MORE = MONEY') == 1\n")
    assert heavy_modules_after(code) - WITH_LARK == {"lark"}
    code = ("import smtcrypt\nassert smtcrypt.count('ODD * ODD = FREAKY', strategy='z3') == 2\n")
    assert heavy_modules_after(code) - WITH_LARK == {"lark", "z3"}


def test_a_small_product_walks_plain_without_numpy_or_numba():
    """ODD * ODD = FREAKY (72 steps) and NAUGHT ** 2 = ZERO ** 3 (812) end well before numba's load would:
    the digit search walks them as plain Python."""
    code = ("import smtcrypt\nassert smtcrypt.count('ODD * ODD = FREAKY') == 2\n"
            "assert smtcrypt.count('NAUGHT ** 2 = ZERO ** 3') == 1\n")
    assert heavy_modules_after(code) - WITH_LARK == {"lark"}


def test_the_memory_cap_reaches_z3_however_it_loads():
    """Z3 loaded by the search gets the cap before its first context; Z3 loaded already (by another
    tool of the process) gets it as any search starts."""
    code = ("import sys, smtcrypt\nsmtcrypt.set_memory_limit(300)\n"
            "assert smtcrypt.count('SEND + MORE = MONEY') == 1 and 'z3' not in sys.modules\n"
            "assert smtcrypt.count('ODD * ODD = FREAKY', strategy='z3') == 2\n"
            "import z3\nassert z3.get_param('memory_max_size') == '300'\n"
            "smtcrypt.set_memory_limit(400)\nassert smtcrypt.count('SEND + MORE = MONEY') == 1\n"
            "assert z3.get_param('memory_max_size') == '400'\n")
    assert heavy_modules_after(code) - WITH_LARK == {"lark", "z3"}


def modules_after(code: str, prefix: str) -> set[str]:
    """The modules under `prefix` loaded in a fresh process once `code` has run."""
    report = (f"import json, sys\nprint(json.dumps(sorted(name for name in sys.modules "
              f"if name.startswith({prefix!r}))))\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    result = subprocess.run([sys.executable, "-c", code + "\n" + report], capture_output=True, text=True,
                            env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_a_formula_loads_no_other_notation():
    """The readers of layouts, enigma.py command lines and Cryptator's notation load with their first
    use: a formula, the common case, does not wait for three more parsers to import. Their options
    records (a package's `options`, which the command line's option groups are made from) do load."""
    code = ("import contextlib, io\nfrom smtcrypt.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert main(['SEND + MORE = MONEY']) == 0\n")
    others = ("smtcrypt.notations.layout", "smtcrypt.notations.enigma", "smtcrypt.notations.cryptator")
    loaded = modules_after(code, "smtcrypt.notations")
    assert "smtcrypt.notations.formula" in loaded
    records = {f"{package}{part}" for package in others for part in ("", ".options")}
    assert not {name for name in loaded if name.startswith(others)} - records
    code = "import smtcrypt\nassert smtcrypt.Puzzle.from_cryptator('send+more=money').count() == 1\n"
    assert "smtcrypt.notations.cryptator" in modules_after(code, "smtcrypt.notations")
