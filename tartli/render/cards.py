"""SVG card art for the 32-card Hungarian "William Tell" ("Seasons") pack.

Pure functions, standard library only: each returns a standalone ``<svg>``
string with a ``0 0 100 160`` viewBox, so a card scales cleanly and many cards
can be inlined in one HTML page (the markup uses no ids at all).

The drawing is our own simple vector art in the spirit of the pack: German
suit pips (acorn, linden leaf, heart, hawk bell), Roman numerals on the number
cards, Kings on horseback, Overs holding the pip high and Unders holding it low
(the way players tell them apart), two-pip Aces with their season.

>>> from tartli.cards import Card
>>> svg = card_svg(Card.parse("OH"), language="de", width=90)
>>> "<title>Herz-Ober</title>" in svg and 'data-card="OH"' in svg
True
>>> "OH" in back_svg()
False
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from tartli import names
from tartli.cards import Card, Language, Rank, Suit
from tartli.errors import TartliError

VIEW_W = 100
VIEW_H = 160
SVG_NS = "http://www.w3.org/2000/svg"

SERIF = "Georgia, 'DejaVu Serif', 'Times New Roman', serif"
SANS = "'DejaVu Sans', Verdana, Arial, sans-serif"

# ------------------------------------------------------------------ words

BACK_LABEL: dict[str, str] = {
    "en": "face-down card",
    "hu": "lefordított kártya",
    "de": "verdeckte Karte",
}
"""The accessible name of a card back, per language."""

INDEX_LETTERS: dict[str, str] = {
    # rank order A K O U X 9 8 7
    "en": "A K O U X 9 8 7",
    "hu": "Á K F A X 9 8 7",
    "de": "A K O U X 9 8 7",
}
"""The corner index of each rank, per language (space separated, sequence order).

The Ten is X everywhere, as in the game records and the course's card notation."""

MIN_TEXT_PX = 9.0
"""No text in a card picture is drawn smaller than this many CSS pixels.

A card's lettering (the ribbon with the figure's or the season's name, the Roman
numeral of a number card) is left out of a card drawn too small for it to reach
this size, and the corner index grows on a small card so that it does (down to
a card 32 px wide). A card drawn without ``width`` (scaled by its page) keeps all."""

_RIBBON_MIN_WIDTH = 115.0  # the ribbon's 8-unit letters reach 9 px
_NUMERAL_MIN_WIDTH = 53.0  # the numeral's 17-unit letters reach 9 px

ROMAN = {Rank.TEN: "X", Rank.NINE: "IX", Rank.EIGHT: "VIII", Rank.SEVEN: "VII"}

SEASONS: dict[str, tuple[str, str, str, str]] = {
    # suit order A L H B: Acorns winter, Leaves autumn, Hearts spring, Bells summer
    "en": ("Winter", "Autumn", "Spring", "Summer"),
    "hu": ("Tél", "Ősz", "Tavasz", "Nyár"),
    "de": ("Winter", "Herbst", "Frühling", "Sommer"),
}
"""The season shown on each suit's Ace, per language (suit order A L H B)."""

TELL = {"en": "William Tell", "hu": "Tell Vilmos", "de": "Wilhelm Tell"}
GESSLER = {"en": "Gessler", "hu": "Gessler", "de": "Gessler"}

_STATE_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "selected": "selected",
        "playable": "playable",
        "unplayable": "not playable",
        "highlighted": "part of a meld",
        "trump": "trump",
    },
    "hu": {
        "selected": "kiválasztva",
        "playable": "kijátszható",
        "unplayable": "nem játszható ki",
        "highlighted": "bemondás része",
        "trump": "adu",
    },
    "de": {
        "selected": "ausgewählt",
        "playable": "spielbar",
        "unplayable": "nicht spielbar",
        "highlighted": "Teil einer Meldung",
        "trump": "Trumpf",
    },
}

# ------------------------------------------------------------------ colours

INK = "#2b2118"
PAPER = "#fffaf0"
SKIN = "#f3cfa5"
GOLD = "#e9b10c"

# main colour, dark colour (outlines, index), costume colour, costume trim
_SUIT_COLOURS: dict[Suit, tuple[str, str, str, str]] = {
    Suit.ACORNS: ("#b8742a", "#5b3310", "#8a5a2b", "#2f5f9e"),
    Suit.LEAVES: ("#2f8f3a", "#17561f", "#2f8f3a", "#e3b23c"),
    Suit.HEARTS: ("#d0142c", "#7d0b19", "#c8102e", "#e3b23c"),
    Suit.BELLS: ("#f0b400", "#8a5a00", "#e8a200", "#2f5f9e"),
}


def _n(x: float) -> str:
    """A compact number for SVG attributes."""
    v = round(x, 2)
    if v == int(v):
        return str(int(v))
    return f"{v:g}"


def _language(language: str | None) -> Language:
    """The language asked for, or the current setting (:func:`tartli.names.set_language`)."""
    try:
        return names.resolve(language)
    except ValueError as err:
        raise TartliError(str(err)) from None


# ------------------------------------------------------------------ pips


def _sample_cubic(
    p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float], n: int
) -> list[tuple[float, float]]:
    out = []
    for i in range(1, n + 1):
        t = i / n
        u = 1 - t
        out.append(
            (
                u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
            )
        )
    return out


