"""Rendering: pure functions from engine values to SVG text (standard library only).

Cards (:mod:`tartli.render.cards`), composites: hand, trick, meld, table
(:mod:`tartli.render.table`), and the chalk score slate (:mod:`tartli.render.slate`).
Nothing here imports ipywidgets; the widgets use these functions.
"""

from tartli.render.cards import BACK_LABEL, SEASONS, back_svg, card_svg, pip_svg
from tartli.render.page import sheet_html
from tartli.render.slate import Mark, decompose, marks_svg, slate_svg
from tartli.render.table import hand_svg, meld_svg, state_svg, table_svg, trick_svg

__all__ = [
    "BACK_LABEL",
    "SEASONS",
    "Mark",
    "back_svg",
    "card_svg",
    "decompose",
    "hand_svg",
    "marks_svg",
    "meld_svg",
    "pip_svg",
    "sheet_html",
    "slate_svg",
    "state_svg",
    "table_svg",
    "trick_svg",
]
