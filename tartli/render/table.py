"""Composites as SVG: a hand, a trick, a meld, and the whole table from one player's view.

Pure functions over engine values (standard library only). The table is drawn
from a :class:`~tartli.game.PlayerView`, so a view for player 0 cannot show
player 1's cards; only :func:`state_svg` with ``reveal=True`` (a teacher's
switch) passes the opponent's hand in.

>>> from tartli import HandState
>>> svg = state_svg(HandState.from_seed(1), 0)
>>> svg.startswith("<svg") and "face-down card" in svg
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from tartli import names
from tartli.cards import Card, Suit
from tartli.game import HandState, Phase, PlayerView, Status
from tartli.i18n import _, ngettext
from tartli.melds import SEQUENCE_NAMES, Meld
from tartli.moves import Play
from tartli.names import Language
from tartli.render.cards import BACK_LABEL, SVG_NS, back_svg, card_svg
from tartli.render.slate import slate_svg

CARD_RATIO = 1.6  # the cards' viewBox is 100 x 160
FONT = "Georgia, 'DejaVu Serif', serif"
SANS = "'Helvetica Neue', Arial, 'DejaVu Sans', sans-serif"
FELT = "#2f6b45"
FELT_DARK = "#24553a"
INK = "#f4f1e6"


def _n(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _place(svg: str, x: float, y: float, rotate: float = 0.0) -> str:
    """Put a standalone card ``<svg>`` (already sized) at (x, y), optionally turned about its corner."""
    turn = f" rotate({_n(rotate)})" if rotate else ""
    return f'<g transform="translate({_n(x)} {_n(y)}){turn}">{svg}</g>'


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 14,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = INK,
    family: str = SANS,
    extra: str = "",
) -> str:
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-family="{family}" font-size="{_n(size)}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}"{extra}>{escape(text)}</text>'
    )


def _open(width: float, height: float, label: str, css: str, px: float | None) -> str:
    """The outer ``<svg>``: drawn at its natural size unless ``px`` gives another width."""
    px = px or width
    size = f' width="{_n(px)}" height="{_n(px * height / width)}"'
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 {_n(width)} {_n(height)}"{size} role="img" '
        f'aria-label={quoteattr(label)} class="{css}"><title>{escape(label)}</title>'
    )


def _row(
    cards: Sequence[Card],
    x: float,
    y: float,
    card_width: float,
    step: float,
    *,
    language: Language,
    trump: Suit | None = None,
    playable: set[Card] | None = None,
    selected: Iterable[Card] = (),
    highlighted: Iterable[Card] = (),
    face_down: bool = False,
    pickable: bool = False,
) -> str:
    chosen, marked = set(selected), set(highlighted)
    parts = []
    for i, card in enumerate(cards):
        if face_down:
            svg = back_svg(width=card_width, language=language)
        else:
            svg = card_svg(
                card,
                language=language,
                width=card_width,
                selected=card in chosen,
                playable=None if playable is None else card in playable,
                highlighted=card in marked,
                trump=card.suit is trump,
            )
        lift = -10 if card in chosen else 0
        placed = _place(svg, x + i * step, y + lift)
        if pickable and not face_down:  # a widget makes these clickable and reachable by keyboard
            placed = f'<g data-pick="{card.text}">{placed}</g>'
        parts.append(placed)
    return "".join(parts)


def _row_width(count: int, card_width: float, step: float) -> float:
    return card_width + max(count - 1, 0) * step


def hand_svg(
    cards: Sequence[Card],
    *,
    language: Language | None = None,
    trump: Suit | None = None,
    playable: Iterable[Card] | None = None,
    selected: Iterable[Card] = (),
    highlighted: Iterable[Card] = (),
    face_down: bool = False,
    card_width: float = 80,
    width: float | None = None,
    pickable: bool = False,
) -> str:
    """A hand of cards side by side, overlapping so that every corner index shows.

    ``playable`` marks the cards that may be played (the others are dimmed and
    hatched); ``trump`` marks trumps; ``face_down`` shows backs only, with the count.
    """
    language = names.resolve(language)
    cards = list(cards)
    step = card_width * 0.62
    pad = 12
    w = _row_width(len(cards), card_width, step) + 2 * pad
    h = card_width * CARD_RATIO + 2 * pad + 10
    if face_down:
        label = f"{len(cards)} × {BACK_LABEL[language]}"
    else:
        label = ", ".join(c.name(language) for c in cards) or _("no cards")
    body = _row(
        cards,
        pad,
        pad + 10,
        card_width,
        step,
        language=language,
        trump=trump,
        playable=None if playable is None else set(playable),
        selected=selected,
        highlighted=highlighted,
        face_down=face_down,
        pickable=pickable,
    )
    return _open(w, h, label, "tartli-hand", width) + body + "</svg>"


def trick_svg(
    lead: Card | None,
    second: Card | None,
    *,
    leader: int = 0,
    language: Language | None = None,
    trump: Suit | None = None,
    card_width: float = 80,
    width: float | None = None,
) -> str:
    """The trick under way: the lead card and, a little lower and to the right, the answer."""
    language = names.resolve(language)
    w = card_width * 1.9 + 24
    h = card_width * CARD_RATIO + 56
    parts = []
    said = []
    if lead is not None:
        parts.append(_place(card_svg(lead, language=language, width=card_width, trump=lead.suit is trump), 12, 12))
        said.append(f"{names.player_name(leader, language)}: {lead.name(language)}")
    if second is not None:
        svg = card_svg(second, language=language, width=card_width, trump=second.suit is trump)
        parts.append(_place(svg, 12 + card_width * 0.9, 40))
        said.append(f"{names.player_name(1 - leader, language)}: {second.name(language)}")
    label = "; ".join(said) or _("no card played yet")
    return _open(w, h, label, "tartli-trick", width) + "".join(parts) + "</svg>"


def meld_svg(
    meld: Meld,
    trump: Suit | None = None,
    *,
    language: Language | None = None,
    card_width: float = 70,
    width: float | None = None,
) -> str:
    """A meld's cards fanned with its name and value ("Acorn-Over-Kvart · 50")."""
    language = names.resolve(language)
    cards = meld.cards(trump)
    step = card_width * 0.55
    pad = 10
    title = f"{meld.title(language)} · {meld.value}"
    # About 9 px a character for the 15 px bold serif title (wide enough for "Heart-Over-Terc · 20").
    w = max(_row_width(len(cards), card_width, step), 9.0 * len(title)) + 2 * pad
    h = card_width * CARD_RATIO + 2 * pad + 30
    body = [
        f'<rect x="0" y="0" width="{_n(w)}" height="{_n(h)}" rx="10" fill="#fbf7ea" stroke="#b9a77a"/>',
        _row(
            cards,
            (w - _row_width(len(cards), card_width, step)) / 2,
            pad,
            card_width,
            step,
            language=language,
            trump=trump,
            highlighted=cards,
        ),
        _text(w / 2, h - 12, title, size=15, anchor="middle", weight="bold", fill="#3a2a10", family=FONT),
    ]
    if not cards:  # béla without a known trump suit
        body.append(
            _text(
                w / 2,
                h / 2,
                names.BELA_NAME.get(language, "béla"),
                size=22,
                anchor="middle",
                fill="#3a2a10",
                family=FONT,
            )
        )
    return _open(w, h, f"{meld.title(language)}, {meld.value}", "tartli-meld", width) + "".join(body) + "</svg>"


