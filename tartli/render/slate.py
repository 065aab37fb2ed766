"""The score slate: a running score written in chalk marks, as pure SVG functions.

Tartli players keep the score with chalk on a slate (seed 001, "Scoring"; rule
S1 adds each hand's points to the running score). Standard library only; every
function returns a standalone ``<svg>`` string with a viewBox, no ids, no
images, no external URLs and only generic font families.

Hungarian signs (our design)
----------------------------
The source names signs for 20, 30, 50, 80 and 100 and says that one more stroke
(a further 20) turns a 30 into a 50 and an 80 into a 100, but it does not show
them. We draw them so that this holds literally, element by element:

* **20** one straight slanting stroke ``/``; a straight stroke always means 20.
* **30** one open arc, bulging to the right, like ``)``.
* **50** the 30 arc closed on its left by one straight stroke: a ``D``
  (30 + a stroke of 20).
* **80** one closed ring, like ``O``.
* **100** the 80 ring struck through by one straight diagonal stroke: ``Ø``
  (80 + a stroke of 20).

So the elements of 50 are exactly those of 30 plus one stroke, and those of 100
exactly those of 80 plus one stroke (see :data:`HUNGARIAN_ELEMENTS`). Odd
points are written as a small signed number, ``+5`` or ``−3``.

Austrian signs (Beck, rule V11)
-------------------------------
* **stroke** a single upright stroke = 20.
* **group** four upright strokes crossed by a fifth, diagonal one = 100
  (five strokes of 20).
* **vee** a ``V`` = 50; **triangle** the ``V`` closed by one bar across its
  top = 100 (a second 50 closes the V).
* **number** odd points: a negative number is written with a bar above its
  digits (no minus sign), a two-digit positive number is underlined, a
  one-digit positive number is written plain.

Beck's own example of 319 reads 100 + 80 + 50 + 80 − 3 + 12: see :data:`BECK_319`.

How :func:`decompose` writes a score
------------------------------------
A scorer writes the big signs and then one small signed number for the odd
points. Among all ways to do that we pick, in order of preference:

1. the smallest odd number in size (so it is always within −10..+10),
2. then the fewest marks (every sign, stroke, group, V and the number count
   one), so 45 is 50 − 5 rather than 20 20 + 5,
3. then a positive rather than a negative odd number, so 25 is 20 + 5.

For a given total of signs, the Hungarian scorer writes as many 100s as
possible and the rest with the fewest of 80, 50, 30, 20 (larger signs first
on a tie): 47 is 50 − 3, 319 is 100 100 100 20 − 1, 160 is 100 30 30, 110 is
80 30. The Austrian scorer writes as many groups of 100 as possible, then at
most one V and at most four loose strokes (five would be a group), then the
number: 319 is three groups, a stroke and a barred 1 (−1); 130 is a V and
four strokes; 30 is a stroke and an underlined 10. The triangle never comes out of
:func:`decompose` (a total never needs two Vs), but :func:`marks_svg` draws
any explicit list of marks, e.g. :data:`BECK_319` or a V being closed.

>>> [m.value for m in decompose(47, "hungarian")]
[50, -3]
>>> [m.value for m in decompose(319, "hungarian")]
[100, 100, 100, 20, -1]
>>> [m.kind for m in decompose(319, "austrian")]
['group', 'group', 'group', 'stroke', 'number']
>>> 'aria-label="Player 0: 319 points, Player 1: 47 points"' in slate_svg((319, 47))
True
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal
from xml.sax.saxutils import escape, quoteattr

from tartli import names
from tartli.errors import TartliError

__all__ = [
    "AUSTRIAN_ELEMENTS",
    "BECK_319",
    "HUNGARIAN_ELEMENTS",
    "Mark",
    "decompose",
    "demo_html",
    "marks_svg",
    "slate_svg",
]

Tradition = Literal["hungarian", "austrian"]
SlateLanguage = Literal["en", "hu", "de"]

SVG_NS = "http://www.w3.org/2000/svg"
CHALK = "#f3f1ea"
SLATE = "#323c3c"
WOOD = "#8b5a2b"
WOOD_DARK = "#5a3715"
FONT = "cursive, sans-serif"
SMALL_FONT = "sans-serif"


@dataclass(frozen=True)
class Mark:
    """One chalk mark: ``kind`` names the sign, ``value`` is what it adds to the score.

    Hungarian kinds: ``hundred`` (100), ``eighty``, ``fifty``, ``thirty``,
    ``twenty``; Austrian kinds: ``group`` (100), ``triangle`` (100), ``vee``
    (50), ``stroke`` (20); both: ``number`` (the odd points, any non-zero int).
    """

    kind: str
    value: int


HUNGARIAN_KINDS: dict[int, str] = {100: "hundred", 80: "eighty", 50: "fifty", 30: "thirty", 20: "twenty"}
"""The Hungarian signs by value."""
AUSTRIAN_VALUES: dict[str, int] = {"group": 100, "triangle": 100, "vee": 50, "stroke": 20}
"""The Austrian signs (V11) by kind."""

# --- the drawn elements -------------------------------------------------------------------------
# Every sign is drawn in a cell 48 units high (chalk between y=4 and y=44).
# Elements are SVG path data; straight strokes bow a little, as by hand.

_ARC = "M10 5C25 4 33 13 33 24S25 44 10 43"
_CLOSE = "M10 5Q9 24 10 43"
_RING = "M20 4C30 4 36 13 36 24S30 44 20 44S4 35 4 24S10 4 20 4"
_STRIKE = "M4 44Q19 25 37 3"
_SLASH = "M12 43Q18 25 28 5"

HUNGARIAN_ELEMENTS: dict[int, tuple[str, ...]] = {
    20: (_SLASH,),
    30: (_ARC,),
    50: (_ARC, _CLOSE),
    80: (_RING,),
    100: (_RING, _STRIKE),
}
"""The path elements of each Hungarian sign: 50 is 30 plus one stroke, 100 is 80 plus one stroke."""

_VEE = "M3 6Q9 25 16 44Q23 25 29 6"
_BAR = "M1 6Q16 4.5 31 6"
_UPRIGHTS = tuple(f"M{x} 44Q{x + 0.2} 24 {x + 1.5} 5" for x in (3, 12, 21, 30))
_CROSS = "M-2 37Q18 27 39 13"

AUSTRIAN_ELEMENTS: dict[str, tuple[str, ...]] = {
    "stroke": ("M2 44Q2.2 24 3.5 5",),
    "group": (*_UPRIGHTS, _CROSS),
    "vee": (_VEE,),
    "triangle": (_VEE, _BAR),
}
"""The path elements of each Austrian sign: a group is four uprights and a cross stroke, a triangle a V and a bar."""

_WIDTHS: dict[str, float] = {
    "hundred": 40,
    "eighty": 40,
    "fifty": 38,
    "thirty": 38,
    "twenty": 30,
    "stroke": 6,
    "group": 38,
    "vee": 32,
    "triangle": 32,
}

# Hand-written digits in a 10 x 16 box (y down), drawn as chalk strokes, not text.
_DIGITS: dict[str, str] = {
    "0": "M5 0.3C1.5 0.3 0.3 4 0.3 8S1.5 15.7 5 15.7S9.7 12 9.7 8S8.5 0.3 5 0.3",
    "1": "M1.8 3.6L6 0.3Q5.8 8 6 15.8",
    "2": "M0.6 3.6C1.5 -0.4 9.2 -0.6 9.4 3.8C9.6 7.6 3 10.6 0.3 15.7Q5 15.3 9.8 15.6",
    "3": "M0.6 2C3.5 -0.6 9.2 0 9.2 4C9.2 6.7 6.8 7.8 4 7.9C7.3 7.9 9.9 9.4 9.9 12C9.9 16.3 2.6 16.8 0.2 13.8",
    "4": "M7.2 15.8Q7 8 7.3 0.3L0.3 10.8Q5 10.6 9.9 10.8",
    "5": "M9.4 0.4Q5 0.2 1.6 0.5L0.8 7C3.4 5.3 9.9 5.2 9.9 10.8C9.9 16.2 3 16.8 0.2 13.8",
    "6": "M8.8 1.2C5 -1 0.2 2 0.2 9.5C0.2 14 2.2 15.8 5 15.8C8 15.8 9.8 13.8 9.8 11C9.8 8 7.9 6.2 5 6.2"
    "C2.2 6.2 0.3 8.2 0.3 10.5",
    "7": "M0.3 0.6Q5 0.2 9.8 0.4Q5.5 7 3.2 15.8",
    "8": "M5 7.8C1.3 7.8 0.8 5.6 0.8 4C0.8 1.6 2.8 0.2 5 0.2S9.2 1.6 9.2 4C9.2 5.6 8.7 7.8 5 7.8"
    "C1.2 7.8 0.2 10 0.2 12C0.2 14.5 2.2 15.8 5 15.8S9.8 14.5 9.8 12C9.8 10 8.8 7.8 5 7.8",
    "9": "M9.8 5.8C9.8 8.2 7.9 9.8 5 9.8C2 9.8 0.2 8 0.2 5C0.2 2 2.2 0.2 5 0.2C8 0.2 9.8 2.2 9.8 6"
    "C9.8 11.5 7 15.8 1.2 15.6",
}
_MINUS = "M0.5 8.2Q4 7.9 7.5 8.1"
_PLUS = "M0.5 8.2Q4 7.9 7.5 8.1M4 4.5Q3.9 8 4.1 11.8"
_DIGIT_SCALE = 1.25
_DIGIT_PITCH = 10 * _DIGIT_SCALE + 3.5
_DIGIT_TOP = 14.0  # digits stand between y=14 and y=34 of the cell


@dataclass(frozen=True)
class _Element:
    """One chalk path: its class, path data, offset in the cell and scale (digits are drawn small)."""

    cls: str
    d: str
    x: float = 0
    y: float = 0
    scale: float = 1


@dataclass(frozen=True)
class _Glyph:
    width: float
    elements: tuple[_Element, ...]
    gap_before: float = 12


# --- decomposition --------------------------------------------------------------------------------


def _tradition(tradition: str) -> Tradition:
    if tradition not in ("hungarian", "austrian"):
        raise TartliError(f"unknown slate tradition {tradition!r}: choose hungarian or austrian (V11)")
    return tradition  # type: ignore[return-value]


def _language(language: str | None) -> SlateLanguage:
    """The language asked for, or the current setting (:func:`tartli.names.set_language`)."""
    try:
        return names.resolve(language)
    except ValueError as err:
        raise TartliError(str(err)) from None


@lru_cache(maxsize=512)
def _fewest(rest: int) -> tuple[int, ...] | None:
    """The fewest of 80, 50, 30, 20 summing to ``rest`` (larger signs first on a tie), or None."""
    if rest == 0:
        return ()
    best: tuple[int, ...] | None = None
    for sign in (80, 50, 30, 20):
        if sign <= rest:
            tail = _fewest(rest - sign)
            if tail is not None and (best is None or len(tail) + 1 < len(best)):
                best = tuple(sorted((sign, *tail), reverse=True))
    return best


def _hungarian_signs(total: int) -> list[int] | None:
    """As many 100s as possible, then the fewest other signs; None if ``total`` cannot be drawn."""
    if total % 10:
        return None
    for hundreds in range(total // 100, -1, -1):
        rest = _fewest(total - 100 * hundreds)
        if rest is not None:
            return [100] * hundreds + list(rest)
    return None


def _austrian_signs(total: int) -> list[Mark] | None:
    """As many groups of 100 as possible, then at most one V and at most four strokes."""
    for groups in range(total // 100, -1, -1):
        rest = total - 100 * groups
        for vees in (0, 1):
            strokes, odd = divmod(rest - 50 * vees, 20)
            if rest - 50 * vees >= 0 and odd == 0 and strokes <= 4:
                return [Mark("group", 100)] * groups + [Mark("vee", 50)] * vees + [Mark("stroke", 20)] * strokes
    return None


def decompose(score: int, tradition: str = "hungarian") -> list[Mark]:
    """Split a running score into chalk marks whose values add up to ``score`` exactly.

    Big signs first, then at most one ``number`` mark for the odd points
    (within −10..+10). See the module docstring for the rules of choice.

    >>> decompose(0, "austrian")
    []
    >>> [m.value for m in decompose(501, "austrian")]
    [100, 100, 100, 100, 100, 1]
    """
    kind = _tradition(tradition)
    if not isinstance(score, int) or isinstance(score, bool):
        raise TartliError(f"S1: a running score is a whole number of points, not {score!r}")
    if score < 0:
        raise TartliError(f"S1: a running score only grows from 0, so it cannot be {score}")
    best: tuple[tuple[int, int, bool], list[Mark]] | None = None
    for odd in range(-10, 11):
        total = score - odd
        if total < 0:
            continue
        signs: list[Mark] | None
        if kind == "hungarian":
            values = _hungarian_signs(total)
            signs = None if values is None else [Mark(HUNGARIAN_KINDS[v], v) for v in values]
        else:
            signs = _austrian_signs(total)
        if signs is None:
            continue
        marks = signs + ([Mark("number", odd)] if odd else [])
        key = (abs(odd), len(marks), odd < 0)
        if best is None or key < best[0]:
            best = (key, marks)
    if best is None:  # pragma: no cover - every score is within 10 of a drawable total
        raise TartliError(f"S1: cannot write {score} in {tradition} chalk marks")
    return best[1]


BECK_319: tuple[Mark, ...] = (
    Mark("group", 100),
    *[Mark("stroke", 20)] * 4,
    Mark("vee", 50),
    *[Mark("stroke", 20)] * 4,
    Mark("number", -3),
    Mark("number", 12),
)
"""Beck's example of 319 in Austrian signs: 100 + 80 + 50 + 80 − 3 + 12 (strokes of 20 as drawn)."""


