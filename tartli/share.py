"""Links to a position: a ``tartli/1`` record (RECORD.md) in a page address, and back.

A teacher's link says which hand, how far it has gone and which seat the learner takes::

    table.ipynb?record=eNqtkc1uwjAQ...&move=12&as=1

``record`` is the record as compact JSON (no spaces), compressed with zlib (deflate) and written in
base64url without its ``=`` padding, so it needs no escaping in an address; ``move`` is the number of
the record's moves already made (default: all of them); ``as`` is the learner's seat, 0 or 1
(default 0). Measured on the 135 finished hands of tests/data/conformance (the 32 cards, 16 tricks
and the melds): a whole hand's ``record`` value has 378 to 478 characters, 422 at the median
(rand_0182.json, 44 moves, the longest record there: 442); a deal with no move made yet 235, a
record that gives a seed instead of its cards 116. tests/test_share.py checks the bound of 500.

Reading a link is bounded before anything is decoded: a ``record`` value over
:data:`MAX_LINK_CHARS` is refused unread, and the compressed data is inflated to at most
:data:`MAX_RECORD_CHARS` (a link that would unpack to more, a "zip bomb", is refused without
unpacking the rest). The record is then read as any record (:meth:`Record.from_dict`) and replayed
through the engine, so a link with a move changed by hand is refused by the rule it breaks.

>>> from tartli.record import Record
>>> rec = Record.from_json('{"format": "tartli/1", "dealer": 1, "seed": 3, "moves": ["0: play AL"]}')
>>> position = SharedPosition.from_query(share_query(rec, move=0, seat=1))
>>> position.move, position.seat, len(position.state().moves)
(0, 1, 0)
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass
from urllib.parse import parse_qs, urlencode

from tartli.errors import ArgumentError, TartliError, cut, printable, shown
from tartli.game import HandState
from tartli.i18n import _
from tartli.record import Record, ReplayError

MAX_LINK_CHARS = 4000
"""The longest ``record`` value read (a whole hand's is about 430 characters; browsers and mail
programs keep addresses of a few thousand characters whole)."""
MAX_RECORD_CHARS = 16 * 1024
"""The most a ``record`` value may unpack to (a whole hand's record is about 1,000 characters of
compact JSON): the inflater stops there, so a small link cannot unpack to megabytes."""
MAX_CODE_LIMIT = 1 << 24
"""The largest bound :func:`unpack` takes, in characters or bytes (16 MiB): a code is read in memory."""
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_QUERY_KEYS = ("record", "move", "as")


class ShareError(TartliError):
    """A link to a position that cannot be opened. ``field`` is the address's part that is wrong
    (``record``, ``move`` or ``as``) and ``rule`` which rule it breaks: ``too-long``, ``garbled``
    (not base64url, not zlib data, or not JSON), ``too-large`` (unpacks to more than
    :data:`MAX_RECORD_CHARS`), ``not-a-record`` (JSON that is no ``tartli/1`` record),
    ``illegal-move`` (a move the engine refuses) or ``out-of-range``."""

    def __init__(self, field: str, rule: str, message: str) -> None:
        self.field = field
        self.rule = rule
        super().__init__(message)


def pack(data: object) -> str:
    """Any JSON value as compact JSON, zlib-compressed, in base64url without padding (a link's or a
    progress code's text); an :class:`ArgumentError` for a value JSON cannot hold."""
    try:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=True, allow_nan=False)
        packed = text.encode("utf-8")  # a lone surrogate ("\udcff") is no UTF-8: a UnicodeEncodeError (a ValueError)
    except (TypeError, ValueError, RecursionError) as err:  # not JSON, nan, a loop, an int over 4,300 digits
        raise ArgumentError(f"pack takes a JSON value: {cut(printable(str(err)), 120)}") from None
    return base64.urlsafe_b64encode(zlib.compress(packed, 9)).decode("ascii").rstrip("=")