def _finished_trick(
    view: PlayerView,
    index: int,
    who: tuple[str, str],
    language: Language,
    *,
    center: float,
    top: float,
    cw: float,
    gap: float,
) -> list[str]:
    """A finished trick kept on the table: its two cards side by side about ``center`` (the
    winner's marked), each with who played it, and a bar below with who won it and its points."""
    leader, lead, second, winner = view.tricks[index]
    trump = view.trump
    parts = []
    for k, (card, player) in enumerate(((lead, leader), (second, 1 - leader))):
        x = center - cw - gap / 2 + k * (cw + gap)
        svg = card_svg(card, language=language, width=cw, trump=card.suit is trump, selected=player == winner)
        parts.append(_place(svg, x, top))
        parts.append(_text(x + cw / 2, top - 8, who[player], size=13, anchor="middle", weight="bold"))
    caption = _won_text(who[winner], lead.points(trump) + second.points(trump), index + 1, language)
    bar_y, bar_width = top + cw * CARD_RATIO + 8, max(2 * cw + gap + 30, 9.0 * len(caption))
    parts.append(
        f'<g class="tartli-trick-result"><rect x="{_n(center - bar_width / 2)}" y="{_n(bar_y)}" '
        f'width="{_n(bar_width)}" height="26" rx="6" fill="{FELT_DARK}"/>'
        + _text(center, bar_y + 18, caption, size=14, anchor="middle", weight="bold", fill="#ffe28a")
        + "</g>"
    )
    return parts