def _check_marks(marks: Sequence[Mark], tradition: Tradition) -> None:
    """Explicit marks must be signs of the tradition, or non-zero numbers."""
    for mark in marks:
        if mark.kind == "number":
            ok = mark.value != 0
        elif tradition == "hungarian":
            ok = HUNGARIAN_KINDS.get(mark.value) == mark.kind
        else:
            ok = AUSTRIAN_VALUES.get(mark.kind) == mark.value
        if not ok:
            raise TartliError(f"{mark!r} is not a {tradition} slate mark")


# --- drawing ----------------------------------------------------------------------------------


def _n(x: float) -> str:
    """A compact number for SVG attributes."""
    v = round(x, 2)
    return str(int(v)) if v == int(v) else f"{v:g}"


def _number_glyph(value: int, tradition: Tradition) -> _Glyph:
    """Odd points: Hungarian ``+5``/``−3``; Austrian digits, barred if negative, underlined if two-digit."""
    digits = str(abs(value))
    elements: list[_Element] = []
    x = 0.0
    if tradition == "hungarian":
        elements.append(_Element("chalk sign", _PLUS if value > 0 else _MINUS, x, _DIGIT_TOP, _DIGIT_SCALE))
        x += 12
    start = x
    for ch in digits:
        elements.append(_Element("chalk digit", _DIGITS[ch], x, _DIGIT_TOP, _DIGIT_SCALE))
        x += _DIGIT_PITCH
    end = x - 3.5
    middle = (start + end) / 2
    if tradition == "austrian" and value < 0:
        elements.append(_Element("chalk bar", f"M{_n(start - 1)} 8Q{_n(middle)} 6.8 {_n(end + 1)} 7.6"))
    elif tradition == "austrian" and len(digits) >= 2:
        elements.append(_Element("chalk underline", f"M{_n(start - 1)} 40Q{_n(middle)} 41.2 {_n(end + 1)} 39.6"))
    return _Glyph(end, tuple(elements), 14)


