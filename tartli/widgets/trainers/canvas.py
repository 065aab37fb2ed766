"""The trainers' felt-green pictures, drawn for the learner's screen (a phone's own width or a desktop)."""

from __future__ import annotations

import contextvars
import html
import re
from collections.abc import Sequence

_FELT = "#2f6b45"
_INK = "#f4f1e6"
GOLD = "#ffe28a"
_SANS = "'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif"


def _e(text: str) -> str:
    return html.escape(text, quote=False)


def _attr(text: str) -> str:
    """``text`` for an HTML attribute in single or double quotes (a translation may hold either)."""
    return html.escape(text, quote=True)


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


# ---------------------------------------------------------------------------- pictures
_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)" height="([0-9.]+)"')


def _size(svg: str) -> tuple[float, float]:
    found = _SIZE.match(svg)
    if not found:
        raise ValueError("a picture part needs its width and height")
    return float(found.group(1)), float(found.group(2))


NARROW_BELOW = 600
"""A picture narrower than this (CSS px) on the learner's screen is drawn for it: see :class:`Canvas`."""

_FIT_WIDTH: contextvars.ContextVar[float | None] = contextvars.ContextVar("tartli_fit_width", default=None)
"""The width (CSS px) a picture drawn now must fit, or None for the usual desktop layout."""


class Canvas:
    """A felt-green picture built top to bottom: lines of text and rows of (pickable) pictures.

    On a phone (when :data:`_FIT_WIDTH` is set, see :meth:`Exercise.render`) the picture is
    drawn at the screen's own width, one unit a CSS pixel, instead of being drawn for a desktop
    and shrunk: long lines of text wrap, and a row of pictures goes on to a second line when
    the next one would not fit. So its text keeps its size (at least 9 px, the brief's minimum).
    """

    def __init__(self, label: str, min_width: float = 560) -> None:
        self.caption = label
        self.parts: list[str] = []
        self.y = 10.0
        self.fit = _FIT_WIDTH.get()
        self.right = (self.fit if self.fit is not None else min_width) - 16

    def _lines(self, text: str, size: float, x: float) -> list[str]:
        if self.fit is None:
            return [text]
        room = max(8, int((self.fit - 16 - x) / (size * 0.55)))
        lines: list[str] = []
        line = ""
        words: list[str] = []
        for word in text.split(" "):  # "1. szakasz", "7. ütés": a number stays on the line of its noun
            if words and re.fullmatch(r"\d+\.", words[-1]):
                words[-1] += " " + word
            else:
                words.append(word)
        for word in words:
            if line and len(line) + 1 + len(word) > room:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        return [*lines, line]

    def text(self, text: str, *, size: float = 15, weight: str = "normal", fill: str = _INK, x: float = 16) -> None:
        for line in self._lines(text, size, x):
            self.y += size * 1.3
            self.parts.append(
                f'<text x="{_n(x)}" y="{_n(self.y)}" font-family="{_SANS}" font-size="{_n(size)}" '
                f'font-weight="{weight}" fill="{fill}">{_e(line)}</text>'
            )
            self.right = max(self.right, x + len(line) * size * 0.55)
        self.y += 3

    def label(self, x: float, y: float, text: str, *, size: float = 13, weight: str = "normal") -> None:
        """A short text at a given place (its baseline at ``y``)."""
        self.parts.append(
            f'<text x="{_n(x)}" y="{_n(y)}" font-family="{_SANS}" font-size="{_n(size)}" '
            f'font-weight="{weight}" fill="{_INK}">{_e(text)}</text>'
        )

    def place(self, svg: str, x: float, y: float, pick: str | None = None) -> tuple[float, float]:
        width, height = _size(svg)
        placed = f'<g transform="translate({_n(x)} {_n(y)})">{svg}</g>'
        if pick is not None:
            placed = f'<g data-pick="{_e(pick)}">{placed}</g>'
        self.parts.append(placed)
        self.right = max(self.right, x + width)
        return width, height

    def row(self, items: Sequence[tuple[str, str | None]], *, x: float = 16, gap: float = 12) -> None:
        """Pictures side by side (each with its ``data-pick`` value or None)."""
        self.y += 6
        tallest = 0.0
        left = x
        for svg, pick in items:
            width, height = _size(svg)
            if self.fit is not None and x > left and x + width > self.fit - 16:  # on to a second line
                self.y += tallest + gap
                x, tallest = left, 0.0
            self.place(svg, x, self.y, pick)
            x += width + gap
            tallest = max(tallest, height)
        self.y += tallest + 4

    HAND_LIFT_ROOM = 14.0
    """Of the room a hand keeps above its cards for a lifted card (:func:`hand_svg`), what a hand with none
    lifted gives back under its label (it left an empty band on a phone, issue 36)."""

    def hand(self, svg: str) -> None:
        """A hand (:func:`hand_svg`, no card lifted) right under its label."""
        self.y -= self.HAND_LIFT_ROOM
        self.row([(svg, None)])

    def card_width(self, count: int, preferred: float) -> float:
        """The card width for a hand of ``count`` cards (see :func:`hand_svg`) that fits this picture."""
        if self.fit is None:
            return preferred
        return min(preferred, (self.fit - 32 - 24) / (1 + 0.62 * max(count - 1, 0)))

    def slot(self, x: float, y: float, width: float) -> None:
        """An empty place for a card (a dashed outline)."""
        self.right = max(self.right, x + width)
        self.parts.append(
            f'<rect x="{_n(x + 2)}" y="{_n(y + 2)}" width="{_n(width - 4)}" height="{_n(width * 1.6 - 4)}" rx="5" '
            f'fill="none" stroke="{_INK}" stroke-opacity=".35" stroke-dasharray="5 4"/>'
        )

    def svg(self) -> str:
        width, height = self.right + 16, self.y + 14
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" width="{_n(width)}" '
            f'height="{_n(height)}" role="img" aria-label="{_e(self.caption)}" class="tartli-trainer">'
            f"<title>{_e(self.caption)}</title>"
            f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" rx="14" fill="{_FELT}"/>'
            + "".join(self.parts)
            + "</svg>"
        )
