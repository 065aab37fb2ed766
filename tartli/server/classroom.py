"""A class without accounts: what the course's server keeps of a teacher's class, in SQLite (issue 37).

A teacher makes a class (:meth:`ClassStore.create`): the pupils get a short **class code**, the
teacher a **teacher key**, a long secret that shows the class's progress. A pupil joins with the
code and a first name (:meth:`ClassStore.join`) and gets a **pupil token** their browser keeps: with
it the pupil's pages report progress (:meth:`ClassStore.report`) and the pupil can leave
(:meth:`ClassStore.leave`), which deletes them. Only the teacher key reads the class
(:meth:`ClassStore.pupils`), removes a pupil, makes a new key or closes the class, which deletes it
with its pupils.

What is stored, in plain words (docs/teachers/class.md says the same): for each class, the name the teacher gave
it, its code, when it was made, and a *hash* of the teacher key (the key itself is never written
down); for each pupil, the first name they typed, a hash of their token, when they joined and were
last active, the page and step they are on, and their progress, the numbers of a progress code
(:mod:`tartli.widgets.progress_code`: stars, stages, steps done). Nothing else: no address, no
browser, no answers typed. It stays in one file on the machine that runs the course.

Keys and tokens are compared by their SHA-256 hashes with :func:`hmac.compare_digest`; a wrong key
is told apart from a class that does not exist by nothing (:class:`NotAllowed` for both). A report
is checked as a progress code is, and against the course's own exercises and pages, so a forged one
(10,000 stars, an exercise the course does not have) is refused and stores nothing.

The store uses only the standard library (``sqlite3``), one connection behind a lock, in WAL mode
with a busy timeout: the server's threads and a restart lose nothing. Guessing class codes is slowed
by a :class:`Limiter` in the server (per browser and in all).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from tartli.course import EXERCISES, PAGES
from tartli.errors import TartliError
from tartli.widgets.progress_code import MAX_NUMBER, ProgressCodeError, progress_code, read_progress

CODE_LETTERS = "ACDEFHJKMNPRTUVWXY3479"
"""The class code's letters: capitals and digits without look-alikes (no 0/O/D-like Q, 1/I/L, 2/Z,
5/S, 6/G, 8/B): a code read off a board is typed right."""
CODE_LENGTH = 6
NAME_LIMIT = 40
"""The longest display name kept (a first name; a longer one is cut)."""
CLASS_NAME_LIMIT = 60
FILE_NAME = "classes.sqlite3"
MAX_CLASSES = 200
"""The most classes one server keeps (a script making classes cannot fill its disk)."""

LESSONS = frozenset(page.file.removesuffix(".ipynb") for page in PAGES)
HAND_TABLES = frozenset({"table", "lesson10"})
"""The tables that count their hands (``keep_in_browser`` of the table page and lesson 10: a test checks)."""
"""The pages a report may hold steps for."""


def default_data_dir() -> Path:
    """Where the course keeps its classes unless ``--data`` says otherwise: the user's data folder
    (``$XDG_DATA_HOME/tartli``, else ``~/.local/share/tartli``; on Windows ``%LOCALAPPDATA%\\tartli``)."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "tartli"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tartli"


class ClassroomError(TartliError):
    """A class request that cannot be done (the message says why, in a pupil's words)."""


class NotAllowed(ClassroomError):
    """A wrong teacher key, a pupil token not known, or a class that does not exist: the same error
    for all of them, so a guess learns nothing."""


class BadReport(ClassroomError):
    """A progress report that is not one the course could have made."""


@dataclass(frozen=True)
class NewClass:
    code: str  #: for the pupils
    key: str  #: the teacher's secret (shown once, kept only as a hash)
    name: str


@dataclass(frozen=True)
class Joined:
    pupil: int  #: the pupil's number in the class
    token: str  #: the pupil's secret, kept by their browser
    name: str  #: the name as kept (cut, spaces tidied)
    class_name: str = ""  #: the class's name, for the pupil's page ("You are in the class 7.b")


