"""Building the live page: Pyodide's files fetched once from npm, wheels built and bundled, a local server."""

from __future__ import annotations

import base64
import functools
import hashlib
import http.server
import importlib.metadata
import json
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from importlib import resources

from . import PYODIDE_VERSION, pyodide_cache

__all__: list = []  # the commands of python -m fnmcts.web (its __main__) use these

PYODIDE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", "package.json")
"""Pyodide's core files the page loads (the npm package's others, consoles and type files, stay out)."""

DEPENDENCIES = ("pyrsistent", "toolz")
"""The pure-Python packages installed in the page beside fnmcts: what ``import fnmcts.web`` and its searches import.

tqdm (the command line's progress bars) stays out: the page never imports it, and a test checks it."""

CHECKERS = ("hypothesis>=6.80",)
"""What ``fnmcts.testing`` and the exercises' checkers draw with, bundled so they run in the page's console too.

Not pinned to the version installed here: newer hypothesis releases come as
compiled wheels only, so pip takes the newest pure-Python one (with its own
dependency, sortedcontainers)."""

PAGE_FILES = ("index.html", "live.js")


def fetch(folder: pathlib.Path | None = None, version: str = PYODIDE_VERSION) -> pathlib.Path:
    """Pyodide's core files from the npm registry (``npm pack pyodide@version``) into ``folder``; return it.

    Nothing is fetched when ``folder`` already holds them.
    """
    folder = pathlib.Path(folder) if folder is not None else pyodide_cache()
    if all((folder / name).is_file() for name in PYODIDE_FILES):
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed to fetch Pyodide (Debian: apt-get install npm)")
    with tempfile.TemporaryDirectory(prefix="fnmcts-pyodide-") as work:
        done = subprocess.run([npm, "pack", f"pyodide@{version}", "--silent"], cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"npm pack pyodide@{version} failed: {done.stderr.strip()}")
        (archive,) = pathlib.Path(work).glob("pyodide-*.tgz")
        with tarfile.open(archive) as tar:
            tar.extractall(work, filter="data")
        folder.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copy2(pathlib.Path(work, "package", name), folder / name)
    return folder


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def fnmcts_wheel(folder: pathlib.Path) -> pathlib.Path:
    """A pure-Python wheel of the fnmcts package as it stands here (sources and page files), written into ``folder``.

    >>> import tempfile, zipfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     names = zipfile.ZipFile(fnmcts_wheel(pathlib.Path(d))).namelist()
    >>> "fnmcts/web/__init__.py" in names, "fnmcts/views/explorer/explorer.js" in names
    (True, True)
    """
    package = pathlib.Path(resources.files("fnmcts"))
    version = importlib.metadata.version("fnmcts")
    info = f"fnmcts-{version}.dist-info"
    wheel = pathlib.Path(folder) / f"fnmcts-{version}-py3-none-any.whl"
    files = sorted(
        p for p in package.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".so")
    )
    metadata = f"Metadata-Version: 2.1\nName: fnmcts\nVersion: {version}\n".encode()
    wheel_text = b"Wheel-Version: 1.0\nGenerator: fnmcts.web\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    records = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as out:
        for path in files:
            name = "fnmcts/" + path.relative_to(package).as_posix()
            data = path.read_bytes()
            out.writestr(name, data)
            records.append(_record_line(name, data))
        for name, data in ((f"{info}/METADATA", metadata), (f"{info}/WHEEL", wheel_text)):
            out.writestr(name, data)
            records.append(_record_line(name, data))
        records.append(f"{info}/RECORD,,")
        out.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return wheel


def _dependency_wheels(folder: pathlib.Path) -> None:
    """The pure-Python wheels of ``DEPENDENCIES`` at the versions installed here, and of ``CHECKERS``, into ``folder``."""
    pins = [f"{name}=={importlib.metadata.version(name)}" for name in DEPENDENCIES]
    _pip_download(folder, pins, "--no-deps")
    _pip_download(folder, list(CHECKERS))


def _pip_download(folder: pathlib.Path, requirements: list, *options) -> None:
    """pip's pure-Python wheels of ``requirements`` for the page's Python (3.14) into ``folder``, or a clear error."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", *options, "--only-binary=:all:", "--platform", "any",
         "--python-version", "3.14", "--implementation", "py", "--abi", "none", "-d", str(folder), *requirements],
        capture_output=True, text=True,
    )
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")] or [done.stderr.strip()]
        raise RuntimeError(f"pip could not download the pure-Python wheels {' '.join(requirements)}: {errors[-1]}")


def build(folder, pyodide=None) -> pathlib.Path:
    """The live page in ``folder``: its files, Pyodide's (from ``pyodide`` or ``fetch``'s cache) and the wheels.
    """
    folder = pathlib.Path(folder)
    source = fetch(pyodide)
    (folder / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(source / name, folder / "pyodide" / name)
    wheels = folder / "wheels"
    if wheels.exists():
        shutil.rmtree(wheels)
    wheels.mkdir()
    fnmcts_wheel(wheels)
    _dependency_wheels(wheels)
    page = resources.files(__package__).joinpath("page")
    for name in PAGE_FILES:
        (folder / name).write_text(page.joinpath(name).read_text(encoding="utf-8"), encoding="utf-8")
    manifest = {"pyodide": PYODIDE_VERSION, "wheels": sorted(p.name for p in wheels.glob("*.whl"))}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return folder


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Python's file server, with WebAssembly and JavaScript modules served as browsers require."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".whl": "application/zip", ".json": "application/json",
    }

    def log_message(self, format, *args):  # quiet: the page's requests are no news
        pass


def server(folder, port: int = 8000, host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    """An HTTP server of ``folder`` on ``host:port`` (``port=0``: a free one), not yet serving."""
    return http.server.ThreadingHTTPServer((host, port), functools.partial(_Handler, directory=str(folder)))


def serve(folder, port: int = 8000) -> None:
    """Serve the built page in ``folder`` on ``http://127.0.0.1:port/`` until interrupted.

    A folder that ``build`` did not make (no ``manifest.json``: a slip of its name) is a ``RuntimeError``
    naming the build command, not a server of an empty or missing folder.
    """
    if not (pathlib.Path(folder) / "manifest.json").is_file():
        what = "is no folder" if not pathlib.Path(folder).is_dir() else "holds no built page (no manifest.json)"
        raise RuntimeError(f"{folder} {what}: build the page first, python -m fnmcts.web build {folder}")
    with server(folder, port) as httpd:
        print(f"fnmcts live page: http://127.0.0.1:{httpd.server_address[1]}/ (Ctrl-C stops)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
