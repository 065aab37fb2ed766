"""Small building blocks for lesson pages: card pictures inline, goals, recaps, navigation.

A lesson notebook is written in our own words in Markdown cells and uses these
helpers (and the trainers and the table) for everything live, so that no lesson
keeps a rule of its own::

    from tartli.widgets.lesson import cards, goals, recap, nav
    goals(["tell the Over from the Under", "name every card"])
    cards("OA UA")                     # pictures of the Over and Under of Acorns
    recap(["the Over's pip stands high, the Under's lower down"])
    nav("01_pack.ipynb")               # previous / course map / next
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from IPython import display as ipd

from tartli.cards import Card, Suit
from tartli.course import nav_html
from tartli.melds import Meld
from tartli.names import Language
from tartli.render.table import hand_svg, meld_svg

_BOX = (
    "border-left:5px solid {colour};background:{background};padding:.6em 1em;margin:.8em 0;"
    "border-radius:4px;font-size:1.02em"
)


def show(markup: str) -> None:
    """Display HTML or SVG markup in the page."""
    ipd.display(ipd.HTML(markup))  # type: ignore[no-untyped-call]


def _box(title: str, items: Iterable[str], colour: str, background: str) -> str:
    rows = "".join(f"<li>{html.escape(item)}</li>" for item in items)
    style = _BOX.format(colour=colour, background=background)
    return f'<div class="tartli-box" style="{style}"><b>{html.escape(title)}</b><ul>{rows}</ul></div>'


def goals(items: Sequence[str], title: str = "In this lesson you will") -> None:
    """The opening box: what the learner will be able to do."""
    show(_box(title, items, "#2f6b45", "#eef6f0"))


def recap(items: Sequence[str], title: str = "Recap") -> None:
    """The closing box: the points to remember."""
    show(_box(title, items, "#8a5a00", "#fbf4e4"))


def cards(
    text: str | Sequence[Card],
    *,
    width: float = 70,
    trump: Suit | None = None,
    highlighted: Iterable[Card | str] = (),
    language: Language | None = None,
) -> None:
    """Show cards as pictures: ``cards("OH 9H AH")`` (``trump`` marks trumps)."""
    chosen = [Card.parse(c) for c in text.split()] if isinstance(text, str) else list(text)
    marked = [Card.parse(c) if isinstance(c, str) else c for c in highlighted]
    show(hand_svg(chosen, card_width=width, trump=trump, highlighted=marked, language=language))


def meld(text: str, trump: Suit | None = None, *, language: Language | None = None) -> None:
    """Show a meld's cards with its name and value: ``meld("kvart:OA")``."""
    show(meld_svg(Meld.parse(text), trump, language=language))


def nav(file: str) -> None:
    """Previous page, course map, next page."""
    show(nav_html(file))