@dataclass(frozen=True)
class PupilRecord:
    """What the teacher sees of one pupil."""

    pupil: int
    name: str
    joined: float
    last_active: float | None
    page: str | None  #: the page they are on (a file name), if reported
    step: int | None  #: its step
    since: float | None  #: on that step since
    progress: dict[str, Any]  #: {"records": ..., "steps": ...} as :func:`read_code` gives them

    @property
    def stars(self) -> dict[str, int]:
        """Each exercise's best stars."""
        best: dict[str, int] = {}
        for record in self.progress.get("records", {}).values():
            for exercise, numbers in record.items():
                best[exercise] = max(best.get(exercise, 0), int(numbers.get("best", 0)))
        return best


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _tidy(text: object, limit: int) -> str:
    """A name as kept: text only, spaces tidied, control characters dropped, cut to ``limit``."""
    if not isinstance(text, str):
        return ""
    kept = "".join(c for c in text if c.isprintable())
    return " ".join(kept.split())[:limit].strip()


def normal_code(text: object) -> str:
    """A typed class code as stored: capitals, no spaces or dashes (``"ab3 k-9m"`` -> ``"AB3K9M"``)."""
    if not isinstance(text, str):
        return ""
    return "".join(c for c in text.upper() if c.isalnum())[: CODE_LENGTH * 2]


SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS pupils (
    id INTEGER PRIMARY KEY,
    class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    joined REAL NOT NULL,
    last_active REAL,
    page TEXT,
    step INTEGER,
    since REAL,
    progress TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS pupils_of_a_class ON pupils(class_id);
"""


_Store = TypeVar("_Store", bound="SqliteStore")


class SqliteStore:
    """What the course server's stores share (the classes', :mod:`tartli.server.duels`' tables): one SQLite
    file (``":memory:"`` for a test), opened for the server's threads with a busy timeout, WAL and foreign keys,
    its schema made if missing; one lock; a change is one transaction (all of it or nothing)."""

    FILE_NAME: ClassVar[str]
    """The store's file in a data folder."""
    SCHEMA: ClassVar[str]

    def _open(self, path: str | Path, lock: threading.Lock | threading.RLock) -> None:
        self.path = str(path)
        self._lock = lock
        self._db = sqlite3.connect(self.path, timeout=5.0, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA foreign_keys = ON")
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode = WAL")
        self._db.executescript(self.SCHEMA)

    @classmethod
    def in_folder(cls: type[_Store], folder: str | Path) -> _Store:
        """The store in the data folder ``folder`` (made if missing, readable by its owner only)."""
        where = Path(folder).expanduser()
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        return cls(where / cls.FILE_NAME)  # type: ignore[call-arg]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")


class ClassStore(SqliteStore):
    """The classes of one course server, in one SQLite file (``path``; ``":memory:"`` for a test)."""

    FILE_NAME = FILE_NAME
    SCHEMA = SCHEMA

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._open(path, threading.Lock())

    # ------------------------------------------------------------------ the teacher
    def create(self, name: object) -> NewClass:
        """Make a class called ``name``: its code and the teacher's key (the key is not kept, only its hash)."""
        shown = _tidy(name, CLASS_NAME_LIMIT)
        if not shown:
            raise ClassroomError("a class needs a name, e.g. “7.b”")
        key = secrets.token_urlsafe(32)
        with self._transaction() as db:
            if db.execute("SELECT COUNT(*) FROM classes").fetchone()[0] >= MAX_CLASSES:
                raise ClassroomError(f"this server has {MAX_CLASSES} classes: close an old one first")
            for _attempt in range(100):
                code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
                if db.execute("SELECT 1 FROM classes WHERE code = ?", (code,)).fetchone() is None:
                    break
            else:  # pragma: no cover - 22**6 codes
                raise ClassroomError("no free class code: close an old class")
            db.execute(
                "INSERT INTO classes (code, name, key_hash, created) VALUES (?, ?, ?, ?)",
                (code, shown, _hash(key), self.clock()),
            )
        return NewClass(code, key, shown)

    def count_classes(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM classes").fetchone()[0])

    def _class_id(self, db: sqlite3.Connection, code: object, key: object) -> int:
        """The class's id if ``key`` is its teacher key; :class:`NotAllowed` otherwise (also for no class)."""
        row = db.execute("SELECT id, key_hash FROM classes WHERE code = ?", (normal_code(code),)).fetchone()
        given = _hash(key) if isinstance(key, str) else ""
        stored = row[1] if row is not None else _hash(secrets.token_urlsafe(32))  # the same work either way
        if not hmac.compare_digest(given, stored) or row is None:
            raise NotAllowed("not allowed")
        return int(row[0])

    def name_of(self, code: str, key: str) -> str:
        with self._lock:
            class_id = self._class_id(self._db, code, key)
            return str(self._db.execute("SELECT name FROM classes WHERE id = ?", (class_id,)).fetchone()[0])

    def pupils(self, code: str, key: str) -> list[PupilRecord]:
        """The class's pupils, by name, for the teacher."""
        with self._lock:
            class_id = self._class_id(self._db, code, key)
            rows = self._db.execute(
                "SELECT id, name, joined, last_active, page, step, since, progress FROM pupils "
                "WHERE class_id = ? ORDER BY name COLLATE NOCASE, id",
                (class_id,),
            ).fetchall()
        return [PupilRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7])) for r in rows]

    def remove(self, code: str, key: str, pupil: int) -> bool:
        """Remove a pupil from the class (deleting what is kept of them); False if no such pupil."""
        with self._transaction() as db:
            class_id = self._class_id(db, code, key)
            gone = db.execute("DELETE FROM pupils WHERE id = ? AND class_id = ?", (pupil, class_id)).rowcount
        return bool(gone)

    def new_key(self, code: str, key: str) -> str:
        """A new teacher key for the class; the old one stops working."""
        fresh = secrets.token_urlsafe(32)
        with self._transaction() as db:
            class_id = self._class_id(db, code, key)
            db.execute("UPDATE classes SET key_hash = ? WHERE id = ?", (_hash(fresh), class_id))
        return fresh

    def close_class(self, code: str, key: str) -> None:
        """Close the class: it is deleted with everything kept of its pupils."""
        with self._transaction() as db:
            class_id = self._class_id(db, code, key)
            db.execute("DELETE FROM classes WHERE id = ?", (class_id,))

    # ------------------------------------------------------------------ the pupil
    def exists(self, code: object) -> bool:
        """Is there a class with this code? (The server asks it behind its :class:`Limiter`.)"""
        with self._lock:
            found = self._db.execute("SELECT 1 FROM classes WHERE code = ?", (normal_code(code),)).fetchone()
        return found is not None

    def join(self, code: object, name: object) -> Joined:
        """A pupil joins the class ``code`` as ``name``; :class:`NotAllowed` if there is no such class."""
        shown = _tidy(name, NAME_LIMIT)
        if not shown:
            raise ClassroomError("type your first name to join the class")
        token = secrets.token_urlsafe(32)
        now = self.clock()
        with self._transaction() as db:
            row = db.execute("SELECT id, name FROM classes WHERE code = ?", (normal_code(code),)).fetchone()
            if row is None:
                raise NotAllowed("not allowed")
            cursor = db.execute(
                "INSERT INTO pupils (class_id, name, token_hash, joined, last_active) VALUES (?, ?, ?, ?, ?)",
                (row[0], shown, _hash(token), now, now),
            )
        return Joined(int(cursor.lastrowid or 0), token, shown, str(row[1]))

    def report(self, token: object, code: object, *, page: object = None, step: object = None) -> None:
        """The pupil with ``token`` reports their progress: a progress code (``P1...``, as the course map
        makes it), and the page and step they are on. A report the course could not have made is
        :class:`BadReport` and changes nothing; a token not known is :class:`NotAllowed`."""
        progress = checked_progress(code)
        where = _checked_place(page, step)
        if not isinstance(token, str):
            raise NotAllowed("not allowed")
        now = self.clock()
        with self._transaction() as db:
            row = db.execute(
                "SELECT id, page, step, since FROM pupils WHERE token_hash = ?", (_hash(token),)
            ).fetchone()
            if row is None:
                raise NotAllowed("not allowed")
            pupil, place, since = row[0], (row[1], row[2]), row[3]
            if where is not None and where != place:  # a new step: the time on it starts now
                place, since = where, now
            db.execute(
                "UPDATE pupils SET progress = ?, last_active = ?, page = ?, step = ?, since = ? WHERE id = ?",
                (json.dumps(progress, separators=(",", ":"), sort_keys=True), now, place[0], place[1], since, pupil),
            )

    def class_of(self, token: object) -> str | None:
        """The code of the class whose pupil holds ``token``, None if no pupil does (a table for two is
        opened in a class, and a class's tables are listed, for its pupils only: issue 38)."""
        if not isinstance(token, str):
            return None
        with self._lock:
            row = self._db.execute(
                "SELECT classes.code FROM pupils JOIN classes ON classes.id = pupils.class_id "
                "WHERE pupils.token_hash = ?",
                (_hash(token),),
            ).fetchone()
        return None if row is None else str(row[0])

    def leave(self, token: object) -> None:
        """The pupil with ``token`` leaves the class: everything kept of them is deleted."""
        if not isinstance(token, str):
            raise NotAllowed("not allowed")
        with self._transaction() as db:
            gone = db.execute("DELETE FROM pupils WHERE token_hash = ?", (_hash(token),)).rowcount
        if not gone:
            raise NotAllowed("not allowed")


