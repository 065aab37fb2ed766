"""The course server's kernels: a place for every visitor, and a clock that starts when a page connects.

Voilà builds its kernel manager class at start-up (``voila_kernel_manager_factory``): the pool of
pre-started kernels on top of jupyter_server's manager. Voilà's ``cull_kernel_if_idle`` returns for
a pooled kernel without calling ``super()``, and ``get_rendered_notebook`` (the hand-out) and
``fill_if_needed`` (the refill) call nothing above themselves, so a class *below* Voilà's never hears
of a hand-out. :func:`course_kernel_manager` therefore puts :class:`CourseKernelRules` *on top of*
the class Voilà built (``tartli.server.app.TartliVoila.init_settings`` passes Voilà's factory
through it). Written for voila 0.5.x and jupyter_server 2.x (``tartli.server.app.SUPPORTED``).

The rules, each a fix for a way a class lost pages:

* **A page's kernel waits for its page.** A kernel handed out from a pool, or started for a page,
  has never had a connection: it is not idle, it waits. It is shut down only if its page has not
  connected ``connect_grace`` seconds after the hand-out (or after the kernel's last activity, if
  later): a visitor who never came. Before, a pool kernel that had waited longer than the cull
  timeout was culled at the next pass, before the browser connected (a dead page), and on a busy
  machine a page that took long to connect lost its kernel the same way.
* **The idle clock starts when the page connects, and again when the last connection closes**
  (a phone that locks drops its websocket; its kernel now gets the whole idle timeout to come
  back, not what is left of it after the learner's last click). Connected kernels are never
  culled (``cull_connected`` stays off).
* **Places are counted before kernels start, and each once.** A place is a running kernel, a kernel
  starting for a pool, or a page request that was let in and has not got its kernel yet (a
  reservation, taken and counted in one step of the event loop), so that thirty requests at once
  cannot pass a cap of eight. A kernel is in the manager's kernels from the moment its process runs,
  while the start that asked for it (a request's reservation, or a pool's task) is not over yet;
  ``new_kernel_id`` notes whose start a kernel is, so that the two are counted as one place (thirty
  pages starting at once on a busy machine were counted nearly twice for a while, and the server
  said "busy" with places free). A kernel waiting in a pool gives its place up to a visitor when the
  server is full, and a pool is refilled only while one place stays free for a visitor.
* **No browser takes every place.** The server gives each browser a cookie (``tartli_visitor``);
  a browser has at most ``per_visitor`` kernels. At its limit, the oldest kernel of a page it left
  (connected once, no connection now) is shut down for the new page; if none, it gets a short
  page. Requests that keep no cookie share one kernel between them. The cookie is signed by the
  server (a made-up one counts as none), and one address is given at most 60 new ones a minute
  (``tartli.server.app.NEW_VISITORS_PER_MINUTE``: a class of 30 behind one router passes).
* **A full server takes places back before it refuses.** A visitor who finds every place taken gets,
  in this order, a kernel waiting in a pool, the place of a page that never connected within
  :data:`UNCONNECTED_YIELD` of getting its page, or that of a page connected but idle past the cull
  timeout; only if there is none does it get the busy page. So a script that opens pages and
  never uses them cannot hold a class's places.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime
import functools
import itertools
import os
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jupyter_server.services.kernels import kernelmanager as _jupyter_kernels
from traitlets import TraitError

from tartli.server import forking

ANONYMOUS = ""
"""The visitor of every request that brings no visitor cookie (a client that keeps none)."""
STAGGER = 2.0
"""Seconds between the start of one page's pool and the next at start-up (the first page first)."""
POOL_ENV = "VOILA_PREHEAT"
"""Voilà sets this to "True" in the environment of a kernel it starts for a pool."""
FILL_AT_ONCE = max(1, (os.cpu_count() or 2) // 2)
"""Pool kernels started at the same time, in all (each runs its page's notebook, a CPU-second or so): a class's
prepared pages fill one or two kernels at a time, so that pages in use keep a core."""
PUPIL_TAKES_IDLE = 60.0
"""Seconds a page of a visitor who is not in a class must have been idle (connected, no message from it) before a
pupil of a class may take its place on a full server (pupils first: a class's lesson goes on)."""
PUPIL_FRESH = 600.0
"""Seconds after a pupil's page last reported to the class (its page reports once a minute while shown) that the
browser still counts as a pupil's."""
KERNEL_LOG_ENV = "TARTLI_KERNEL_LOG"
"""The environment variable that tells the kernels where to write their log (tartli.widgets.kernel_log reads it;
the server follows the file into its own log, bounded: tartli.server.logs)."""
UNCONNECTED_YIELD = 15.0
"""Seconds after its page was sent a page's kernel that has never connected gives its place up to a visitor when
the server is full (a browser connects within moments of getting its page)."""
KERNEL_ESTIMATE_MIB = 110.0
"""A waiting kernel's memory (PSS) before one has been measured on this machine (measured: about 100 MiB)."""


def proc_kib(path: str, field: str) -> int | None:
    """The ``field:`` line's number of kB in a /proc file (Linux; None elsewhere, or if it is not there)."""
    try:
        with open(path, encoding="ascii") as found:
            for line in found:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def kernel_memory_mib(pid: int) -> float | None:
    """The proportional memory (PSS, in MiB) of process ``pid`` (Linux's /proc; None elsewhere or if gone): what
    the process holds of its own, its share of what it shares with the other kernels counted once."""
    kib = proc_kib(f"/proc/{pid}/smaps_rollup", "Pss")
    return None if kib is None else kib / 1024


MEMORY_SAMPLE = 4
"""How many waiting kernels :meth:`CourseKernelRules.memory_per_kernel` measures."""


def _ready(task: Any) -> bool:
    """A pool's task whose kernel has started and waits (Voilà may still be running its notebook: :func:`_rendered`)."""
    return bool(task.done() and not task.cancelled() and task.exception() is None)


def _rendered(task: Any) -> bool:
    """A pool's task whose kernel waits with its page rendered: Voilà's render (the notebook run in the kernel, its
    outputs turned into the page's HTML by the server) is over, so a pupil who takes it gets the page at once and
    no work of its start is left to take the cores from the pupils."""
    if not _ready(task):
        return False
    render = task.result().get("task")
    return render is None or bool(render.done())


@dataclass(frozen=True)
class KernelPolicy:
    """How many kernels, for whom, and how long a page's kernel waits for its page."""

    cap: int = 50
    """Places in all: running kernels, kernels starting, requests let in."""
    per_visitor: int = 4
    """Kernels one browser may hold (requests without the cookie share one)."""
    connect_grace: float = 300.0
    """Seconds a handed-out kernel waits for its page to connect before it is shut down."""
    language: str = "en"
    """The language the pools prepare their pages in (a page asked for in another starts its own kernel)."""
    prepare_memory_mib: float = 0.0
    """Memory the kernels waiting in the pools may hold in all (0: no bound but the cap): a class's prepared
    pages fill up to it (``tartli course --class-size``)."""
    fill_at_once: int = FILL_AT_ONCE
    """Pool kernels started at the same time, in all."""
    prepared: tuple[str, ...] = ()
    """The pages a class has prepared (``--prepare``): they have their pools even if Voilà's denylist names them."""
    unconnected_yield: float = UNCONNECTED_YIELD
    """Seconds after its page was sent a kernel whose page never connected gives its place up to a visitor when
    the server is full."""


@dataclass(frozen=True)
class Admission:
    """The answer to a page request: a reservation (``token``), or why not (``refused``)."""

    token: int | None
    refused: str | None = None
    """None, "full" (no place on the server) or "yours" (this browser holds its limit)."""
    reclaimed: tuple[str, ...] = ()
    """Kernels shut down to make room: a pool kernel, or a page this browser left."""


_RESERVATION: contextvars.ContextVar[tuple[int, str] | None] = contextvars.ContextVar(
    "tartli_reservation", default=None
)
"""The (token, visitor) of the page request being served, read where its kernel is handed out or started."""


def serving(token: int, visitor: str) -> contextvars.Token[tuple[int, str] | None]:
    """Mark the running request as the holder of reservation ``token`` (see :meth:`CourseKernelRules.admit`)."""
    return _RESERVATION.set((token, visitor))


def done_serving(mark: contextvars.Token[tuple[int, str] | None]) -> None:
    _RESERVATION.reset(mark)


KERNEL_ENV: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("tartli_kernel_env", default=None)
"""Variables the page request being served adds to its own kernel's environment (a seat at a table for two
browsers, :mod:`tartli.widgets.duel`): never to a pool's kernel, which serves whoever comes next."""


def for_a_pool(kwargs: dict[str, Any]) -> bool:
    """Is this kernel start (its keyword arguments) one of Voilà's pools', not a page's own? Voilà's pool says so in
    the kernel's environment."""
    return bool((kwargs.get("env") or {}).get(POOL_ENV) == "True")


class PageStart:
    """What became of the kernel started for the page being served (:data:`PAGE_START`).

    Voilà (0.5) starts a page's own kernel, sends the page's head, then waits for the kernel to answer; if it
    dies first, or does not answer within nbclient's ``startup_timeout``, the task rendering the page ends with
    the error, and nothing ever ends the page: Voilà's handler sends its keep-alive every few seconds for ever,
    the learner watches the spinner, and the page holds its place on the server. The page's handler
    (:class:`tartli.server.app.CookieVoilaHandler`) asks this, at each keep-alive before the kernel has
    answered, whether the start has failed.
    """

    def __init__(self) -> None:
        self.kernel_id: str | None = None
        self.started = 0.0  # (time.monotonic(), when the kernel was started)
        self.trouble: str | None = None

    def note(self, trouble: str) -> None:
        """The kernel's restarter says what happened to it (only the first thing counts)."""
        if self.trouble is None:
            self.trouble = trouble

    def failed(self, answer_within: float, moment: float) -> str | None:
        """Why the page's kernel has not started (it died, or was started again by jupyter_client's restarter:
        either way Voilà's wait for it has ended with an error; or ``answer_within`` seconds have passed), None
        while it may still start, or if no kernel of the page's own was started (a pool's kernel serves it)."""
        if self.kernel_id is None:
            return None
        if self.trouble is not None:
            return self.trouble
        if moment - self.started > answer_within:
            return f"no answer in {answer_within:.0f} s"
        return None


PAGE_START: contextvars.ContextVar[PageStart | None] = contextvars.ContextVar("tartli_page_start", default=None)
"""The :class:`PageStart` of the page request being served, filled where its own kernel is started."""


def event_loop() -> asyncio.AbstractEventLoop:
    """The loop the server will run (Voilà fills its pools before the loop runs, on this same loop)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.get_event_loop_policy().get_event_loop()


def now() -> datetime.datetime:
    """jupyter_server's clock (the one ``last_activity`` is kept by)."""
    clock: Callable[[], datetime.datetime] = _jupyter_kernels.utcnow  # type: ignore[attr-defined]
    return clock()


class KernelOutputToLog:
    """A kernel manager whose kernels' own output goes to the kernels' log file (:data:`KERNEL_LOG_ENV`): the
    course's (:class:`CourseKernelRules`) and Binder's (:class:`LoggedKernelManager`, :mod:`tartli.server.binder`)."""

    def pre_start_kernel(self, kernel_name: str | None, kwargs: dict[str, Any]) -> Any:
        """jupyter_client's step before every kernel's launch (a page's and a pool's): the kernel process's own
        output (what it writes before ipykernel takes its output over: warnings at import, a crash at start)
        goes to the kernels' log file, which the server follows into its log line by line, bounded, and not
        to the server's terminal whole. (The file object stays with the kernel's manager, in its launch
        arguments, for a restart.)"""
        path = os.environ.get(KERNEL_LOG_ENV)
        if path and "stderr" not in kwargs:
            try:
                output = open(path, "ab")  # noqa: SIM115 (kept open by the kernel's manager, see above)
            except OSError:
                pass  # (no log file: the kernel writes where the server does)
            else:
                kwargs["stdout"] = kwargs["stderr"] = output
        return super().pre_start_kernel(kernel_name, kwargs)  # type: ignore[misc]

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """jupyter_server's start; a page's own kernel (not a pool's) is watched for the page (:class:`PageStart`)."""
        kernel_id: str = await super().start_kernel(*args, **kwargs)  # type: ignore[misc]
        watch = PAGE_START.get()
        if watch is not None and watch.kernel_id is None and not for_a_pool(kwargs):
            watch.kernel_id = kernel_id
            watch.started = time.monotonic()
            add = getattr(self, "add_restart_callback", None)
            if add is not None:
                add(kernel_id, functools.partial(watch.note, "it was restarted"), "restart")
                add(kernel_id, functools.partial(watch.note, "it died"), "dead")
        return kernel_id


class LoggedKernelManager(KernelOutputToLog, _jupyter_kernels.AsyncMappingKernelManager):  # type: ignore[misc]
    """The Jupyter server's own kernel manager (``AsyncMappingKernelManager``, its default) with the kernels' own
    output in the kernels' log file: the Binder server's (:func:`tartli.server.binder.server_config`), whose
    kernels are not the course's."""


class CourseKernelRules(KernelOutputToLog):
    """The course's rules, on top of Voilà's kernel manager (see the module's docstring).

    Meant to be combined with a jupyter_server ``MappingKernelManager`` subclass by
    :func:`course_kernel_manager`; ``policy`` comes from the manager's parent (the course's
    server app, ``kernel_policy``) or is the default.
    """

    _kernels: dict[str, Any]
    _kernel_connections: dict[str, int]
    log: Any

    def __init__(self, **kwargs: Any) -> None:
        # Before Voilà's __init__, which fills the pools (fill_if_needed reads these).
        self._waiting: dict[str, datetime.datetime] = {}
        self._owner: dict[str, str] = {}
        self._reserved: dict[int, tuple[str, bool]] = {}
        self._leaving: set[str] = set()
        self._tokens = itertools.count(1)
        self._shutting: dict[str, asyncio.Future[Any]] = {}
        self._kernel_for: dict[int, str] = {}  # a reservation's kernel, once its start has begun
        self._task_of: dict[int, Any] = {}  # the pool task a reservation's request took (not finished then)
        self._kernel_of_task: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()  # a pool task's kernel
        self._pools_started = False
        self._order: list[str] | None = None
        self._memory_measured: tuple[float, float] = (0.0, 0.0)  # (when, MiB per waiting kernel)
        self._page_of: dict[int, str] = {}  # a reservation's kernel, until its page is sent
        self._serving: set[int] = set()  # the page requests let in whose page is not sent yet
        self._new_tokens: set[int] = set()  # those of them from a browser that is new (not established)
        self._new_owner: set[str] = set()  # kernels handed to a new browser (until their page connects)
        self._sent: dict[str, datetime.datetime] = {}  # when a kernel's page was sent (until it connects)
        super().__init__(**kwargs)
        self._pools_started = True

    # ------------------------------------------------------------ policy and places
    @property
    def policy(self) -> KernelPolicy:
        found = getattr(getattr(self, "parent", None), "kernel_policy", None)
        return found if isinstance(found, KernelPolicy) else KernelPolicy()

    def _pools_now(self) -> dict[str, list[Any]]:
        pools: dict[str, list[Any]] = getattr(self, "_pools", {})
        return pools

    def pooled_kernel_ids(self) -> dict[str, str]:
        """Kernels started for a pool and not handed out yet: kernel -> notebook."""
        ids: dict[str, str] = {}
        for notebook, pool in self._pools_now().items():
            for task in pool:
                if _ready(task):
                    ids[task.result()["kernel_id"]] = notebook
        return ids

    def places_taken(self) -> int:
        """Running kernels (those being shut down too: their process still runs; those being launched),
        kernels starting for a pool, and reservations; a kernel once, also while the start that asked
        for it is not over (see ``new_kernel_id``)."""
        alive = set(self._kernels) | set(getattr(self, "_pending_kernels", {}))
        starting = sum(
            1
            for pool in self._pools_now().values()
            for task in pool
            if not task.done() and self._kernel_of_task.get(task) not in alive
        )
        reserved = sum(
            1
            for token, (_visitor, counted) in self._reserved.items()
            if (counted or token in self._task_of) and self._reserved_kernel(token) not in alive
        )
        return len(alive) + starting + reserved

    def _reserved_kernel(self, token: int) -> str | None:
        """The kernel reservation ``token`` is getting, once its start has begun (None before)."""
        if token in self._kernel_for:
            return self._kernel_for[token]
        task = self._task_of.get(token)
        return None if task is None else self._kernel_of_task.get(task)

    def new_kernel_id(self, **kwargs: Any) -> str:
        """jupyter_client's hook for a new kernel's id, asked before the kernel is launched: noted for the
        start that asks (a pool's task, or the request being served), so that ``places_taken`` counts the
        kernel and that start as one place."""
        kernel_id = str(kwargs.get("kernel_id") or super().new_kernel_id(**kwargs))  # type: ignore[misc]
        if for_a_pool(kwargs):
            task = asyncio.current_task()  # Voilà's pool task (it starts its kernel in that task)
            if task is not None:
                self._kernel_of_task[task] = kernel_id
        else:
            reservation = _RESERVATION.get()
            if reservation is not None and reservation[0] in self._reserved:
                self._kernel_for[reservation[0]] = kernel_id
        return kernel_id

    def kernels_of(self, visitor: str) -> list[str]:
        """The running kernels handed out to ``visitor`` (oldest first)."""
        for kernel_id in [k for k in self._owner if k not in self._kernels]:
            self._owner.pop(kernel_id, None)  # a kernel that died or was shut down elsewhere
            self._waiting.pop(kernel_id, None)
        return [k for k, owner in self._owner.items() if owner == visitor and k not in self._leaving]

    def pool_is_ready(self, notebook: str) -> bool:
        """A kernel of ``notebook``'s pool has run the notebook and waits: a request for it needs no new place."""
        pool = self._pools_now().get(notebook, [])
        return bool(pool) and _ready(pool[0])

    def admit(
        self,
        visitor: str,
        needs_place: bool = True,
        established: bool = False,
        pupils: frozenset[str] = frozenset(),
    ) -> Admission:
        """Let a page request in, or say why not; a request let in holds a reservation until its kernel
        is handed out (``release`` ends it otherwise). ``needs_place`` is False for a request a waiting
        pool kernel will serve; ``established``: the browser has had its cookie for a while; ``pupils``: the
        visitors in a class now (:class:`ClassPupils`; see :meth:`_spare_place` for both). Decided without
        awaiting, so concurrent requests see each other."""
        policy = self.policy
        limit = 1 if visitor == ANONYMOUS else max(1, policy.per_visitor)
        reclaim: list[str] = []
        mine = self.kernels_of(visitor)
        holding = len(mine) + sum(1 for owner, _counted in self._reserved.values() if owner == visitor)
        if holding >= limit:
            left = [k for k in mine if k not in self._waiting and not self._kernel_connections.get(k)]
            if not left:
                return Admission(None, "yours")
            left.sort(key=lambda k: self._kernels[k].last_activity)
            reclaim.append(left[0])  # a page this browser left (its beacon never came)
        if needs_place and self.places_taken() - len(reclaim) >= policy.cap:
            spare = self._spare_place(exclude=reclaim, established=established, pupil=visitor in pupils, pupils=pupils)
            if spare is None:
                return Admission(None, "full")
            reclaim.append(spare)
        token = next(self._tokens)
        self._reserved[token] = (visitor, needs_place)
        self._serving.add(token)
        if not established:
            self._new_tokens.add(token)
        for kernel_id in reclaim:
            self._reclaim(kernel_id)
        return Admission(token, None, tuple(reclaim))

    def _spare_place(
        self,
        exclude: list[str],
        established: bool = False,
        pupil: bool = False,
        pupils: frozenset[str] = frozenset(),
    ) -> str | None:
        """The kernel that gives its place up to a visitor when the server is full, in this order:

        1. one waiting in a pool (a place kept for a visitor);
        2. the page that has waited longest and never connected, once it has waited :data:`UNCONNECTED_YIELD`
           (its page was sent long ago: a script's, or a browser gone);
        3. for an ``established`` browser (its cookie a while old), a page sent to a new browser that has not
           connected yet (a script taking a fresh cookie for every request never gets one of these: a pupil
           who came before it does);
        4. for a ``pupil`` (a visitor in a class now): a page of a visitor who is in no class, one that never
           connected first, then one connected and idle for :data:`PUPIL_TAKES_IDLE`, idle longest first
           (pupils first: the class's lesson goes on);
        5. a page connected but idle past the cull timeout, idle longest first (a learner back after that long
           gets the trouble bar and its Reload).

        A visitor who is in no class never takes the place of a pupil's page in steps 3 and 5. None: every
        place is in use."""
        pooled = [k for k in self.pooled_kernel_ids() if k not in exclude]
        if pooled:
            return pooled[0]
        moment = now()
        sent = sorted(  # the pages sent and not connected, sent longest ago first
            (when, k)
            for k, when in self._sent.items()
            if k in self._waiting and k in self._kernels and k not in exclude and k not in self._leaving
        )
        for when, k in sent:
            if (moment - when).total_seconds() >= self.policy.unconnected_yield:
                return k

        def outsider(k: str) -> bool:  # a page of a visitor in no class
            return self._owner.get(k) not in pupils

        def open_to_me(k: str) -> bool:  # a pupil's page gives its place only to another pupil
            return pupil or outsider(k)

        if established:  # a browser that came a while ago before one that is new and has not connected
            for _when, k in sent:
                if k in self._new_owner and open_to_me(k):
                    return k
        if pupil:
            for _when, k in sent:
                if outsider(k):
                    return k
            outside = [
                (activity, k) for activity, k in self._idle_pages(exclude, moment, PUPIL_TAKES_IDLE) if outsider(k)
            ]
            if outside:
                return min(outside)[1]
        timeout = float(getattr(self, "cull_idle_timeout", 0) or 0)
        if timeout <= 0:
            return None
        idle = [(activity, k) for activity, k in self._idle_pages(exclude, moment, timeout) if open_to_me(k)]
        return min(idle)[1] if idle else None

    def _idle_pages(
        self, exclude: list[str], moment: datetime.datetime, seconds: float
    ) -> list[tuple[datetime.datetime, str]]:
        """The connected pages whose kernels are not busy and have heard nothing for ``seconds``: (since, kernel)."""
        idle = []
        for k, kernel in self._kernels.items():
            if k in exclude or k in self._leaving or not self._kernel_connections.get(k):
                continue  # (a kernel still starting has no activity markers: reading them raises a TraitError)
            try:
                activity = kernel.last_activity
            except TraitError:
                continue
            if activity is None:
                continue
            if getattr(kernel, "execution_state", None) != "busy" and (moment - activity).total_seconds() >= seconds:
                idle.append((activity, k))
        return idle

    async def room_made(self, admission: Admission) -> None:
        """Wait until the kernels shut down for ``admission`` are gone (so that a new one never runs beside them)."""
        waiting = [task for kernel_id in admission.reclaimed if (task := self._shutting.get(kernel_id)) is not None]
        if waiting:
            await asyncio.wait(waiting, timeout=60)

    def release(self, token: int | None) -> None:
        """End a reservation (done when the request is over; a no-op once its kernel was handed out)."""
        if token is not None:
            self._end_reservation(token)

    def _end_reservation(self, token: int) -> tuple[str, bool] | None:
        self._kernel_for.pop(token, None)
        self._task_of.pop(token, None)
        return self._reserved.pop(token, None)

    def _reclaim(self, kernel_id: str, why: str = "") -> None:
        """Shut ``kernel_id`` down to make room for a visitor, or (``why``: the reason, logged) because its pool
        is smaller now; in that case the pools are topped up once it is gone (its place is free then)."""
        for pool in self._pools_now().values():
            for task in list(pool):
                if self._holds(task, kernel_id):
                    pool.remove(task)  # at once, so that no request is handed it meanwhile
                    render = task.result().get("task")
                    if why and render is not None and not render.done():
                        # (its page would never be sent: without this, each cell still to run logs an error
                        # when the kernel is gone)
                        render.cancel()
        self._leaving.add(kernel_id)
        if why:
            self.log.info("tartli: shutting down kernel %s waiting in a pool: %s", kernel_id, why)
        else:
            self.log.warning("tartli: shutting down kernel %s to make room for a visitor", kernel_id)
        task = asyncio.ensure_future(self.shutdown_kernel(kernel_id))
        self._shutting[kernel_id] = task  # (also keeps it: the loop holds only a weak reference to a task)
        task.add_done_callback(lambda _task: self._shutting.pop(kernel_id, None))
        if why:
            task.add_done_callback(lambda _task: event_loop().call_soon(self.top_up_pools))

    @staticmethod
    def _holds(task: Any, kernel_id: str) -> bool:
        return _ready(task) and task.result()["kernel_id"] == kernel_id

    def _handed_out(self, kernel_id: str) -> None:
        """``kernel_id`` now serves the request being handled: it waits for its page from now on."""
        self._waiting[kernel_id] = now()
        reservation = _RESERVATION.get()
        if reservation is not None:
            token, visitor = reservation
            self._page_of[token] = kernel_id
            if token in self._new_tokens:
                self._new_owner.add(kernel_id)
            if self._end_reservation(token) is not None:
                self._owner[kernel_id] = visitor

    def page_sent(self, token: int | None) -> None:
        """The page of reservation ``token`` has been sent to its browser (its kernel's page may connect from
        now: the clock of :data:`UNCONNECTED_YIELD` starts)."""
        kernel_id = self._page_of.pop(token, None) if token is not None else None
        if kernel_id is not None and kernel_id in self._waiting:
            self._sent[kernel_id] = now()
        if token is not None:
            self._new_tokens.discard(token)
        if token in self._serving:
            self._serving.discard(token)
            if not self._serving:  # the rush is over: the pools fill again
                event_loop().call_soon(self.top_up_pools)

    # ------------------------------------------------------------ hand-outs and starts
    async def get_rendered_notebook(self, notebook_name: str, *args: Any, **kwargs: Any) -> Any:
        reservation = _RESERVATION.get()
        pool = self._pools_now().get(notebook_name) or []
        if reservation is not None and reservation[0] in self._reserved and pool and not pool[0].done():
            # Voilà hands out the pool's first task even while it is still starting its kernel: this
            # request's place is then that task's kernel (counted once, see places_taken).
            self._task_of[reservation[0]] = pool[0]
        result = await super().get_rendered_notebook(notebook_name, *args, **kwargs)  # type: ignore[misc]
        self._handed_out(result[2])
        return result

    def pre_start_kernel(self, kernel_name: str | None, kwargs: dict[str, Any]) -> Any:
        """The kernels' own output to the log (:class:`KernelOutputToLog`), and the kernel forked from the server's
        kernel template when there is one (:mod:`tartli.server.forking` says why it is set here)."""
        started = super().pre_start_kernel(kernel_name, kwargs)
        manager, _name, kernel_id = started
        if forking.template() is not None and getattr(manager, "provisioner", None) is None:
            manager.provisioner = forking.ForkProvisioner(
                kernel_id=kernel_id, kernel_spec=manager.kernel_spec, parent=manager
            )
        return started

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        extra = KERNEL_ENV.get()
        if extra and not for_a_pool(kwargs):
            kwargs["env"] = {**(kwargs.get("env") or {}), **extra}
        kernel_id = await super().start_kernel(*args, **kwargs)
        if not for_a_pool(kwargs):  # a page's own kernel (Voilà's pool starts its kernels below this class)
            self._handed_out(kernel_id)
        return kernel_id

    def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None, **kwargs: Any) -> None:
        """Voilà's refill, only while it leaves a place free for a visitor, at most ``fill_at_once`` kernels
        starting at a time (in all pools) and within the memory the waiting kernels may hold: a large pool (a
        class's prepared page) fills gradually, each kernel that is ready starting the next. At start-up
        (Voilà fills every pool at once, delay 0) the pools are filled one after another in the course's
        order, STAGGER seconds apart, so that the first page's kernel is not slowed by all the others."""
        if delay == 0 and not self._pools_started and notebook_name is not None:
            order = self._start_order()
            turn = STAGGER * order.index(notebook_name) if notebook_name in order else 0
            if turn > 0:
                # A pool waiting for its turn holds no place (Voilà's own delay would start a task that
                # counts as a kernel starting): at its turn it is filled if there is room, or waits.
                self._pools_now().setdefault(str(notebook_name), [])
                event_loop().call_later(turn, self.fill_if_needed, 0, notebook_name)
                return
        pool = self._pools_now().setdefault(str(notebook_name), [])  # (so that top_up_pools finds it)
        size = self._pool_size(notebook_name)
        allowed = self._room_to_fill(size - len(pool))
        if allowed <= 0:
            if size > len(pool):
                self.log.debug("tartli: the pool of %s waits for room", notebook_name)
            return
        if self.policy.language != "en":
            # the pool's kernels run their page in the class's language (tartli.i18n reads QUERY_STRING)
            extra = dict(kwargs.pop("extra_kernel_env_variables", None) or {})
            extra["QUERY_STRING"] = f"lang={self.policy.language}"
            kwargs["extra_kernel_env_variables"] = extra
        before = list(pool)
        config = getattr(self, "kernel_pools_config", None)
        if allowed < size - len(pool) and isinstance(config, dict):
            # Voilà starts what its pool lacks: the pool's size is lowered for this call only.
            default: dict[str, Any] = config.get("default", {})
            entry = dict(config.get(str(notebook_name), default))
            self.kernel_pools_config = {**config, str(notebook_name): {**entry, "pool_size": len(pool) + allowed}}
            try:
                super().fill_if_needed(delay, notebook_name, **kwargs)  # type: ignore[misc]
            finally:
                self.kernel_pools_config = config
        else:
            super().fill_if_needed(delay, notebook_name, **kwargs)  # type: ignore[misc]
        for task in pool:
            if task not in before:  # each kernel that is ready lets the next start
                task.add_done_callback(lambda _task: event_loop().call_soon(self.top_up_pools))

    def _room_to_fill(self, missing: int) -> int:
        """How many of ``missing`` pool kernels may start now: none while pages are being served (the pupils'
        pages first: the pools fill again when the last one is sent), a place stays free for a visitor (the
        cap), at most ``fill_at_once`` start at a time, and the waiting kernels stay within the memory bound."""
        if missing <= 0 or (self._serving and self._pools_started):
            return 0  # (while pages are being served, the pools wait: a refill would take their cores)
        policy = self.policy
        allowed = min(missing, policy.cap - 1 - self.places_taken())
        starting = sum(1 for pool in self._pools_now().values() for task in pool if not task.done())
        allowed = min(allowed, max(0, policy.fill_at_once - starting))
        if policy.prepare_memory_mib > 0:
            waiting = len(self.pooled_kernel_ids()) + starting
            allowed = min(allowed, int(policy.prepare_memory_mib // self.memory_per_kernel()) - waiting)
        return max(0, allowed)

    def memory_per_kernel(self) -> float:
        """The memory (PSS, MiB) of a kernel waiting in a pool, measured on the waiting kernels now and then (an
        estimate until one has been)."""
        at, value = self._memory_measured
        if time.monotonic() - at < 30 and value > 0:
            return value
        # A few kernels tell it (they run the same code): reading every waiting kernel's smaps_rollup held the event
        # loop about 10 ms a kernel, 0.6 s for the 60 kernels of a class of 30, as the pools refilled behind its pupils.
        sizes = [m for m in self._pool_memory(at_most=MEMORY_SAMPLE).values() if m is not None]
        if sizes:
            self._memory_measured = (time.monotonic(), sum(sizes) / len(sizes))
        return self._memory_measured[1] if self._memory_measured[1] > 0 else KERNEL_ESTIMATE_MIB

    def _pool_memory(self, at_most: int | None = None) -> dict[str, float | None]:
        """The memory (PSS, MiB) of each kernel waiting in a pool, or of ``at_most`` of them (None where it cannot be
        read)."""
        found: dict[str, float | None] = {}
        for kernel_id in list(self.pooled_kernel_ids())[:at_most]:
            kernel = self._kernels.get(kernel_id)
            process = getattr(getattr(kernel, "provisioner", None), "process", None)
            pid = getattr(process, "pid", None)
            found[kernel_id] = kernel_memory_mib(pid) if isinstance(pid, int) else None
        return found

    def ready_in_pools(self) -> dict[str, int]:
        """Each pool: how many of its kernels are ready, their page rendered (:func:`_rendered`; a kernel that has
        started is not yet: its page's render still takes some 0.5 CPU-s of the server and the kernel)."""
        return {notebook: sum(map(_rendered, pool)) for notebook, pool in self._pools_now().items()}

    def pools_memory_mib(self) -> float:
        """The memory the kernels waiting in the pools hold now (MiB; unreadable ones counted at the estimate)."""
        return sum(m if m is not None else self.memory_per_kernel() for m in self._pool_memory().values())

    def _notebook_filter(self, nb_path: Path) -> bool:
        """Voilà's choice of the notebooks that get a pool at start (not the denylisted ones), but a page the class
        prepared always gets its pool."""
        root = Path(getattr(self, "root_dir", "") or ".")
        path = Path(nb_path)
        name = str(path.relative_to(root)) if path.is_absolute() and path.is_relative_to(root) else str(path)
        if name in self.policy.prepared:  # (Voilà asks with the notebook's full path)
            return True
        keep: Callable[[Path], bool] = super()._notebook_filter  # type: ignore[misc]
        return keep(nb_path)

    def _start_order(self) -> list[str]:
        """The notebooks Voilà fills a pool for at start, in the course's order (their names sort so)."""
        if self._order is None:
            root = Path(getattr(self, "root_dir", "") or ".")
            keep = getattr(self, "_notebook_filter", lambda _path: True)
            self._order = sorted(str(x.relative_to(root)) for x in root.rglob("*.ipynb") if keep(x))
        return self._order

    def _pool_size(self, notebook_name: str | None) -> int:
        """The pool size Voilà's ``fill_if_needed`` reads for ``notebook_name`` (0 without a pool)."""
        config: dict[str, Any] = getattr(self, "kernel_pools_config", {}) or {}
        default: dict[str, Any] = config.get("default", {})
        chosen: dict[str, Any] = config.get(str(notebook_name), default)
        return int(chosen.get("pool_size", default.get("pool_size", 1)))

    def top_up_pools(self) -> None:
        """Refill the pools that gave a kernel up or waited for room, where there is room now; a pool larger than
        its size now (the lesson of the day changed: :meth:`prepare_pools`) gives its extra ready kernels up (one
        still starting, when it is ready: each ready kernel calls this)."""
        for notebook, pool in list(self._pools_now().items()):
            size = self._pool_size(notebook)
            if len(pool) < size:
                self.fill_if_needed(delay=0, notebook_name=notebook)
            elif len(pool) > size:
                self._shrink_pool(notebook, size)

    def _shrink_pool(self, notebook: str, size: int) -> int:
        """Shut down the ready kernels of ``notebook``'s pool beyond ``size``, the last in the pool first (the first
        are handed out first); how many."""
        pool = self._pools_now().get(notebook, [])
        extra = [task for task in pool if _ready(task)][::-1][: max(0, len(pool) - size)]
        for task in extra:
            self._reclaim(task.result()["kernel_id"], why=f"the pool of {notebook} is back to {size}")
        return len(extra)

    def prepare_pools(self, sizes: dict[str, int]) -> int:
        """The pages prepared for a class are ``sizes`` (page -> pool size) from now on (the teacher's page changed
        the lesson of the day: ``TartliVoila.prepare_lesson``): a page prepared before and not now goes back to
        Voilà's default size (none if Voilà's denylist names it), its extra ready kernels shut down now (how many:
        the answer); a newly prepared page's pool fills gradually as at start (``fill_if_needed``)."""
        config: dict[str, Any] = dict(getattr(self, "kernel_pools_config", {}) or {})
        default: dict[str, Any] = config.get("default", {"pool_size": 1, "kernel_env_variables": {}})
        for page in list(config):
            if page != "default" and page not in sizes:
                del config[page]
        for page in self._pools_now():
            if page not in sizes and not self._voila_keeps(page):
                config[page] = {**default, "pool_size": 0}  # (a pool it got only as a prepared page)
        for page, size in sizes.items():
            config[page] = {**default, "pool_size": size}
        self.kernel_pools_config = config
        released = sum(
            self._shrink_pool(page, self._pool_size(page)) for page in list(self._pools_now()) if page not in sizes
        )
        for page in sizes:
            self._pools_now().setdefault(page, [])  # (so that top_up_pools fills it)
        self.top_up_pools()
        return released

    def _voila_keeps(self, page: str) -> bool:
        """Does Voilà's own choice (its denylist) give ``page`` a pool?"""
        root = Path(getattr(self, "root_dir", "") or ".")
        keep: Callable[[Path], bool] | None = getattr(super(), "_notebook_filter", None)
        return True if keep is None else keep(root / page)

    # ------------------------------------------------------------ connections and the idle clock
    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)  # type: ignore[misc]
        self._waiting.pop(kernel_id, None)  # its page came
        self._sent.pop(kernel_id, None)
        self._new_owner.discard(kernel_id)
        self._restart_clock(kernel_id)

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)  # type: ignore[misc]
        if not self._kernel_connections.get(kernel_id):
            self._restart_clock(kernel_id)

    def _restart_clock(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        if kernel is not None:
            kernel.last_activity = now()

    # ------------------------------------------------------------ culling
    async def cull_kernels(self) -> None:
        await super().cull_kernels()  # type: ignore[misc]
        self.top_up_pools()

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        if kernel is None or kernel_id in self._leaving:
            return  # shut down since this pass began (jupyter_server would raise KeyError)
        if kernel_id not in self._kernel_connections:
            # Still starting: jupyter_client has put it among the kernels, and jupyter_server has not yet
            # given it its activity markers (it does so with its connection count, in one step); its
            # culler would log a TraitError for the missing last_activity.
            return
        if kernel_id in self.pooled_kernel_ids():
            return  # waiting in a pool for a visitor is not idleness
        since = self._waiting.get(kernel_id)
        if since is None or getattr(kernel, "execution_state", None) == "dead":
            await super().cull_kernel_if_idle(kernel_id)  # type: ignore[misc]
            return
        if getattr(kernel, "execution_state", None) == "busy":
            return  # still running its notebook
        waited = now() - max(since, getattr(kernel, "last_activity", since))
        if waited.total_seconds() > self.policy.connect_grace:
            self.log.warning(
                "tartli: shutting down kernel %s: its page did not connect in %d s", kernel_id, waited.total_seconds()
            )
            await self.shutdown_kernel(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
        self._leaving.add(kernel_id)
        try:
            await super().shutdown_kernel(kernel_id, *args, **kwargs)  # type: ignore[misc]
        finally:
            self._leaving.discard(kernel_id)
            self._waiting.pop(kernel_id, None)
            self._sent.pop(kernel_id, None)
            self._new_owner.discard(kernel_id)
            self._owner.pop(kernel_id, None)


def course_kernel_manager(voila_class: type) -> type:
    """The kernel manager class Voilà built, with :class:`CourseKernelRules` on top of it."""
    return type("CourseKernelManager", (CourseKernelRules, voila_class), {"__module__": __name__})


class ClassPupils:
    """The visitors (their signed visitor cookies' names) whose pages report to a class now, kept in the server's
    memory only: a join or a report marks a browser a pupil's for :data:`PUPIL_FRESH` seconds; leaving, or a
    report refused (removed, or the class closed), ends it. On a full server a pupil's page comes first
    (:meth:`CourseKernelRules._spare_place`)."""

    def __init__(self, fresh: float = PUPIL_FRESH, clock: Any = time.monotonic) -> None:
        self.fresh, self.clock = fresh, clock
        self._seen: dict[str, float] = {}

    def note(self, visitor: str, present: bool = True) -> None:
        """``visitor``'s page reported to a class (``present``) or is no longer in one."""
        if present:
            self._seen[visitor] = self.clock()
        else:
            self._seen.pop(visitor, None)

    def now(self) -> frozenset[str]:
        """The visitors in a class now (those not heard of for :data:`PUPIL_FRESH` seconds are forgotten)."""
        limit = self.clock() - self.fresh
        for visitor in [v for v, when in self._seen.items() if when < limit]:
            del self._seen[visitor]
        return frozenset(self._seen)
