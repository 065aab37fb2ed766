"""The course map: the pages of the app in reading order, and the navigation between them.

Each page is a notebook in ``notebooks/`` (shipped inside the package as
``tartli/notebooks``). The index draws the map from here and every page ends
with previous/next links made by :func:`nav_html`, so the map has one source.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Page:
    """One page of the app."""

    file: str
    title: str
    summary: str
    rules: tuple[str, ...] = ()
    """The RULES.md IDs the page teaches (lessons carry them in their metadata too)."""
    exercises: tuple[str, ...] = ()
    """Ids of the exercises on the page, whose stars the course map shows."""


PAGES: tuple[Page, ...] = (
    Page("00_index.ipynb", "Welcome to Tartli", "What the game is and how this course works."),
    Page(
        "practice.ipynb",
        "Practice",
        "Seven trainers: tricks, card points, melds, the contest, what to play, going out.",
        exercises=(
            "which-card-wins",
            "count-points",
            "find-melds",
            "meld-contest",
            "same-suit",
            "what-may-you-play",
            "going-out",
        ),
    ),
    Page("table.ipynb", "Play at the table", "A whole game against the computer, or two people at one screen."),
)
"""Pages that exist, in reading order. Lessons are added here as they are written."""


def notebooks_dir() -> Path:
    """Where the pages are: the package's copy (``tartli/notebooks``)."""
    return Path(__file__).resolve().parent / "notebooks"


def page_url(page: Page) -> str:
    """The page's address relative to another page served by Voilà."""
    return page.file


def index_of(file: str) -> int:
    for i, page in enumerate(PAGES):
        if page.file == file:
            return i
    raise KeyError(f"{file} is not a page of the course")


def nav_html(file: str) -> str:
    """Previous / index / next links for the page ``file``."""
    i = index_of(file)
    links = []
    if i > 0:
        prev = PAGES[i - 1]
        links.append(f'<a class="tartli-prev" href="{page_url(prev)}">← {html.escape(prev.title)}</a>')
    if i != 0:
        links.append(f'<a class="tartli-home" href="{page_url(PAGES[0])}">Course map</a>')
    if i + 1 < len(PAGES):
        nxt = PAGES[i + 1]
        links.append(f'<a class="tartli-next" href="{page_url(nxt)}">{html.escape(nxt.title)} →</a>')
    return '<nav class="tartli-nav" style="display:flex;gap:2em;margin:1.5em 0">' + "".join(links) + "</nav>"