def _leaf_outline() -> str:
    """A serrated linden leaf (tip up, heart-shaped base), as one closed path."""
    # right half from the tip down to the notch at the base, as cubic segments
    right = [
        ((0.0, -10.0), (2.5, -7.5), (8.8, -5.5), (8.8, 0.0)),
        ((8.8, 0.0), (8.8, 4.6), (5.0, 6.8), (2.6, 6.4)),
        ((2.6, 6.4), (1.4, 6.2), (0.6, 5.6), (0.0, 4.6)),
    ]
    pts: list[tuple[float, float]] = []
    for seg, n in zip(right, (9, 5, 1), strict=True):
        pts.extend(_sample_cubic(*seg, n))
    # teeth: push every other sampled point outwards (away from the centre)
    toothed: list[tuple[float, float]] = [(0.0, -10.0)]
    for i, (x, y) in enumerate(pts[:-2]):
        if i % 2 == 0:
            d = math.hypot(x, y - 0.5) or 1.0
            x, y = x + 0.9 * x / d, y + 0.9 * (y - 0.5) / d
        toothed.append((x, y))
    toothed.extend(pts[-2:])
    left = [(-x, y) for x, y in reversed(toothed[1:-1])]
    ring = toothed + left
    return "M" + " ".join(f"{_n(x)} {_n(y)}" for x, y in ring) + "Z"


_LEAF_PATH = _leaf_outline()


def _pip_body(suit: Suit) -> str:
    """The pip drawn in a box of about -10..10 (both axes), centred on 0 0."""
    main, dark, _, _ = _SUIT_COLOURS[suit]
    if suit is Suit.HEARTS:
        return (
            f'<path d="M0 9C-5 5-10 1.5-10-3.8C-10-8-7.2-10-4.6-10C-2.3-10-.7-8.7 0-7'
            f'C.7-8.7 2.3-10 4.6-10C7.2-10 10-8 10-3.8C10 1.5 5 5 0 9Z" fill="{main}" stroke="{dark}" '
            'stroke-width="1"/><ellipse cx="-4.6" cy="-5.2" rx="2.4" ry="1.5" fill="#fff" opacity=".45" '
            'transform="rotate(-30 -4.6 -5.2)"/>'
        )
    if suit is Suit.LEAVES:
        return (
            f'<path d="M0 4.6C.3 7 1.2 8.6 3 10" fill="none" stroke="{dark}" stroke-width="1.4" '
            f'stroke-linecap="round"/><path d="{_LEAF_PATH}" fill="{main}" stroke="{dark}" '
            'stroke-width=".8" stroke-linejoin="round"/>'
            '<path d="M0 4.5V-8M0 1.5L5 -1.5M0 1.5L-5 -1.5M0 -2L4.2 -5M0 -2L-4.2 -5M0 4L4.6 2.6M0 4L-4.6 2.6" '
            'fill="none" stroke="#bfe3a8" stroke-width=".8" stroke-linecap="round"/>'
        )
    if suit is Suit.ACORNS:
        return (
            f'<path d="M0 -5.6C.2 -8 1 -9.4 2.8 -10.2" fill="none" stroke="{dark}" stroke-width="1.5" '
            f'stroke-linecap="round"/><path d="M-5.9 -1C-6.4 5 -3.5 9 0 10.6C3.5 9 6.4 5 5.9 -1Z" '
            f'fill="{main}" stroke="{dark}" stroke-width=".9"/>'
            '<ellipse cx="-2.4" cy="3" rx="1.2" ry="3" fill="#fff" opacity=".35"/>'
            f'<path d="M-7.2 -.4C-7.4 -5.4 -4 -6.6 0 -6.6C4 -6.6 7.4 -5.4 7.2 -.4C4 1 -4 1 -7.2 -.4Z" '
            f'fill="#6e4620" stroke="{dark}" stroke-width=".9"/>'
            '<path d="M-5.5 -4.4L-2 -.1M-2.5 -6L2 -.1M1 -6.5L5.6 -.8M4.5 -5.8L6.8 -3M-6.6 -1.6L-4.2 -5.6'
            'M-3.4 -.2L.4 -6.5M.9 0L4 -6.2M4.5 -.4L6.6 -4" stroke="#c99a5c" stroke-width=".55"/>'
        )
    # BELLS: a round hawk bell with a loop, a band and a slit ending in two holes
    return (
        f'<circle cx="0" cy="-8.2" r="1.9" fill="none" stroke="{dark}" stroke-width="1.3"/>'
        f'<circle cx="0" cy="1" r="8.4" fill="{main}" stroke="{dark}" stroke-width="1"/>'
        f'<path d="M-8.3 -.6Q0 2.6 8.3 -.6L8.2 2Q0 5.2 -8.2 2Z" fill="#c8102e" stroke="{dark}" '
        'stroke-width=".5"/>'
        f'<path d="M-3.3 6.2H3.3" stroke="{dark}" stroke-width="1.1"/>'
        f'<circle cx="-3.5" cy="6.2" r="1.2" fill="{dark}"/><circle cx="3.5" cy="6.2" r="1.2" fill="{dark}"/>'
        '<ellipse cx="-3.6" cy="-3" rx="2.3" ry="1.4" fill="#fff" opacity=".5" transform="rotate(-35 -3.6 -3)"/>'
    )


_PIP_BODIES: dict[Suit, str] = {s: _pip_body(s) for s in Suit}


def pip_svg(suit: Suit, x: float, y: float, scale: float = 1.0, *, css_class: str = "pip") -> str:
    """One suit pip centred at ``x y`` (about ``20 * scale`` units tall), as an SVG group."""
    return f'<g class="{css_class}" transform="translate({_n(x)} {_n(y)}) scale({_n(scale)})">{_PIP_BODIES[suit]}</g>'


# ------------------------------------------------------------------ faces: common parts


def _index_scale(width: float | None) -> float:
    """How much larger than usual the corner index is drawn on a card ``width`` px wide."""
    if width is None or width <= 0:  # (a width <= 0 is refused by _svg_open)
        return 1.0
    # grown to 15% above the minimum, so that a picture shrunk a little to fit a phone keeps it
    return min(1.82, max(1.0, 1.15 * MIN_TEXT_PX / (15.5 * width / 100)))


_INDEX_TOP = 4.9
"""The highest an index letter reaches, its accent included (the Hungarian Ace's "Á"): just under the
inner edge of the selected mark (y 4.4), which hid the accent, so that the Ace read "A", the Under's letter."""