def _tricks_text(count: int) -> str:
    """ "1 trick", "3 tricks"."""
    return ngettext("{n} trick", "{n} tricks", count).format(n=count)


def _is_you(name: str) -> bool:
    """Is ``name`` the learner's ("You", in English or the page's language)?"""
    return name in ("You", _("You"))


def _is_computer(name: str) -> bool:
    return name in ("The computer", _("The computer"))


def _own_name(name: str) -> str:
    """ "You" and "The computer" (a lesson's names, in English) in the page's language; other names as given."""
    return {"You": _("You"), "The computer": _("The computer")}.get(name, name)


def _in_text(name: str, language: Language) -> str:
    """A player's name inside a sentence: "te", "a gép", "der Computer" (English keeps "You")."""
    if language != "en" and (_is_you(name) or _is_computer(name)):
        return name[:1].lower() + name[1:]
    return name


def _won_text(name: str, points: int, number: int, language: Language) -> str:
    """The caption of a finished trick: who won it, for how many card points."""
    if _is_you(name):
        text = _("Trick {number}: You win · {points} card points")
    elif _is_computer(name):
        text = _("Trick {number}: The computer wins · {points} card points")
    else:
        text = _("Trick {number}: {name} wins · {points} card points")
    return text.format(number=number, name=name, points=points)


def _whose_hand(watching: int | None, language: Language) -> str:
    """The bottom hand's label after its player's name: "your hand", or its count when the table is watched."""
    return names.term("your hand", language) if watching is None else _cards_count(watching)


def _in_hand(n: int, count: int, talon: int | None = None) -> str:
    """The end of the table's accessible name: the cards in hand, the opponent's, the talon's ("1 card in hand")."""
    if talon is None:
        return ngettext("{n} card in hand, opponent {count}", "{n} cards in hand, opponent {count}", n).format(
            n=n, count=count
        )
    return ngettext(
        "{n} card in hand, opponent {count}, talon {talon}", "{n} cards in hand, opponent {count}, talon {talon}", n
    ).format(n=n, count=count, talon=talon)


def _cards_count(count: int) -> str:
    """A hand's size beside its player's name: "1 card", "8 cards" ("1 Karte", "8 Karten", "8 lap")."""
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def _watched(who: tuple[str, str]) -> str:
    """The start of a watched table's accessible name (both hands face down)."""
    return _("The Tartli table of {first} and {second}, both hands face down").format(first=who[0], second=who[1])


def _as_seen(name: str) -> str:
    """The start of the table's accessible name: "The Tartli table as you see it", "... as Anna sees it"."""
    if _is_you(name):
        return _("The Tartli table as you see it")
    if _is_computer(name):
        return _("The Tartli table as the computer sees it")
    return _("The Tartli table as {name} sees it").format(name=name)


def _phase_text(view: PlayerView, language: Language, phases: bool = True) -> str:
    """ "trick 3 · phase 1"; without ``phases`` (a lesson before phases are taught) "trick 3"."""
    if view.status is Status.FINISHED:
        return _("hand over")
    if view.status is Status.OUT:
        return _("a player went out")
    if not phases:
        return _("trick {number}").format(number=view.trick_number)
    phase = names.term("phase 1" if view.phase is Phase.FIRST else "phase 2", language)
    return _("trick {number} · {phase}").format(number=view.trick_number, phase=phase)