def _glyphs(marks: Sequence[Mark], tradition: Tradition) -> list[_Glyph]:
    out: list[_Glyph] = []
    previous = ""
    for mark in marks:
        if mark.kind == "number":
            out.append(_number_glyph(mark.value, tradition))
        elif tradition == "hungarian":
            out.append(_Glyph(_WIDTHS[mark.kind], tuple(_Element("chalk", d) for d in HUNGARIAN_ELEMENTS[mark.value])))
        else:
            gap = 3.0 if mark.kind == previous == "stroke" else 12.0
            out.append(
                _Glyph(_WIDTHS[mark.kind], tuple(_Element("chalk", d) for d in AUSTRIAN_ELEMENTS[mark.kind]), gap)
            )
        previous = mark.kind
    return out


def _jitter(slot: int, d: str) -> tuple[float, float, float]:
    """A small, repeatable wobble for one element: dx, dy and a stroke width."""
    h = zlib.crc32(f"{slot}:{d}".encode())
    return ((h & 0xFF) / 255 - 0.5) * 1.2, ((h >> 8 & 0xFF) / 255 - 0.5) * 1.2, 3.0 + (h >> 16 & 0xFF) / 255 * 0.7


def _element_svg(element: _Element, x: float, y: float, slot: int) -> tuple[str, str, str]:
    """One element of the glyph at ``(x, y)``: its chalk path, a faint offset smear and dark grain on it."""
    dx, dy, width = _jitter(slot, element.d)
    transform = f"translate({_n(x + element.x + dx)} {_n(y + element.y + dy)})"
    if element.scale != 1:
        transform += f" scale({_n(element.scale)})"
        width = width * 0.8 / element.scale
    chalk = f'<path class="{element.cls}" d="{element.d}" transform="{transform}" stroke-width="{_n(width)}"/>'
    smear = f'<path d="{element.d}" transform="{transform} translate(.8 -.7)" stroke-width="{_n(width * 0.5)}"/>'
    grain = (
        f'<path d="{element.d}" transform="{transform}" stroke-width="{_n(width * 0.4)}" '
        f'stroke-dashoffset="{_n(abs(dx) * 4)}"/>'
    )
    return chalk, smear, grain


