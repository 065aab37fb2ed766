"""Voilà as the course serves it: a few small subclasses for what a classroom server needs.

``python -m tartli.server NOTEBOOK_DIR --Voila.config_file_paths=...`` (what ``tartli course``
runs) is Voilà with these changes, each a fix for something a probe of the plain server found:

* **Pool kernels stay fresh** (:class:`CourseKernelManager`). A pre-started kernel that waited in
  Voilà's pool longer than the cull timeout used to be handed out with an old activity time and
  no connection yet, so a cull pass could shut it down before the browser connected: a dead page
  at the start of a class. Every cull pass now refreshes the kernels still waiting in a pool, so
  a kernel handed out is never older than one cull interval.
* **Malformed websocket frames are refused** (:class:`FrameCheckedConnection`). jupyter_server's
  v1 kernel protocol reads a frame's 64-bit offset count and builds a list that long in the event
  loop; 16 bytes could stall every request for seconds. The legacy binary protocol's buffer count
  has the same shape. Frames whose counts do not fit their length are dropped before parsing.
  (Upstream: checked in jupyter_server 2.21.1.)
* **A cap on kernels** (``TartliVoila.max_kernels``): past it a visitor gets a short "the course
  is busy" page (503, Retry-After) instead of a new kernel.
* **Only the course's hosts** (``TartliVoila.allowed_hosts``): a request whose Host header names
  another site (DNS rebinding) gets 403, so a page elsewhere cannot drive a learner's local course.
* **Kernels shut down when a visitor leaves** (:class:`CookieVoilaHandler`): the page's beacon
  needs the ``_xsrf`` cookie, which plain Voilà never set (every beacon got 403); the page handler
  now sets it.
* **A page opens in the learner's language** (:class:`CookieVoilaHandler`): ``?lang=hu`` is read by
  the page's kernel (:mod:`tartli.i18n`), so such a page never takes the pool's English kernel; a
  page asked for without ``?lang`` by a learner whose switch chose another language (the
  ``tartli_lang`` cookie) is redirected to its address in that language before a kernel starts.
* **Kernel errors go to the server's log**: kernels write the course's log lines (and any uncaught
  error in a widget callback) to a file that this server follows into its own log; the visitor
  sees a short message, never a traceback (:mod:`tartli.widgets.kernel_log`).
"""

from __future__ import annotations

import html
import itertools
import os
import struct
import sys
import tempfile
from pathlib import Path
from typing import Any

import tornado.ioloop
import tornado.web
from jupyter_server.services.kernels import kernelmanager as _jupyter_kernels
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Int, List, Unicode
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

KERNEL_MIB = 64
"""About what one visitor's kernel takes (measured by the app benchmark: about 60 MiB)."""
MAX_KERNELS_DEFAULT_CEILING = 50
LANGUAGE_COOKIE = "tartli_lang"
"""The cookie the page's language switch sets (the page template): the language chosen last."""
PAGE_LANGUAGES = ("en", "hu", "de")
KERNEL_LOG_ENV = "TARTLI_KERNEL_LOG"
"""The environment variable that tells the kernels where to write their log (kernel_log.py reads it)."""


