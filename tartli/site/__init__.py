"""The static edition: the whole course as a Voici site that runs in the learner's browser.

::

    python3 -m tartli.site build            # from a clone: builds the site into _site/
    python3 -m tartli.site serve _site      # serves a built site on http://127.0.0.1:8000/

A classroom of hundreds should not need hundreds of kernels. The static edition is a
folder of files that any static host serves (GitHub Pages, an intranet web server, a USB
stick and ``serve``): Voici renders the same notebooks as the Voilà app (``notebooks/``,
no second copy), and each page runs the engine and the widgets in the browser's own
Python, Pyodide, through JupyterLite's Pyodide kernel. Nothing is fetched from the
internet when the site is used; everything it needs is inside the folder.

The subpackage holds the build (:mod:`tartli.site.builder`), each page's first screen
(:mod:`tartli.site.preview`), the static server (:mod:`tartli.site.serve`), the command line
(``python -m tartli.site``) and the files the build puts into the site or runs
(``tartli/site/files/``: the pins of every download, the snapshot maker and the worker's
snapshot loader).
"""

from __future__ import annotations

from tartli.site.builder import (
    BROWSER_WHEELS,
    BUILD_TOOLS,
    PYODIDE_VERSION,
    BuildError,
    build,
    language_copy,
    pyodide_lock,
    size_of,
)
from tartli.site.serve import make_server, serve_in_thread

__all__ = [
    "BROWSER_WHEELS",
    "BUILD_TOOLS",
    "PYODIDE_VERSION",
    "BuildError",
    "build",
    "language_copy",
    "make_server",
    "pyodide_lock",
    "serve_in_thread",
    "size_of",
]