_ACCENT_EM = 0.95
"""How far above its baseline an accented bold capital reaches, in em: 0.92 for DejaVu Serif's "Á" (the ink,
measured in Chromium), its font box 0.94; the rest is room for Georgia."""


def _index_size(scale: float) -> float:
    """The corner index letter's font size."""
    return math.ceil(15.5 * scale * 100) / 100  # rounded up, never under MIN_TEXT_PX


def _index_pip_y(scale: float) -> float:
    """The centre of the corner index's mini pip, under its letter."""
    return _INDEX_TOP + _ACCENT_EM * _index_size(scale) + 10.5 * scale


def _index(card: Card, language: Language, scale: float = 1.0) -> str:
    """The corner index (rank letter + mini pip), top left and, turned, bottom right."""
    letter = INDEX_LETTERS[language].split()[card.rank.index]
    dark = _SUIT_COLOURS[card.suit][1]
    size = _index_size(scale)
    x = 9.6 + 1.5 * (scale - 1)
    one = (
        f'<text x="{_n(x)}" y="{_n(_INDEX_TOP + _ACCENT_EM * size)}" font-family="{SERIF}" font-size="{_n(size)}" '
        f'font-weight="bold" text-anchor="middle" fill="{dark}">{escape(letter)}</text>'
        + pip_svg(card.suit, x, _index_pip_y(scale), 0.46 * scale, css_class="mini-pip")
    )
    return f'<g class="index">{one}</g><g class="index" transform="rotate(180 50 80)">{one}</g>'


def _frame(card: Card, fill: str) -> str:
    dark = _SUIT_COLOURS[card.suit][1]
    return (
        f'<rect x="17.5" y="5.5" width="65" height="149" rx="3" fill="{fill}" stroke="{dark}" '
        'stroke-width=".8" stroke-opacity=".7"/>'
    )


def _banner(text: str, y: float, colour: str, *, size: float = 8.5, serif: bool = False) -> str:
    """A ribbon across the frame with centred text (shrunk to fit if long)."""
    font = SERIF if serif else SANS
    width = 60.0
    fit = ""
    if len(text) * size * 0.56 > width - 6:
        fit = f' textLength="{_n(width - 8)}" lengthAdjust="spacingAndGlyphs"'
    return (
        f'<path d="M18 {_n(y - 6)}H82L79 {_n(y)}L82 {_n(y + 6)}H18L21 {_n(y)}Z" fill="{PAPER}" '
        f'stroke="{colour}" stroke-width=".8"/>'
        f'<text x="50" y="{_n(y + size * 0.36)}" font-family="{font}" font-size="{_n(size)}" '
        f'font-weight="bold" text-anchor="middle" fill="{colour}"{fit}>{escape(text)}</text>'
    )


# ------------------------------------------------------------------ number cards

# pip centres for X, IX, VIII, VII: columns at x 31, 50, 69
_COLS = (29.5, 50.0, 70.5)
_ROWS4 = (41.0, 74.0, 107.0, 140.0)
_ROWS3 = (42.0, 91.0, 140.0)


def _columns(rows: tuple[float, ...]) -> tuple[tuple[float, float], ...]:
    return tuple((x, y) for x in (_COLS[0], _COLS[2]) for y in rows)


_NUMBER_LAYOUT: dict[Rank, tuple[tuple[float, float], ...]] = {
    Rank.TEN: (*_columns(_ROWS4), (_COLS[1], 57.5), (_COLS[1], 123.5)),
    Rank.NINE: (*_columns(_ROWS4), (_COLS[1], 90.5)),
    Rank.EIGHT: (*_columns(_ROWS3), (_COLS[1], 66.5), (_COLS[1], 115.5)),
    Rank.SEVEN: (*_columns(_ROWS3), (_COLS[1], 66.5)),
}


def _number_face(card: Card, numeral_shown: bool = True) -> str:
    _, dark, _, _ = _SUIT_COLOURS[card.suit]
    numeral = ROMAN[card.rank]
    parts = [_frame(card, PAPER)]
    if numeral_shown:
        parts += [
            f'<rect x="27" y="8" width="46" height="19" rx="9.5" fill="{PAPER}" stroke="{dark}" stroke-width="1"/>',
            f'<text class="numeral" x="50" y="23" font-family="{SERIF}" font-size="17" font-weight="bold" '
            f'text-anchor="middle" fill="{dark}">{numeral}</text>',
        ]
    parts += [pip_svg(card.suit, x, y, 1.0) for x, y in _NUMBER_LAYOUT[card.rank]]
    return "".join(parts)


# ------------------------------------------------------------------ Aces ("Daus") with their season


def _ground(cx: float, cy: float, r: float, level: float, fill: str) -> str:
    """The part of a circle below the horizontal line ``y = cy + level``."""
    half = math.sqrt(r * r - level * level)
    y = cy + level
    return f'<path d="M{_n(cx - half)} {_n(y)}A{_n(r)} {_n(r)} 0 0 0 {_n(cx + half)} {_n(y)}Z" fill="{fill}"/>'


