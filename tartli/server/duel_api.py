"""The web API of the tables for two browsers on the course's server (issue 38): :mod:`tartli.server.duels` over HTTP.

Every request is a ``POST`` of a small JSON object (``Content-Type: application/json``, as the class
API: a page of another site cannot send one), every answer is JSON. Under the server's base address:

``tartli/duel/new``      ``{"name", "pupil"?, "rules"?}`` -> ``{"code", "seat": 0, "version", "token"}`` and
                         the seat's cookie. ``pupil``, a pupil token of a class (the course map keeps it,
                         ``tartli-class`` in the browser): the table is that class's and shows in its lobby;
                         a token no pupil holds is 403. ``rules`` as a ``tartli/1`` record writes them
                         (``"pais"``, ``{"base": "hungarian", "buli_target": 10}``; default Hungarian to 5 buli).
``tartli/duel/join``     ``{"code", "name"}`` -> ``{"code", "seat", "version", "token"}`` and the cookie; a seat
                         already held at this table (its cookie or header) is given back.
``tartli/duel/state``    ``{"code", "since"?, "wait"?}`` -> the seat's state (:meth:`DuelStore.state_for`); with
                         ``since`` the version the caller has and ``wait`` seconds (at most 25), the answer
                         waits until the table changes or the time is up (a long poll: no thread is held).
``tartli/duel/move``     ``{"code", "version", "move"}`` -> the new state (``move`` in record notation,
                         ``"play AH"`` or ``"0: play AH"``).
``tartli/duel/next``     ``{"code", "hand"?}`` -> the new state (the next hand; ``hand``: the one shown as over).
``tartli/duel/again``    ``{"code", "match"?}`` -> the new state: another match at the table, once its match is
                         over (``match``: the one shown as over).
``tartli/duel/seen``     ``{"code"}`` -> 204: the seat's page is open (the page says it every 20 s).
``tartli/duel/computer`` ``{"code", "on"}`` -> the new state: the computer plays for the other, who is away.
``tartli/duel/hints``    ``{"code", "on"}`` -> the new state: this player agrees (or no longer) that both may ask
                         for the Hint (offered while both agree).
``tartli/duel/leave``    ``{"code"}`` -> 204: the table is closed for both.
``tartli/duel/records``  ``{"code", "match"?}`` -> ``{"records": [tartli/1, ...]}``: the hands that are over of
                         the match played now (or of the earlier match ``match``), in order.
``tartli/duel/watch``    ``{"class", "key", "code", "narrow"?}`` (the class's teacher) -> ``{"svg", "trick",
                         "points"}``: the game as neither player sees it, both hands face down.
``tartli/duel/lobby``    ``{"pupil"}`` (a pupil of the class) or ``{"class", "key"}`` (its teacher) ->
                         ``{"tables": [{"code", "names", "status", "hand_number", "buli"}, ...]}``: the
                         class's open tables, for a class page and for the teacher (who plays whom).

**The seat's token.** A request for a table shows the seat's token in the header ``X-Tartli-Seat`` (the
seat's kernel calls the API from the server's machine) or else in the cookie ``tartli_seat_<CODE>``,
which ``new`` and ``join`` set (HttpOnly, SameSite=Lax, for the server's base path, two days). ``new``
and ``join`` also answer the token in their JSON, once, so that the page can hand it to its kernel;
no other answer holds a token.

**Refusals.** A table that does not exist, or a token that is not one of its seats: 403, the same body
for both (``{"error": "not allowed"}``). What a player can fix: 409 (the table's state: full, closed,
not your turn, moved on, a move the rules forbid, with ``"rule"`` the rule's ID) or 400 (the request:
no name, a move that is not a move), ``{"error": words}`` in the page's language (``"lang"`` in the
request, else the course's choice for this browser). ``new`` and ``join`` are behind a limiter (10
tries a minute per browser, 120 in all: a table's code cannot be found by guessing), then 429; the other
actions are limited per seat (:data:`SEAT_REQUESTS`: a flood of moves is 429). A store
that cannot write is 503 and one line in the server's log every 5 minutes.

Nothing any answer holds shows the other player's hidden cards: a seat's state holds its shadow
(:mod:`tartli.server.shadow`).

Now and then (at most once a minute, with a request) the store closes idle tables and deletes old ones
(:meth:`DuelStore.close_idle`): no thread of its own.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from tartli.errors import TartliError
from tartli.game import TRICKS
from tartli.i18n import N_, catalog
from tartli.names import LANGUAGES
from tartli.names import resolve as names_resolve
from tartli.render.table import table_svg
from tartli.rules import RuleSet
from tartli.server.classes import JsonHandler
from tartli.server.classroom import ClassFolder, Limiter, normal_code
from tartli.server.classroom import NotAllowed as ClassNotAllowed
from tartli.server.duels import FILE_NAME, BadArgument, DuelError, DuelFolder, DuelStore, NotAllowed, Stale
from tartli.server.logs import Throttle

__all__ = ["MAX_WAIT", "SEAT_COOKIE", "SEAT_HEADER", "DuelHandler", "Watch", "duel_handlers"]

SEAT_COOKIE = "tartli_seat_"
"""The seat's cookie is this and the table's code."""
SEAT_HEADER = "X-Tartli-Seat"
MAX_WAIT = 25.0
"""The longest a long poll waits (a proxy or a browser gives up on a quiet request after a minute or so)."""
SEAT_REQUESTS = (60, 10.0)
"""(requests, seconds): a seat may make 60 requests at once and 6 a second after that (a page makes one a
move, a long poll every 25 s and a ping every 20 s); the server as a whole is not limited by it."""
SWEEP_EVERY = 60.0
"""Seconds between two sweeps of idle tables."""
MAX_BODY = 16 * 1024
"""The largest request body read (a move is a few words)."""
COOKIE_DAYS = 2

log = logging.getLogger("tartli")

_STORE_TROUBLE = Throttle(per_window=1, window=300.0)

T = TypeVar("T")


class Refused(Exception):
    """An action refused with ``status`` and words."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status, self.why = status, why


