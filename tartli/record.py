"""The ``tartli/1`` game record (RECORD.md): load, save, replay, and ``tartli-result/1``.

>>> rec = Record.from_json('''{"format": "tartli/1", "dealer": 1, "seed": 3, "moves": []}''')
>>> state = rec.replay()
>>> result(state)["status"]
'in-progress'
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tartli._checks import checked
from tartli.cards import Card, InvalidCardError
from tartli.errors import (
    ArgumentError,
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    RecordError,
    TartliError,
    cut,
    printable,
    shown,
)
from tartli.game import Deal, HandState, Status
from tartli.i18n import N_, _, language
from tartli.moves import Move, parse_move
from tartli.rules import RuleSet

FORMAT = "tartli/1"
RESULT_FORMAT = "tartli-result/1"
_KEYS = {"format", "rules", "dealer", "scores", "hands", "trump", "talon", "seed", "moves"}

MAX_RECORD_BYTES = 10 * 1024 * 1024
"""A record file is read only up to this size (10 MiB): a real hand's record has a few kilobytes."""
MAX_SCORE = 1_000_000
"""The highest running score a record may give (a game ends near 501; this only bounds the input)."""
SEED_RANGE = range(-(2**63), 2**64)
"""The seeds a record may give: the range of a 64-bit seed, signed or not."""


def quoted(text: str, limit: int = 80) -> str:
    r"""A move (or any text) in double quotes for a one-line message, escaped as in JSON and cut to
    at most ``limit`` characters between the quotes (with its length if cut).

    What is not printable is escaped, control and format characters alike:

    >>> print(quoted("0: play AH\u202e"), quoted("0: play " + "A" * 100, 12))
    "0: play AH\u202e" "0: play AAAA"… (108 characters)
    """
    if not isinstance(text, str):
        raise ArgumentError(f"quoted takes text, not {shown(text)}")
    if type(limit) is not int or limit < 1:
        raise ArgumentError(f"a limit is a whole number of characters, 1 or more, not {shown(limit, 20)}")
    pieces: list[str] = []
    size = 0
    for c in text[:limit]:
        piece = json.dumps(c, ensure_ascii=not c.isprintable())[1:-1]
        if size + len(piece) > limit:
            break
        pieces.append(piece)
        size += len(piece)
    inner = "".join(pieces)
    if len(pieces) == len(text):
        return f'"{inner}"'
    return f'"{inner}"… ({len(text):,} characters)'


class ReplayError(TartliError):
    """A move of a record that cannot be made: ``index`` is its 0-based place in ``moves``."""

    def __init__(self, index: int, text: str, cause: TartliError) -> None:
        self.index = index
        self.move_text = text
        self.cause = cause
        # The move is quoted once (an unreadable move's own message would quote it again), and cut if long.
        why = (
            cause.reason
            if isinstance(cause, InvalidMoveError)
            else cut(str(cause), 200)
            if isinstance(cause, TartliError)
            else shown(cause, 200)
        )
        move = quoted(text) if isinstance(text, str) else shown(text)
        self.why = why
        self.move_shown = move
        # (``str(error)`` is the replay command's stderr line, RECORD.md: the same in every language)
        super().__init__(f"move {shown(index, 20)} {move}: {why}")

    def said(self) -> str:
        """The refusal in the page's language, for a learner: the move counted from 1, as a page counts
        ("Move 3 of the record, "0: play AH", cannot be made: ..."); ``str(error)`` stays the command's line."""
        if type(self.index) is not int:
            return str(self)
        return _("Move {number} of the record, {move}, cannot be made: {why}").format(
            number=self.index + 1, move=self.move_shown, why=self.why
        )