def _season_scene(suit: Suit, cx: float, cy: float, r: float) -> str:
    """A small round picture of the season of the suit's Ace."""
    if suit is Suit.HEARTS:  # spring: a tree in blossom, flowers in the grass
        sky, out = "#cfe8f7", []
        out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{sky}"/>')
        out.append(_ground(cx, cy, r, 8, "#7cc15a"))
        out.append(f'<circle cx="{_n(cx + 16)}" cy="{_n(cy - 16)}" r="4.5" fill="#ffe066"/>')
        out.append(f'<path d="M{_n(cx - 6)} {_n(cy + 13)}V{_n(cy - 2)}" stroke="#7a4b23" stroke-width="3"/>')
        out.append(f'<circle cx="{_n(cx - 6)}" cy="{_n(cy - 9)}" r="11" fill="#f6c6d6"/>')
        for dx, dy in ((-12, -12), (-4, -16), (2, -8), (-9, -4), (-1, -2), (-14, -5), (4, -14)):
            out.append(f'<circle cx="{_n(cx - 6 + dx + 6)}" cy="{_n(cy + dy)}" r="1.6" fill="#fff"/>')
        for dx, col in ((8, "#e8336b"), (14, "#ffd23f"), (19, "#e8336b"), (-18, "#ffd23f"), (3, "#fff")):
            out.append(f'<circle cx="{_n(cx + dx)}" cy="{_n(cy + 15 - (dx % 3))}" r="1.5" fill="{col}"/>')
        return "".join(out)
    if suit is Suit.BELLS:  # summer: a big sun over the ripe wheat
        out = [f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="#fdf0b8"/>']
        rays = []
        for i in range(12):
            a = i * math.pi / 6
            rays.append(
                f"M{_n(cx + 9 * math.cos(a))} {_n(cy - 6 + 9 * math.sin(a))}"
                f"L{_n(cx + 14 * math.cos(a))} {_n(cy - 6 + 14 * math.sin(a))}"
            )
        out.append(f'<path d="{"".join(rays)}" stroke="#f08c00" stroke-width="1.6" stroke-linecap="round"/>')
        out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy - 6)}" r="7" fill="#ffb703" stroke="#f08c00"/>')
        out.append(_ground(cx, cy, r, 9, "#e6b63c"))
        stalks = []
        for dx in (-16, -10, -4, 2, 8, 14):
            stalks.append(f"M{_n(cx + dx)} {_n(cy + 24)}V{_n(cy + 12)}")
        out.append(f'<path d="{"".join(stalks)}" stroke="#a8741a" stroke-width="1"/>')
        for dx in (-16, -10, -4, 2, 8, 14):
            out.append(f'<ellipse cx="{_n(cx + dx)}" cy="{_n(cy + 11)}" rx="1.5" ry="3" fill="#c98a16"/>')
        return "".join(out)
    if suit is Suit.LEAVES:  # autumn: a tree turning red and gold, grapes, falling leaves
        out = [f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="#f4dcc0"/>']
        out.append(_ground(cx, cy, r, 9, "#9c6b3a"))
        out.append(f'<path d="M{_n(cx + 4)} {_n(cy + 14)}V{_n(cy - 2)}" stroke="#5b3310" stroke-width="3"/>')
        for dx, dy, rr, col in ((-3, -10, 8, "#d9622b"), (10, -8, 7, "#e3a21a"), (4, -16, 7, "#b8341b")):
            out.append(f'<circle cx="{_n(cx + dx)}" cy="{_n(cy + dy)}" r="{rr}" fill="{col}"/>')
        for dx, dy in ((-15, 0), (-12, 6), (16, 4)):
            out.append(
                f'<ellipse cx="{_n(cx + dx)}" cy="{_n(cy + dy)}" rx="1.3" ry="2.3" fill="#d9622b" '
                f'transform="rotate(40 {_n(cx + dx)} {_n(cy + dy)})"/>'
            )
        for gx, gy in ((-14, 14), (-12, 14), (-10, 14), (-13, 16.2), (-11, 16.2), (-12, 18.4)):
            out.append(f'<circle cx="{_n(cx + gx)}" cy="{_n(cy + gy)}" r="1.3" fill="#6b2f7a"/>')
        return "".join(out)
    # ACORNS, winter: snow on the ground, a bare tree, a cottage, snowflakes
    out = [f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="#c9d6e3"/>']
    out.append(_ground(cx, cy, r, 8, "#ffffff"))
    out.append(
        f'<path d="M{_n(cx - 8)} {_n(cy + 12)}V{_n(cy - 6)}M{_n(cx - 8)} {_n(cy)}L{_n(cx - 15)} {_n(cy - 8)}'
        f"M{_n(cx - 8)} {_n(cy - 3)}L{_n(cx - 1)} {_n(cy - 12)}M{_n(cx - 8)} {_n(cy - 6)}L{_n(cx - 10)} {_n(cy - 16)}"
        f'M{_n(cx - 12)} {_n(cy - 4)}L{_n(cx - 16)} {_n(cy - 3)}" stroke="#4a3222" stroke-width="1.6" '
        'stroke-linecap="round" fill="none"/>'
    )
    out.append(
        f'<rect x="{_n(cx + 4)}" y="{_n(cy + 2)}" width="13" height="9" fill="#8a5a2b"/>'
        f'<path d="M{_n(cx + 2)} {_n(cy + 3)}L{_n(cx + 10.5)} {_n(cy - 5)}L{_n(cx + 19)} {_n(cy + 3)}Z" '
        'fill="#fff" stroke="#7d8a99" stroke-width=".6"/>'
        f'<rect x="{_n(cx + 9)}" y="{_n(cy + 5)}" width="3.5" height="3.5" fill="#ffd23f"/>'
    )
    flakes = "".join(
        f'<circle cx="{_n(cx + dx)}" cy="{_n(cy + dy)}" r="1" fill="#fff"/>'
        for dx, dy in ((-18, -8), (-2, -18), (8, -14), (16, -6), (-14, -16), (2, -8), (14, -16), (-20, 2))
    )
    return "".join(out) + flakes


def _ace_face(card: Card, language: Language, lettering: bool = True) -> str:
    main, dark, _, _ = _SUIT_COLOURS[card.suit]
    cx, cy, r = 50.0, 86.0, 26.0
    season = SEASONS[language][card.suit.index]
    return "".join(
        [
            _frame(card, "#f7eed6"),
            pip_svg(card.suit, 35, 28, 1.1),
            pip_svg(card.suit, 65, 28, 1.1),
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r + 2.5)}" fill="{GOLD}" stroke="{dark}" stroke-width=".8"/>',
            _season_scene(card.suit, cx, cy, r),
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="none" stroke="{dark}" stroke-width=".8"/>',
            _banner(season, 128, dark, size=9, serif=True) if lettering else "",
            f'<path d="M30 142Q40 136 50 142Q60 148 70 142" fill="none" stroke="{main}" stroke-width="1.4"/>',
            f'<circle cx="50" cy="142" r="1.6" fill="{main}"/>',
        ]
    )


