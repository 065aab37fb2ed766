"""Widgets: controllers that own an engine state and its ipywidgets (the only package importing them)."""

from tartli.widgets.board import SvgBoard
from tartli.widgets.table import TableController, declaration_label
from tartli.widgets.trainers import TRAINERS, Exercise, Progress, trainer

__all__ = ["TRAINERS", "Exercise", "Progress", "SvgBoard", "TableController", "declaration_label", "trainer"]