@dataclass
class Record:
    """One hand as a record: rules, dealer, running scores, the cards, and the moves so far."""

    deal: Deal
    rules: RuleSet = field(default_factory=RuleSet)
    scores: tuple[int, int] = (0, 0)
    moves: list[str] = field(default_factory=list)
    seed: int | None = None

    def __post_init__(self) -> None:
        checked(self.deal, Deal, "Record: deal")
        checked(self.rules, RuleSet, "Record: rules")
        scores = self.scores
        if (
            not isinstance(scores, tuple | list)
            or len(scores) != 2
            or any(type(s) is not int or not 0 <= s <= MAX_SCORE for s in scores)
        ):
            raise ArgumentError(f"Record: scores are two whole numbers from 0 to {MAX_SCORE:,}, not {shown(scores)}")
        if not isinstance(self.moves, list | tuple) or any(not isinstance(m, str) for m in self.moves):
            raise ArgumentError(f'Record: moves are a list of strings like "0: play AH", not {shown(self.moves)}')
        if self.seed is not None and (type(self.seed) is not int or self.seed not in SEED_RANGE):
            raise ArgumentError(f"Record: seed is None or a number from -2**63 to 2**64 - 1, not {shown(self.seed)}")
        if not isinstance(scores, tuple):
            self.scores = (scores[0], scores[1])
        if not isinstance(self.moves, list):
            self.moves = list(self.moves)

    # ------------------------------------------------------------ reading
    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Parse record text; :class:`RecordError` names the field that is wrong.

        Bounded in time and memory: text over :data:`MAX_RECORD_BYTES` is refused before it is
        parsed, and JSON nested too deep or with numbers too long to read is refused, not a crash.
        """
        if isinstance(text, bytearray):
            text = bytes(text)
        if not isinstance(text, str | bytes):
            raise ArgumentError(f"a record is JSON text (str or bytes), not {shown(text)}")
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(
                _("a record has at most {limit} bytes; this one has {size}").format(
                    limit=grouped(MAX_RECORD_BYTES), size=grouped(len(text))
                )
            )
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as err:
                raise RecordError(
                    _("cannot read it: not UTF-8 text ({reason} at byte {byte})").format(
                        reason=_python_words(err.reason, _UTF8_PROBLEMS, N_("bytes that are not UTF-8")),
                        byte=err.start,
                    )
                ) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise RecordError(
                _("not JSON: {problem} at line {line} column {column}").format(
                    problem=_python_words(err.msg, _JSON_PROBLEMS, N_("not valid JSON")),
                    line=err.lineno,
                    column=err.colno,
                )
            ) from None
        except RecursionError:
            raise RecordError(_("not a record: JSON nested too deep")) from None
        except ValueError as err:  # e.g. an integer too long to convert (Python's 4,300-digit limit)
            problem = cut(str(err), 120) if language() == "en" else _("a number too long to read (over 4,300 digits)")
            raise RecordError(_("not a record: {problem}").format(problem=problem)) from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        """Read a record file (``RecordError`` if it is missing, unreadable, too large or malformed).

        ``path`` is a path (a str or a :class:`pathlib.Path`): a file descriptor, a bytes path or an
        open file is an :class:`ArgumentError` (for text already read, use :meth:`from_json`). Only a
        regular file is read: a folder, a FIFO, a device or a socket is refused before it is opened
        (opening a FIFO without a writer would wait for ever; a device may never end).
        """
        name = _path_arg(path)
        where = cut(printable(name), 120)
        data = b""
        try:
            kind = _not_regular(os.stat(name).st_mode)
            if not kind:
                fd = os.open(name, os.O_RDONLY | _NO_WAIT)  # no wait even if a FIFO took the file's place since
                with os.fdopen(fd, "rb") as file:
                    kind = _not_regular(os.fstat(fd).st_mode)
                    if not kind:
                        data = file.read(MAX_RECORD_BYTES + 1)  # a bounded read: a growing file stops here
        except FileNotFoundError:
            raise RecordError(f"{where}: " + _("no such file")) from None
        except (OSError, ValueError) as err:  # ValueError: a NUL character in the path
            raise RecordError(f"{where}: " + _("cannot read it: {why}").format(why=_why(err))) from None
        if kind:
            raise RecordError(f"{where}: " + _("cannot read it: {why}").format(why=kind))
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(
                f"{where}: "
                + _("a record file has at most {limit} bytes; this one has more").format(
                    limit=grouped(MAX_RECORD_BYTES)
                )
            )
        return cls.from_json(data)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise RecordError(_("a record is a JSON object"))
        unknown = sorted(k for k in data if isinstance(k, str) and k not in _KEYS)
        if unknown:
            raise RecordError(
                f"{cut(printable(unknown[0]))}: " + _("not a field of a {format} record").format(format=FORMAT)
            )
        if any(not isinstance(k, str) for k in data):
            key = next(k for k in data if not isinstance(k, str))
            raise RecordError(f"{shown(key)}: " + _("a field is named by text"))
        if data.get("format") != FORMAT:
            raise RecordError(
                "format: " + _('must be "{format}", not {value}').format(format=FORMAT, value=shown(data.get("format")))
            )
        rules = RuleSet.from_record(data.get("rules", "hungarian"))
        dealer = data.get("dealer")
        if type(dealer) is not int or dealer not in (0, 1):  # not 1.0, not true
            raise RecordError("dealer: " + _("the dealer is 0 or 1 (D2)"))
        scores = data.get("scores", [0, 0])
        if (
            not isinstance(scores, list)
            or len(scores) != 2
            or any(type(s) is not int or not 0 <= s <= MAX_SCORE for s in scores)
        ):
            raise RecordError(
                "scores: "
                + _("must be two whole numbers from 0 to {limit}, e.g. [0, 0] (S1)").format(limit=grouped(MAX_SCORE))
            )
        moves = data.get("moves")
        if not isinstance(moves, list) or any(not isinstance(m, str) for m in moves):
            raise RecordError("moves: " + _('must be a list of strings like "{example}"').format(example="0: play AH"))
        seed = data.get("seed")
        card_keys = [k for k in ("hands", "trump", "talon") if k in data]
        if seed is not None:
            if type(seed) is not int or seed not in SEED_RANGE:
                raise RecordError(
                    "seed: " + _("must be a whole number from {low} to {high}").format(low="-2**63", high="2**64 - 1")
                )
            if card_keys:
                raise RecordError(
                    f"{card_keys[0]}: " + _("a record gives either a {seed} or the cards, not both").format(seed="seed")
                )
            deal = Deal.from_seed(seed, dealer)
        else:
            for key in ("hands", "trump", "talon"):
                if key not in data:
                    raise RecordError(
                        f"{key}: "
                        + _("missing (give {hands}, {trump} and {talon}, or a {seed})").format(
                            hands="hands", trump="trump", talon="talon", seed="seed"
                        )
                    )
            deal = _read_deal(data, dealer)
        return cls(deal, rules, (scores[0], scores[1]), list(moves), seed)

    # ------------------------------------------------------------ writing
    @classmethod
    def from_state(cls, state: HandState, seed: int | None = None) -> Record:
        """The record of a hand so far (moves in record notation)."""
        checked(state, HandState, "the state")
        return cls(state.deal, state.rules, state.scores_in, [str(m) for m in state.moves], seed)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_record(),
            "dealer": self.deal.dealer,
            "scores": list(self.scores),
        }
        if self.seed is not None and Deal.from_seed(self.seed, self.deal.dealer) == self.deal:
            data["seed"] = self.seed
        else:
            data["hands"] = [[str(c) for c in h] for h in self.deal.hands]
            data["trump"] = str(self.deal.indicator)
            data["talon"] = [str(c) for c in self.deal.talon]
        data["moves"] = [str(parse_move(m)) for m in self.moves]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record; the file is replaced whole or not at all.

        ``path`` is a str or a :class:`pathlib.Path`: a regular file (replaced) or a new name. A path
        that cannot be written (a folder, a missing folder, no permission) is an
        :class:`ArgumentError` and leaves no file behind; so is a name that is not a regular file
        (a symbolic link, a FIFO, a device, a socket: the rule of :meth:`load`), which is left as
        it was, never replaced by a file nor written through.
        """
        target = Path(_path_arg(path))
        text = self.to_json().encode("utf-8")
        where = cut(printable(str(target)), 120)
        tmp: Path | None = None
        try:
            kind = _not_a_file_to_replace(target)
            if kind:
                raise ArgumentError(f"{where}: cannot write the record there: it is {kind}")
            tmp = target.with_name(target.name + ".tmp")  # ValueError for a path without a name ("", ".")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NO_WAIT, 0o666)
            with os.fdopen(fd, "wb") as file:
                kind = _not_regular(os.fstat(fd).st_mode)
                if not kind:
                    file.write(text)
            if not kind:
                kind = _not_a_file_to_replace(target)  # it may have changed while the record was written
                if kind:
                    tmp.unlink()
                    raise ArgumentError(f"{where}: cannot write the record there: it is {kind}")
                tmp.replace(target)
        except ArgumentError:
            raise
        except (OSError, ValueError) as err:
            if tmp is not None:
                with contextlib.suppress(OSError, ValueError):
                    tmp.unlink(missing_ok=True)
            raise ArgumentError(f"{where}: cannot write the record there: {_why(err)}") from None
        if kind:
            raise ArgumentError(f"{where}: cannot write the record there: {printable(tmp.name)} is {kind}")

    # ------------------------------------------------------------ replaying
    def new_state(self) -> HandState:
        return HandState(self.deal, self.rules, self.scores)

    def replay(self) -> HandState:
        """The state after all the moves; :class:`ReplayError` names the first bad move."""
        state = self.new_state()
        for index, text in enumerate(self.moves):
            try:
                move: Move = parse_move(text)
                state.push(move)
            except (InvalidMoveError, IllegalMoveError) as err:
                raise ReplayError(index, text, err) from None
        return state