def default_max_kernels() -> int:
    """Kernels the machine can hold: its memory / 64 MiB, at least 4 and at most 50."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return MAX_KERNELS_DEFAULT_CEILING
    return max(4, min(MAX_KERNELS_DEFAULT_CEILING, memory // (KERNEL_MIB * 1024 * 1024)))


# ---------------------------------------------------------------- websocket frames
V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"


def frame_problem(message: Any, protocol: str | None) -> str | None:
    """Why a kernel websocket frame must be dropped unparsed, or None if its shape is sound.

    v1 frames start with a little-endian 64-bit count of offsets, then the offsets, each within
    the frame; legacy binary frames with a big-endian 32-bit buffer count and 32-bit offsets.

    >>> frame_problem((40_000_000).to_bytes(8, "little") + bytes(8), V1_PROTOCOL)
    'v1 frame of 16 bytes claims 40000000 offsets'
    >>> offsets = b"".join(i.to_bytes(8, "little") for i in (3, 32, 33, 34))  # the count, then three offsets
    >>> frame_problem(offsets + b"ab", V1_PROTOCOL) is None
    True
    """
    if protocol == V1_PROTOCOL:
        if not isinstance(message, bytes):
            return "v1 frame that is not binary"
        if len(message) < 8:
            return f"v1 frame of {len(message)} bytes"
        count = int.from_bytes(message[:8], "little")
        if count < 2 or 8 * (count + 1) > len(message):
            return f"v1 frame of {len(message)} bytes claims {count} offsets"
        offsets = [int.from_bytes(message[8 * i : 8 * i + 8], "little") for i in range(1, count + 1)]
        if any(b < a for a, b in itertools.pairwise(offsets)) or offsets[-1] > len(message):
            return "v1 frame whose offsets do not fit it"
        return None
    if isinstance(message, bytes):
        if len(message) < 4:
            return f"binary frame of {len(message)} bytes"
        (count,) = struct.unpack("!i", message[:4])
        if count < 1 or 4 * (count + 1) > len(message):
            return f"binary frame of {len(message)} bytes claims {count} buffers"
    return None


class FrameCheckedConnection(ZMQChannelsWebsocketConnection):
    """The kernel websocket connection, refusing frames whose counts do not fit their length."""

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        problem = frame_problem(incoming_msg, self.subprotocol)
        if problem is not None:
            self.log.warning("tartli: dropped a malformed kernel websocket frame (%s)", problem)
            return
        super().handle_incoming_message(incoming_msg)


# ---------------------------------------------------------------- kernels
class CourseKernelManager(AsyncMappingKernelManager):
    """Voilà's kernel manager base, with pool kernels kept fresh for the culler.

    Voilà builds its pooling manager on top of this class (``multi_kernel_manager_class``), so
    ``_pools`` below is the pool of that subclass: notebook -> tasks that give ``{"kernel_id"}``.
    """

    def pooled_kernel_ids(self) -> set[str]:
        """Kernels started for a pool and not handed out yet."""
        ids: set[str] = set()
        for pool in getattr(self, "_pools", {}).values():
            for task in pool:
                if task.done() and not task.cancelled() and task.exception() is None:
                    ids.add(task.result()["kernel_id"])
        return ids

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        if kernel_id in self.pooled_kernel_ids():
            # Waiting for a visitor is not idleness: keep its clock current, so that when it is
            # handed out it is at most one cull interval old and survives until the browser connects.
            self._kernels[kernel_id].last_activity = _jupyter_kernels.utcnow()  # type: ignore[attr-defined]
            return
        await super().cull_kernel_if_idle(kernel_id)  # type: ignore[no-untyped-call]


BUSY_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tartli: {title}</title>
<style>body{{font-family:"Segoe UI","Helvetica Neue",Arial,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;
color:#1f2d24;line-height:1.5}}a{{color:#1f6b35;font-weight:600}}</style></head>
<body><h1>{title}</h1>
<p>{text}</p>
<p><a href="">{again}</a></p></body></html>
"""
BUSY_WORDS = {
    "en": (
        "The course is busy",
        "Every place at this server is taken just now. Please try again in a minute: "
        "your stars are kept in your browser and wait for you.",
        "Try again",
    ),
    "hu": (
        "A tananyag most foglalt",
        "Ezen a szerveren most minden hely foglalt. Próbáld újra egy perc múlva: "
        "a csillagaidat a böngésződ őrzi, megvárnak.",
        "Újra",
    ),
    "de": (
        "Der Kurs ist ausgelastet",
        "Alle Plätze auf diesem Server sind gerade belegt. Versuch es in einer Minute noch einmal: "
        "Deine Sterne bleiben in deinem Browser und warten auf dich.",
        "Noch einmal",
    ),
}
"""The busy page in the learner's language (the page's ``?lang=``, else the switch's cookie)."""


def busy_page(lang: str) -> str:
    title, text, again = BUSY_WORDS.get(lang, BUSY_WORDS["en"])
    return BUSY_PAGE.format(lang=lang if lang in BUSY_WORDS else "en", title=title, text=text, again=again)


