"""The offline edition ready-made: a built static site as one archive a teacher downloads and unpacks.

::

    python3 -m tartli.site build                      # (the release workflow, where Node.js and npm are)
    python3 -m tartli.site archive _site              # -> tartli-offline.zip

The archive holds one folder, ``tartli-offline/``: the site as it was built, and ``READ-ME.txt``, which
says in plain words (English, Hungarian, German) how to open the course with Python alone on a laptop or
a school's machine with no internet: ``python3 -m http.server`` in the folder, or the course's own static
server (``python3 -m tartli.site serve tartli-offline``) where the package is installed, or any web server.
Nothing in it needs Node.js, npm or the internet once unpacked.

The archive is a zip (the standard library's :mod:`zipfile`: every system opens it without a tool to
install). The site's large files are compressed already (their ``.br`` and ``.gz`` copies sit beside
them), so they are stored, not compressed again: a zip of the site is barely smaller deflated, and is
made and unpacked much faster stored.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from tartli.site.builder import BuildError

FOLDER = "tartli-offline"
"""The one folder the archive unpacks into."""
STORED = (".br", ".gz", ".zip", ".whl", ".wasm", ".png", ".jpg", ".woff2", ".bin")
"""Files kept as they are in the archive (compressed already, or not worth deflating)."""

READ_ME = """\
Tartli: the course, offline
===========================

This folder is the whole course: every lesson, the table, the rule book, in English,
Hungarian and German. It runs in the web browser; nothing is fetched from the internet.

To open it, a computer needs Python 3 (python.org; it is already there on most Linux
and Mac computers) and a web browser:

  1. Open a terminal (Windows: "Command Prompt") in the folder that holds this file.
  2. Type:   python3 -m http.server 8000          (Windows: py -m http.server 8000)
  3. Open    http://127.0.0.1:8000/    in the browser.

Leave the terminal open while you use the course; Ctrl+C stops it. Pupils' progress stays
in their own browser. A page opened once opens again even without the little server.

Where the tartli package is installed, its own server is a little faster (it sends the
compressed copies of the large files):   python3 -m tartli.site serve .
Any other web server works too: serve this folder as it is.

Magyarul: nyiss egy terminált ebben a mappában, írd be: python3 -m http.server 8000
(Windowson: py -m http.server 8000), majd nyisd meg a böngészőben: http://127.0.0.1:8000/
Internet nem kell hozzá.

Auf Deutsch: Öffne ein Terminal in diesem Ordner, gib python3 -m http.server 8000 ein
(unter Windows: py -m http.server 8000) und öffne im Browser http://127.0.0.1:8000/
Internet ist nicht nötig.
"""


def archive(site: str | os.PathLike[str], out: str | os.PathLike[str] = "tartli-offline.zip") -> Path:
    """Pack the built site in folder ``site`` into the zip ``out`` (see the module's notes); its path.
    :class:`BuildError` if ``site`` holds no built site."""
    folder, target = Path(site), Path(out)
    if not (folder / "index.html").is_file():
        raise BuildError(f"{folder} holds no built site (python3 -m tartli.site build)")
    partial = target.with_name(target.name + ".partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as zipped:
        zipped.writestr(f"{FOLDER}/READ-ME.txt", READ_ME)
        for path in sorted(folder.rglob("*")):
            if path.is_symlink() or not path.is_file():
                continue  # (a built site has neither links nor special files: nothing outside it is packed)
            name = f"{FOLDER}/{path.relative_to(folder).as_posix()}"
            kind = zipfile.ZIP_STORED if path.suffix in STORED else zipfile.ZIP_DEFLATED
            zipped.write(path, name, compress_type=kind)
    partial.replace(target)  # (a half-made archive never has the final name)
    return target


__all__ = ["FOLDER", "READ_ME", "archive"]