def checked_progress(code: object) -> dict[str, Any]:
    """A report's progress code, read and checked against the course: :class:`BadReport` if it could
    not come from the course (garbled, more than 3 stars, an exercise or a page the course does not have)."""
    try:
        records, steps, hands = read_progress(code)  # type: ignore[arg-type]
    except ProgressCodeError as error:
        raise BadReport(str(error)) from None
    for table in hands:
        if table not in HAND_TABLES:
            raise BadReport(f"no table {table!r} in the course")
    for record in records.values():
        for exercise in record:
            if exercise not in EXERCISES:
                raise BadReport(f"no exercise {exercise!r} in the course")
    for lesson in steps:
        if lesson not in LESSONS:
            raise BadReport(f"no page {lesson!r} in the course")
    return {"records": records, "steps": steps, "hands": hands}


def _checked_place(page: object, step: object) -> tuple[str, int] | None:
    if page is None and step is None:
        return None
    if not isinstance(page, str) or page.removesuffix(".ipynb") not in LESSONS:
        raise BadReport("the page is not one of the course")
    if type(step) is not int or not 0 <= step < 100:
        raise BadReport("the step is not a step number")
    return page.removesuffix(".ipynb") + ".ipynb", step


class Limiter:
    """So many tries per minute for each client and for all together (token buckets): a class code
    cannot be found by guessing (22**6 codes, a few tries a minute), and one client cannot use up
    the tries of everyone else for long."""

    def __init__(
        self, *, per_client: int = 10, in_all: int = 120, per: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_client, self.in_all, self.per, self.clock = per_client, in_all, per, clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _take(self, name: str, size: int, now: float) -> bool:
        tokens, then = self._buckets.get(name, (float(size), now))
        tokens = min(float(size), tokens + (now - then) * size / self.per)
        if tokens < 1.0:
            self._buckets[name] = (tokens, now)
            return False
        self._buckets[name] = (tokens - 1.0, now)
        return True

    def allow(self, client: str) -> bool:
        """May ``client`` try now? (A refused try uses nothing up.)"""
        now = self.clock()
        with self._lock:
            if len(self._buckets) > 10_000:  # forget clients that stayed away: the table stays small
                self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < self.per}
            total = self._buckets.get("", (float(self.in_all), now))
            client_bucket = self._buckets.get("c:" + client, (float(self.per_client), now))
            if not self._take("c:" + client, self.per_client, now):
                return False
            if not self._take("", self.in_all, now):
                self._buckets["c:" + client] = client_bucket  # given back: the refusal was not theirs
                self._buckets[""] = self._buckets.get("", total)
                return False
            return True


