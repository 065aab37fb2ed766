"""Sphinx settings for Tartli's documentation (docs/): MyST Markdown pages, the PyData theme, the API
reference from the docstrings (autodoc) and the pages' examples run as doctests.

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (``-b doctest`` runs the
examples); tests/test_docs.py runs both. Nothing is fetched from the network while building or reading:
no intersphinx, no fonts or scripts from a CDN (the theme ships its own).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's tartli, installed or not (Read the Docs installs it too)

import tartli  # noqa: E402

project = "Tartli"
author = "The Tartli tutorial team"
copyright = "the Tartli tutorial team, MIT licence"  # noqa: A001 (Sphinx's name)
release = tartli.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"
language = "en"

# MyST: headings get anchors to link to ([text](page.md#a-heading)), and ```{doctest} blocks run.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

# The API reference: members in the order of the source, type hints in the description.
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}

# The doctest builder runs the pages' ```{doctest} blocks. The docstrings' >>> examples, shown in the API
# reference, are run by pytest (--doctest-modules, with their module's names), not a second time here:
# Sphinx would run them without their module's globals.
doctest_test_doctest_blocks = ""
doctest_global_setup = "from tartli import names\nnames.set_language('en')"

html_theme = "pydata_sphinx_theme"
html_title = "Tartli"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_depth": 2,
    "show_toc_level": 2,
    "navbar_align": "left",
    "footer_start": ["copyright"],
    "footer_end": [],
    "icon_links": [],
    # nothing from the network when a page is read
    "analytics": {},
}
html_show_sourcelink = False
html_copy_source = False