class Watch:
    """The long polls waiting in the server's event loop for a table to change: a store's news (from any
    thread) wakes them through the loop (``call_soon_threadsafe``), so an answer leaves at once."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str, set[asyncio.Future[None]]] = {}
        self._lock = threading.Lock()

    def changed(self, code: str, version: int) -> None:
        """A store's listener (any thread): table ``code`` is at ``version`` now."""
        with self._lock:
            loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake, code)

    def _wake(self, code: str) -> None:
        for future in self._waiting.pop(code, set()):
            if not future.done():
                future.set_result(None)

    def register(self, code: str) -> asyncio.Future[None]:
        """A future the next change of ``code`` completes (in the running loop)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            self._loop = loop
        future: asyncio.Future[None] = loop.create_future()
        self._waiting.setdefault(code, set()).add(future)
        return future

    def forget(self, code: str, future: asyncio.Future[None]) -> None:
        waiting = self._waiting.get(code)
        if waiting is not None:
            waiting.discard(future)
            if not waiting:
                del self._waiting[code]


class _Sweep:
    """When the idle tables were last closed (at most once a minute)."""

    def __init__(self, every: float = SWEEP_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.every, self.clock = every, clock
        self._last = -1e18
        self._lock = threading.Lock()

    def due(self) -> bool:
        now = self.clock()
        with self._lock:
            if now - self._last < self.every:
                return False
            self._last = now
            return True


class DuelHandler(JsonHandler):
    """One action of the duel API (``initialize`` says which)."""

    max_body = MAX_BODY

    def initialize(
        self,
        duels: DuelFolder,
        limiter: Limiter,
        seats: Limiter,
        classes: ClassFolder | None,
        watch: Watch,
        sweep: _Sweep,
        base_url: str,
        action: str,
    ) -> None:
        self.duels, self.limiter, self.classes, self.watch = duels, limiter, classes, watch
        self.seats = seats
        self.sweep, self.base_url, self.action = sweep, base_url, action
        self.lang = "en"

    def _language(self, data: dict[str, Any]) -> str:
        asked = data.get("lang")
        if isinstance(asked, str) and asked in LANGUAGES:
            return asked
        from tartli.server.app import request_language  # (the app imports this module)

        return request_language(self, None)

    def _words(self, message: str) -> str:
        return catalog(self.lang).gettext(message)

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        """The store's work in a thread: a locked file waits there (up to 5 s), not in the server's one loop."""
        return await asyncio.get_running_loop().run_in_executor(None, work, *args)

    async def post(self) -> None:
        data = self._body()
        self.lang = self._language(data)
        action: Callable[[dict[str, Any]], Awaitable[tuple[int, dict[str, Any] | None]]] = getattr(
            self, "_" + self.action
        )
        try:
            await self._sweep()
            self._not_flooded(data)
            status, answer = await action(data)
        except Refused as refused:
            self._fail(refused.status, refused.why)
        except (NotAllowed, ClassNotAllowed):
            self._fail(403, "not allowed")
        except BadArgument as error:
            self._fail(400, error.words(self.lang))
        except Stale as error:
            self._fail(409, error.words(self.lang), stale=True)
        except DuelError as error:
            self._fail(409, error.words(self.lang), **({"rule": error.rule} if error.rule else {}))
        except sqlite3.Error as error:  # a full disk, a locked file: the page asks again in a moment
            allowed, dropped = _STORE_TROUBLE.allow("store")
            if allowed:
                more = f" ({dropped} more in the last 5 minutes)" if dropped else ""
                log.warning("tartli: the tables' store could not write (%s)%s", error, more)
            self._fail(503, self._words(N_("The course's server is busy: try again in a moment.")))
        self.set_status(status)
        if answer is None:
            self.finish()
        else:
            self.finish(answer)

    async def _sweep(self) -> None:
        """Close idle tables, at most once a minute (only where tables were ever opened)."""
        if not (self.duels.folder / FILE_NAME).exists() or not self.sweep.due():
            return
        await self._run(lambda: self.duels.store().close_idle())

    # ---------------------------------------------------------------- the seat
    @property
    def store(self) -> DuelStore:
        return self.duels.store()

    def _code(self, data: dict[str, Any]) -> str:
        code = normal_code(data.get("code"))
        if not code:
            raise NotAllowed()
        return code

    def _not_flooded(self, data: dict[str, Any]) -> None:
        """A seat's requests (moves, looks, pings) are limited (:data:`SEAT_REQUESTS`): a page or a script that
        floods a table is refused (429) and the table goes on for the other player."""
        if self.action in ("new", "join", "lobby", "watch"):
            return  # (behind the guessing limiter, or a class's key)
        code = normal_code(data.get("code")) or "-"
        token = self._token(code) or self._client()
        seat = hashlib.sha256(f"{code}:{token}".encode()).hexdigest()[:24]
        if not self.seats.allow(seat):
            raise Refused(429, self._words(N_("Too many requests: wait a moment, then play on.")))

    def _token(self, code: str) -> str | None:
        """The seat's token: the header (the seat's kernel), else the table's cookie (the seat's browser)."""
        return self.request.headers.get(SEAT_HEADER) or self.get_cookie(SEAT_COOKIE + code) or None

    def _keep_seat(self, code: str, token: str) -> None:
        self.set_cookie(
            SEAT_COOKIE + code,
            token,
            path=self.base_url,
            httponly=True,
            samesite="Lax",
            expires_days=COOKIE_DAYS,
        )

    def _tries(self) -> None:
        if not self.limiter.allow(self._client()):
            raise Refused(429, self._words(N_("Too many tries: wait a minute, then try again.")))

    async def _new(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        self._tries()
        class_code = None
        if data.get("pupil") is not None:
            class_code = await self._run(self._class_of_pupil, data.get("pupil"))
        rules = None
        if data.get("rules") is not None:
            try:
                rules = RuleSet.from_record(data["rules"])
            except TartliError as error:
                raise BadArgument(str(error), translate=False) from None
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():  # (before a store is made for it)
            raise BadArgument(N_("type your first name to sit at the table"))
        code, token = await self._run(
            lambda: self.duels.store(create=True).open_table(name, class_code=class_code, rules=rules)
        )
        self._keep_seat(code, token)
        version = await self._run(self.store.version_of, code, token)
        return 200, {"code": code, "seat": 0, "version": version, "token": token}

    async def _join(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        self._tries()
        code = self._code(data)
        seat, token = await self._run(self.store.take_seat, code, data.get("name"), self._token(code))
        self._keep_seat(code, token)
        version = await self._run(self.store.version_of, code, token)
        return 200, {"code": code, "seat": seat, "version": version, "token": token}

    async def _state(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        code = self._code(data)
        token = self._token(code)
        since, wait = data.get("since"), data.get("wait", 0)
        if type(since) is int and isinstance(wait, int | float) and not isinstance(wait, bool) and wait > 0:
            future = self.watch.register(code)  # before the version is read: a change in between wakes it
            try:
                if await self._run(self.store.version_of, code, token) == since:
                    await asyncio.wait({future}, timeout=min(float(wait), MAX_WAIT))
            finally:
                self.watch.forget(code, future)
        return 200, await self._run(self.store.state_for, code, token)

    async def _move(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        code = self._code(data)
        move = data.get("move")
        if not isinstance(move, str):
            raise BadArgument(N_("send the move as text in the record's notation"))
        return 200, await self._run(self.store.play, code, self._token(code), move, data.get("version"))

    async def _next(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        code = self._code(data)
        return 200, await self._run(self.store.next_hand, code, self._token(code), data.get("hand"))

    async def _again(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        code = self._code(data)
        return 200, await self._run(self.store.another_match, code, self._token(code), data.get("match"))

    async def _seen(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        code = self._code(data)
        await self._run(self.store.seen, code, self._token(code))
        return 204, None

    async def _hints(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        code = self._code(data)
        return 200, await self._run(self.store.allow_hints, code, self._token(code), data.get("on"))

    async def _computer(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        code = self._code(data)
        return 200, await self._run(self.store.let_computer_play, code, self._token(code), data.get("on"))

    async def _leave(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        code = self._code(data)
        await self._run(self.store.leave, code, self._token(code))
        return 204, None

    async def _records(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        code = self._code(data)
        records = await self._run(self.store.records, code, self._token(code), data.get("match"))
        return 200, {"records": records}

    # ---------------------------------------------------------------- the class
    def _class_of_pupil(self, token: object) -> str:
        """The class of a pupil token (:class:`NotAllowed` if no pupil holds it, or there are no classes)."""
        if self.classes is None:
            raise NotAllowed()
        code = self.classes.store().class_of(token)
        if code is None:
            raise NotAllowed()
        return code

    def _teachers_class(self, data: dict[str, Any]) -> str:
        """The class whose teacher's key the request holds (``class``, ``key``): :class:`NotAllowed` else."""
        given, key = data.get("class"), data.get("key")
        if self.classes is None or not isinstance(given, str) or not isinstance(key, str):
            raise NotAllowed()
        self.classes.store().name_of(given, key)  # the teacher's key, or ClassNotAllowed
        return given

    def _tables_of(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        if data.get("pupil") is not None:
            class_code = self._class_of_pupil(data.get("pupil"))
        else:
            class_code = self._teachers_class(data)
        try:
            store = self.duels.store()
        except NotAllowed:
            return []  # no table was ever opened here
        return store.tables_of_class(class_code)

    async def _lobby(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        return 200, {"tables": await self._run(self._tables_of, data)}

    def _watched(self, data: dict[str, Any]) -> dict[str, Any]:
        view, held, names = self.duels.store().watched(self._code(data), self._teachers_class(data))
        language = names_resolve(self.lang)
        svg = table_svg(view, player_names=names, watching=held, narrow=data.get("narrow") is True, language=language)
        return {"svg": svg, "trick": min(view.trick_number, TRICKS), "points": list(view.totals)}

    async def _watch(self, data: dict[str, Any]) -> tuple[int, dict[str, Any] | None]:
        """The teacher watches a game of the class: the table as neither player sees it (both hands face down)."""
        return 200, await self._run(self._watched, data)


ACTIONS = (
    "new",
    "join",
    "state",
    "move",
    "next",
    "again",
    "seen",
    "computer",
    "hints",
    "leave",
    "records",
    "lobby",
    "watch",
)


def duel_handlers(
    base_url: str,
    duels: DuelFolder,
    classes: ClassFolder | None = None,
    limiter: Limiter | None = None,
    seats: Limiter | None = None,
) -> list[Any]:
    """The API's routes under ``base_url`` (one limiter and one watch for all of them); ``classes``, the
    class store, for tables opened in a class and for a class's lobby."""
    watch = Watch()
    duels.listen(watch.changed)
    options = {
        "duels": duels,
        "limiter": limiter or Limiter(),
        "seats": seats or Limiter(per_client=SEAT_REQUESTS[0], in_all=10**9, per=SEAT_REQUESTS[1]),
        "classes": classes,
        "watch": watch,
        "sweep": _Sweep(),
        "base_url": base_url,
    }
    return [(f"{base_url}tartli/duel/{action}", DuelHandler, {**options, "action": action}) for action in ACTIONS]
