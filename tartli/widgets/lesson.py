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

from tartli import names
from tartli.cards import Card, Suit
from tartli.i18n import _
from tartli.names import Language
from tartli.render.cards import card_svg

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


def goals(items: Sequence[str], title: str | None = None) -> None:
    """The opening box: what the learner will be able to do (title: "In this lesson you will")."""
    show(_box(title or _("In this lesson you will"), items, "#2f6b45", "#eef6f0"))


def recap(items: Sequence[str], title: str | None = None) -> None:
    """The closing box: the points to remember (title: "Recap")."""
    show(_box(title or _("Recap"), items, "#8a5a00", "#fbf4e4"))


def cards(
    text: str | Sequence[Card],
    *,
    width: float = 70,
    trump: Suit | None = None,
    highlighted: Iterable[Card | str] = (),
    language: Language | None = None,
) -> None:
    """Show cards as pictures: ``cards("OH 9H AH")`` (``trump`` marks trumps)."""
    show(cards_html(text, width=width, trump=trump, highlighted=highlighted, language=language))


def cards_html(
    text: str | Sequence[Card],
    *,
    width: float = 70,
    trump: Suit | None = None,
    highlighted: Iterable[Card | str] = (),
    language: Language | None = None,
    playable: Iterable[Card] | None = None,
) -> str:
    """Cards side by side that go on to a second line on a narrow screen, each at its full size.

    (One picture of the whole row would be shrunk to a phone's width, and its corner letters with it.)
    ``playable``, if given, marks the cards that may be played as the table does (a tick), and dims the
    others (hatched, with a cross).
    """
    chosen = [Card.parse(c) for c in text.split()] if isinstance(text, str) else list(text)
    marked = {Card.parse(c) if isinstance(c, str) else c for c in highlighted}
    allowed = None if playable is None else set(playable)
    lang = names.resolve(language)
    pictures = "".join(
        card_svg(
            c,
            width=width,
            language=lang,
            trump=c.suit is trump,
            highlighted=c in marked,
            playable=None if allowed is None else c in allowed,
        )
        for c in chosen
    )
    label = html.escape(", ".join(c.name(lang) for c in chosen), quote=True)
    return (
        f'<div class="tartli-cards" role="group" aria-label="{label}" '
        f'style="display:flex;flex-wrap:wrap;gap:6px;margin:6px 0">{pictures}</div>'
    )


_RESPONSIVE_CSS = (
    "<style>.tartli-narrow-only{display:none}"
    "@media (max-width:600px){.tartli-narrow-only{display:block}.tartli-wide-only{display:none}}</style>"
)


def responsive_html(wide: str, narrow: str) -> str:
    """Two drawings of one picture: ``narrow`` on a screen up to 600 px wide, ``wide`` on a larger one."""
    return (
        f'{_RESPONSIVE_CSS}<div class="tartli-wide-only">{wide}</div>'
        f'<div class="tartli-narrow-only" style="max-width:420px">{narrow}</div>'
    )
