"""Tables for two on the course's server (issue 38): pupil against pupil on two devices, the server the referee.

A pupil opens a table (:meth:`DuelStore.open_table`) and gets its short **code** (the letters of class
codes) and a **seat token**, a secret their browser keeps; a second pupil sits down with the code
(:meth:`DuelStore.take_seat`) and gets the other seat's token. From then on every request names its
table and shows its token: the server plays the match on its own engine (:class:`tartli.match.Match`,
to 5 buli by default, S6) and answers each seat with what that seat may see (:meth:`DuelStore.state_for`).

A seat's state carries the saved game its kernel restores
(:meth:`tartli.widgets.table.TableController.restore_game`), with the hand's record made for that
seat: a **shadow** whose deal is consistent with everything the seat has seen and holds none of the
other's hidden cards but by chance (:mod:`tartli.server.shadow`). A hand that is over is given as it
was (its cards no longer count).

A player whose page is closed for a while (the page says it is open every 20 s, :meth:`DuelStore.seen`)
may have the computer (Medium, :class:`tartli.bots.HeuristicBot`) play for them, if the player still
at the table asks it after :data:`AWAY_AFTER` (:meth:`DuelStore.let_computer_play`); the player who
comes back gets the seat back. A player who leaves closes the table for both
(:meth:`DuelStore.leave`); a table nobody has played at or looked at for :data:`IDLE_CLOSE` is closed,
and a closed table is deleted a day later (:meth:`DuelStore.close_idle`).

What is stored, in plain words: for each table its code, its rules, the class it was opened in (if
any), when it was made and last used, the match's hands (each hand's cards and moves, as a
``tartli/1`` record) and a secret seed for the hands still to deal; for each seat the first name
typed, a *hash* of the seat token, when its page was last open and whether the computer plays it.
Nothing else, and nothing of a table a day after it closed.

The store is one SQLite file beside the class data (``duels.sqlite3``), one connection behind a lock,
in WAL mode with a busy timeout, each change one transaction: a restart (a new :class:`DuelStore` on
the same file) continues every table exactly, its hands replayed from their records.

The words of an error are an English message marked for the catalogs (:class:`DuelError`): the
server speaks every page's language (:meth:`DuelError.words`). A move the rules refuse keeps the
engine's message, which names the rule (``"T4: ..."``), in the server's language: the seat's kernel
checks a move with its own engine, in its page's language, before it sends it.
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import random
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tartli.bots import HeuristicBot
from tartli.errors import IllegalMoveError, TartliError
from tartli.game import TRICKS, HandState, PlayerView
from tartli.i18n import N_, catalog
from tartli.match import Match
from tartli.moves import Bela, GoOut, Move, Swap, coerce_move
from tartli.record import Record
from tartli.rules import RuleSet
from tartli.server.classroom import CODE_LENGTH, CODE_LETTERS, NAME_LIMIT, SqliteStore, _hash, _tidy, normal_code
from tartli.server.shadow import shadow_record

__all__ = [
    "AWAY_AFTER",
    "DELETE_AFTER",
    "FILE_NAME",
    "IDLE_CLOSE",
    "MAX_TABLES",
    "PRESENT_WITHIN",
    "BadArgument",
    "DuelError",
    "DuelFolder",
    "DuelStore",
    "NotAllowed",
    "Stale",
]

FILE_NAME = "duels.sqlite3"
MAX_TABLES = 500
"""The most open tables one server keeps (a script opening tables cannot fill its memory or disk)."""
AWAY_AFTER = 120.0
"""Seconds a seat's page must have been gone before the other player may let the computer play it."""
PRESENT_WITHIN = 45.0
"""A seat seen within this many seconds is at the table (its page says so every 20 s)."""
IDLE_CLOSE = 1800.0
"""A table with no move and no page open for this long is closed."""
DELETE_AFTER = 86400.0
"""A closed table is deleted this long after it closed."""
SHADOWS_KEPT = 512
"""Seat states' shadows kept made (the same moment is asked for again and again by a page and its kernel)."""

_STATUSES = ("waiting", "playing", "hand-over", "match-over", "closed")


class DuelError(TartliError):
    """A table request that cannot be done. ``words(lang)`` says why in a pupil's words: an English
    message marked for the catalogs (``N_``) with its fields, or the engine's own message (``rule``
    then names the rule it breaks)."""

    def __init__(self, message: str, *, translate: bool = True, rule: str | None = None, **fields: object) -> None:
        self.message, self.translate, self.rule, self.fields = message, translate, rule, fields
        super().__init__(self.words("en"))

    def words(self, lang: str = "en") -> str:
        if not self.translate:
            return self.message
        return catalog(lang).gettext(self.message).format(**self.fields)

    @classmethod
    def of_engine(cls, error: TartliError) -> DuelError:
        """The engine's refusal as it said it (an illegal move names its rule)."""
        return cls(str(error), translate=False, rule=error.rule if isinstance(error, IllegalMoveError) else None)


