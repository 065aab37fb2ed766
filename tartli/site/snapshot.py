"""What the memory snapshot leaves out: run inside the site's own Pyodide by ``files/make_snapshot.mjs``.

The build takes the snapshot in Node.js (:func:`tartli.site.builder._snapshot`) after importing
IPython, the kernel, the widgets and the course. A page then needs, besides the snapshot, only
what Python may still read from its file system: this module says which files those are. It
uses the standard library only and runs in the build's Pyodide (CPython 3.13); the tests run
:func:`left_out` under the project's own Python.

Two things are cut:

* **The site-packages archive** (:func:`archive_files`) leaves out the files no page reads:

  - the bytecode, and the sources of the other projects' modules, that are already imported in
    the snapshot (their code is in its memory). The course's own sources stay: a page reads
    ``tartli/rules.py`` (:func:`tartli.widgets.quizzes.rule_options`) and tracebacks show
    them;
  - the JupyterLab and notebook extensions inside the wheels (``*.data/``, ``labextension/``,
    ``nbextension/``): the browser half of a widget comes from the site's own extensions;
  - the course's files for the server and the build (``tartli/notebooks/``,
    ``tartli/server/``, ``tartli/site/``) and its translation sources (``.po``, ``.pot``: the
    kernel reads the compiled ``.mo``).

* **The standard library's zip** (:func:`trim_stdlib`) leaves out the modules already imported
  in the snapshot. The snapshot is taken after the trimmed zip has replaced the full one and the
  import system's caches have been cleared, so the snapshot's zip importer knows the trimmed zip;
  the page mounts the same one (the start without the snapshot mounts Pyodide's full zip).
"""

from __future__ import annotations

import importlib
import os
import sys
import zipfile

OWN_PACKAGE = "tartli"
"""The course's package, whose sources stay in the archive."""

EXTENSION_FOLDERS = ("labextension", "nbextension")
"""Folders inside a package that hold the JavaScript half of a widget for JupyterLab or the notebook."""

SERVER_ONLY = ("tartli/notebooks/", "tartli/server/", "tartli/site/")
"""The course's folders that only the Voilà app or the build use."""


def imported_files() -> set[str]:
    """The files (absolute paths) of every module imported so far, and of their bytecode."""
    files: set[str] = set()
    for module in list(sys.modules.values()):
        for attribute in ("__file__", "__cached__"):
            path = getattr(module, attribute, None)
            if isinstance(path, str):
                files.add(path)
    return files


def left_out(relative: str, imported: bool) -> str | None:
    """Why a file of site-packages (``relative`` to it) stays out of the archive, or None if it goes in.

    ``imported``: the file is the source or bytecode of a module imported in the snapshot.

    >>> left_out("IPython/core/display.py", imported=True)
    'already imported'
    >>> left_out("tartli/rules.py", imported=True) is None
    True
    >>> left_out("tartli/__pycache__/rules.cpython-313.pyc", imported=True)
    'already imported'
    >>> left_out("pygments/lexers/rust.py", imported=False) is None
    True
    >>> left_out("anywidget/labextension/static/main.js", imported=False)
    'an extension for JupyterLab or the notebook'
    >>> left_out("tartli/locale/hu/LC_MESSAGES/tartli.po", imported=False)
    'a translation source'
    >>> left_out("tartli/locale/hu/LC_MESSAGES/tartli.mo", imported=False) is None
    True
    """
    parts = relative.split("/")
    if imported and (relative.endswith(".pyc") or parts[0] != OWN_PACKAGE):
        return "already imported"
    if parts[0].endswith(".data") or any(part in EXTENSION_FOLDERS for part in parts[:-1]):
        return "an extension for JupyterLab or the notebook"
    if relative.startswith(SERVER_ONLY):
        return "the course's server or build"
    if relative.endswith((".po", ".pot")):
        return "a translation source"
    return None


def archive_files(root: str) -> tuple[list[str], list[str], dict[str, int]]:
    """The folders and files under ``root`` (site-packages) a page needs, and the bytes left out, by reason."""
    imported = imported_files()
    dirs: list[str] = []
    files: list[str] = []
    cut: dict[str, int] = {}
    for folder, subfolders, names in os.walk(root):
        subfolders.sort()
        dirs.append(folder)
        for name in sorted(names):
            path = f"{folder}/{name}"
            reason = left_out(path[len(root) + 1 :], path in imported)
            if reason is None:
                files.append(path)
            else:
                cut[reason] = cut.get(reason, 0) + os.path.getsize(path)
    return dirs, files, cut


def trim_stdlib(path: str, out: str) -> tuple[int, int]:
    """Write to ``out`` the standard library's zip at ``path`` without the modules already imported,
    put it in the zip's place and clear the import system's caches; the number of files kept and cut."""
    imported = imported_files()
    kept = cut = 0
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            if f"{path}/{info.filename}" in imported:
                cut += 1
                continue
            target.writestr(info, source.read(info), compress_type=info.compress_type, compresslevel=9)
            kept += 1
    os.replace(out, path)
    importlib.invalidate_caches()  # the zip importer reads the new zip's table of contents
    return kept, cut