def _declared_text(declared: Sequence[str], language: Language) -> str:
    """What the opponent announced ("kvart", "vannak", or "kvart:OA" once shown, V6) in ``language``."""
    if language == "en":
        return ", ".join(declared)
    lengths = {name: length for length, name in SEQUENCE_NAMES.items()}
    words = []
    for word in declared:
        if word in lengths:
            words.append(names.sequence_name(lengths[word], language))
        elif word == "vannak":
            words.append(names.SET_NAME[language])
        elif word in ("béla", "bela"):
            words.append(names.BELA_NAME[language])
        else:
            try:
                words.append(Meld.parse(word).title(language))
            except ValueError:  # TartliError is a ValueError: a word we do not know stays as it is
                words.append(word)
    return ", ".join(words)


def _melds_and_cards(view: PlayerView, player: int) -> str:
    """ "melds 20 · cards 31": a player's meld points and card points."""
    return _("melds {melds} · cards {cards}").format(melds=view.meld_points[player], cards=view.card_points[player])


def table_svg(
    view: PlayerView,
    *,
    opponent_hand: Sequence[Card] | None = None,
    language: Language | None = None,
    player_names: tuple[str, str] | None = None,
    selected: Iterable[Card] = (),
    highlighted: Iterable[Card] = (),
    show_slate: bool = True,
    width: float | None = None,
    pickable: bool = False,
    shown_trick: int | None = None,
    narrow: bool = False,
    phases: bool = True,
    watching: int | None = None,
) -> str:
    """The whole table as ``view.player`` sees it (``pickable``: the player's cards can be clicked).

    ``watching``: the table as someone who plays neither hand sees it (a teacher watching two pupils'
    game): ``view.player``'s hand is drawn face down too, ``watching`` cards, named as its player's. Pass a
    view whose ``hand`` and ``legal_moves`` are empty, so that nothing of the cards is in the markup.

    ``phases`` False leaves the phase out of the picture (a lesson before phases are taught).

    ``shown_trick`` (an index into ``view.tricks``) keeps a finished trick on the table while no
    card of the next one is down: both cards, who played each, who won it and its card points.
    ``narrow`` draws the same table upright for a phone (:func:`_narrow_table`).

    At the top the opponent's hand (face down with its count, or face up when a
    teacher passes ``opponent_hand``); on the left the talon lying across the
    trump indicator, with its count; in the middle the trick under way; on the
    right both trick piles; at the bottom the player's hand, the cards they may
    play marked; and a panel with the scores, the phase and the trump suit.
    """
    language = names.resolve(language)
    me, other = view.player, 1 - view.player
    who = player_names or (names.player_name(0, language), names.player_name(1, language))
    who = (_own_name(who[0]), _own_name(who[1]))
    if watching is not None and view.hand:
        raise ValueError("a table watched is drawn from a view without the hand (dataclasses.replace(view, hand=()))")
    if narrow:
        return _narrow_table(
            view,
            who,
            opponent_hand=opponent_hand,
            language=language,
            selected=selected,
            highlighted=highlighted,
            width=width,
            pickable=pickable,
            shown_trick=shown_trick,
            phases=phases,
            watching=watching,
        )
    W, H = 980.0, 700.0
    cw = 74.0
    ch = cw * CARD_RATIO
    trump = view.trump
    parts = [
        f'<rect x="0" y="0" width="{_n(W)}" height="{_n(H)}" rx="18" fill="{FELT}"/>',
        f'<rect x="8" y="8" width="{_n(W - 16)}" height="{_n(H - 16)}" rx="14" fill="none" stroke="{FELT_DARK}" '
        'stroke-width="4"/>',
    ]
    # opponent's hand
    count = view.opponent_hand_size
    step = cw * (0.62 if opponent_hand is not None else 0.45)
    ox = 400 - _row_width(count, cw, step) / 2
    if opponent_hand is not None:
        parts.append(_row(list(opponent_hand), ox, 40, cw, step, language=language, trump=trump))
    else:  # backs only: nothing about the cards is in the markup
        parts.append(_row([Card.parse("7A")] * count, ox, 40, cw, step, language=language, face_down=True))
    opp_label = f"{who[other]} · {_cards_count(count)}"
    if view.to_move == other:
        opp_label += "  ◀"
    parts.append(_text(ox, 30, opp_label, size=15, weight="bold"))
    # talon across the indicator
    tx, ty = 40.0, 270.0
    if view.indicator is not None:
        ind = card_svg(view.indicator, language=language, width=cw, trump=True)
        parts.append(_place(ind, tx + 18, ty + 40))  # the indicator, face up
        ind_name: str = view.indicator.name(language)
    else:
        ind_name = ""
    if view.talon_size:
        back = back_svg(width=cw, language=language)
        for k in range(min(view.talon_size, 4)):
            parts.append(_place(back, tx + 18 + cw / 2 + ch / 2 - 2 * k, ty + 40 + ch / 2 - cw / 2 - 2 * k, rotate=90))
        parts.append(
            _text(
                tx + 60,
                ty + 40 + ch + 26,
                f"{names.term('talon', language)}: {talon_count(view)}",
                size=14,
                anchor="middle",
            )
        )
    trump_line = f"{names.term('trump', language)}: {trump.name_in(language)}"
    parts.append(_text(tx, ty + 16, trump_line, size=15, weight="bold", fill="#ffe28a"))
    if ind_name:
        parts.append(_text(tx, ty + 34, ind_name, size=13))
    # the trick under way
    cx, cy = 400 - cw / 2, 255.0
    if view.lead is not None:
        lead_svg = card_svg(view.lead, language=language, width=cw, trump=view.lead.suit is trump)
        parts.append(_place(lead_svg, cx, cy))
        parts.append(_text(cx + cw / 2, cy - 8, who[view.leader], size=13, anchor="middle"))
    elif shown_trick is not None and 0 <= shown_trick < len(view.tricks):
        parts += _finished_trick(view, shown_trick, who, language, center=400, top=cy, cw=cw, gap=cw * 0.24)
    else:
        parts.append(
            f'<rect x="{_n(cx)}" y="{_n(cy)}" width="{_n(cw)}" height="{_n(ch)}" rx="6" fill="none" '
            f'stroke="{INK}" stroke-opacity=".35" stroke-dasharray="6 5"/>'
        )
    # trick piles
    px = 590.0
    won = {0: 0, 1: 0}
    for *_trick, winner in view.tricks:
        won[winner] += 1
    back_small = back_svg(width=cw * 0.7, language=language)
    for row, p in enumerate((other, me)):
        y = 230 + row * 110
        if won[p]:
            parts.append(_place(back_small, px, y, rotate=0))
        parts.append(_text(px + cw * 0.7 + 10, y + 30, f"{who[p]}", size=13, weight="bold"))
        parts.append(_text(px + cw * 0.7 + 10, y + 50, _tricks_text(won[p]), size=13))
        parts.append(
            _text(px + cw * 0.7 + 10, y + 70, f"{view.card_points[p]} {names.term('card points', language)}", size=13)
        )
    # my hand
    hand = list(view.hand)
    playable: set[Card] | None = None
    if view.to_move == me:
        playable = {m.card for m in view.legal_moves if isinstance(m, Play)}
    hw = cw * 1.15
    hstep = hw * 0.62
    hx = 400 - _row_width(len(hand) if watching is None else watching, hw, hstep) / 2
    hy = H - hw * CARD_RATIO - 30
    shown = hand if watching is None else [Card.parse("7A")] * watching  # (watched: backs only, as the other's)
    parts.append(
        _row(
            shown,
            hx,
            hy,
            hw,
            hstep,
            language=language,
            trump=trump,
            playable=playable,
            selected=selected,
            highlighted=highlighted,
            pickable=pickable,
            face_down=watching is not None,
        )
    )
    my_label = f"{who[me]} · {_whose_hand(watching, language)}"
    if view.to_move == me:
        my_label += "  ◀"
    parts.append(_text(hx, hy - 14, my_label, size=15, weight="bold"))
    # panel: phase, scores, melds
    qx, qy = 790.0, 40.0
    parts.append(f'<rect x="{_n(qx - 14)}" y="{_n(qy - 10)}" width="186" height="190" rx="10" fill="{FELT_DARK}"/>')
    parts.append(_text(qx, qy + 12, _phase_text(view, language, phases), size=14, weight="bold"))
    totals = view.totals
    lines = []
    for p in (0, 1):
        lines.append(f"{who[p]}: {totals[p]}")
        lines.append(f"  {_melds_and_cards(view, p)}")
    for k, line in enumerate(lines):
        parts.append(
            _text(qx, qy + 40 + 20 * k, line, size=14 if k % 2 == 0 else 13, weight="bold" if k % 2 == 0 else "normal")
        )
    declared = view.opponent_declared
    if declared:
        parts.append(
            _text(qx, qy + 140, f"{who[other]}: {_declared_text(declared, language)}", size=13, fill="#ffe28a")
        )
    scored = [m for m in view.scored_melds[me]]
    if scored:
        parts.append(_text(qx, qy + 160, ", ".join(m.title(language) for m in scored[-2:]), size=13))
    if show_slate:
        slate = slate_svg(
            (totals[0], totals[1]),
            names=who,
            language=language,
            tradition=view.rules.slate,
            width=262,
        )
        parts.append(_place(slate, 700, 452))
    seen = _as_seen(who[me]) if watching is None else _watched(who)
    label = (
        f"{seen}: {_phase_text(view, language, phases)}; {trump_line}; "
        f"{_in_text(who[me], language)} {totals[me]}, {_in_text(who[other], language)} {totals[other]}; "
        + _in_hand(len(hand) if watching is None else watching, count, talon_count(view))
    )
    return _open(W, H, label, "tartli-table", width) + "".join(parts) + "</svg>"