class BadArgument(DuelError):
    """A request that does not say what it must (no name, a move that is not a move)."""


class NotAllowed(DuelError):
    """A table that does not exist, or a seat token that is not one of its seats: the same error for
    both, so a guess learns nothing."""

    def __init__(self) -> None:
        super().__init__("not allowed", translate=False)


class Stale(DuelError):
    """A move sent for a moment the table has moved on from (the other player moved, the computer did)."""


@dataclass
class _Seat:
    name: str
    token_hash: str
    last_seen: float
    computer: bool = False  #: the computer (Medium) plays this seat now
    hints: bool = False  #: this seat's player agrees that both may ask for the Hint


@dataclass
class _Table:
    """One table as loaded for a change (see :meth:`DuelStore._change`)."""

    id: int
    code: str
    rules: RuleSet
    class_code: str | None
    seed: str
    version: int
    created: float
    active: float
    closed: float | None
    seats: list[_Seat | None]
    match: Match
    match_no: int = 1  #: the match played at the table now (1, then 2 after "another match", ...)
    changed: bool = False  #: the change is one the players see: the version grows

    @property
    def hand_number(self) -> int:
        return len(self.match.results) + 1

    @property
    def status(self) -> str:
        if self.closed is not None:
            return "closed"
        if self.seats[1] is None:
            return "waiting"
        if not self.match.state.is_over:
            return "playing"
        target = self.match.target
        return "match-over" if target is not None and max(self.match.buli_with_hand) >= target else "hand-over"


SCHEMA = """
CREATE TABLE IF NOT EXISTS duels (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    rules TEXT NOT NULL,
    class_code TEXT,
    seed TEXT NOT NULL,
    version INTEGER NOT NULL,
    created REAL NOT NULL,
    active REAL NOT NULL,
    closed REAL,
    status TEXT NOT NULL,
    hand INTEGER NOT NULL,
    buli0 INTEGER NOT NULL,
    buli1 INTEGER NOT NULL,
    match_no INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS duel_seats (
    duel_id INTEGER NOT NULL REFERENCES duels(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    last_seen REAL NOT NULL,
    computer INTEGER NOT NULL DEFAULT 0,
    hints INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (duel_id, seat)
);
CREATE TABLE IF NOT EXISTS duel_hands (
    duel_id INTEGER NOT NULL REFERENCES duels(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (duel_id, number)
);
CREATE TABLE IF NOT EXISTS duel_past (
    duel_id INTEGER NOT NULL REFERENCES duels(id) ON DELETE CASCADE,
    match_no INTEGER NOT NULL,
    number INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (duel_id, match_no, number)
);
CREATE INDEX IF NOT EXISTS duels_of_a_class ON duels(class_code);
"""


def _deal_rng(seed: str, number: int, match_no: int = 1) -> random.Random:
    """The shuffle of hand ``number`` of the table's match ``match_no``: from the table's secret seed, so a
    restart deals the same hands (and another match at the table other ones)."""
    key = seed if match_no == 1 else f"{seed}/{match_no}"
    return random.Random(f"tartli-duel:{key}:{number}")


def _record_text(state: HandState) -> str:
    return json.dumps(Record.from_state(state).to_dict(), separators=(",", ":"), sort_keys=True)


def _rules_text(rules: RuleSet) -> str:
    return json.dumps(rules.to_record(), separators=(",", ":"), sort_keys=True)