_JSON_PROBLEMS = {
    # Translators: what the JSON reader found wrong in a record ("not JSON: Expecting value at line 1 column 1")
    "Expecting value": N_("Expecting value"),
    "Expecting property name enclosed in double quotes": N_("Expecting property name enclosed in double quotes"),
    "Expecting ':' delimiter": N_("Expecting ':' delimiter"),
    "Expecting ',' delimiter": N_("Expecting ',' delimiter"),
    "Unterminated string starting at": N_("Unterminated string starting at"),
    "Invalid control character at": N_("Invalid control character at"),
    "Invalid \\escape": N_("Invalid \\escape"),
    "Invalid \\uXXXX escape": N_("Invalid \\uXXXX escape"),
    "Extra data": N_("Extra data"),
}
"""Python's JSON reader's reasons (``JSONDecodeError.msg``), each a message of the catalog: the English is Python's
own (the replay command's line, RECORD.md, reads as it always did), and a page in another language says it in
its words, never Python's English inside a translated sentence."""
_UTF8_PROBLEMS = {
    "invalid start byte": N_("invalid start byte"),
    "invalid continuation byte": N_("invalid continuation byte"),
    "unexpected end of data": N_("unexpected end of data"),
}
"""Python's UTF-8 decoder's reasons (``UnicodeDecodeError.reason``), as :data:`_JSON_PROBLEMS`."""