def _layout(glyphs: Sequence[_Glyph], max_width: float) -> tuple[list[tuple[float, float]], int, float]:
    """Flow the glyphs left to right, 58 units a row: their origins, the rows used and the widest row."""
    origins: list[tuple[float, float]] = []
    x, row, widest = 0.0, 0, 0.0
    for glyph in glyphs:
        if x > 0 and x + glyph.gap_before + glyph.width > max_width:
            x, row = 0.0, row + 1
        if x > 0:
            x += glyph.gap_before
        origins.append((x, row * 58.0))
        x += glyph.width
        widest = max(widest, x)
    return origins, (row + 1 if glyphs else 0), widest


def _marks_group(marks: Sequence[Mark], tradition: Tradition, x0: float, y0: float, max_width: float) -> str:
    glyphs = _glyphs(marks, tradition)
    origins, _, _ = _layout(glyphs, max_width)
    chalk: list[str] = []
    smear: list[str] = []
    grain: list[str] = []
    for slot, (glyph, (gx, gy)) in enumerate(zip(glyphs, origins, strict=True)):
        for element in glyph.elements:
            line, halo, dots = _element_svg(element, x0 + gx, y0 + gy, slot)
            chalk.append(line)
            smear.append(halo)
            grain.append(dots)
    if not chalk:
        return ""
    return (
        f'<g class="smear" aria-hidden="true" fill="none" stroke="{CHALK}" stroke-linecap="round" '
        f'opacity=".22">{"".join(smear)}</g>'
        f'<g class="marks" fill="none" stroke="{CHALK}" stroke-linecap="round" stroke-linejoin="round" '
        f'opacity=".9">{"".join(chalk)}</g>'
        f'<g class="grain" aria-hidden="true" fill="none" stroke="{SLATE}" stroke-dasharray=".5 3.7" '
        f'opacity=".6">{"".join(grain)}</g>'
    )