# ------------------------------------------------------------------ figures


def _standing_figure(card: Card, language: Language, lettering: bool = True) -> str:
    """An Over (pip held high, top left) or an Under (pip held low, at the hip)."""
    suit = card.suit
    main, dark, cloth, trim = _SUIT_COLOURS[suit]
    over = card.rank is Rank.OVER
    cx = 56.0
    hem = 112.0 if over else 106.0
    out: list[str] = []
    # the ground and the legs
    out.append('<ellipse cx="52" cy="137" rx="29" ry="4.5" fill="#cdbb8a"/>')
    out.append(
        f'<path d="M{_n(cx - 8)} {_n(hem - 4)}h5v30h-5zM{_n(cx + 3)} {_n(hem - 4)}h5v30h-5z" fill="{trim}" '
        f'stroke="{INK}" stroke-width=".6"/>'
    )
    out.append(f'<path d="M{_n(cx - 11)} 137q0-4 5-4h4v4zM{_n(cx + 2)} 137v-4h4q5 0 5 4z" fill="{INK}"/>')
    if over:  # a long cloak behind the body
        out.append(
            f'<path d="M{_n(cx - 11)} 61L{_n(cx - 19)} 122L{_n(cx + 19)} 122L{_n(cx + 11)} 61Z" fill="{trim}" '
            f'stroke="{INK}" stroke-width=".6" opacity=".9"/>'
        )
    # the tunic with a belt
    out.append(
        f'<path d="M{_n(cx - 11)} 60H{_n(cx + 11)}L{_n(cx + 14)} {_n(hem)}H{_n(cx - 14)}Z" fill="{cloth}" '
        f'stroke="{INK}" stroke-width=".7"/>'
    )
    out.append(
        f'<path d="M{_n(cx - 1)} 60V{_n(hem)}" stroke="{INK}" stroke-width=".5" opacity=".5"/>'
        f'<rect x="{_n(cx - 12.6)}" y="82" width="25.2" height="3.4" fill="#5b3310"/>'
        f'<rect x="{_n(cx - 2.5)}" y="81.6" width="4" height="4.2" fill="{GOLD}" stroke="{INK}" stroke-width=".4"/>'
    )
    out.append(
        f'<path d="M{_n(cx - 6)} 60Q{_n(cx)} 66 {_n(cx + 6)} 60Z" fill="#fff" stroke="{INK}" stroke-width=".5"/>'
    )
    # the right arm (viewer's right) and what it holds
    if card.suit is Suit.ACORNS and over:  # Tell with his crossbow
        out.append(
            f'<path d="M{_n(cx + 10)} 63L{_n(cx + 16)} 80L{_n(cx + 18)} 90" fill="none" stroke="{cloth}" '
            'stroke-width="5" stroke-linecap="round"/>'
        )
        out.append(
            f'<path d="M{_n(cx + 24)} 112L{_n(cx + 14)} 70" stroke="#6e4620" stroke-width="2.6" '
            'stroke-linecap="round"/>'
            f'<path d="M{_n(cx + 8)} 80Q{_n(cx + 17)} 70 {_n(cx + 25)} 75" fill="none" stroke="#444" '
            'stroke-width="1.6"/>'
            f'<path d="M{_n(cx + 8)} 80L{_n(cx + 25)} 75" stroke="#999" stroke-width=".5"/>'
        )
        out.append(f'<circle cx="{_n(cx + 18)}" cy="91" r="2.6" fill="{SKIN}" stroke="{INK}" stroke-width=".4"/>')
    elif card.suit is Suit.HEARTS and over:  # Gessler with the hat on the pole
        out.append(f'<path d="M{_n(cx + 19)} 136V26" stroke="#6e4620" stroke-width="2"/>')
        out.append(
            f'<path d="M{_n(cx + 13)} 27h12" stroke="{INK}" stroke-width="1.6"/>'
            f'<path d="M{_n(cx + 15)} 27q0-6 4-6t4 6z" fill="#2f5f9e" stroke="{INK}" stroke-width=".5"/>'
            f'<path d="M{_n(cx + 21)} 22q4-6 2-11" fill="none" stroke="#fff" stroke-width="1.4"/>'
        )
        out.append(
            f'<path d="M{_n(cx + 10)} 63L{_n(cx + 16)} 78L{_n(cx + 18)} 80" fill="none" stroke="{cloth}" '
            'stroke-width="5" stroke-linecap="round"/>'
        )
        out.append(f'<circle cx="{_n(cx + 19)}" cy="80" r="2.6" fill="{SKIN}" stroke="{INK}" stroke-width=".4"/>')
    else:
        out.append(
            f'<path d="M{_n(cx + 10)} 63L{_n(cx + 15)} 80L{_n(cx + 15)} 90" fill="none" stroke="{cloth}" '
            'stroke-width="5" stroke-linecap="round"/>'
        )
        out.append(f'<circle cx="{_n(cx + 15)}" cy="92" r="2.6" fill="{SKIN}" stroke="{INK}" stroke-width=".4"/>')
        if not over:  # a short sword at the Under's side
            out.append(f'<path d="M{_n(cx + 9)} 88L{_n(cx + 20)} 120" stroke="#777" stroke-width="1.6"/>')
    # the left arm holding the pip: high for the Over, low for the Under
    if over:
        pip_x, pip_y = 30.0, 28.0
        arm = f"M{_n(cx - 10)} 63L{_n(cx - 17)} 52L{_n(cx - 23)} 41"
        hand = (cx - 24, 39.5)
    else:
        pip_x, pip_y = 30.0, 101.0
        arm = f"M{_n(cx - 10)} 63L{_n(cx - 19)} 78L{_n(cx - 24)} 89"
        hand = (cx - 25, 90.5)
    out.append(f'<path d="{arm}" fill="none" stroke="{cloth}" stroke-width="5" stroke-linecap="round"/>')
    out.append(f'<path d="{arm}" fill="none" stroke="{INK}" stroke-width=".5" opacity=".4"/>')
    out.append(
        f'<circle cx="{_n(hand[0])}" cy="{_n(hand[1])}" r="2.6" fill="{SKIN}" stroke="{INK}" stroke-width=".4"/>'
    )
    out.append(pip_svg(suit, pip_x, pip_y, 1.0))
    # the head
    head_y = 50.0
    out.append(f'<circle cx="{_n(cx)}" cy="{_n(head_y)}" r="7.5" fill="{SKIN}" stroke="{INK}" stroke-width=".7"/>')
    out.append(
        f'<circle cx="{_n(cx - 2.6)}" cy="{_n(head_y - 1)}" r=".8" fill="{INK}"/>'
        f'<circle cx="{_n(cx + 2.6)}" cy="{_n(head_y - 1)}" r=".8" fill="{INK}"/>'
    )
    if over:  # a beard and a brimmed hat with a feather
        out.append(
            f'<path d="M{_n(cx - 6)} {_n(head_y + 2)}Q{_n(cx)} {_n(head_y + 14)} {_n(cx + 6)} {_n(head_y + 2)}'
            f'Q{_n(cx)} {_n(head_y + 6)} {_n(cx - 6)} {_n(head_y + 2)}Z" fill="#7a4b23"/>'
        )
        out.append(
            f'<ellipse cx="{_n(cx)}" cy="{_n(head_y - 6)}" rx="12" ry="2.6" fill="{trim}" stroke="{INK}" '
            'stroke-width=".6"/>'
            f'<path d="M{_n(cx - 7)} {_n(head_y - 6)}Q{_n(cx - 6)} {_n(head_y - 14)} {_n(cx)} {_n(head_y - 14)}'
            f'Q{_n(cx + 6)} {_n(head_y - 14)} {_n(cx + 7)} {_n(head_y - 6)}Z" fill="{trim}" stroke="{INK}" '
            'stroke-width=".6"/>'
            f'<path d="M{_n(cx + 4)} {_n(head_y - 12)}Q{_n(cx + 14)} {_n(head_y - 20)} '
            f'{_n(cx + 18)} {_n(head_y - 14)}" '
            f'fill="none" stroke="{main}" stroke-width="2" stroke-linecap="round"/>'
        )
    else:  # a moustache and a soft cap
        out.append(
            f'<path d="M{_n(cx - 3.5)} {_n(head_y + 3)}Q{_n(cx)} {_n(head_y + 1)} {_n(cx + 3.5)} {_n(head_y + 3)}" '
            'fill="none" stroke="#7a4b23" stroke-width="1.2"/>'
        )
        out.append(
            f'<path d="M{_n(cx - 8)} {_n(head_y - 4)}Q{_n(cx - 7)} {_n(head_y - 12)} {_n(cx + 2)} {_n(head_y - 11)}'
            f'Q{_n(cx + 11)} {_n(head_y - 10)} {_n(cx + 9)} {_n(head_y - 4)}Z" fill="{cloth}" stroke="{INK}" '
            'stroke-width=".6"/>'
        )
    # the name ribbon
    if over and suit is Suit.ACORNS:
        label = TELL[language]
    elif over and suit is Suit.HEARTS:
        label = GESSLER[language]
    else:
        label = card.rank.name_in(language)
        label = label[:1].upper() + label[1:]
    if lettering:
        out.append(_banner(label, 147, dark, size=8))
    return _frame(card, "#f7eed6") + "".join(out)