def _python_words(reason: str, known: dict[str, str], other: str) -> str:
    """Python's English ``reason`` said in the page's language: its message in ``known``, else (a reason a newer
    Python may give) ``other``; in English, Python's words as they are."""
    if reason in known:
        return _(known[reason])
    return reason if language() == "en" else _(other)


def _read_deal(data: dict[str, Any], dealer: int) -> Deal:
    def card(text: Any, where: str) -> Card:
        try:
            return Card.parse(text)
        except InvalidCardError as err:
            raise RecordError(f"{where}: {err}") from None

    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != 2 or any(not isinstance(h, list) for h in hands):
        raise RecordError("hands: " + _("must be two lists of 9 cards"))
    parsed = tuple(tuple(card(c, f"hands[{p}]") for c in hands[p]) for p in (0, 1))
    talon = data["talon"]
    if not isinstance(talon, list):
        raise RecordError("talon: " + _("must be a list of 13 cards"))
    try:
        return Deal(
            dealer,
            (parsed[0], parsed[1]),
            card(data["trump"], "trump"),
            tuple(card(c, "talon") for c in talon),
        )
    except InvalidDealError as err:
        raise RecordError(f"hands/trump/talon: {err}") from None


def result(state: HandState) -> dict[str, Any]:
    """The ``tartli-result/1`` object of a state (RECORD.md, "Replaying")."""
    checked(state, HandState, "the state")
    to_move = state.to_move
    legal = sorted(str(m) for m in state.legal_moves()) if to_move is not None else []
    return {
        "format": RESULT_FORMAT,
        "status": state.status.value,
        "trick_winners": list(state.trick_winners),
        "meld_points": list(state.meld_points),
        "card_points": list(state.card_points),
        "stichmatsch": state.stichmatsch,
        "scores": list(state.totals),
        "out": None if state.out is None else {"player": state.out[0], "valid": state.out[1]},
        "buli": list(state.buli),
        "to_move": to_move,
        "legal": legal,
    }