_POINTS = {"en": ("point", "points"), "hu": ("pont", "pont"), "de": ("Punkt", "Punkte")}
_TRADITION_NAMES = {
    "en": {"hungarian": "Hungarian", "austrian": "Austrian"},
    "hu": {"hungarian": "magyar", "austrian": "osztrák"},
    "de": {"hungarian": "ungarisch", "austrian": "österreichisch"},
}


def _points(score: int, language: SlateLanguage) -> str:
    one, many = _POINTS[language]
    return f"{score} {one if score == 1 else many}"


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"− {-value}"


def _svg_open(view_w: float, view_h: float, width: float | None, label: str, cls: str) -> str:
    size = ""
    if width is not None:
        if width <= 0:
            raise TartliError(f"slate width must be positive, not {width!r}")
        size = f' width="{_n(width)}" height="{_n(width * view_h / view_w)}"'
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 {_n(view_w)} {_n(view_h)}"{size} role="img" '
        f'aria-label={quoteattr(label)} class="{cls}"><title>{escape(label)}</title>'
    )


def _resolve(score: int | Sequence[Mark], tradition: Tradition) -> tuple[int, list[Mark]]:
    if isinstance(score, int):
        return score, decompose(score, tradition)
    marks = list(score)
    _check_marks(marks, tradition)
    return sum(m.value for m in marks), marks