def talon_count(view: PlayerView) -> int:
    """The talon's cards as the rules count them (D1: 13 face down and the indicator under them, 14 after
    the deal), so the table's number is the one the lessons and the deal quiz teach."""
    return view.talon_size + (view.indicator is not None)


def _narrow_table(
    view: PlayerView,
    who: tuple[str, str],
    *,
    opponent_hand: Sequence[Card] | None,
    language: Language,
    selected: Iterable[Card],
    highlighted: Iterable[Card],
    width: float | None,
    pickable: bool,
    shown_trick: int | None,
    phases: bool = True,
    watching: int | None = None,
) -> str:
    """The table upright, 400 units wide, for a phone (about 360-414 CSS px): the opponent's cards
    small at the top, one line of facts, the trick large in the middle, the scores as numbers, and
    the hand in rows of cards that do not overlap (each about 60 x 100 px on a 390 px screen). No
    text is smaller than 12 units (over 10 px there); the chalk slate is left to the wide table."""
    me, other = view.player, 1 - view.player
    trump = view.trump
    W = 400.0
    parts: list[str] = []
    # the opponent: a short fan of backs (or faces, for a teacher) and the count
    count = view.opponent_hand_size
    ow, ostep = 38.0, 18.0  # 38 px: the corner letters stay above 9 px when the table is shrunk to a 360 px phone
    ox = W / 2 - _row_width(count, ow, ostep) / 2
    if opponent_hand is not None:
        parts.append(_row(list(opponent_hand), ox, 30, ow, ostep, language=language, trump=trump))
    else:
        parts.append(_row([Card.parse("7A")] * count, ox, 30, ow, ostep, language=language, face_down=True))
    label = f"{who[other]} · {_cards_count(count)}" + ("  ◀" if view.to_move == other else "")
    parts.append(_text(W / 2, 22, label, size=14, anchor="middle", weight="bold"))
    # one line of facts: trump (with the indicator), the talon, the trick and the phase
    y = 30 + ow * CARD_RATIO + 26
    if view.indicator is not None:
        parts.append(_place(card_svg(view.indicator, language=language, width=38, trump=True), 10, y - 24))
    if view.talon_size:  # the talon lies across the lower half of the indicator, as on the wide table (D1)
        back, bw = back_svg(width=24, language=language), 24.0
        for k in range(min(view.talon_size, 3)):  # a small stack: the number beside it says how many
            parts.append(_place(back, 29 + bw * CARD_RATIO / 2 - 1.5 * k, y + 4 - 1.5 * k, rotate=90))
    facts = f"{names.term('trump', language)}: {trump.name_in(language)}"
    parts.append(_text(52, y, facts, size=14, weight="bold", fill="#ffe28a"))
    talon = f" · {names.term('talon', language)}: {talon_count(view)}" if view.indicator is not None else ""
    parts.append(_text(52, y + 18, f"{_phase_text(view, language, phases)}{talon}", size=12))
    # the trick: the card led, or the finished trick with its result
    cw = 86.0
    ty = y + 42
    if view.lead is not None:
        svg = card_svg(view.lead, language=language, width=cw, trump=view.lead.suit is trump)
        parts.append(_place(svg, W / 2 - cw / 2, ty + 18))
        parts.append(_text(W / 2, ty + 12, who[view.leader], size=13, anchor="middle", weight="bold"))
    elif shown_trick is not None and 0 <= shown_trick < len(view.tricks):
        parts += _finished_trick(view, shown_trick, who, language, center=W / 2, top=ty + 18, cw=cw, gap=16)
    else:
        parts.append(
            f'<rect x="{_n(W / 2 - cw / 2)}" y="{_n(ty + 18)}" width="{_n(cw)}" height="{_n(cw * CARD_RATIO)}" '
            f'rx="6" fill="none" stroke="{INK}" stroke-opacity=".35" stroke-dasharray="6 5"/>'
        )
    # the scores, as plain numbers
    sy = ty + 18 + cw * CARD_RATIO + 56
    totals = view.totals
    for k, p in enumerate((me, other)):
        x = 14 + k * (W / 2)
        parts.append(_text(x, sy, f"{who[p]}: {totals[p]}", size=14, weight="bold"))
        won = sum(1 for t in view.tricks if t[3] == p)
        tricks = _tricks_text(won)
        parts.append(_text(x, sy + 17, _melds_and_cards(view, p), size=12))
        parts.append(_text(x, sy + 33, tricks, size=12))
    declared = view.opponent_declared
    if declared:
        parts.append(_text(14, sy + 52, f"{who[other]}: {_declared_text(declared, language)}", size=13, fill="#ffe28a"))
    # the hand: rows of five cards side by side, none covering another
    hand = list(view.hand)
    playable: set[Card] | None = None
    if view.to_move == me:
        playable = {m.card for m in view.legal_moves if isinstance(m, Play)}
    hy = sy + 78
    label = f"{who[me]} · {_whose_hand(watching, language)}" + ("  ◀" if view.to_move == me else "")
    parts.append(_text(14, hy - 8, label, size=14, weight="bold"))
    hw, hstep = 70.0, 76.0
    face_down = watching is not None
    if face_down:  # backs only, as the other's: nothing of the cards is in the markup
        hand = [Card.parse("7A")] * (watching or 0)
    rows = [hand[i : i + 5] for i in range(0, len(hand), 5)] or [[]]
    for r, cards in enumerate(rows):
        x = W / 2 - _row_width(len(cards), hw, hstep) / 2
        parts.append(
            _row(
                cards,
                x,
                hy + 6 + r * (hw * CARD_RATIO + 10),
                hw,
                hstep,
                language=language,
                trump=trump,
                playable=playable,
                selected=selected,
                highlighted=highlighted,
                pickable=pickable,
                face_down=face_down,
            )
        )
    H = hy + 6 + len(rows) * (hw * CARD_RATIO + 10) + 8
    frame = f'<rect x="0" y="0" width="{_n(W)}" height="{_n(H)}" rx="14" fill="{FELT}"/>'
    seen = _as_seen(who[me]) if watching is None else _watched(who)
    label_text = (
        f"{seen}: {_phase_text(view, language, phases)}; {facts}; "
        f"{_in_text(who[me], language)} {totals[me]}, {_in_text(who[other], language)} {totals[other]}; "
        + _in_hand(len(hand), count)
    )
    return _open(W, H, label_text, "tartli-table narrow", width) + frame + "".join(parts) + "</svg>"


def state_svg(
    state: HandState,
    player: int,
    *,
    reveal: bool = False,
    language: Language | None = None,
    width: float | None = None,
    show_slate: bool = True,
) -> str:
    """The table from ``player``'s view; ``reveal=True`` also shows the opponent's hand (teaching)."""
    language = names.resolve(language)
    view = state.view(player)
    opponent = state.hand(1 - player) if reveal else None
    return table_svg(view, opponent_hand=opponent, language=language, width=width, show_slate=show_slate)