_NO_WAIT = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
"""Flags that make ``os.open`` return at once: a FIFO without its other end, a terminal, are not waited for."""


def _not_regular(mode: int) -> str:
    """What a file of this ``st_mode`` is if it is not a regular file ("" if it is one)."""
    if stat.S_ISREG(mode):
        return ""
    if stat.S_ISDIR(mode):
        return "a folder, not a record file"
    kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
    return f"{kind}, not a regular file"


def _not_a_file_to_replace(target: Path) -> str:
    """What ``target`` is if :meth:`Record.save` must not replace it ("" for a regular file or a new name).

    ``lstat``: a symbolic link is judged as itself, not by what it points to."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return ""
    if stat.S_ISLNK(mode):
        return "a symbolic link, not a regular file"
    return _not_regular(mode)


def grouped(number: int) -> str:
    """``number`` with its thousands grouped as the page's language writes them: 10,485,760 (English),
    10 485 760 (Hungarian, with no-break spaces), 10.485.760 (German).

    >>> grouped(10485760)
    '10,485,760'
    """
    if type(number) is not int or abs(number) >= 10**4000:  # (Python prints no more than 4,300 digits)
        raise ArgumentError(f"grouped takes a whole number, not {shown(number, 30)}")
    text = f"{number:,}"
    return text.replace(",", {"hu": "\u00a0", "de": "."}.get(language(), ","))


def _why(err: OSError | ValueError) -> str:
    """An OS error in a few words: its reason without the path (the message names the path once)."""
    why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
    return cut(printable(why), 120)


def _path_arg(path: object) -> str:
    """A path argument of the public API: a str or an ``os.PathLike`` of str (not a file
    descriptor, not bytes, not an open file), as a str; else an :class:`ArgumentError`."""
    if isinstance(path, os.PathLike):
        try:
            path = os.fspath(path)
        except TypeError:  # a __fspath__ that gives neither str nor bytes
            raise ArgumentError(f"a path is a str or a pathlib.Path, not {shown(path)}") from None
    if not isinstance(path, str):
        hint = " (for an open file, use Record.from_json(file.read()))" if hasattr(path, "read") else ""
        raise ArgumentError(f"a path is a str or a pathlib.Path, not {shown(path)}{hint}")
    return path


def replay_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Load and replay a record file, giving its ``tartli-result/1`` object."""
    return result(Record.load(path).replay())


__all__ = ["FORMAT", "RESULT_FORMAT", "Record", "ReplayError", "Status", "replay_file", "result"]