class DuelStore(SqliteStore):
    """The tables for two of one course server, in one SQLite file (``path``; ``":memory:"`` for a test).

    Every method that names a table takes its ``code`` and a seat ``token``; a wrong one (or a table
    that does not exist) is :class:`NotAllowed`. Each change is one transaction, made under the
    store's lock, and grows the table's ``version``; :meth:`listen` and :meth:`wait_for_change` tell
    of it at once (the web API's long poll waits on them).
    """

    FILE_NAME = FILE_NAME
    SCHEMA = SCHEMA

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        deals: random.Random | None = None,
        away_after: float = AWAY_AFTER,
    ) -> None:
        self.clock = clock
        self.away_after = away_after
        """Seconds a seat's page must have been gone before the other may let the computer play it (the server's
        ``--TartliVoila.duel_away_after``; a test shortens it)."""
        self._deals = deals
        """Where the tables' seeds come from: a test's generator (the same deals every run), else secrets."""
        self._open(path, threading.RLock())
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(duel_seats)")}
        if "hints" not in columns:  # a file made before the Hint could be agreed on
            self._db.execute("ALTER TABLE duel_seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0")
        if "match_no" not in {row[1] for row in self._db.execute("PRAGMA table_info(duels)")}:  # (before rematches)
            self._db.execute("ALTER TABLE duels ADD COLUMN match_no INTEGER NOT NULL DEFAULT 1")
        self._matches: dict[str, tuple[int, int, Match]] = {}  # code -> (id, version, the match at that version)
        self._shadows: OrderedDict[tuple[str, int, int], str] = OrderedDict()  # (seed, version, seat) -> JSON
        self._shadow_lock = threading.Lock()
        self._listeners: list[Callable[[str, int], None]] = []
        self._changes = threading.Condition()
        self._versions: dict[str, int] = {}

    # ------------------------------------------------------------------ changes and their news
    def listen(self, callback: Callable[[str, int], None]) -> None:
        """Call ``callback(code, version)`` after each change is written (from the thread that made it:
        an event loop's listener hands it over with ``loop.call_soon_threadsafe``)."""
        self._listeners.append(callback)

    def wait_for_change(self, code: str, since: int, timeout: float) -> bool:
        """Wait (a thread) until table ``code`` has changed from version ``since``, at most ``timeout``
        seconds; True if it has. (Changes made by another store on the same file are not seen.)"""
        code = normal_code(code)
        deadline = time.monotonic() + timeout
        with self._lock:
            row = self._db.execute("SELECT version FROM duels WHERE code = ?", (code,)).fetchone()
        if row is None or row[0] != since:
            return True
        with self._changes:
            while self._versions.get(code, since) == since:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changes.wait(left)
            return True

    def _tell(self, code: str, version: int) -> None:
        with self._changes:
            self._versions[code] = version
            self._changes.notify_all()
        for callback in list(self._listeners):
            callback(code, version)

    # ------------------------------------------------------------------ loading and saving
    def _load(self, db: sqlite3.Connection, code: object) -> _Table:
        """The table ``code`` with its match (from the cache if it is at this version); :class:`NotAllowed`."""
        row = db.execute(
            "SELECT id, code, rules, class_code, seed, version, created, active, closed, match_no FROM duels "
            "WHERE code = ?",
            (normal_code(code),),
        ).fetchone()
        if row is None:
            raise NotAllowed()
        duel_id, code_, rules_text, class_code, seed, version, created, active, closed, match_no = row
        seats: list[_Seat | None] = [None, None]
        for seat, name, token_hash, last_seen, computer, hints in db.execute(
            "SELECT seat, name, token_hash, last_seen, computer, hints FROM duel_seats WHERE duel_id = ?", (duel_id,)
        ):
            seats[seat] = _Seat(name, token_hash, last_seen, bool(computer), bool(hints))
        rules = RuleSet.from_record(json.loads(rules_text))
        cached = self._matches.get(code_)
        if cached is not None and cached[:2] == (duel_id, version):
            match = cached[2]
        else:
            records = [
                r for (r,) in db.execute("SELECT record FROM duel_hands WHERE duel_id = ? ORDER BY number", (duel_id,))
            ]
            match = _rebuild(rules, seed, records, match_no)
            self._matches[code_] = (duel_id, version, match)  # (a lobby, a watch or a seat: rebuilt once a version)
        table = _Table(
            duel_id, code_, rules, class_code, seed, version, created, active, closed, seats, match, match_no
        )
        _name_players(table)
        return table

    def _save(self, db: sqlite3.Connection, table: _Table, *, new_hand: bool = False) -> None:
        if table.changed:
            table.version += 1
        match = table.match
        buli = match.buli_with_hand
        db.execute(
            "UPDATE duels SET version = ?, active = ?, closed = ?, status = ?, hand = ?, buli0 = ?, buli1 = ?, "
            "match_no = ? WHERE id = ?",
            (
                table.version,
                table.active,
                table.closed,
                table.status,
                table.hand_number,
                buli[0],
                buli[1],
                table.match_no,
                table.id,
            ),
        )
        for number, seat in enumerate(table.seats):
            if seat is not None:
                db.execute(
                    "INSERT OR REPLACE INTO duel_seats (duel_id, seat, name, token_hash, last_seen, computer, hints) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table.id, number, seat.name, seat.token_hash, seat.last_seen, int(seat.computer), int(seat.hints)),
                )
        if new_hand or table.changed:
            db.execute(
                "INSERT OR REPLACE INTO duel_hands (duel_id, number, record) VALUES (?, ?, ?)",
                (table.id, table.hand_number, _record_text(match.state)),
            )

    @contextmanager
    def _change(self, code: object, token: object, *, newcomer: bool = False) -> Iterator[tuple[_Table, int]]:
        """A change of table ``code`` by the seat of ``token`` (``newcomer``: by someone sitting down, seat
        -1), in one transaction: the table and the seat, saved after (its version grown if
        ``table.changed``), its news told once written. A change refused half-way leaves nothing of it,
        in the file or in the cache."""
        with self._lock:
            try:
                with self._transaction() as db:
                    table = self._load(db, code)
                    seat = -1 if newcomer else _seat_of(table, token)
                    table.active = self.clock()
                    yield table, seat
                    self._save(db, table)
            except BaseException:
                self._matches.pop(normal_code(code), None)  # the cached match may hold the refused half
                raise
            self._matches[table.code] = (table.id, table.version, table.match)
        if table.changed:
            self._tell(table.code, table.version)

    # ------------------------------------------------------------------ opening and sitting down
    def open_table(
        self, name: object, *, class_code: str | None = None, rules: RuleSet | None = None
    ) -> tuple[str, str]:
        """Open a table: its code, and the opener's seat token (seat 0; kept only as a hash)."""
        shown = _tidy(name, NAME_LIMIT)
        if not shown:
            raise BadArgument(N_("type your first name to sit at the table"))
        if rules is not None and not isinstance(rules, RuleSet):
            raise BadArgument(N_("these are not rules the course knows"))
        rules = rules or RuleSet()
        klass = (normal_code(class_code) or None) if class_code is not None else None
        seed = secrets.token_hex(16) if self._deals is None else f"{self._deals.getrandbits(64):016x}"
        token, now = secrets.token_hex(16), self.clock()
        match = Match(rules, rng=_deal_rng(seed, 1))
        with self._transaction() as db:
            if db.execute("SELECT COUNT(*) FROM duels WHERE closed IS NULL").fetchone()[0] >= MAX_TABLES:
                raise DuelError(N_("this server has {n} open tables: try again in a few minutes"), n=MAX_TABLES)
            for _attempt in range(100):
                code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
                if db.execute("SELECT 1 FROM duels WHERE code = ?", (code,)).fetchone() is None:
                    break
            else:  # pragma: no cover - 22**6 codes
                raise DuelError(N_("this server has {n} open tables: try again in a few minutes"), n=MAX_TABLES)
            cursor = db.execute(
                "INSERT INTO duels (code, rules, class_code, seed, version, created, active, status, hand, "
                "buli0, buli1) VALUES (?, ?, ?, ?, 1, ?, ?, 'waiting', 1, 0, 0)",
                (code, _rules_text(rules), klass, seed, now, now),
            )
            table = _Table(
                int(cursor.lastrowid or 0), code, rules, klass, seed, 1, now, now, None,
                [_Seat(shown, _hash(token), now), None], match,
            )  # fmt: skip
            self._save(db, table, new_hand=True)
        with self._lock:
            self._matches[code] = (table.id, table.version, match)
        self._tell(code, table.version)
        return code, token

    def take_seat(self, code: object, name: object, token: object = None) -> tuple[int, str]:
        """Sit at table ``code`` as ``name``: the seat and its token. A token of this table gives back
        its own seat (a reload, a phone that locked); else the free seat; a full table is refused."""
        shown = _tidy(name, NAME_LIMIT)
        now = self.clock()
        with self._lock:
            if isinstance(token, str) and token:
                try:
                    with self._change(code, token) as (table, seat):
                        _seat_at(table, seat).last_seen = now
                    return seat, token
                except NotAllowed:
                    pass  # a token of another table (or of none): sit down as a newcomer
            if not shown:
                raise BadArgument(N_("type your first name to sit at the table"))
            fresh = secrets.token_hex(16)
            with self._change(code, None, newcomer=True) as (table, _none):
                if table.closed is not None:
                    raise DuelError(N_("this table is closed"))
                if table.seats[1] is not None:
                    raise DuelError(N_("this table already has two players"))
                table.seats[1] = _Seat(shown, _hash(fresh), now)
                table.changed = True
                _name_players(table)
        return 1, fresh

    # ------------------------------------------------------------------ what a seat sees
    def state_for(self, code: object, token: object) -> dict[str, Any]:
        """What the seat of ``token`` sees of table ``code``, JSON-ready:

        ``version``; ``seat`` (0 or 1); ``you`` and ``other``, the names (``other`` None while the seat
        is free); ``status`` (``"waiting"`` for a second player, ``"playing"``, ``"hand-over"``,
        ``"match-over"``, ``"closed"``); ``to_move`` (``"you"``, ``"other"`` or None); ``other_away``
        (seconds the other's page has been gone, None while it is open or the seat free);
        ``computer_plays_other``; ``buli`` [yours, theirs] (the hand's counted once it is won);
        ``hand_number``; ``match_number`` (1, then 2 after :meth:`another_match`, ...); and ``game``, the saved game of
        :meth:`tartli.widgets.table.TableController.saved_game` (``json.dumps`` of it is what
        ``restore_game`` takes) with the hand's record made for this seat (:mod:`tartli.server.shadow`).
        """
        with self._lock:
            table = self._load(self._db, code)
            seat = _seat_of(table, token)
            match, state = table.match, table.match.state
            record = Record.from_state(state)  # a copy: the shadow is made outside the lock
            over = state.is_over
            to_move = state.to_move
            booked, with_hand, tie_pending, hands = (
                list(match.buli),
                match.buli_with_hand,
                match.tie_pending,
                len(match.results),
            )
            status, version, seats = table.status, table.version, list(table.seats)
        other, mine = seats[1 - seat], seats[seat]
        assert mine is not None
        now = self.clock()
        away = None if other is None else now - other.last_seen
        game = {
            "tartli-table": 1,
            "record": self._record_for(table, version, seat, record, over),
            "buli": booked,
            "tie_pending": tie_pending,
            "hands": hands,
            "level": "medium",
            "seed": 1,
            "summaries": [],
        }
        return {
            "version": version,
            "seat": seat,
            "you": mine.name,
            "other": None if other is None else other.name,
            "status": status,
            "to_move": None if to_move is None or status != "playing" else "you" if to_move == seat else "other",
            "other_away": None if away is None or away < min(PRESENT_WITHIN, self.away_after) else int(away),
            "away_after": self.away_after,
            "computer_plays_other": bool(other is not None and other.computer),
            "hints": {"mine": mine.hints, "theirs": bool(other is not None and other.hints)},
            "buli": [with_hand[seat], with_hand[1 - seat]],
            "hand_number": hands + 1,
            "match_number": table.match_no,
            "game": game,
        }

    def _record_for(self, table: _Table, version: int, seat: int, record: Record, over: bool) -> dict[str, Any]:
        """The hand's record for ``seat``: the real one once the hand is over, else its shadow, made once a
        moment (seeded by the table's code, the version and the seat; kept by the table's secret seed, so
        that a later table with the same code never gets it)."""
        if over:
            return record.to_dict()
        key = (table.seed, version, seat)
        with self._shadow_lock:
            kept = self._shadows.get(key)
            if kept is not None:
                self._shadows.move_to_end(key)
                return dict(json.loads(kept))
        made = shadow_record(record.replay(), seat, f"{table.code}:{version}:{seat}").record.to_dict()
        with self._shadow_lock:
            self._shadows[key] = json.dumps(made)
            while len(self._shadows) > SHADOWS_KEPT:
                self._shadows.popitem(last=False)
        return made

    def version_of(self, code: object, token: object) -> int:
        """Table ``code``'s version (the seat's token checked): what a long poll compares."""
        with self._lock:
            row = self._db.execute("SELECT id, version FROM duels WHERE code = ?", (normal_code(code),)).fetchone()
            hashes = (
                []
                if row is None
                else [h for (h,) in self._db.execute("SELECT token_hash FROM duel_seats WHERE duel_id = ?", (row[0],))]
            )
        if _match_token(hashes, token) is None or row is None:
            raise NotAllowed()
        return int(row[1])

    def records(self, code: object, token: object, match: object = None) -> list[dict[str, Any]]:
        """The hands that are over of the table's match ``match`` (None: the match played now; an earlier
        one is kept until the table is deleted), as ``tartli/1`` records, in the order played (for either
        player to download and review). [] for a match the table has not played."""
        if match is not None and type(match) is not int:
            raise BadArgument(N_("send the number of the match"))
        with self._lock:
            table = self._load(self._db, code)
            _seat_of(table, token)
            if match is None or match == table.match_no:
                rows = self._db.execute(
                    "SELECT number, record FROM duel_hands WHERE duel_id = ? ORDER BY number", (table.id,)
                ).fetchall()
                over, current = table.match.state.is_over, table.hand_number
                return [json.loads(text) for number, text in rows if number < current or over]
            rows = self._db.execute(
                "SELECT record FROM duel_past WHERE duel_id = ? AND match_no = ? ORDER BY number", (table.id, match)
            ).fetchall()
        return [json.loads(text) for (text,) in rows]

    def another_match(self, code: object, token: object, match: object = None) -> dict[str, Any]:
        """Start another match at the table once its match is over (S6: to the same number of buli, both
        at 0), the same two players in their seats. The deal goes on alternating (D2): the player who did
        not deal the last hand deals the first. The finished match's records are kept (:meth:`records`
        with its number). ``match``: the number of the match the page shows as over: if the other player
        has started the next one already, the state is given as it is (both may press the button).
        The new :meth:`state_for`."""
        if match is not None and type(match) is not int:
            raise BadArgument(N_("send the number of the match"))
        with self._change(code, token) as (table, _seat):
            if match is None or match >= table.match_no:  # (else the other player has started it)
                _playing(table)
                if table.status != "match-over":
                    raise DuelError(N_("the match is not over yet: play it to the end first"))
                finished = table.match
                db = self._db  # (the change's transaction is on the store's connection)
                db.execute(
                    "INSERT OR REPLACE INTO duel_past (duel_id, match_no, number, record) "
                    "SELECT duel_id, ?, number, record FROM duel_hands WHERE duel_id = ?",
                    (table.match_no, table.id),
                )
                db.execute("DELETE FROM duel_hands WHERE duel_id = ?", (table.id,))
                table.match_no += 1
                table.match = Match(
                    table.rules,
                    rng=_deal_rng(table.seed, 1, table.match_no),
                    first_dealer=1 - finished.state.dealer,
                )
                _name_players(table)
                for seat in table.seats:
                    if seat is not None:
                        seat.computer = False  # (a new match: each player plays their own seat again)
                table.changed = True  # (saved by the change: the new match's first hand with it)
        return self.state_for(code, token)

    def tables_of_class(self, class_code: object) -> list[dict[str, Any]]:
        """The open tables of a class, first opened first: ``code``, ``names`` (the second None while the
        seat is free), ``status``, ``hand_number``, ``buli``, and what the slate shows: the ``trick`` under
        way and each player's ``points`` (for the class's lobby and its teacher)."""
        code = normal_code(class_code)
        if not code:
            return []
        with self._lock:
            rows = self._db.execute(
                "SELECT d.code, d.status, d.hand, d.buli0, d.buli1, s0.name, s1.name FROM duels d "
                "LEFT JOIN duel_seats s0 ON s0.duel_id = d.id AND s0.seat = 0 "
                "LEFT JOIN duel_seats s1 ON s1.duel_id = d.id AND s1.seat = 1 "
                "WHERE d.class_code = ? AND d.closed IS NULL ORDER BY d.created, d.id",
                (code,),
            ).fetchall()
            tables = []
            for r in rows:
                state = self._load(self._db, r[0]).match.state  # (public: the trick and the points on the slate)
                tables.append(
                    {
                        "code": r[0],
                        "names": [r[5], r[6]],
                        "status": r[1],
                        "hand_number": r[2],
                        "buli": [r[3], r[4]],
                        "trick": min(state.trick_number, TRICKS),
                        "points": list(state.totals),
                    }
                )
        return tables

    def watched(self, code: object, class_code: object) -> tuple[PlayerView, int, tuple[str, str]]:
        """What someone who plays neither seat may see of table ``code`` of class ``class_code`` (its teacher):
        the first seat's view with its hand and its moves taken out, how many cards that hand holds, and the
        players' names (for :func:`tartli.render.table.table_svg`'s ``watching``). :class:`NotAllowed` for a
        table of another class, or none."""
        klass = normal_code(class_code)
        with self._lock:
            table = self._load(self._db, code)
            if not klass or table.class_code != klass:
                raise NotAllowed()
            state = table.match.state
            view = dataclasses.replace(state.view(0), hand=(), legal_moves=(), my_declaration=None, events=())
            names = tuple(seat.name if seat is not None else "" for seat in table.seats)
            return view, len(state.hand(0)), (names[0], names[1])

    def count_open(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM duels WHERE closed IS NULL").fetchone()[0])

    # ------------------------------------------------------------------ playing
    def play(self, code: object, token: object, move: Move | str, version: object) -> dict[str, Any]:
        """The seat of ``token`` makes ``move`` (record text, ``"play AH"`` or ``"0: play AH"``, or a
        :class:`~tartli.moves.Move`) at the table's ``version``; then, if the computer plays the other
        seat, it moves until it is this seat's turn or the hand is over. The new :meth:`state_for`.

        Refused, with nothing changed: a table waiting for its second player or closed, a stale
        ``version`` (:class:`Stale`), a move of the other's or out of turn (béla, going out and the
        Austrian swap may be made out of turn, B1, S3, V7), a move the rules forbid (the engine's
        message, naming the rule)."""
        if type(version) is not int:
            raise BadArgument(N_("send the version of the table your move was made at"))
        with self._change(code, token) as (table, seat):
            _playing(table)
            if version != table.version:
                raise Stale(N_("the game has moved on since your page last looked: play again from here"))
            made = _read_move(move, seat)
            state = table.match.state
            if not state.is_over and state.to_move != seat and not isinstance(made, Bela | GoOut | Swap):
                raise DuelError(N_("it is not your turn"))  # (the engine says why a move is refused after the hand)
            try:
                state.push(made)
            except TartliError as error:
                raise DuelError.of_engine(error) from None
            table.changed = True
            _computer_moves(table)
        return self.state_for(code, token)

    def next_hand(self, code: object, token: object, hand: object = None) -> dict[str, Any]:
        """Deal the next hand once the hand is over and the match is not (S1, S6): the finished hand's
        record is kept. ``hand``, the number of the hand the page shows as over: if the other player
        has dealt the next one already, the state is given as it is (both may press Next)."""
        if hand is not None and type(hand) is not int:
            raise BadArgument(N_("send the number of the hand that is over"))
        with self._change(code, token) as (table, seat):
            if hand is None or hand >= table.hand_number:  # (else the other player has dealt it)
                _playing(table)
                match = table.match
                if table.status == "match-over":
                    winner = 0 if match.buli_with_hand[0] >= (match.target or 0) else 1
                    if winner == seat:
                        raise DuelError(N_("the match is over: you have won it"))
                    raise DuelError(N_("the match is over: {name} has won it"), name=_seat_at(table, winner).name)
                match.rng = _deal_rng(table.seed, table.hand_number + 1, table.match_no)
                try:
                    match.next_hand()
                except TartliError as error:
                    raise DuelError.of_engine(error) from None
                table.changed = True
                _computer_moves(table)
        return self.state_for(code, token)

    def seen(self, code: object, token: object) -> None:
        """The page of the seat of ``token`` is open: noted; a seat the computer played while its player
        was away is theirs again."""
        with self._change(code, token) as (table, seat):
            mine = _seat_at(table, seat)
            mine.last_seen = self.clock()
            if mine.computer and table.closed is None:
                mine.computer = False
                table.changed = True

    def allow_hints(self, code: object, token: object, on: object) -> dict[str, Any]:
        """The seat of ``token`` agrees (``on``) or no longer agrees that both players may ask for the Hint: it
        is offered to both while both agree, to neither otherwise (each Hint is its own player's). The new
        :meth:`state_for`."""
        if type(on) is not bool:
            raise BadArgument(N_("say whether you agree to the Hint: true or false"))
        with self._change(code, token) as (table, seat):
            mine = _seat_at(table, seat)
            if mine.hints != on:
                mine.hints = on
                table.changed = True
        return self.state_for(code, token)

    def let_computer_play(self, code: object, token: object, on: object) -> dict[str, Any]:
        """``on``: the computer (Medium) plays the other seat from now, if its page has been gone for
        :data:`AWAY_AFTER` at least (it moves at once if it is its turn); ``on=False``: the player at the
        table chooses to wait for the other again. The new :meth:`state_for`."""
        if type(on) is not bool:
            raise BadArgument(N_("say whether the computer should play: true or false"))
        with self._change(code, token) as (table, seat):
            _playing(table)
            theirs = _seat_at(table, 1 - seat)
            if on and not theirs.computer:
                gone = self.clock() - theirs.last_seen
                if gone < self.away_after:
                    raise DuelError(
                        N_("the computer may play for {name} once they have been away for 2 minutes: wait {seconds} s"),
                        name=theirs.name,
                        seconds=int(self.away_after - gone + 0.999),
                    )
                theirs.computer = True
                table.changed = True
                _computer_moves(table)
            elif not on and theirs.computer:
                theirs.computer = False
                table.changed = True
        return self.state_for(code, token)

    def leave(self, code: object, token: object) -> None:
        """The seat of ``token`` leaves: the table is closed, for both (the other sees it closed)."""
        with self._change(code, token) as (table, _seat):
            if table.closed is None:
                table.closed = self.clock()
                table.changed = True

    def close_idle(self) -> list[str]:
        """Close the tables with no move and no page open for :data:`IDLE_CLOSE`; delete the tables closed
        :data:`DELETE_AFTER` ago. The codes closed now (the server calls this now and then)."""
        now = self.clock()
        with self._transaction() as db:
            idle = db.execute(
                "SELECT id, code, version FROM duels WHERE closed IS NULL AND active < ?", (now - IDLE_CLOSE,)
            ).fetchall()
            for duel_id, _code, version in idle:
                db.execute(
                    "UPDATE duels SET closed = ?, status = 'closed', version = ? WHERE id = ?",
                    (now, version + 1, duel_id),
                )
            db.execute("DELETE FROM duels WHERE closed IS NOT NULL AND closed < ?", (now - DELETE_AFTER,))
            for code in list(self._matches):
                if db.execute("SELECT 1 FROM duels WHERE code = ?", (code,)).fetchone() is None:
                    del self._matches[code]
        for _duel_id, code, version in idle:
            self._tell(code, version + 1)
        return [code for _duel_id, code, _version in idle]


# ---------------------------------------------------------------------- the parts of a change
def _rebuild(rules: RuleSet, seed: str, records: list[str], match_no: int = 1) -> Match:
    """The match of a table from its hands' records: each hand dealt as recorded and its moves replayed,
    so the running scores, buli and the S5 tie come out as the engine books them."""
    first = Record.from_json(records[0])
    match = Match(rules, rng=_deal_rng(seed, 1, match_no), first_dealer=first.deal.dealer)
    if match.state.deal != first.deal:
        match.redeal(first.deal)
    for number, text in enumerate(records, 1):
        record = first if number == 1 else Record.from_json(text)
        if number > 1:
            match.next_hand(record.deal)
        for move in record.moves:
            match.state.push(move)
    return match


def _name_players(table: _Table) -> None:
    """The engine's refusals name the other player by their name (none while the seat is free)."""
    a, b = table.seats
    table.match.player_names = (a.name, b.name) if a is not None and b is not None else None


def _match_token(hashes: list[str], token: object) -> int | None:
    """The seat whose hash is the token's (compared in constant time, every seat), else None."""
    given = _hash(token) if isinstance(token, str) and token else ""
    found = None
    for seat, stored in enumerate(hashes or [_hash(secrets.token_hex(16))]):  # the same work for no table
        if hmac.compare_digest(given, stored or "-") and given and hashes:  # (a free seat's "" is no one's)
            found = seat
    return found


def _seat_of(table: _Table, token: object) -> int:
    """The seat of ``token`` at ``table``; :class:`NotAllowed` if it is none of them."""
    hashes = [s.token_hash if s is not None else "" for s in table.seats]
    seat = _match_token(hashes, token)
    if seat is None:
        raise NotAllowed()
    return seat


def _seat_at(table: _Table, seat: int) -> _Seat:
    found = table.seats[seat] if seat in (0, 1) else None
    if found is None:
        raise DuelError(N_("no one sits opposite you yet"))
    return found


def _playing(table: _Table) -> None:
    """Refuse a move at a table that is closed or still waiting for its second player."""
    if table.closed is not None:
        raise DuelError(N_("this table is closed"))
    if table.seats[1] is None:
        raise DuelError(N_("wait for a second player to sit at the table"))


def _read_move(move: object, seat: int) -> Move:
    """A move of ``seat``'s: record text with or without the player (``"play AH"``), or a Move."""
    if isinstance(move, str) and ":" not in move.split(" ", 1)[0]:
        move = f"{seat}: {move}"
    try:
        made = coerce_move(move)  # type: ignore[arg-type]
    except TartliError as error:
        raise BadArgument(str(error), translate=False) from None
    if made.player != seat:
        raise DuelError(N_("that move is not yours to make"))
    return made


_COMPUTER_MOVES = 200
"""More moves than a hand has: the computer's turn always ends."""


def _computer_moves(table: _Table) -> None:
    """The computer plays the seats it plays while it is their turn (Medium: it sees only its view)."""
    state = table.match.state
    for _ in range(_COMPUTER_MOVES):
        mover = state.to_move
        if mover is None or table.closed is not None or None in table.seats:
            return
        seat = table.seats[mover]
        if seat is None or not seat.computer:
            return
        state.push(HeuristicBot().choose(state.view(mover)))


class DuelFolder:
    """The duel store of a data folder, opened when first needed: a course where no table is opened
    writes nothing there (a request for a table then finds none: :class:`NotAllowed`)."""

    def __init__(
        self,
        folder: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        deals: random.Random | None = None,
        away_after: float = AWAY_AFTER,
    ) -> None:
        self.folder = Path(folder).expanduser()
        self.clock, self.deals, self.away_after = clock, deals, away_after
        self._store: DuelStore | None = None
        self._lock = threading.Lock()
        self._listeners: list[Callable[[str, int], None]] = []

    def store(self, *, create: bool = False) -> DuelStore:
        """The store; made only with ``create`` (a table is being opened), else :class:`NotAllowed` if none."""
        with self._lock:
            if self._store is None and (create or (self.folder / FILE_NAME).exists()):
                self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
                self._store = DuelStore(
                    self.folder / FILE_NAME, clock=self.clock, deals=self.deals, away_after=self.away_after
                )
                for callback in self._listeners:
                    self._store.listen(callback)
            if self._store is None:
                raise NotAllowed()
            return self._store

    def listen(self, callback: Callable[[str, int], None]) -> None:
        """:meth:`DuelStore.listen` on the store, now or when it is opened."""
        with self._lock:
            self._listeners.append(callback)
            if self._store is not None:
                self._store.listen(callback)