class CodeError(ArgumentError):
    """A code :func:`unpack` cannot read; the message says why in a few words (the caller says what
    the code was)."""


def unpack(code: str, max_chars: int, max_bytes: int) -> object:
    """The JSON value :func:`pack` made, or a :class:`CodeError` (a ``ValueError``) saying why not in
    a few words (the caller says what the code was). ``code`` over ``max_chars`` is refused unread;
    it is inflated to at most ``max_bytes`` (a zip bomb stops there)."""
    if type(max_chars) is not int or not 0 <= max_chars <= MAX_CODE_LIMIT:
        raise ArgumentError(f"max_chars is a whole number from 0 to {MAX_CODE_LIMIT:,}, not {shown(max_chars, 30)}")
    if type(max_bytes) is not int or not 0 <= max_bytes <= MAX_CODE_LIMIT:
        raise ArgumentError(f"max_bytes is a whole number from 0 to {MAX_CODE_LIMIT:,}, not {shown(max_bytes, 30)}")
    if not isinstance(code, str):
        raise CodeError(f"not text: {type(code).__name__}")
    if len(code) > max_chars:
        raise CodeError("too long")
    code = code.strip()
    if not code or not _BASE64URL.fullmatch(code) or len(code) % 4 == 1:
        raise CodeError("not base64url")
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)), max_bytes + 1)
    except (binascii.Error, zlib.error):
        raise CodeError("not zlib data") from None
    if len(data) > max_bytes or inflater.unconsumed_tail:
        raise CodeError("too large")
    if not inflater.eof:
        raise CodeError("cut short")
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        raise CodeError("not JSON") from None


def record_code(record: Record) -> str:
    """The ``record`` value of a link: compact JSON, zlib, base64url without padding."""
    if not isinstance(record, Record):
        raise ArgumentError(f"record_code takes a Record, not {type(record).__name__}")
    text = json.dumps(record.to_dict(), separators=(",", ":"), ensure_ascii=False)
    packed = zlib.compress(text.encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def record_from_code(code: str) -> Record:
    """The record of a link's ``record`` value, checked and replayed (:class:`ShareError` if not)."""
    if not isinstance(code, str):
        raise ArgumentError(f"a link's record is text, not {type(code).__name__}")
    if len(code) > MAX_LINK_CHARS:
        raise ShareError(
            "record",
            "too-long",
            _("the link is too long: at most {limit} characters, this one has {n}").format(
                limit=MAX_LINK_CHARS, n=len(code)
            ),
        )
    garbled = ShareError("record", "garbled", _("the link is damaged or cut short: its game cannot be read"))
    code = code.strip()
    if not code or not _BASE64URL.fullmatch(code) or len(code) % 4 == 1:
        raise garbled
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError):
        raise garbled from None
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(packed, MAX_RECORD_CHARS + 1)
    except zlib.error:
        raise garbled from None
    if len(data) > MAX_RECORD_CHARS or inflater.unconsumed_tail:
        raise ShareError(
            "record",
            "too-large",
            _("the game in the link is too large: a record has at most {limit} characters").format(
                limit=MAX_RECORD_CHARS
            ),
        )
    if not inflater.eof:  # cut short: the zlib stream (and its checksum) did not end
        raise garbled
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise garbled from None
    try:
        record = Record.from_dict(parsed)
    except TartliError as err:
        raise ShareError(
            "record", "not-a-record", _("the link holds no game record ({why})").format(why=cut(str(err), 160))
        ) from None
    try:
        record.replay()
    except ReplayError as err:
        raise ShareError(
            "record",
            "illegal-move",
            _("the game in the link has a move the rules do not allow: {why}").format(why=cut(str(err), 200)),
        ) from None
    return record