TEACHER_FILE = "teacher-keys.json"
"""The teacher's own keys of the classes opened with ``--class``, beside the store and readable by
its owner only: a restart prints the same class's code and key again (the store keeps only hashes)."""


def open_class(classes: ClassFolder, name: str) -> NewClass:
    """The class called ``name`` that ``--class`` opened before (its key still works), or a new one."""
    store = classes.store(create=True)
    path = classes.folder / TEACHER_FILE
    try:
        known = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    shown = _tidy(name, CLASS_NAME_LIMIT)
    entry = known.get(shown)
    if isinstance(entry, dict) and isinstance(entry.get("code"), str) and isinstance(entry.get("key"), str):
        try:
            store.name_of(entry["code"], entry["key"])
            return NewClass(entry["code"], entry["key"], shown)
        except NotAllowed:
            pass  # closed, or its key made new on the teacher page: a new class
    made = store.create(shown)
    known[made.name] = {"code": made.code, "key": made.key}
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fresh = path.with_suffix(".tmp")
    fresh.touch(mode=0o600)
    fresh.write_text(json.dumps(known, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(fresh, path)
    return made


class ClassFolder:
    """The class store of a data folder, opened when first needed: a course that never makes a class
    writes nothing there (a join or a report then finds no class: :class:`NotAllowed`)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder).expanduser()
        self._store: ClassStore | None = None
        self._lock = threading.Lock()

    def store(self, *, create: bool = False) -> ClassStore:
        """The store; made only with ``create`` (a class is being made), else :class:`NotAllowed` if none."""
        with self._lock:
            if self._store is None and (create or (self.folder / FILE_NAME).exists()):
                self._store = ClassStore.in_folder(self.folder)
            if self._store is None:
                raise NotAllowed("not allowed")
            return self._store

    def has_classes(self) -> bool:
        """Is there a class here? (The course map shows its class box only then, or with a class link.)"""
        try:
            return self.store().count_classes() > 0
        except (NotAllowed, sqlite3.Error):
            return False


REPORT_KEYS = 400
"""The most keys a pupil's report may hold (the whole course is about a hundred)."""


def checked_browser_progress(have: object) -> str:
    """The progress code of what a pupil's browser reports (``{localStorage key: text}``, the course
    map's keys), checked strictly first: the course's own records only hold whole numbers from 0 and
    at most 3 stars, so a report with more (a forged 10,000 stars) is :class:`BadReport`, not a
    report the course would quietly cut to 3. The game kept at the table is not progress and is left out."""
    if not isinstance(have, dict) or len(have) > REPORT_KEYS:
        raise BadReport("progress: an object of the browser's keys")
    kept: dict[str, str] = {}
    for key, text in have.items():
        if not isinstance(key, str) or not isinstance(text, str) or key.startswith("tartli.table."):
            continue
        if key.startswith("tartli.trainers."):
            try:
                record = json.loads(text)
            except (ValueError, RecursionError):
                raise BadReport(f"{key}: not a record") from None
            if not isinstance(record, dict):
                raise BadReport(f"{key}: not a record")
            for exercise, numbers in record.items():
                if exercise not in EXERCISES or not isinstance(numbers, dict):
                    raise BadReport(f"no exercise {exercise!r} in the course")
                for field, value in numbers.items():
                    if type(value) is not int or not 0 <= value <= (3 if field == "best" else MAX_NUMBER):
                        raise BadReport(f"{exercise}: {field} {value!r} is not a number the course keeps")
        kept[key] = text
    return progress_code(kept)