def _king_face(card: Card, language: Language, lettering: bool = True) -> str:
    """A crowned King riding a horse, showing the suit pip."""
    suit = card.suit
    _, dark, cloth, trim = _SUIT_COLOURS[suit]
    out: list[str] = [_frame(card, "#f7eed6")]
    out.append('<ellipse cx="50" cy="137" rx="30" ry="4.5" fill="#cdbb8a"/>')
    horse, line = "#ece6da", "#5e4e3e"
    # the far legs (darker, behind), then the body as one silhouette with the near legs
    out.append(
        '<path d="M58 110L56 123L58 136M40 110L44 123L42 136" fill="none" stroke="#b9ad9a" stroke-width="4.4" '
        'stroke-linecap="round"/><path d="M55 136h5M40 136h5" stroke="#333" stroke-width="2.4"/>'
    )
    out.append('<path d="M29 97Q19 104 22 126Q25 116 30 108Z" fill="#6b5a48"/>')
    out.append(
        f'<path d="M30 96C40 92 52 94 60 94C62 86 65 79 68 74L69 68L72.5 72.5C77 76 80 82 82.5 87'
        "C83 90 80 91.5 77 89.5C74 88.5 71 90 69 94C67.5 100 68.5 104 67.5 108L70 122L70 135.5H65.5L65 123"
        'L61 113C54 115 44 115 37 112L35 122L38 135.5H33.5L30.5 123L31 114C27 108 27 101 30 96Z" '
        f'fill="{horse}" stroke="{line}" stroke-width=".9" stroke-linejoin="round"/>'
        '<path d="M65.5 135.5h5M33.5 135.5h5" stroke="#333" stroke-width="2.4"/>'
        f'<path d="M68 74C64 82 61 88 58 94" fill="none" stroke="{line}" stroke-width="2.6" stroke-linecap="round"/>'
        f'<circle cx="74.5" cy="79" r=".9" fill="{line}"/>'
        f'<path d="M79.5 89L66 96" stroke="{dark}" stroke-width=".8"/>'
    )
    # saddle cloth
    out.append(
        f'<path d="M36 96H60L58 114Q48 118 38 114Z" fill="{cloth}" stroke="{INK}" stroke-width=".6"/>'
        f'<path d="M38 112Q48 116 58 112" fill="none" stroke="{trim}" stroke-width="1.6"/>'
    )
    # rider: leg, cloak, body, arm, head, crown
    out.append(
        f'<path d="M46 94L49 112L47 118" fill="none" stroke="{trim}" stroke-width="4.5" stroke-linecap="round"/>'
    )
    out.append(f'<path d="M47 118h5" stroke="{INK}" stroke-width="2.6" stroke-linecap="round"/>')
    out.append(f'<path d="M42 66Q28 80 26 100L40 98Z" fill="{trim}" stroke="{INK}" stroke-width=".6"/>')
    out.append(f'<path d="M41 64H55L57 98H38Z" fill="{cloth}" stroke="{INK}" stroke-width=".7"/>')
    out.append('<rect x="38.6" y="84" width="18" height="3" fill="#5b3310"/>')
    out.append(f'<path d="M43 64Q48 70 53 64Z" fill="#fff" stroke="{INK}" stroke-width=".5"/>')
    arm = "M54 67L61 56L64 45"
    out.append(f'<path d="{arm}" fill="none" stroke="{cloth}" stroke-width="5" stroke-linecap="round"/>')
    out.append(f'<path d="{arm}" fill="none" stroke="{INK}" stroke-width=".5" opacity=".4"/>')
    out.append(f'<circle cx="64.5" cy="43.5" r="2.6" fill="{SKIN}" stroke="{INK}" stroke-width=".4"/>')
    out.append(pip_svg(suit, 66, 32, 1.0))
    out.append(f'<circle cx="48" cy="55" r="7.5" fill="{SKIN}" stroke="{INK}" stroke-width=".7"/>')
    out.append('<circle cx="45.4" cy="54" r=".8" fill="#2b2118"/><circle cx="50.6" cy="54" r=".8" fill="#2b2118"/>')
    out.append('<path d="M42 57Q48 72 54 57Q48 61 42 57Z" fill="#8a8078"/>')
    out.append(
        f'<path d="M40.5 49L41 40L44.5 45L48 38L51.5 45L55 40L55.5 49Z" fill="{GOLD}" stroke="{INK}" '
        'stroke-width=".6"/><circle cx="48" cy="46.5" r="1.1" fill="#c8102e"/>'
    )
    label = card.rank.name_in(language)
    if lettering:
        out.append(_banner(label[:1].upper() + label[1:], 147, dark, size=8))
    return "".join(out)