def marks_svg(
    score: int | Sequence[Mark],
    tradition: str = "hungarian",
    *,
    language: str | None = None,
    width: float | None = None,
) -> str:
    """One player's chalk marks on a plain strip of slate, for lessons on how a score is written.

    ``score`` is a running score (drawn as :func:`decompose` writes it) or an
    explicit sequence of marks (e.g. :data:`BECK_319`). The chalk paths carry
    ``class="chalk"`` (signs), ``chalk digit``, ``chalk sign`` (+/−),
    ``chalk bar`` and ``chalk underline``.

    >>> svg = marks_svg(50)
    >>> svg.count('class="chalk"')
    2
    """
    kind = _tradition(tradition)
    lang = _language(language)
    total, marks = _resolve(score, kind)
    glyphs = _glyphs(marks, kind)
    _, rows, widest = _layout(glyphs, 420)
    view_w = max(widest, 24) + 24
    view_h = max(rows, 1) * 58 - 10 + 24
    written = " ".join(str(m.value) if m.kind != "number" else _signed(m.value) for m in marks) or "0"
    label = {
        "en": f"{_points(total, lang)} in {_TRADITION_NAMES[lang][kind]} chalk marks: {written}",
        "hu": f"{_points(total, lang)} krétajelekkel ({_TRADITION_NAMES[lang][kind]}): {written}",
        "de": f"{_points(total, lang)} in Kreidezeichen ({_TRADITION_NAMES[lang][kind]}): {written}",
    }[lang]
    return (
        _svg_open(view_w, view_h, width, label, f"tartli-marks {kind}")
        + f'<rect x="0" y="0" width="{_n(view_w)}" height="{_n(view_h)}" rx="6" fill="{SLATE}"/>'
        + _marks_group(marks, kind, 12, 12, 420)
        + "</svg>"
    )


_COLUMN = 280.0
_FRAME = 16.0
_PAD = 16.0
_HEADER = 50.0


