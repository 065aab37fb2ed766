"""Moves: one small frozen dataclass per kind of action, and the record notation.

A move is written ``"<player>: <action>"`` (RECORD.md): ``"0: play AH"``,
``"1: declare kvart:OA vannak:U"``, ``"0: swap"``, ``"1: pass"``, ``"0: bela"``,
``"1: out"``.

>>> parse_move("1: declare vannak:U kvart:OA")
Declare(player=1, melds=(Meld.parse('kvart:OA'), Meld.parse('vannak:U')))
>>> str(parse_move("0: play 10h"))
'0: play XH'
"""

from __future__ import annotations

from dataclasses import dataclass

from tartli.cards import CARDS, Card, InvalidCardError
from tartli.errors import InvalidMoveError, shown
from tartli.melds import InvalidMeldError, Meld


def _meld_text(meld: Meld) -> str:
    return meld.text if isinstance(meld, Meld) else str(meld)


def _check_player(player: object) -> None:
    if type(player) is not int or player not in (0, 1):
        raise InvalidMoveError(f"a move's player is 0 or 1, not {shown(player)}")


@dataclass(frozen=True, slots=True)
class Swap:
    """Exchange the trump 7 for the indicator card (T5; V7 under the Austrian rules)."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)

    def __str__(self) -> str:
        return f"{self.player}: swap"


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare sets and sequences (and béla under ``pais``) at the declaration step (K1, M5).

    The melds are kept sorted as their record strings, so two declarations of the
    same melds are equal whatever order they were written in.
    """

    player: int
    melds: tuple[Meld, ...]

    def __post_init__(self) -> None:
        _check_player(self.player)
        if (
            not isinstance(self.melds, tuple | list)
            or not self.melds
            or not all(isinstance(m, Meld) for m in self.melds)
        ):
            raise InvalidMoveError(f"a declaration names one or more melds (Meld objects), not {shown(self.melds)}")
        ordered = tuple(sorted(self.melds, key=_meld_text))
        if ordered != self.melds:
            object.__setattr__(self, "melds", ordered)

    def __str__(self) -> str:
        return f"{self.player}: declare " + " ".join(str(m) for m in self.melds)


@dataclass(frozen=True, slots=True)
class Pass:
    """The second player declares nothing this trick (K1 step 4)."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)

    def __str__(self) -> str:
        return f"{self.player}: pass"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick (T1-T4)."""

    player: int
    card: Card

    def __post_init__(self) -> None:
        _check_player(self.player)
        if not isinstance(self.card, Card):
            raise InvalidMoveError(f"a play names a Card (e.g. Card.parse('AH')), not {shown(self.card)}")

    def __str__(self) -> str:
        return f"{self.player}: play {self.card}"


@dataclass(frozen=True, slots=True)
class Bela:
    """Declare and score béla now (B1), in or out of turn."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)

    def __str__(self) -> str:
        return f"{self.player}: bela"


@dataclass(frozen=True, slots=True)
class GoOut:
    """Claim to have 501 (S3, S4), at any moment, in or out of turn."""

    player: int

    def __post_init__(self) -> None:
        _check_player(self.player)

    def __str__(self) -> str:
        return f"{self.player}: out"


Move = Swap | Declare | Pass | Play | Bela | GoOut
MOVE_TYPES = (Swap, Declare, Pass, Play, Bela, GoOut)

# Interned moves: the engine hands out these objects, so comparisons are fast.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(p, c) for c in CARDS) for p in (0, 1))
SWAPS = (Swap(0), Swap(1))
PASSES = (Pass(0), Pass(1))
BELAS = (Bela(0), Bela(1))
OUTS = (GoOut(0), GoOut(1))
_SIMPLE: dict[str, tuple[Move, Move]] = {"swap": SWAPS, "pass": PASSES, "bela": BELAS, "out": OUTS}


MAX_MOVE_TEXT = 200
"""The longest move text read: the longest real move (a declaration of four melds) has under 70 characters."""


def parse_move(text: str) -> Move:
    """Read a move in record notation. Raises :class:`InvalidMoveError` if it cannot be read.

    >>> parse_move("2: play AH")
    Traceback (most recent call last):
    ...
    tartli.errors.InvalidMoveError: '2: play AH': a move starts with the player, 0 or 1, and a colon: "0: play AH"
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f'a move is a string like "0: play AH", not {shown(text)}')
    if len(text) > MAX_MOVE_TEXT:
        raise InvalidMoveError(f"a move has at most {MAX_MOVE_TEXT} characters, this one {len(text):,}", text)
    control = next((c for c in text if ord(c) < 32 or 127 <= ord(c) < 160), None)
    if control is not None:
        raise InvalidMoveError(f"a move holds no control characters (U+{ord(control):04X})", text)
    head, sep, action = text.partition(":")
    if not sep or head.strip(" ") not in ("0", "1"):
        raise InvalidMoveError('a move starts with the player, 0 or 1, and a colon: "0: play AH"', text)
    player = int(head)
    words = action.split()
    if not words:
        raise InvalidMoveError("no action after the player", text)
    verb, args = words[0].lower(), words[1:]
    if verb in _SIMPLE:
        if args:
            raise InvalidMoveError(f"{verb!r} takes nothing after it", text)
        return _SIMPLE[verb][player]
    if verb == "play":
        if len(args) != 1:
            raise InvalidMoveError('play names one card, e.g. "0: play AH"', text)
        try:
            return PLAYS[player][Card.parse(args[0]).index]
        except InvalidCardError as err:
            raise InvalidMoveError(str(err), text) from None
    if verb == "declare":
        if not args:
            raise InvalidMoveError('declare names at least one meld, e.g. "0: declare kvart:OA"', text)
        try:
            melds = tuple(Meld.parse(a) for a in args)
        except InvalidMeldError as err:
            raise InvalidMoveError(str(err), text) from None
        return Declare(player, melds)
    raise InvalidMoveError(f"unknown action {shown(verb)}; actions are swap, declare, pass, play, bela, out", text)


def coerce_move(move: Move | str) -> Move:
    """A move object from a move or its record text."""
    if isinstance(move, str):
        return parse_move(move)
    if not isinstance(move, MOVE_TYPES):
        raise InvalidMoveError(f"not a move: {shown(move)}")
    _check_player(move.player)
    if isinstance(move, Play) and not isinstance(move.card, Card):
        raise InvalidMoveError(f"a play names a Card, not {shown(move.card)}")
    if isinstance(move, Declare) and (not move.melds or not all(isinstance(m, Meld) for m in move.melds)):
        raise InvalidMoveError("a declaration names one or more melds (Meld objects)")
    return move
