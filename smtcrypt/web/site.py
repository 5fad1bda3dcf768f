"""The page without a server: `smtcrypt serve`'s page written to a static folder, solving in the browser.

The folder holds the page (`index.html`, `static/`), the wheels that the browser's Python installs
(Z3's WebAssembly build, lark, and smtcrypt's own wheel, made here from the installed package) and,
where a local copy is given, Pyodide itself. Any static host serves it; the page then asks nothing
of any server but its own folder (or, by default, Pyodide's public CDN for Pyodide).

Pyodide and Z3's wheel must be built for one platform: Z3 publishes its wheel for Pyodide's ABI
(`pyemscripten_2026_0_wasm32`, Pyodide 314's), so the page names that Pyodide release.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import resources
from pathlib import Path

from smtcrypt._version import __version__
from smtcrypt.core.parse import GRAMMAR_NAME, grammar_text

PYODIDE_VERSION = "314.0.8"
PYODIDE_CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
PYODIDE_ABI = "2026_0"  # Pyodide 314's platform, as its pyodide-lock.json says
WHEEL_PLATFORM = f"pyemscripten_{PYODIDE_ABI}_wasm32"
WHEEL_PYTHON = "3.14"  # Pyodide 314's Python
NEEDED = {"z3_solver": f"Z3's WebAssembly wheel (z3_solver-*-{WHEEL_PLATFORM}.whl)", "lark": "lark's wheel"}
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PAGE_FILES = ("app.js", "style.css", "worker.mjs")
SKIPPED = {"__pycache__"}


class SiteError(Exception):
    """The folder cannot be written as asked: a message for the user (exit 2)."""


def write_site(out: Path, *, pyodide: str | None = None, wheels: Path | None = None, timeout: float = 10.0) -> Path:
    """Write the static page to `out` (made if need be) and return its index. `pyodide`: a folder
    holding Pyodide (an unpacked npm package: copied in) or its URL (default: the CDN of
    PYODIDE_VERSION); `wheels`: a folder with Z3's and lark's wheels for Pyodide (default: fetched
    with pip); `timeout`: the page's limit on each search, in seconds."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "static").mkdir(exist_ok=True)
    (out / "wheels").mkdir(exist_ok=True)
    for name in PAGE_FILES:
        (out / "static" / name).write_text(page_file(name), encoding="utf-8")
    with tempfile.TemporaryDirectory() as fetched:
        chosen = find_wheels(wheels if wheels is not None else fetch_wheels(Path(fetched)))
        names = [copy(wheel, out / "wheels") for wheel in chosen]
    names.append(build_wheel(out / "wheels").name)
    pyodide_url = place_pyodide(pyodide, out)
    index = out / "index.html"
    attributes = {"pyodide": pyodide_url, "wheels": " ".join(f"wheels/{name}" for name in names),
                  "timeout": f"{timeout:g}", "version": __version__}
    body = "<body " + " ".join(f'data-{key}="{html.escape(value)}"' for key, value in attributes.items()) + ">"
    page = page_file("index.html")
    if page.count("<body>") != 1:
        raise SiteError("the page has no single <body> to set its solver on")
    index.write_text(page.replace("<body>", body), encoding="utf-8")
    return index


def page_file(name: str) -> str:
    return resources.files("smtcrypt.web").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def copy(path: Path, folder: Path) -> str:
    shutil.copyfile(path, folder / path.name)
    return path.name


