"""Widgets: controllers that own an engine state and its ipywidgets (the only package importing them)."""

from tartli.widgets.board import SvgBoard
from tartli.widgets.table import TableController, declaration_label

__all__ = ["SvgBoard", "TableController", "declaration_label"]
