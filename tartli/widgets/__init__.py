"""Widgets: controllers that own an engine state and its ipywidgets (the only package importing them).

The table and the trainers are imported when first asked for (``from tartli.widgets import
TableController``), not with the package: a page that shows neither (the course map, a lesson before its
table) does not load the bots, the search and the review at its start (issue 39: a cheaper cold page).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from tartli.widgets import kernel_log

if TYPE_CHECKING:  # (for the type checker: the names below, imported when first used)
    from tartli.widgets.board import SvgBoard
    from tartli.widgets.table import TableController, declaration_label
    from tartli.widgets.trainers import TRAINERS, Exercise, Progress, trainer

__all__ = ["TRAINERS", "Exercise", "Progress", "SvgBoard", "TableController", "declaration_label", "trainer"]

_WHERE = {
    "SvgBoard": "tartli.widgets.board",
    "TableController": "tartli.widgets.table",
    "declaration_label": "tartli.widgets.table",
    "TRAINERS": "tartli.widgets.trainers",
    "Exercise": "tartli.widgets.trainers",
    "Progress": "tartli.widgets.trainers",
    "trainer": "tartli.widgets.trainers",
}


def __getattr__(name: str) -> Any:
    """A name of ``__all__``, from its module, imported now (PEP 562)."""
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tartli.widgets' has no attribute {name!r}")


kernel_log.install()  # only in a kernel of the course's server (TARTLI_KERNEL_LOG set); else nothing
