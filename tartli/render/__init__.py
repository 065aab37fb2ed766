"""Card art: pure functions returning SVG (and an HTML sheet), standard library only."""

from tartli.render.cards import BACK_LABEL, SEASONS, back_svg, card_svg, pip_svg
from tartli.render.page import sheet_html

__all__ = ["BACK_LABEL", "SEASONS", "back_svg", "card_svg", "pip_svg", "sheet_html"]