# ------------------------------------------------------------------ states


def _hatch(x0: float, y0: float, x1: float, y1: float, step: float) -> str:
    """Diagonal lines (/) filling the box, as one path's data."""
    parts = []
    c = x0 + y0 + step / 2
    while c < x1 + y1:
        ax, bx = max(x0, c - y1), min(x1, c - y0)
        if ax < bx:
            parts.append(f"M{_n(ax)} {_n(c - ax)}L{_n(bx)} {_n(c - bx)}")
        c += step
    return "".join(parts)


_UNPLAYABLE = (
    '<g class="unplayable">'
    f'<rect x="1" y="1" width="98" height="158" rx="7" fill="{PAPER}" opacity=".55"/>'
    f'<path class="unplayable-hatch" d="{_hatch(3, 3, 97, 157, 9)}" stroke="#555" stroke-width="1.1" '
    'stroke-opacity=".55"/>'
    '<circle cx="9.8" cy="149.5" r="7" fill="#fff" stroke="#333" stroke-width="1.2"/>'
    '<path class="unplayable-cross" d="M6.4 146.1L13.2 152.9M13.2 146.1L6.4 152.9" stroke="#333" '
    'stroke-width="1.8" stroke-linecap="round"/></g>'
)

_PLAYABLE = (
    '<g class="playable-mark"><circle cx="9.8" cy="149.5" r="7" fill="#2e7d32" stroke="#fff" stroke-width="1"/>'
    '<path d="M6.3 149.8L8.9 152.6L13.4 146.6" fill="none" stroke="#fff" stroke-width="1.8" '
    'stroke-linecap="round" stroke-linejoin="round"/></g>'
)

_SELECTED = (
    '<g class="selected-mark"><rect x="1.7" y="1.7" width="96.6" height="156.6" rx="6.5" fill="none" '
    'stroke="#1d4ed8" stroke-width="3.4"/>'
    '<rect x="3.9" y="3.9" width="92.2" height="152.2" rx="5" fill="none" stroke="#fff" stroke-width="1"/>'
    '<path d="M40 8.5L50 2.5L60 8.5Z" fill="#1d4ed8"/></g>'
)

_HIGHLIGHTED = (
    '<g class="meld-mark"><rect x="17.5" y="5.5" width="65" height="149" rx="3" fill="none" stroke="#e07a00" '
    'stroke-width="2.8" stroke-dasharray="6 3.5"/>'
    '<circle cx="9.6" cy="56" r="6.8" fill="#fff3d6" stroke="#e07a00" stroke-width="1"/>'
    '<circle cx="7.4" cy="56" r="3" fill="none" stroke="#333" stroke-width="1.4"/>'
    '<circle cx="11.8" cy="56" r="3" fill="none" stroke="#333" stroke-width="1.4"/></g>'
)

_TRUMP = (
    '<g class="trump-badge"><circle cx="9.9" cy="42" r="6.8" fill="#3b2a6b" stroke="#fff" stroke-width=".8"/>'
    '<path d="M5.1 45.6L4.5 37.6L7.5 40.6L9.9 36.2L12.3 40.6L15.3 37.6L14.7 45.6Z" fill="#ffd23f" stroke="#fff" '
    'stroke-width=".4" stroke-linejoin="round"/></g>'
)


