"""Building the static edition: ``python -m tartli.site build`` (see :mod:`tartli.site`).

What ``build`` does (network to PyPI and npm is needed then, and only then):

1. A build environment (``<cache>/venv``) with the pinned tools: ``voici`` 0.10 and
   ``jupyterlite-pyodide-kernel`` 0.7.0 (0.7.2 fails to load its extension under Voici
   0.10), without ``jupyterlite-xeus``, which Voici installs but which breaks the build of
   a Pyodide site; plus the widget packages whose browser halves go into the site.
2. A local Pyodide instead of the CDN one the kernel uses by default: the runtime from the
   npm package ``pyodide`` (the same version the kernel expects), and the pure-Python
   wheels the kernel and the course load, downloaded from PyPI: ``micropip``, IPython and
   its dependencies, ``comm``, ``ipywidgets``, ``anywidget``... and this project's wheel.
   The build writes the Pyodide lock file that lists exactly these wheels with their
   SHA-256 (the npm package's lock file names the Pyodide project's own builds, which are
   only on its CDN). Two packages of the kernel's list are left out (:data:`PLACEHOLDERS`):
   ``sqlite3`` (IPython's history store, which has no pure-Python wheel) and ``jedi``
   (completion in a code editor, which the pages do not have): the lock points them at empty
   placeholder wheels, so the kernel starts without them, and IPython runs without a history
   file and completes without jedi, as it does wherever they are missing.
3. The site's settings make the kernel load ``tartli`` (and with it the widgets) while it
   starts, before the page's first cell runs, so the learner sees no installation; the
   fallback to PyPI is switched off.
4. A memory snapshot of a started kernel (:func:`_snapshot`): made in Node.js with the site's
   own Pyodide, after loading the packages and importing IPython, the kernel, the widgets and
   the course, with the site-packages files a page still reads as one archive beside it, and
   the standard library's zip without the modules already imported (:mod:`tartli.site.snapshot`).
   The memory malloc holds free is zeroed first, so that it compresses. A page restores it
   instead of starting Python from the wheels (first widget, warm cache: about 6 s before,
   about 2 s after). The kernel's worker is edited to do so (:func:`patch_worker`), and falls
   back to the wheels when the snapshot cannot be used. The snapshot's files carry a hash of
   their content in their names, so that hosts and browsers may keep them for good.
5. ``voici build`` with the course's page template (no CDN links), sources stripped, and a
   start page that opens the lesson index. Each page's notebook carries its first screen (its own
   words, drawn until its Python has started: :mod:`tartli.site.preview`).
6. A gzip and a brotli copy beside every large file that compresses (:mod:`tartli.site.compress`),
   which ``python -m tartli.site serve`` (:mod:`tartli.site.serve`) and a host set up as
   docs/teachers/hosting.md says send to a browser that asks for them.

The learner's progress is kept in the browser's ``localStorage``, as in the Voilà app; the
links between pages point at ``.html`` pages there (:func:`tartli.course.page_url`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tarfile
import venv
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tartli.app import environment
from tartli.course import PAGES, notebooks_dir, page_url
from tartli.names import LANGUAGES
from tartli.site.compress import precompress
from tartli.site.preview import METADATA_KEY, first_screen

__all__ = ["BROWSER_WHEELS", "BUILD_TOOLS", "PYODIDE_VERSION", "BuildError", "build", "pyodide_lock", "size_of"]

PYODIDE_VERSION = "0.29.0"
"""The Pyodide release that ``jupyterlite-pyodide-kernel`` 0.7.0 is built for (its ``PYODIDE_VERSION``)."""

BUILD_TOOLS = (
    "voici==0.10.0",
    "jupyterlite-pyodide-kernel==0.7.0",
    "ipywidgets==8.1.9",
    "jupyterlab-widgets==3.0.17",
    "anywidget==0.11.0",
)
"""The build environment. The widget versions here and in :data:`BROWSER_WHEELS` must agree: the
JavaScript half of a widget comes from the build environment, the Python half from the wheel."""

BROWSER_WHEELS = (
    "comm==0.2.3",
    "ipywidgets==8.1.9",
    "jupyterlab-widgets==3.0.17",
    "anywidget==0.11.0",
    "psygnal==0.16.1",
    "markdown-it-py==4.3.0",
    "mdurl==0.1.2",
)
"""The course's own run-time wheels for the browser, besides the kernel's (taken at the versions of
the npm package's lock file) and this project's."""

KERNEL_PACKAGES = (
    "micropip",
    "ipython",
    "asttokens",
    "decorator",
    "executing",
    "matplotlib-inline",
    "prompt-toolkit",
    "pure-eval",
    "pygments",
    "six",
    "stack-data",
    "traitlets",
    "wcwidth",
    "typing-extensions",
)
"""Pyodide packages the kernel loads as it starts (micropip; then IPython, jedi and their dependencies)."""

PLACEHOLDERS = ("sqlite3", "jedi")
"""Packages the kernel installs as it starts that the course does without (see the module notes):
``sqlite3``, IPython's history store, has no pure-Python wheel; ``jedi`` only serves completion
in a code editor, which the course's pages do not have, and its wheel (2.7 MB, 2,000 files with
its type stubs) would be unpacked on every page load. IPython runs without either, as it does
wherever they are missing."""

KERNEL_WHEELS = ("ipykernel-", "piplite-", "pyodide_kernel-", "widgetsnbextension-4.")
"""The kernel's own wheels, shipped in its JupyterLab extension (``static/pypi``): its ``ipykernel``
stand-in, ``piplite``, the kernel itself, and the ``widgetsnbextension`` stand-in for ipywidgets 8."""

PRELOAD = (
    "micropip",
    "piplite",
    "sqlite3",
    "ipykernel",
    "comm",
    "pyodide_kernel",
    "jedi",
    "ipython",
    "widgetsnbextension",
    "tartli",
)
"""Loaded by Pyodide as it starts, from the local lock file (``loadPyodideOptions.packages``): the
kernel skips installing what is listed here, so nothing goes through micropip's resolver (which
took about 3 of the first 10 seconds), and the course is importable before the first cell runs."""

_DEPENDS = {
    "piplite": ["micropip"],
    "pyodide-kernel": ["ipykernel", "ipython", "comm", "traitlets"],
    "ipywidgets": ["comm", "ipython", "traitlets", "jupyterlab-widgets", "widgetsnbextension"],
    "anywidget": ["ipywidgets", "psygnal", "typing-extensions"],
    "tartli": ["ipywidgets", "anywidget", "traitlets", "markdown-it-py"],
    "markdown-it-py": ["mdurl"],
}
"""Dependencies of the wheels the npm lock file does not know (Pyodide loads what a package's lock
entry lists; it does not read the wheel's own requirements)."""

_RUNTIME_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")


class BuildError(Exception):
    """A step of the build failed; the message says which and why."""


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _run(cmd: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Run one step, its output kept (and returned); on failure the error names the step and shows the output's tail."""
    shown = " ".join(str(c) for c in cmd)
    print("+", shown if len(shown) < 300 else shown[:300] + " ...", flush=True)
    result = subprocess.run(list(cmd), cwd=cwd, env=env, check=False, capture_output=True, text=True)
    if result.returncode != 0:
        lines = (result.stdout + result.stderr).splitlines()[-25:]
        tail = "\n".join(line if len(line) < 400 else line[:400] + " ..." for line in lines)
        raise BuildError(f"this step failed (exit status {result.returncode}): {shown[:300]}\n{tail}")
    return result.stdout


def _tools(cache: Path) -> Path:
    """The build environment's Python (created and filled once per set of pinned tools)."""
    env_dir = cache / "venv"
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    stamp = env_dir / "tartli-tools.txt"
    wanted = "\n".join(BUILD_TOOLS)
    if python.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
        return python
    if env_dir.exists():
        shutil.rmtree(env_dir)
    venv.create(env_dir, with_pip=True)
    _run([str(python), "-m", "pip", "install", "--quiet", *BUILD_TOOLS])
    # Voici 0.10 depends on jupyterlite-xeus, whose add-on breaks a site built for the Pyodide kernel.
    _run([str(python), "-m", "pip", "uninstall", "--quiet", "--yes", "jupyterlite-xeus"])
    stamp.write_text(wanted, encoding="utf-8")
    return python


def _npm_pyodide(cache: Path) -> Path:
    """The npm package ``pyodide`` unpacked (its ``package/`` folder)."""
    target = cache / f"pyodide-{PYODIDE_VERSION}"
    package = target / "package"
    if (package / "pyodide-lock.json").exists():
        return package
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError("npm is needed to fetch the Pyodide runtime (the npm package 'pyodide'); install Node.js")
    target.mkdir(parents=True, exist_ok=True)
    _run([npm, "pack", "--silent", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", str(target)])
    archive = target / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not archive.exists():
        raise BuildError(f"npm pack did not produce {archive}")
    expected = pins()[f"npm:pyodide=={PYODIDE_VERSION}"]
    actual = hashlib.sha256(archive.read_bytes()).hexdigest()
    if actual != expected:
        archive.unlink()
        raise BuildError(f"{archive.name}: SHA-256 {actual}, but files/pins.txt pins {expected}")
    _safe_extract(archive, target)
    return package


def _safe_extract(archive: Path, target: Path) -> None:
    """Unpack a tarball of plain files and folders inside ``target`` only.

    Python's ``filter="data"`` (3.12, and the 3.10.12 / 3.11.4 security releases) does this; on
    an older patch release the same checks are made here before extracting.
    """
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            try:
                tar.extractall(target, filter="data")
            except tarfile.TarError as err:  # FilterError and its kinds: a member that would land outside
                raise BuildError(f"{archive.name}: refusing to unpack it: {err}") from None
            return
        root = target.resolve()
        for member in tar.getmembers():
            where = (target / member.name).resolve()
            if not (member.isfile() or member.isdir()) or not where.is_relative_to(root):
                raise BuildError(f"{archive.name}: refusing to unpack {member.name!r} (not a plain file inside)")
        tar.extractall(target)  # every member was checked above


FILES = Path(__file__).resolve().parent / "files"
"""The build's own files: the pins, the snapshot maker and the worker's snapshot loader."""

PINS = FILES / "pins.txt"
"""The SHA-256 of every file the build downloads (wheels from PyPI, Pyodide from npm)."""


def pins() -> dict[str, str]:
    """``{"name==version": sha256}`` from :data:`PINS` (names normalized; npm packages as ``npm:name``)."""
    table: dict[str, str] = {}
    for line in PINS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            requirement, digest = line.split()
            name, _, version = requirement.partition("==")
            key = name if name.startswith("npm:") else _normalize(name)
            table[f"{key}=={version}"] = digest
    return table


def _download(python: Path, requirements: Sequence[str], dest: Path) -> None:
    """Pure-Python wheels (``py3-none-any``) for the browser, without their dependencies, each
    checked by pip against its pinned SHA-256 (``--require-hashes``)."""
    dest.mkdir(parents=True, exist_ok=True)
    table = pins()
    lines = []
    for requirement in requirements:
        name, _, version = requirement.partition("==")
        digest = table.get(f"{_normalize(name)}=={version}")
        if digest is None:
            raise BuildError(f"{requirement}: no pinned SHA-256 in {PINS.name}; add its line")
        lines.append(f"{requirement} --hash=sha256:{digest}")
    pinned = dest / "requirements-pinned.txt"
    pinned.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _run(
        [
            str(python),
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--platform=any",
            "--implementation=py",
            "--abi=none",
            "--python-version=3.13",
            "--dest",
            str(dest),
            "--require-hashes",
            "-r",
            str(pinned),
        ]
    )


def _placeholder_wheel(folder: Path, name: str) -> Path:
    """An empty wheel that only records that ``name`` is installed (see the module notes)."""
    path = folder / f"{name}-0.0.0-py3-none-any.whl"
    info = f"{name}-0.0.0.dist-info"
    with zipfile.ZipFile(path, "w") as wheel:
        for member, text in (
            ("METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.0\nSummary: not available here\n"),
            ("WHEEL", "Wheel-Version: 1.0\nGenerator: tartli.site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
            ("RECORD", ""),
        ):
            entry = zipfile.ZipInfo(f"{info}/{member}", date_time=(1980, 1, 1, 0, 0, 0))
            wheel.writestr(entry, text)
    return path


_COMPILE_PY = r"""
import base64, hashlib, importlib.util, io, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def _row(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def imported_at_start(modules):
    # the files (relative to site-packages) of every module that importing ``modules`` loads
    # No browser is attached here: the kernel's messages to the page (a widget made while
    # importing, such as a shared Layout, opens a comm) go nowhere, as the browser's kernel
    # would send them through `send_comm`.
    import importlib, site, sys
    import IPython

    for name in modules:
        shell = IPython.get_ipython()
        if shell is not None:
            shell.send_comm = lambda *args, **kwargs: None
        importlib.import_module(name)
    root = site.getsitepackages()[0] + "/"
    files = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None) or ""
        if file.startswith(root):
            files.add(file[len(root):])
    return files

def guarded(source):
    # run a statement; the traceback as text if it fails (the JavaScript side reports it)
    import traceback
    try:
        exec(source, globals())
    except BaseException:
        return traceback.format_exc()
    return ""

def compile_wheel(path, wanted):
    out = io.BytesIO()
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        record = next(n for n in src.namelist() if n.endswith(".dist-info/RECORD"))
        rows = []
        for info in src.infolist():
            if info.filename == record or info.is_dir():
                continue
            data = src.read(info)
            dst.writestr(info, data)
            rows.append(_row(info.filename, data))
            name = info.filename
            if name not in wanted:
                continue
            try:
                code = compile(data, name, "exec", dont_inherit=True)
            except SyntaxError:
                continue
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            cached = importlib.util.cache_from_source(name)
            dst.writestr(zipfile.ZipInfo(cached, date_time=info.date_time), pyc)
            rows.append(_row(cached, pyc))
        rows.append(f"{record},,")
        dst.writestr(zipfile.ZipInfo(record, date_time=(1980, 1, 1, 0, 0, 0)), "\n".join(rows) + "\n")
    with open(path, "wb") as f:
        f.write(out.getvalue())
"""

_COMPILE_JS = """
import { readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [runtime, packages, modules, ...wheels] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(runtime, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: runtime + "/", packages: packages.split(",") });
py.runPython(readFileSync(process.env.TARTLI_COMPILE_PY, "utf8"));
const guarded = py.globals.get("guarded");
function run(statement) {
  const failure = guarded(statement);
  if (failure) {
    writeSync(2, failure);  // the Python traceback, in full
    process.exit(1);
  }
}
run(`wanted = imported_at_start(${JSON.stringify(modules.split(","))})`);
for (const wheel of wheels) {
  py.FS.writeFile("/compile.whl", readFileSync(wheel));
  run("compile_wheel('/compile.whl', wanted)");
  writeFileSync(wheel, py.FS.readFile("/compile.whl"));
}
"""

STARTUP_MODULES = (
    "IPython",
    "ipykernel",
    "comm",
    "ipywidgets",
    "anywidget",
    "tartli.widgets.board",
    "tartli.widgets.course_map",
    "tartli.widgets.endgame",
    "tartli.widgets.lab",
    "tartli.widgets.lesson",
    "tartli.widgets.quizzes",
    "tartli.widgets.table",
    "tartli.widgets.trainers",
    "tartli.bots",
)
"""Imported while a page starts: the modules these load get bytecode in the wheels (see
:func:`_precompile`); the rest (most of Pygments' lexers, tests...) stay source only, which keeps
the wheels small, since Pyodide unpacks every wheel as the page starts."""


def _node(purpose: str) -> str:
    """The Node.js executable, which runs the site's own Pyodide at build time."""
    node = shutil.which("node")
    if node is None:
        raise BuildError(f"Node.js is needed {purpose}; install it")
    return node


def _precompile(cache: Path, runtime: Path, wheels: Sequence[Path]) -> None:
    """Add bytecode to the wheels, compiled by the site's own Pyodide (CPython 3.13, in Node.js).

    Each ``.py`` file gets its ``__pycache__/*.cpython-313.pyc`` beside it, of the unchecked-hash
    kind (:pep:`552`), so the browser's Python imports the bytecode without compiling the sources
    (which stay, for tracebacks and ``inspect``): importing IPython took 2.1 s without it, 1.0 s
    with it (Node.js here). The wheels' RECORD files are rewritten to match.
    """
    node = _node("to precompile the wheels with the site's Pyodide")
    script = cache / "precompile.mjs"
    script.write_text(_COMPILE_JS, encoding="utf-8")
    helper = cache / "precompile.py"
    helper.write_text(_COMPILE_PY, encoding="utf-8")
    env = dict(os.environ, TARTLI_COMPILE_PY=str(helper))
    # The wheels are loaded from the folder they are in; that folder's lock file is the npm one,
    # which knows none of them: load them by their file URLs instead.
    urls = ",".join(w.resolve().as_uri() for w in wheels)
    # Run from the cache folder: Pyodide in Node.js sees the host's folders, and from a clone's root
    # `import tartli` would find the source tree instead of the wheel.
    _run(
        [node, str(script), str(runtime), urls, ",".join(STARTUP_MODULES), *(str(w) for w in wheels)],
        cwd=cache,
        env=env,
    )


SNAPSHOT_MODULES = (*STARTUP_MODULES, "micropip", "piplite.piplite")
"""Imported (with ``pyodide_kernel``, which makes the IPython shell and kernel) before the memory
snapshot is taken: a page then finds them imported."""

SNAPSHOT_FILES = {
    "snapshotURL": "snapshot.bin",
    "snapshotFilesURL": "snapshot-files.bin",
    "snapshotStdlibURL": "snapshot-stdlib.zip",
    "snapshotHelperURL": "snapshot-loader.js",
}
"""The snapshot, the site-packages archive, the trimmed standard library and the worker's loader, in
the site's Pyodide folder, by the setting that names each. The build puts a hash of each file's
content into its name (``snapshot-1f2e3d4c5b6a7980.bin``), so that a host and a browser may keep
them for good (:func:`tartli.site.serve.cache_control`)."""


def hashed_name(path: Path) -> Path:
    """``path`` renamed to hold the first 16 hexadecimal digits of its SHA-256: ``snapshot-<hash>.bin``."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return path.rename(path.with_name(f"{path.stem}-{digest}{path.suffix}"))


def _snapshot(cache: Path, runtime: Path) -> dict[str, str]:
    """Take the memory snapshot of a started kernel (``files/make_snapshot.mjs``, Node.js and
    the site's own Pyodide, lock and wheels) into ``runtime``; return the kernel's settings for it.

    A page restores it instead of unpacking 26 wheels and importing IPython, the kernel and the
    course (first widget with a warm cache: 5.9 s without it, about 2 s with it). Python's state
    is frozen at build time, so the loader reseeds ``random`` on every visit; the snapshot is
    made anew by every build, after the wheels are final (it holds their code). What a page still
    reads from its file system, and what it does not, is :mod:`tartli.site.snapshot`'s choice.
    """
    node = _node("to make the Pyodide snapshot")
    summary = _run(
        [
            node,
            str(FILES / "make_snapshot.mjs"),
            str(runtime),
            str(runtime / "snapshot"),
            ",".join(PRELOAD),
            ",".join(SNAPSHOT_MODULES),
            str(Path(__file__).resolve().parent / "snapshot.py"),
        ],
        cwd=cache,  # not a clone's root: `import tartli` must find the wheel
    )
    facts = json.loads(summary.strip().splitlines()[-1])
    print(
        f"  snapshot: {facts['snapshot'] / 2**20:.1f} MiB of memory ({facts['heapInUse'] / 2**20:.1f} MiB in use), "
        f"{facts['files']} files, the standard library's zip without {facts['stdlib']['cut']} modules",
        flush=True,
    )
    shutil.copy2(FILES / "snapshot-loader.js", runtime / SNAPSHOT_FILES["snapshotHelperURL"])
    base = "static/pyodide/"  # the kernel resolves options named ...URL against the site's base URL
    settings = {key: base + hashed_name(runtime / name).name for key, name in SNAPSHOT_FILES.items()}
    # The loader checks these before use (a copy damaged on its way to a host, or a file replaced
    # there, falls back to the wheels): the SHA-256 of each file as the browser has it.
    for key, setting in (("snapshotSHA256", "snapshotURL"), ("snapshotFilesSHA256", "snapshotFilesURL")):
        settings[key] = hashlib.sha256((runtime / settings[setting].removeprefix(base)).read_bytes()).hexdigest()
    return settings


_WORKER_CALL = re.compile(
    r"this\._pyodide=await (\w+)\(\{indexURL:(.{1,400}?)\.\.\.e\.loadPyodideOptions\}\),"
    r"this\._pyodide\._api\.on_fatal="
)
_WORKER_PATCHED = (
    "this._pyodide=await ((f,o)=>{{try{{o.snapshotHelperURL&&!self.tartliSnapshot&&importScripts(o.snapshotHelperURL)}}"
    "catch(x){{console.warn(x)}}return self.tartliSnapshot?self.tartliSnapshot.load(f,o):f(o)}})"
    "({name},{{indexURL:{middle}...e.loadPyodideOptions}}),"
    "self.tartliSnapshot&&self.tartliSnapshot.restored(this._pyodide),this._pyodide._api.on_fatal="
)


def patch_worker(site: Path) -> int:
    """Make the Pyodide kernel's worker start from the snapshot (one edit of its loadPyodide call,
    in each built copy of the worker): it loads ``snapshot-loader.js`` and lets it call loadPyodide,
    and after that writes the site-packages files. Returns the number of calls edited; the build
    fails if the call is not where jupyterlite-pyodide-kernel 0.7.0 has it."""
    edited = 0
    static = site / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    for js in sorted(static.glob("*.js")):
        text = js.read_text(encoding="utf-8")
        if "async initRuntime(" not in text:
            continue
        new, n = _WORKER_CALL.subn(lambda m: _WORKER_PATCHED.format(name=m.group(1), middle=m.group(2)), text)
        if not n:
            raise BuildError(f"the kernel's worker {js.name} has no loadPyodide call where expected")
        js.write_text(new, encoding="utf-8")
        edited += n
    if not edited:
        raise BuildError(f"no Pyodide kernel worker found in {static}")
    return edited


def _top_level(wheel: Path) -> list[str]:
    """The importable names a wheel installs."""
    names = set()
    with zipfile.ZipFile(wheel) as archive:
        for item in archive.namelist():
            top = item.split("/")[0]
            if top.endswith((".dist-info", ".data")):
                continue
            names.add(top.removesuffix(".py"))
    return sorted(names)


def pyodide_lock(
    npm_lock: dict[str, object], wheels: Sequence[Path], placeholders: Sequence[Path] = ()
) -> dict[str, object]:
    """The lock file of the local Pyodide: exactly ``wheels``, with their own SHA-256.

    Dependencies come from the npm package's lock file where it knows the package, minus
    ``matplotlib`` (``matplotlib-inline`` only needs it for plots), else from :data:`_DEPENDS`.
    ``placeholders`` (empty wheels, :data:`PLACEHOLDERS`) depend on nothing.
    """
    known = npm_lock.get("packages", {})
    assert isinstance(known, dict)
    packages: dict[str, dict[str, object]] = {}
    for wheel in [*wheels, *placeholders]:
        name, version = wheel.name.split("-")[:2]
        key = _normalize(name)
        old = known.get(key, {})
        depends = [_normalize(d) for d in old.get("depends", _DEPENDS.get(key, [])) if d != "matplotlib"]
        if wheel in placeholders:
            depends = []
        packages[key] = {
            "name": name,
            "version": version,
            "file_name": wheel.name,
            "install_dir": "site",
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package",
            "imports": _top_level(wheel),
            "depends": depends,
            "unvendored_tests": False,
            "shared_library": False,
        }
    missing = sorted({d for p in packages.values() for d in p["depends"] if d not in packages})  # type: ignore[attr-defined]
    if missing:
        raise BuildError(f"the local Pyodide lacks packages that others depend on: {', '.join(missing)}")
    return {"info": npm_lock["info"], "packages": dict(sorted(packages.items()))}


def _lite_dir(cache: Path, python: Path, project_wheel: Path) -> Path:
    """The JupyterLite source folder: the local Pyodide and the site's settings."""
    package = _npm_pyodide(cache)
    npm_lock = json.loads((package / "pyodide-lock.json").read_text(encoding="utf-8"))
    known = npm_lock["packages"]
    kernel = [f"{name}=={known[name]['version']}" for name in KERNEL_PACKAGES]
    wheels_dir = cache / "wheels"
    _download(python, [*kernel, *BROWSER_WHEELS], wheels_dir)
    wanted = {_normalize(r.split("==")[0]): r.split("==")[1] for r in [*kernel, *BROWSER_WHEELS]}
    wheels = [
        w
        for w in sorted(wheels_dir.glob("*.whl"))
        if wanted.get(_normalize(w.name.split("-")[0])) == w.name.split("-")[1]
    ]
    lite = cache / "lite"
    if lite.exists():
        shutil.rmtree(lite)
    runtime = lite / "static" / "pyodide"
    runtime.mkdir(parents=True)
    for name in _RUNTIME_FILES:
        shutil.copy2(package / name, runtime / name)
    for wheel in wheels:
        shutil.copy2(wheel, runtime / wheel.name)
    shutil.copy2(project_wheel, runtime / project_wheel.name)
    kernel_pypi = python.parent.parent / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
    own = [w for w in sorted(kernel_pypi.glob("*.whl")) if w.name.startswith(KERNEL_WHEELS)]
    if len(own) != len(KERNEL_WHEELS):
        raise BuildError(f"the Pyodide kernel's own wheels were not found in {kernel_pypi}")
    for wheel in own:
        shutil.copy2(wheel, runtime / wheel.name)
    placeholders = [_placeholder_wheel(runtime, name) for name in PLACEHOLDERS]
    everything = [*wheels, project_wheel, *own]
    _precompile(cache, package, [runtime / w.name for w in everything])
    lock = pyodide_lock(npm_lock, [runtime / w.name for w in everything], placeholders)
    (runtime / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")
    snapshot = _snapshot(cache, runtime)
    settings = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Tartli",
            # JupyterLite's service worker keeps every file a page fetched (stale-while-revalidate), so
            # a page opens offline after one visit; the page template fetches once more, through it,
            # what the page loaded before the worker took over.
            "enableServiceWorkerCache": True,
            "litePluginSettings": {
                "@jupyterlite/pyodide-kernel-extension:kernel": {
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": list(PRELOAD), **snapshot},
                }
            },
        },
    }
    (lite / "jupyter-lite.json").write_text(json.dumps(settings, indent=1), encoding="utf-8")
    return lite


def _project_root() -> Path:
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").exists():
        raise BuildError("the static site is built from a clone of the project (no pyproject.toml next to tartli/)")
    return root


_START_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Tartli: learn the game</title>
<meta http-equiv="refresh" content="0; url=voici/render/{first}">
</head><body><p><a href="voici/render/{first}">Open the course</a></p></body></html>
"""


def build(out: Path, cache: Path) -> Path:
    """Build the static site into ``out`` (replaced if it exists) and return it."""
    root = _project_root()
    out = out.resolve()
    cache = cache.resolve()
    cache.mkdir(parents=True, exist_ok=True)
    python = _tools(cache)
    project = cache / "project"
    if project.exists():
        shutil.rmtree(project)
    _run([str(python), "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(project), str(root)])
    (project_wheel,) = project.glob("tartli-*.whl")
    lite = _lite_dir(cache, python, project_wheel)
    if out.exists():
        shutil.rmtree(out)
    for stale in cache.glob(".jupyterlite.doit.db*"):  # a full build every time, never a stale one
        stale.unlink()
    env = environment()  # the course's page template on JUPYTER_PATH, as for the Voilà app
    voici = python.parent / ("voici.exe" if os.name == "nt" else "voici")
    _run(
        [
            str(voici),
            "build",
            "--lite-dir",
            str(lite),
            "--contents",
            str(_contents(cache)),
            "--output-dir",
            str(out),
            "--apps",
            "voici",
            "--no-sourcemaps",
            "--template",
            "tartli",
            "--VoilaConfiguration.strip_sources=True",
            "--VoilaConfiguration.show_tracebacks=False",
        ],
        cwd=cache,
        env=env,
    )
    patch_worker(out)
    (out / "index.html").write_text(
        _START_PAGE.format(first=PAGES[0].file.removesuffix(".ipynb") + ".html"), encoding="utf-8"
    )
    (out / ".nojekyll").write_text("", encoding="utf-8")  # GitHub Pages: serve every file as it is
    for page in PAGES:
        for lang in LANGUAGES:
            rendered = out / "voici" / "render" / page_url(page, static=True, lang=lang)
            if not rendered.exists():
                raise BuildError(f"Voici did not render {rendered.name}")
    try:
        summary = precompress(out, _node("to write the brotli copies of the site's files"))
    except subprocess.CalledProcessError as err:
        raise BuildError(f"compressing the site's files failed: {err.stderr[-2000:]}") from None
    print(f"  compressed copies: {summary}", flush=True)
    return out


def language_copy(notebook: dict[str, Any], lang: str) -> dict[str, Any]:
    """``notebook`` speaking ``lang``: a first cell sets the language before any other runs.

    The static edition's kernel runs in the browser and cannot read the page's address, so each
    language has its own copy of each page (``NN.hu.html``, :func:`tartli.course.page_url`).

    >>> copy = language_copy({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, "hu")
    >>> copy["cells"][0]["source"]
    'from tartli import i18n\\ni18n.set_language("hu")'
    """
    cell: dict[str, Any] = {
        "cell_type": "code",
        "execution_count": None,
        "id": "tartli-language",
        "metadata": {},
        "outputs": [],
        "source": f'from tartli import i18n\ni18n.set_language("{lang}")',
    }
    return {**notebook, "cells": [cell, *notebook["cells"]]}


def _contents(cache: Path) -> Path:
    """The pages the site is built from: the course's notebooks, and a copy of each per language, each with
    its first screen in its metadata (:mod:`tartli.site.preview`)."""
    contents = cache / "contents"
    if contents.exists():
        shutil.rmtree(contents)
    contents.mkdir(parents=True)
    for page in PAGES:
        notebook = json.loads((notebooks_dir() / page.file).read_text(encoding="utf-8"))
        for lang in LANGUAGES:
            name = page_url(page, static=True, lang=lang).removesuffix(".html") + ".ipynb"
            copy = notebook if lang == "en" else language_copy(notebook, lang)
            metadata = dict(copy.get("metadata", {}))
            metadata["tartli"] = {**metadata.get("tartli", {}), METADATA_KEY: first_screen(page, lang)}
            copy = {**copy, "metadata": metadata}
            (contents / name).write_text(json.dumps(copy, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return contents


def size_of(folder: Path) -> int:
    """The total size of the files in ``folder``, in bytes."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