@dataclass(frozen=True)
class SharedPosition:
    """A position from a link: a record, how many of its moves are made, and the learner's seat."""

    record: Record
    move: int
    seat: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.record, Record):
            raise ArgumentError(f"record is a Record, not {shown(self.record)}")
        _check_place(self.record, self.move, self.seat)

    def state(self) -> HandState:
        """The hand after the first :attr:`move` moves of the record."""
        state = self.record.new_state()
        for move in self.record.replay().moves[: self.move]:
            state.push(move)
        return state

    def query(self) -> str:
        """The query of this position's link (without the ``?``)."""
        return share_query(self.record, move=self.move, seat=self.seat)

    @classmethod
    def from_query(cls, query: str) -> SharedPosition | None:
        """The position a page address's query names (``"record=...&move=3&as=1"``, a leading ``?``
        allowed), None if it names none; :class:`ShareError` for a link that cannot be opened."""
        if not isinstance(query, str):
            raise ArgumentError(f"a query is text, not {type(query).__name__}")
        if "record=" not in query:
            return None
        # The size first: parse_qs would copy a long value before we could look at it.
        value = re.search(r"(?:^|[?&])record=([^&]*)", query)
        if value is not None and len(value.group(1)) > MAX_LINK_CHARS:
            record_from_code(value.group(1))  # raises "too-long"
        fields = parse_qs(query.lstrip("?"), keep_blank_values=True)
        if "record" not in fields:
            return None
        record = record_from_code(fields["record"][0])
        move = _number(fields, "move", len(record.moves), len(record.moves))
        seat = _number(fields, "as", 0, 1)
        return cls(record, move, seat)


def _number(fields: dict[str, list[str]], name: str, default: int, top: int) -> int:
    values = fields.get(name)
    if not values:
        return default
    text = values[0].strip()
    if not text.isascii() or not text.isdigit() or len(text) > 6 or int(text) > top:
        field = "move" if name == "move" else "as"
        if name == "move":
            message = _("the move number must be 0 to {top}, not {value}")
        else:
            message = _("the seat must be 0 or 1, not {value}")
        raise ShareError(field, "out-of-range", message.format(top=top, value=cut(repr(text), 20)))
    return int(text)


def _check_place(record: Record, move: int | None, seat: int) -> None:
    """``move`` (None: all) and ``seat`` of a position of ``record``: else an :class:`ArgumentError`."""
    if move is not None and (type(move) is not int or not 0 <= move <= len(record.moves)):
        raise ArgumentError(f"move is 0 to {len(record.moves)}, not {shown(move, 30)}")
    if type(seat) is not int or seat not in (0, 1):
        raise ArgumentError(f"seat is 0 or 1, not {shown(seat, 30)}")


def share_query(record: Record, move: int | None = None, seat: int = 0) -> str:
    """The query of a link to ``record`` after ``move`` moves (default all), the learner in ``seat``."""
    if not isinstance(record, Record):
        raise ArgumentError(f"share_query takes a Record, not {type(record).__name__}")
    _check_place(record, move, seat)
    pairs = [("record", record_code(record))]
    if move is not None and move != len(record.moves):
        pairs.append(("move", str(move)))
    if seat:
        pairs.append(("as", str(seat)))
    return urlencode(pairs)


def share_url(base: str, record: Record, move: int | None = None, seat: int = 0) -> str:
    """``base`` (a page's address, maybe with ``?lang=hu``) with the position's query added; a
    ``record``, ``move`` or ``as`` it had is replaced."""
    if not isinstance(base, str):  # a range or an endless iterator would be searched for "#" for ever
        raise ArgumentError(f"share_url: base is a page's address (text), not {shown(base, 40)}")
    if "#" in base:
        base = base.split("#", 1)[0]
    path, _sep, query = base.partition("?")
    kept = [p for p in query.split("&") if p and p.split("=", 1)[0] not in _QUERY_KEYS]
    return path + "?" + "&".join([*kept, share_query(record, move, seat)])


__all__ = [
    "MAX_LINK_CHARS",
    "MAX_RECORD_CHARS",
    "CodeError",
    "ShareError",
    "SharedPosition",
    "pack",
    "record_code",
    "record_from_code",
    "share_query",
    "share_url",
    "unpack",
]