WRONG_HOST_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Tartli: not this address</title></head>
<body><h1>Not this address</h1><p>This Tartli course answers only at {hosts}.</p></body></html>
"""


class CookieVoilaHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """Voilà's page handler, setting the ``_xsrf`` cookie that the page's shutdown beacon sends.

    Voilà's page sends the cookie with its "shut my kernel down" beacon when the visitor leaves,
    but nothing set it: the beacon got 403 and the kernel lived on until culled. Reading the token
    sets the cookie (tornado; on a Jupyter server with the server's cookie path, its base URL), so
    leaving a page shuts its kernel down. The course's server and Binder (:mod:`tartli.server.binder`)
    both serve pages with it.
    """

    async def get(self, path: str | None = None) -> None:
        _ = self.xsrf_token  # (the Jupyter server checks the login before get; Voilà's get checks it again)
        wanted = self.get_cookie(LANGUAGE_COOKIE, "")
        if self.get_argument("lang", None) is None and wanted in PAGE_LANGUAGES and wanted != "en":
            # the learner chose a language on another page: open this one in it before starting a kernel
            query = self.request.query
            self.redirect(self.request.path + "?" + (query + "&" if query else "") + "lang=" + wanted)
            return
        await super().get(path)

    def should_use_rendered_notebook(
        self, notebook_data: Any, pool_size: int, template_name: str, theme: str, request_args: Any
    ) -> bool:
        """A page asked for in another language than English gets its own kernel, not the pool's English one."""
        lang = self.get_argument("lang", "en")
        if lang != "en":
            return False
        return bool(super().should_use_rendered_notebook(notebook_data, pool_size, template_name, theme, request_args))


class CourseVoilaHandler(CookieVoilaHandler):
    """Voilà's page handler, with the kernel cap: a full server answers "busy", not a new kernel."""

    async def get(self, path: str | None = None) -> None:
        app: TartliVoila = self.settings["tartli_app"]
        running = len(self.kernel_manager.list_kernel_ids())
        if running >= app.kernel_cap:
            self.log.warning("tartli: %d kernels running (the cap): %s gets the busy page", running, self.request.path)
            self.set_status(503)
            self.set_header("Retry-After", "60")
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(busy_page(self.get_argument("lang", None) or self.get_cookie(LANGUAGE_COOKIE, "en")))
            return
        await super().get(path)  # sets the _xsrf cookie (CookieVoilaHandler), then renders


class WrongHostHandler(tornado.web.RequestHandler):
    """403 for a request whose Host is not one the course serves (DNS rebinding)."""

    def initialize(self, hosts: list[str]) -> None:
        self.hosts = hosts

    def prepare(self) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        shown = ", ".join(html.escape(h) for h in self.hosts)
        self.finish(WRONG_HOST_PAGE.format(hosts=shown))


def host_name(host_header: str) -> str:
    """The host of a Host header, without the port or an IPv6 address's brackets, in lower case.

    >>> host_name("LocalHost:8866"), host_name("[::1]:8866"), host_name("127.0.0.1")
    ('localhost', '::1', '127.0.0.1')
    """
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class CourseApplication(tornado.web.Application):
    """Tornado's application, answering only to the allowed hosts."""

    allowed_hosts: frozenset[str] = frozenset()

    def find_handler(self, request: Any, **kwargs: Any) -> Any:
        if "*" not in self.allowed_hosts and host_name(request.host or "") not in self.allowed_hosts:
            return self.get_handler_delegate(request, WrongHostHandler, {"hosts": sorted(self.allowed_hosts)})
        return super().find_handler(request, **kwargs)


# ---------------------------------------------------------------- the application
class TartliVoila(Voila):  # type: ignore[misc]
    """Voilà with the course's server checks (see the module's docstring)."""

    name = "voila"  # reads voila.json like Voilà itself

    allowed_hosts = List(
        Unicode(),
        ["127.0.0.1", "localhost", "::1"],
        help="Host names the course answers to (a request for any other gets 403); '*' allows every host.",
    ).tag(config=True)
    max_kernels = Int(
        0, help="Kernels at most (0: memory / 64 MiB, at most 50); past it visitors get a 'busy' page."
    ).tag(config=True)
    kernel_log = Unicode(
        "", help="The file the kernels write their log to (default: tartli-kernels-<port>.log in the temp folder)."
    ).tag(config=True)

    @property
    def kernel_cap(self) -> int:
        return self.max_kernels if self.max_kernels > 0 else default_max_kernels()

    def initialize(self, argv: Any = None) -> None:
        super().initialize(argv)
        self.kernel_websocket_connection_class = FrameCheckedConnection
        self.voila_configuration.multi_kernel_manager_class = CourseKernelManager
        log_path = self.kernel_log or str(Path(tempfile.gettempdir()) / f"tartli-kernels-{self.port}.log")
        self.kernel_log = log_path
        os.environ[KERNEL_LOG_ENV] = log_path  # the kernels inherit the server's environment

    def start(self) -> None:
        """Voilà's start, with the course's application class and page handler."""
        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        settings = self.init_settings()
        settings["tartli_app"] = self
        self.app = CourseApplication(**settings)
        hosts = set(self.allowed_hosts)
        if self.ip not in ("", "0.0.0.0", "::"):
            hosts.add(self.ip)
        self.app.allowed_hosts = frozenset(host_name(h) if h != "*" else h for h in hosts)
        self.app.settings.update(self.tornado_settings)
        handlers = [
            (pattern, CourseVoilaHandler if handler is TornadoVoilaHandler else handler, *rest)
            for pattern, handler, *rest in self.init_handlers()
        ]
        self.app.add_handlers(".*$", handlers)
        self.log.info("tartli: answering to %s; at most %d kernels", ", ".join(sorted(hosts)), self.kernel_cap)
        self.log.info("tartli: kernel errors are logged to %s and followed here", self.kernel_log)
        follow_kernel_log(Path(self.kernel_log), self.log)
        self.listen()


def follow_kernel_log(path: Path, log: Any) -> tornado.ioloop.PeriodicCallback:
    """Copy new lines of the kernels' log file ``path`` into the server's ``log`` every two seconds."""
    position = path.stat().st_size if path.exists() else 0

    def follow() -> None:
        nonlocal position
        try:
            size = path.stat().st_size
        except OSError:
            return
        if size < position:
            position = 0
        if size == position:
            return
        with path.open("r", encoding="utf-8", errors="replace") as file:
            file.seek(position)
            text = file.read(1_000_000)
            position = file.tell()
        for line in text.splitlines():
            if line.strip():
                log.warning("kernel: %s", line)

    callback = tornado.ioloop.PeriodicCallback(follow, 2000)
    callback.start()
    return callback


def main(argv: list[str] | None = None) -> None:
    TartliVoila.launch_instance(argv if argv is not None else sys.argv[1:])