def _frame_svg(view_w: float, view_h: float) -> str:
    inner_w, inner_h = view_w - 2 * _FRAME, view_h - 2 * _FRAME
    grain = "".join(
        f'<path d="M{_n(18 + i * 37)} {_n(3 + (i % 3) * 4)}Q{_n(30 + i * 37)} {_n(6 + (i % 2) * 5)} '
        f'{_n(44 + i * 37)} {_n(4 + (i % 4) * 3)}"/>'
        for i in range(int(view_w // 37) - 1)
    )
    side = "".join(
        f'<path d="M{_n(x)} {_n(24 + j * 41)}Q{_n(x + 2)} {_n(40 + j * 41)} {_n(x - 1)} {_n(56 + j * 41)}"/>'
        for x in (5.5, 10.5, view_w - 6, view_w - 11)
        for j in range(int((view_h - 40) // 41))
    )
    smudges = (
        f'<ellipse cx="{_n(view_w * 0.3)}" cy="{_n(view_h * 0.62)}" rx="{_n(view_w * 0.2)}" ry="{_n(view_h * 0.2)}"/>'
        f'<ellipse cx="{_n(view_w * 0.74)}" cy="{_n(view_h * 0.35)}" rx="{_n(view_w * 0.16)}" '
        f'ry="{_n(view_h * 0.16)}"/>'
    )
    return (
        f'<g class="frame"><rect x="1" y="1" width="{_n(view_w - 2)}" height="{_n(view_h - 2)}" rx="18" '
        f'fill="{WOOD}" stroke="{WOOD_DARK}" stroke-width="2"/>'
        f'<g fill="none" stroke="{WOOD_DARK}" stroke-width="1.1" opacity=".45" stroke-linecap="round">{grain}'
        f'<g transform="translate(0 {_n(view_h - 16)})">{grain}</g>{side}</g>'
        f'<rect x="4" y="4" width="{_n(view_w - 8)}" height="{_n(view_h - 8)}" rx="15" fill="none" '
        f'stroke="#b98552" stroke-width="1.2" opacity=".7"/></g>'
        f'<rect class="board" x="{_n(_FRAME)}" y="{_n(_FRAME)}" width="{_n(inner_w)}" height="{_n(inner_h)}" rx="7" '
        f'fill="{SLATE}" stroke="#1d2424" stroke-width="2"/>'
        f'<g fill="#dfe6e2" opacity=".025" aria-hidden="true">{smudges}</g>'
    )


def slate_svg(
    scores: tuple[int, int],
    *,
    names: tuple[str, str] = ("Player 0", "Player 1"),
    tradition: str = "hungarian",
    language: str | None = None,
    width: float | None = None,
) -> str:
    """Both running scores chalked on a framed slate: a column per player, a line down the middle.

    Each column has the player's name at the top, their marks, and the total
    written small underneath (``= 319``) so a learner can check the marks.

    >>> svg = slate_svg((319, 47), language="de")
    >>> "<title>Player 0: 319 Punkte, Player 1: 47 Punkte</title>" in svg
    True
    """
    kind = _tradition(tradition)
    lang = _language(language)
    if len(scores) != 2 or len(names) != 2:
        raise TartliError("a slate has two columns: give two scores and two names")
    resolved = [decompose(s, kind) for s in scores]
    max_width = _COLUMN - 2 * _PAD
    rows = max(2, *(_layout(_glyphs(m, kind), max_width)[1] for m in resolved))  # a steady height
    view_w = 2 * _COLUMN + 2 * _FRAME
    view_h = 2 * _FRAME + _HEADER + rows * 58 + 34
    label = ", ".join(f"{name}: {_points(score, lang)}" for name, score in zip(names, scores, strict=True))
    bottom = view_h - _FRAME - 8
    mid = view_w / 2
    parts = [
        _svg_open(view_w, view_h, width, label, f"tartli-slate {kind}"),
        _frame_svg(view_w, view_h),
        f'<g class="rules" fill="none" stroke="{CHALK}" stroke-linecap="round" opacity=".75" stroke-width="2.4">'
        f'<path d="M{_n(mid)} {_n(_FRAME + 10)}Q{_n(mid + 1.5)} {_n(view_h / 2)} {_n(mid - 0.5)} {_n(bottom)}"/>'
        f'<path d="M{_n(_FRAME + 12)} {_n(_FRAME + _HEADER - 8)}Q{_n(mid)} {_n(_FRAME + _HEADER - 10)} '
        f'{_n(view_w - _FRAME - 12)} {_n(_FRAME + _HEADER - 7)}"/></g>',
    ]
    for column, (name, score, marks) in enumerate(zip(names, scores, resolved, strict=True)):
        x0 = _FRAME + column * _COLUMN
        centre = x0 + _COLUMN / 2
        size = min(24.0, (_COLUMN - 2 * _PAD) / (0.58 * max(len(name), 1)))  # long names shrink to fit
        parts.append(
            f'<text class="name" x="{_n(centre)}" y="{_n(_FRAME + 28)}" text-anchor="middle" font-family="{FONT}" '
            f'font-size="{_n(size)}" fill="{CHALK}" opacity=".92">{escape(name)}</text>'
        )
        parts.append(_marks_group(marks, kind, x0 + _PAD, _FRAME + _HEADER + 4, max_width))
        parts.append(
            f'<text class="total" x="{_n(x0 + _COLUMN - _PAD)}" y="{_n(bottom - 2)}" text-anchor="end" '
            f'font-family="{SMALL_FONT}" font-size="22" fill="{CHALK}" opacity=".8">= {score}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


# --- demo page --------------------------------------------------------------------------------------

_DEMO_CSS = """
body{margin:0;padding:12px 16px;background:#ece7dc;font-family:sans-serif;color:#222}
h1{font-size:18px;margin:0 0 8px}h2{font-size:14px;margin:10px 0 4px}
.row{display:flex;gap:14px;align-items:flex-end;flex-wrap:wrap}figure{margin:0;text-align:center}
figcaption{font-size:11px;color:#555;margin-top:2px}svg{display:block}
.slates{display:flex;gap:16px;margin-top:10px}
"""


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>"


def _tall(svg: str, height: float = 58) -> str:
    """Show a marks strip at a fixed height (the strips differ in width)."""
    return svg.replace("<svg ", f'<svg style="height:{_n(height)}px;width:auto" ', 1)


def demo_html() -> str:
    """An HTML page of the signs (20, 30, 50, 80, 100), the scores 47, 319 and 501 in both traditions, and slates."""
    hungarian = "".join(
        _figure(_tall(marks_svg([Mark(HUNGARIAN_KINDS[v], v)])), str(v)) for v in (20, 30, 50, 80, 100)
    ) + "".join(_figure(_tall(marks_svg([Mark("number", v)])), f"{v:+d}") for v in (-3, 5))
    austrian = "".join(
        _figure(_tall(marks_svg(list(marks), "austrian")), caption)
        for marks, caption in (
            ([Mark("stroke", 20)], "stroke 20"),
            ([Mark("stroke", 20)] * 4, "4 strokes 80"),
            ([Mark("group", 100)], "group 100"),
            ([Mark("vee", 50)], "V 50"),
            ([Mark("triangle", 100)], "triangle 100"),
            ([Mark("number", -3)], "−3 barred"),
            ([Mark("number", 12)], "12 underlined"),
            ([Mark("number", 5)], "5"),
        )
    )
    rows = "".join(
        f'<h2>47, 319 and 501, {name}</h2><div class="row">'
        + "".join(_figure(_tall(marks_svg(score, tradition)), str(score)) for score in (47, 319, 501))
        + (_figure(_tall(marks_svg(BECK_319, "austrian")), "319 as Beck writes it") if tradition == "austrian" else "")
        + "</div>"
        for tradition, name in (("hungarian", "Hungarian"), ("austrian", "Austrian"))
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Tartli score slate</title>'
        f"<style>{_DEMO_CSS}</style></head><body><h1>Keeping the score in chalk</h1>"
        "<h2>Hungarian signs: one more stroke turns 30 into 50 and 80 into 100</h2>"
        f'<div class="row">{hungarian}</div>'
        f'<h2>Austrian signs (Beck, V11)</h2><div class="row">{austrian}</div>{rows}'
        '<div class="slates">'
        f"{slate_svg((319, 47), width=470)}"
        f"{slate_svg((501, 260), names=('Anna', 'Bence'), tradition='austrian', language='de', width=470)}"
        "</div></body></html>"
    )