def _svg_open(label: str, classes: Sequence[str], width: float | None, extra: str = "") -> str:
    size = ""
    if width is not None:
        if width <= 0:
            raise TartliError(f"card width must be positive, not {width!r}")
        size = f' width="{_n(width)}" height="{_n(width * VIEW_H / VIEW_W)}"'
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 {VIEW_W} {VIEW_H}"{size} role="img" aria-label={quoteattr(label)} '
        f'class="{" ".join(classes)}"{extra}><title>{escape(label)}</title>'
    )


def _base(fill: str, stroke: str) -> str:
    return f'<rect x="1" y="1" width="98" height="158" rx="7" fill="{fill}" stroke="{stroke}" stroke-width="1.2"/>'


def back_svg(*, width: float | None = None, language: Language | None = None) -> str:
    """A card back: an ornamental lattice that says nothing about the card.

    Its accessible name is "face-down card" (hu "lefordított kártya", de "verdeckte Karte").
    """
    label = BACK_LABEL[_language(language)]
    # lattice of diamonds inside the border, drawn with lower-case path commands only
    lattice = []
    for k in range(-16, 17):
        lattice.append(f"M{_n(50 + 8 * k)} 9l73 146")
        lattice.append(f"M{_n(50 + 8 * k)} 9l-73 146")
    return "".join(
        [
            _svg_open(label, ("tartli-card", "back"), width),
            _base("#7d1a1f", "#3a0b0e"),
            '<rect x="6" y="6" width="88" height="148" rx="4" fill="#f3e3bf"/>',
            '<rect x="9" y="9" width="82" height="142" rx="3" fill="#8f2128"/>',
            '<svg x="9" y="9" width="82" height="142" viewBox="9 9 82 142">',
            f'<path d="{"".join(lattice)}" stroke="#c9a24a" stroke-width=".9" opacity=".7"/>',
            "</svg>",
            '<rect x="9" y="9" width="82" height="142" rx="3" fill="none" stroke="#e8c56a" stroke-width="1.2"/>',
            '<ellipse cx="50" cy="80" rx="25" ry="33" fill="#8f2128" stroke="#e8c56a" stroke-width="1.6"/>',
            '<ellipse cx="50" cy="80" rx="20" ry="27.5" fill="none" stroke="#f3e3bf" stroke-width=".8"/>',
            "".join(
                f'<ellipse cx="50" cy="66" rx="4" ry="12" fill="#e8c56a" transform="rotate({a} 50 80)"/>'
                for a in range(0, 360, 45)
            ),
            '<circle cx="50" cy="80" r="5" fill="#8f2128" stroke="#f3e3bf" stroke-width="1.4"/>',
            '<circle cx="50" cy="80" r="1.8" fill="#e8c56a"/>',
            "".join(
                f'<circle cx="{x}" cy="{y}" r="2.6" fill="#e8c56a"/>'
                for x, y in ((16, 16), (84, 16), (16, 144), (84, 144))
            ),
            "</svg>",
        ]
    )


def card_svg(
    card: Card,
    *,
    language: Language | None = None,
    width: float | None = None,
    selected: bool = False,
    playable: bool | None = None,
    highlighted: bool = False,
    trump: bool = False,
    face_down: bool = False,
    bare: bool = False,
) -> str:
    """One card as a standalone ``<svg>`` (viewBox ``0 0 100 160``; ``width`` in CSS px).

    ``bare=True`` draws the card as a real William Tell pack shows it: no corner
    index and no name ribbon (the course's own helps), for learning to read the pictures.

    States, each with a shape cue besides colour so they read in greyscale:
    ``selected`` a thick double outline and a tab at the top; ``playable=True``
    a tick in the bottom-left corner; ``playable=False`` dimmed, hatched and a
    cross in that corner; ``highlighted`` (part of a meld) a dashed outline round the picture
    and a two-ring mark; ``trump`` a crown badge under the corner index.

    ``face_down=True`` gives :func:`back_svg` (every state is ignored, since a
    trump badge or a meld mark would tell something about the hidden card).
    """
    lang = _language(language)
    if face_down:
        return back_svg(width=width, language=lang)
    name = card.name(lang)
    classes = ["tartli-card", "face"]
    states = []
    if selected:
        classes.append("selected")
        states.append("selected")
    if playable is True:
        classes.append("playable")
        states.append("playable")
    elif playable is False:
        classes.append("unplayable")
        states.append("unplayable")
    if highlighted:
        classes.append("highlighted")
        states.append("highlighted")
    if trump:
        classes.append("trump")
        states.append("trump")
    lettering = (width is None or width >= _RIBBON_MIN_WIDTH) and not bare
    scale = _index_scale(width)
    if card.rank is Rank.ACE:
        art = _ace_face(card, lang, lettering)
    elif card.rank is Rank.KING:
        art = _king_face(card, lang, lettering)
    elif card.rank in (Rank.OVER, Rank.UNDER):
        art = _standing_figure(card, lang, lettering)
    else:
        art = _number_face(card, width is None or width >= _NUMERAL_MIN_WIDTH)
    parts = [_svg_open(name, classes, width, f' data-card="{card.text}"')]
    if states:
        words = _STATE_WORDS[lang]
        parts.append(f"<desc>{escape(', '.join(words[s] for s in states))}</desc>")
    parts += [_base(PAPER, "#444"), art, "" if bare else _index(card, lang, scale)]
    if playable is False:
        parts.append(_UNPLAYABLE)
    if selected:
        parts.append(_SELECTED)
    # the badges (drawn for a mini pip at y 27.5) sit under the corner index, however large it is
    below_index = _index_pip_y(scale) - 27.5 + 5 * (scale - 1)
    if highlighted:
        parts.append(_HIGHLIGHTED.replace('cy="56"', f'cy="{_n(56 + below_index)}"'))
    if trump:
        parts.append(f'<g transform="translate(0 {_n(below_index)})">{_TRUMP}</g>')
    if playable is True:
        parts.append(_PLAYABLE)
    parts.append("</svg>")
    return "".join(parts)