def place_pyodide(pyodide: str | None, out: Path) -> str:
    """The address the page loads Pyodide from: a URL as given, or a local copy's files copied to
    `out/pyodide/` (after checking that it is the platform of Z3's wheel)."""
    if pyodide is None:
        return PYODIDE_CDN
    if pyodide.startswith(("https://", "http://")):
        return pyodide.rstrip("/") + "/"
    source = Path(pyodide)
    if (source / "package" / "pyodide.mjs").is_file():  # an npm package's tarball, unpacked as it comes
        source = source / "package"
    missing = [name for name in PYODIDE_FILES if not (source / name).is_file()]
    if missing:
        raise SiteError(f"{pyodide}: not a Pyodide folder (no {', '.join(missing)}); unpack the npm package "
                        f"pyodide@{PYODIDE_VERSION} there, or give its URL")
    try:
        abi = json.loads((source / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]["abi_version"]
    except (ValueError, KeyError, TypeError):
        raise SiteError(f"{pyodide}: pyodide-lock.json does not say its platform") from None
    if abi != PYODIDE_ABI:
        raise SiteError(f"{pyodide}: Pyodide for platform {abi}, where Z3's wheel is built for {PYODIDE_ABI} "
                        f"(Pyodide {PYODIDE_VERSION})")
    (out / "pyodide").mkdir(exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(source / name, out / "pyodide" / name)
    return "pyodide/"


def fetch_wheels(folder: Path) -> Path:
    """Z3's and lark's wheels for Pyodide's platform, downloaded by pip into `folder`."""
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
               "--platform", WHEEL_PLATFORM, "--python-version", WHEEL_PYTHON, "--implementation", "cp",
               "--dest", str(folder), "z3-solver", "lark"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise SiteError(f"pip could not fetch the wheels ({error}); give a folder of them with --wheels") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SiteError(f"pip could not fetch the wheels ({last}); give a folder of them with --wheels")
    return folder


def find_wheels(folder: Path) -> list[Path]:
    """The newest wheel of each project the page needs in `folder`; SiteError names what is missing."""
    if not folder.is_dir():
        raise SiteError(f"{folder}: no such folder of wheels")
    chosen = []
    for project, what in NEEDED.items():
        found = sorted((path for path in folder.glob(f"{project}-*.whl")
                        if project != "z3_solver" or path.name.endswith(f"-{WHEEL_PLATFORM}.whl")),
                       key=lambda path: wheel_version(path.name))
        if not found:
            raise SiteError(f"{folder}: no {what}; pip download --no-deps --only-binary=:all: --platform "
                            f"{WHEEL_PLATFORM} --python-version {WHEEL_PYTHON} z3-solver lark fetches them")
        chosen.append(found[-1])
    return chosen


def wheel_version(name: str) -> tuple[int, ...]:
    """A wheel's version as numbers, to choose the newest (a part that is no number counts as 0)."""
    return tuple(int(part) if part.isdigit() else 0 for part in name.split("-")[1].split("."))


def build_wheel(folder: Path) -> Path:
    """smtcrypt's own wheel, made from the installed package (the grammar inside it, as the wheel
    that pip installs has it): pure Python, so the browser's Python installs it as it is."""
    package = Path(__file__).resolve().parents[1]
    dist_info = f"smtcrypt-{__version__}.dist-info"
    files: dict[str, bytes] = {}
    for path in sorted(package.rglob("*")):
        if path.is_file() and not SKIPPED & set(path.relative_to(package).parts) and path.suffix != ".pyc":
            files[f"smtcrypt/{path.relative_to(package).as_posix()}"] = path.read_bytes()
    files[f"smtcrypt/grammar/{GRAMMAR_NAME}"] = grammar_text().encode("utf-8")
    files[f"{dist_info}/METADATA"] = (f"Metadata-Version: 2.1\nName: smtcrypt\nVersion: {__version__}\n"
                                      "Requires-Dist: z3-solver\nRequires-Dist: lark\n").encode()
    files[f"{dist_info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: smtcrypt page\nRoot-Is-Purelib: true\n"
                                   b"Tag: py3-none-any\n")
    record = [f"{name},sha256={digest(data)},{len(data)}" for name, data in files.items()]
    files[f"{dist_info}/RECORD"] = ("\n".join([*record, f"{dist_info}/RECORD,,"]) + "\n").encode()
    wheel = folder / f"smtcrypt-{__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return wheel


def digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
