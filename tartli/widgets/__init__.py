"""Widgets: controllers that own an engine state and its ipywidgets (the only package importing them)."""

from tartli.widgets import kernel_log
from tartli.widgets.board import SvgBoard
from tartli.widgets.table import TableController, declaration_label
from tartli.widgets.trainers import TRAINERS, Exercise, Progress, trainer

__all__ = ["TRAINERS", "Exercise", "Progress", "SvgBoard", "TableController", "declaration_label", "trainer"]

kernel_log.install()  # only in a kernel of the course's server (TARTLI_KERNEL_LOG set); else nothing
