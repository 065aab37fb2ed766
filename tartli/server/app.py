"""Voilà as the course serves it: a few small subclasses for what a classroom server needs.

``python -m tartli.server NOTEBOOK_DIR --Voila.config_file_paths=...`` (what ``tartli course``
runs) is Voilà with these changes, each a fix for something a probe of the plain server found:

* **A place for every visitor, and a page's kernel waits for its page** (:mod:`tartli.server.kernels`):
  the kernel cap counts kernels starting and requests let in, not only running kernels; one
  browser (known by a cookie the server sets) holds at most a few kernels; a kernel handed out
  from Voilà's pool, or started for a page, is not culled before its page connects (a grace
  period for a page that never does), and its idle clock starts when the page connects. Past the
  cap a visitor gets a short "the course is busy" page (503, Retry-After).
* **A page never waits for ever for its kernel** (:class:`CookieVoilaHandler`, :func:`kernel_transport`): the
  kernels talk to the server over Unix sockets named by their ids, not TCP ports chosen and let go a moment
  before the kernel binds them (a kernel of a class opening pages at once died with "Address already in
  use"); and a page whose kernel dies before it answers, or never answers, ends with "This page did not
  start" and a link to try again, where Voilà kept it waiting and holding its place for ever.
* **Websocket messages are bounded** (:class:`FrameCheckedConnection`, ``websocket_max_message_size``):
  a message larger than :data:`WEBSOCKET_MAX_BYTES` closes the connection before it is read, and a
  frame whose offset or buffer count is more than a kernel message has (:data:`MAX_MESSAGE_BUFFERS`),
  or does not fit its length, is dropped before jupyter_server parses it (which builds a list as
  long as the count says, in the event loop).
* **Only the course's hosts** (``TartliVoila.allowed_hosts``): a request whose Host header names
  another site (DNS rebinding) gets 403, so a page elsewhere cannot drive a learner's local course.
* **Kernels shut down when a visitor leaves** (:class:`CookieVoilaHandler`): the page's beacon
  needs the ``_xsrf`` cookie, which plain Voilà never set (every beacon got 403); the page handler
  now sets it.
* **A page opens in the learner's language** (:class:`CookieVoilaHandler`): ``?lang=hu`` is read by
  the page's kernel (:mod:`tartli.i18n`), so such a page never takes a pool's kernel prepared in
  another language. A page asked for without ``?lang`` (the short address a class types) is
  redirected, before a kernel starts, to its address in :func:`page_language`: the learner's own
  switch (the ``tartli_lang`` cookie), else the class language (``--language``), else the browser's
  language (``Accept-Language``), else English, which needs no redirect.
  A page opened from a shared link (``?record=...``, :mod:`tartli.share`) gets its own kernel too,
  which Voilà starts with the address's query in ``QUERY_STRING``; every other page keeps its pool.
* **Kernel errors go to the server's log, with a bound** (:mod:`tartli.server.logs`): kernels write
  the course's log lines (and any uncaught error in a widget callback) to a file that this server
  follows into its own log, each line cut, each kernel rate-limited, the file rotated; the visitor
  sees a short message, never a traceback (:mod:`tartli.widgets.kernel_log`).
* **A page's templates are compiled once** (:mod:`tartli.server.render`): Voilà's render of every page
  compiled them again, about half of the server's CPU for a page.
* **A quiet start that ends with the course's address**: the warnings a learner cannot act on are
  not printed (notebooks "not trusted"; the kernels' "TCP without encryption": the kernels' traffic
  is encrypted instead, ``transport_encryption`` in ``voila.json``), ``/`` and ``/logout`` lead to
  the lesson index, and the last line printed at start-up is its address.

Voilà and jupyter_server internals are subclassed here, so :data:`SUPPORTED` names the versions
this was written for (pinned in pyproject.toml; the server warns at start outside them).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import html
import http.client
import logging
import os
import re
import secrets
import sqlite3
import struct
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote_to_bytes, urlencode

import nbformat
import tornado.iostream
import tornado.web
import tornado.websocket
import voila.app as voila_app
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado.log import gen_log
from traitlets import Bool, Float, Int, List, TraitError, Unicode, validate
from voila.app import Voila
from voila.execute import VoilaExecutor
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from tartli.course import DUELS_ENV, PAGES, page_named
from tartli.server import forking
from tartli.server.class_pages import API_COOKIE, class_page_handlers
from tartli.server.classes import NO_CLASS_SIZE, Refused, class_handlers
from tartli.server.classroom import TEACHER_FILE, ClassFolder, Limiter, default_data_dir, normal_code, open_class
from tartli.server.duel_api import SEAT_COOKIE, duel_handlers
from tartli.server.duel_pages import duel_page_handlers
from tartli.server.duels import DuelFolder
from tartli.server.duels import NotAllowed as DuelNotAllowed
from tartli.server.kernels import (
    ANONYMOUS,
    KERNEL_ENV,
    KERNEL_LOG_ENV,
    PAGE_START,
    UNCONNECTED_YIELD,
    ClassPupils,
    KernelPolicy,
    PageStart,
    course_kernel_manager,
    done_serving,
    proc_kib,
    serving,
)
from tartli.server.logs import Throttle, follow_kernel_log, quiet_server_log
from tartli.server.render import share_compiled_templates
from tartli.server.worksheets import worksheet_handlers

KERNEL_MIB = 64
"""About what one visitor's kernel takes (measured by the app benchmark: about 60 MiB)."""
MAX_KERNELS_DEFAULT_CEILING = 50
MAX_CLASS_SIZE = 200
"""The most pupils ``--class-size`` prepares for."""
UNIX_SOCKET_PATH_MAX = 100
"""The longest path a kernel's Unix socket may have (the system's limit: 107 bytes on Linux, 103 on macOS)."""


def kernel_transport(connection_dir: str) -> str:
    """How the server and its kernels talk: ``"ipc"`` (zmq over Unix sockets in the connection folder, named by
    the kernel's id), else ``"tcp"``, jupyter_client's default.

    Over TCP, jupyter_client chooses a new kernel's five ports by binding port 0 and letting them go; the kernel
    binds them a moment later. Any connection made in between may be given one of them as its own end (the
    server's connections to the other kernels, the browsers' to the server): the kernel dies with "Address
    already in use", and its restarts take the same ports (jupyter_client keeps a provisioner's ports). Thirty
    pages at once hit it about once in eight (the page never came: tests/browser/test_class_server.py).
    A Unix socket has a name of its own, so the race is gone (and only this user can reach the kernels). Not on
    Windows, and not where the folder's path is too long for a socket's name."""
    longest = os.path.join(connection_dir, f"kernel-{uuid.UUID(int=0)}-ipc-999")
    if os.name != "posix" or len(longest.encode()) > UNIX_SOCKET_PATH_MAX:
        return "tcp"
    return "ipc"


LANGUAGE_COOKIE = "tartli_lang"
"""The cookie the page's language switch sets (the page template): the language chosen last."""
GUESS_COOKIE = "tartli_lang_default"
"""The language the server gives this browser while it has chosen none (:func:`page_language`). The page
template reads it: a page opened in it is not remembered as the learner's choice (a browser in a school's
room keeps no language from the last class)."""
VISITOR_COOKIE = "tartli_visitor"
"""The cookie that tells one browser from another (a random name; it holds nothing else)."""
COOKIE_TRIED = "tartli_cookie"
"""Marks the address a browser was sent to with a new visitor cookie (a client that comes back
without it keeps no cookies, and shares one kernel with every such client)."""
_VISITOR_FORMAT = re.compile(r"([0-9a-f]{32})\.([0-9a-f]{8})\.([0-9a-f]{32})")
"""A visitor cookie the server issued: a random name, when it was issued (seconds, hex) and their signature
(HMAC-SHA256 under the server's own key, made at start): a cookie the server never issued (a script's made-up
one) counts as no cookie."""
ESTABLISHED_AFTER = 30.0
"""Seconds after its cookie was issued a browser counts as established: on a full server it may take the place of
a page that a browser newer than that was sent and never connected (a script taking a fresh cookie for every
request is always new; a pupil who came before it is not)."""
NEW_VISITORS_PER_MINUTE = 60
"""Visitor cookies one address is given a minute (a class of 30 behind one router starts at once, with
reloads): past it, a browser from that address is served as one that keeps no cookies (one kernel, shared).
A script that takes a fresh cookie for every request cannot hold a class's places this way."""
PAGE_LANGUAGES = ("en", "hu", "de")
WEBSOCKET_MAX_BYTES = 1024 * 1024
"""The largest websocket message a page may send its kernel. The largest the course sends is a saved
game (:data:`tartli.widgets.board.MAX_SAVED_GAME_BYTES`, 256 KiB; a real one is a few kilobytes)."""
MAX_MESSAGE_BUFFERS = 64
"""A kernel message over the websocket has a channel, four JSON parts and its binary buffers (the
course's pages send at most one: a saved game). A frame that claims more is refused unread."""
SUPPORTED = {
    "voila": ((0, 5, 13), (0, 6)),
    "jupyter_server": ((2, 21), (3,)),
    "nbconvert": ((7, 16), (8,)),
    "jupyter_client": ((8, 6), (9,)),
}
"""The versions the subclasses here were written and tested for: lowest tested, first one not."""


def default_max_kernels() -> int:
    """Kernels the machine can hold: its memory / 64 MiB, at least 4 and at most 50."""
    return min(MAX_KERNELS_DEFAULT_CEILING, memory_kernels())


def memory_kernels() -> int:
    """Kernels the machine's memory holds at 64 MiB a kernel (no ceiling; 50 where it cannot be read)."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return MAX_KERNELS_DEFAULT_CEILING
    return max(4, memory // (KERNEL_MIB * 1024 * 1024))


def available_memory_mib() -> float:
    """The memory available now (Linux's MemAvailable, MiB; else the machine's memory / 4)."""
    kib = proc_kib("/proc/meminfo", "MemAvailable")
    if kib is not None:
        return kib / 1024
    try:
        return float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")) / 2**20 / 4
    except (ValueError, OSError, AttributeError):
        return 4096.0


def version_tuple(text: str) -> tuple[int, ...]:
    """The leading numbers of a version: ``"0.5.13"`` -> (0, 5, 13); ``"2.22.0rc1"`` -> (2, 22, 0).

    >>> version_tuple("0.5.13"), version_tuple("2.22.0rc1"), version_tuple("3")
    ((0, 5, 13), (2, 22, 0), (3,))
    """
    numbers = []
    for part in text.split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        numbers.append(int(digits.group()))
        if digits.group() != part:
            break
    return tuple(numbers)


def unsupported_versions() -> list[str]:
    """What is installed outside :data:`SUPPORTED`, one sentence each (empty when all is as tested)."""
    problems = []
    for package, (lowest, first_not) in SUPPORTED.items():
        try:
            installed = metadata.version(package)
        except metadata.PackageNotFoundError:
            problems.append(f"{package} is not installed")
            continue
        if not lowest <= version_tuple(installed) < first_not:
            wanted = ">=" + ".".join(map(str, lowest)) + ",<" + ".".join(map(str, first_not))
            problems.append(
                f"{package} {installed} is installed; the course's server subclasses its internals and was "
                f"written for {package}{wanted}"
            )
    return problems


# ---------------------------------------------------------------- websocket frames
V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"


def frame_problem(message: Any, protocol: str | None) -> str | None:
    """Why a kernel websocket frame must be dropped unparsed, or None if its shape is sound.

    v1 frames start with a little-endian 64-bit count of offsets, then the offsets, each within
    the frame; legacy binary frames with a big-endian 32-bit buffer count and 32-bit offsets. A
    count larger than a message with :data:`MAX_MESSAGE_BUFFERS` buffers needs is refused before any
    offset is read (v1: the channel, four JSON parts, the buffers, and the end: 6 + buffers offsets;
    legacy: the JSON part and the buffers).

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
        if count < 2 or count > 6 + MAX_MESSAGE_BUFFERS or 8 * (count + 1) > len(message):
            return f"v1 frame of {len(message)} bytes claims {count} offsets"
        offsets = struct.unpack_from(f"<{count}Q", message, 8)
        if any(offsets[i + 1] < offsets[i] for i in range(count - 1)) or offsets[-1] > len(message):
            return "v1 frame whose offsets do not fit it"
        return None
    if isinstance(message, bytes):
        if len(message) < 4:
            return f"binary frame of {len(message)} bytes"
        (count,) = struct.unpack("!i", message[:4])
        if count < 1 or count > 1 + MAX_MESSAGE_BUFFERS or 4 * (count + 1) > len(message):
            return f"binary frame of {len(message)} bytes claims {count} buffers"
    return None


_DROPPED_FRAMES = Throttle(per_window=10, window=60.0)


class FrameCheckedConnection(ZMQChannelsWebsocketConnection):
    """The kernel websocket connection, refusing frames whose counts do not fit their length."""

    def handle_incoming_message(self, incoming_msg: Any) -> None:
        problem = frame_problem(incoming_msg, self.subprotocol)
        if problem is None:
            try:
                super().handle_incoming_message(incoming_msg)
            except (ValueError, KeyError, TypeError, AttributeError, AssertionError, IndexError) as error:
                # text that is not JSON, a message without its parts (jupyter_server reads them unchecked): one
                # line, not a traceback of 20 with the machine's paths, for each such frame
                problem = f"a message jupyter_server could not read: {type(error).__name__}"
        if problem is not None:
            allowed, dropped = _DROPPED_FRAMES.allow("frames")
            if allowed:
                more = f"; {dropped} more in the last minute" if dropped else ""
                self.log.warning("tartli: dropped a malformed kernel websocket frame (%s%s)", problem, more)


BUSY_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tartli: {title}</title>
<style>body{{font-family:"Segoe UI","Helvetica Neue",Arial,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;
color:#1f2d24;line-height:1.5}}a{{color:#1f6b35;font-weight:600}}</style></head>
<body><main><h1>{title}</h1>
<p>{text}</p>
<p><a href="">{again}</a></p></main></body></html>
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
YOURS_WORDS = {
    "en": (
        "Too many pages open",
        "This browser has {n} pages of the course open. Close one you no longer use, then try again.",
        "Try again",
    ),
    "hu": (
        "Túl sok nyitott oldal",
        "Ebben a böngészőben a tananyag {n} oldala van nyitva. Zárj be egyet, amelyre már nincs szükséged, "
        "aztán próbáld újra.",
        "Újra",
    ),
    "de": (
        "Zu viele offene Seiten",
        "In diesem Browser sind {n} Seiten des Kurses offen. Schließ eine, die du nicht mehr brauchst, "
        "und versuch es dann noch einmal.",
        "Noch einmal",
    ),
}
"""The page for a browser that holds its limit of kernels (``TartliVoila.kernels_per_visitor``)."""


NOT_STARTED_WORDS = {
    "en": (
        "This page did not start",
        "The server could not prepare this page just now. Please try again: your stars are kept in your browser "
        "and wait for you.",
        "Try again",
    ),
    "hu": (
        "Ez az oldal nem indult el",
        "A szerver most nem tudta előkészíteni ezt az oldalt. Próbáld újra: a csillagaidat a böngésződ őrzi, "
        "megvárnak.",
        "Újra",
    ),
    "de": (
        "Diese Seite konnte nicht starten",
        "Der Server konnte diese Seite gerade nicht vorbereiten. Versuch es noch einmal: Deine Sterne bleiben in "
        "deinem Browser und warten auf dich.",
        "Noch einmal",
    ),
}
"""What a page says, in place of its spinner, when its kernel did not start (:class:`CookieVoilaHandler`)."""
START_GRACE = 10.0
"""Seconds a page waits past nbclient's ``startup_timeout`` before it says its kernel did not start."""
VOILA_HEARTBEAT = "<script>window.voila_heartbeat()</script>\n"
"""What Voilà's page handler sends while it waits (voila/handler.py, ``time_out``)."""
STARTED_MARK = 'id="jupyter-config-data"'
"""Where a page's HTML first names its kernel: sent once the kernel has answered (Voilà's lab template)."""
NOT_STARTED_PIECE = """</div></div>
<main id="tartli-not-started" lang="{lang}" style="font-family:'Segoe UI','Helvetica Neue',Arial,sans-serif;
max-width:36em;margin:3em auto;padding:0 1em;color:#1f2d24;line-height:1.5;font-size:16px">
<h1>{title}</h1><p role="alert">{text}</p>
<p><a href="" style="color:#1f6b35;font-weight:600;display:inline-block;min-height:44px;line-height:44px">{again}</a>
</p></main>
<script>(function () {{
  var box = document.getElementById("tartli-not-started");
  document.body.appendChild(box);
  var loading = document.getElementById("loading");
  if (loading) {{ loading.remove(); }}
}})();</script>
</body></html>
"""


def not_started_piece(lang: str) -> str:
    """The end of a page whose kernel did not start: the page's spinner gives way to a short message and a link
    that asks for the page again, in the learner's language."""
    title, text, again = NOT_STARTED_WORDS.get(lang, NOT_STARTED_WORDS["en"])
    return NOT_STARTED_PIECE.format(lang=lang, title=title, text=text, again=again)


def accepted_language(header: str | None) -> str | None:
    """The course's language a browser's ``Accept-Language`` header prefers most (the highest q; the first
    of equals), or None if it names none of them.

    >>> accepted_language("de-AT,de;q=0.9,en;q=0.8"), accepted_language("fr, hu;q=0.5, de;q=0.7")
    ('de', 'de')
    >>> accepted_language("en-US,en;q=0.9,hu;q=0.8"), accepted_language("fr, *;q=0.5"), accepted_language("hu;q=0")
    ('en', None, None)
    """
    best, best_q = None, 0.0
    for item in (header or "").split(",")[:32]:
        tag, *params = item.split(";")
        lang = tag.strip().lower().split("-")[0]
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = min(1.0, float(value))
                except ValueError:
                    q = 0.0
        if lang in PAGE_LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


def page_language(asked: str | None, chosen: str | None, class_language: str, accept_language: str | None) -> str:
    """The language a page opens in: the address's ``?lang=`` (``asked``), else the learner's own switch
    (``chosen``, the ``tartli_lang`` cookie), else the class language (``--language``; ``""`` if the
    server was not given one), else the browser's (``Accept-Language``), else English.

    The address wins because it is the one the learner (or the teacher's link) asked for just now; the
    switch beats the class language, so that a learner who reads better in English can; the class
    language beats the browser's, since a teacher chose it for this class; a server started without
    ``--language`` has no class language, so a German browser gets German rather than English.

    >>> page_language(None, None, "hu", "de"), page_language(None, "en", "hu", "de")
    ('hu', 'en')
    >>> page_language("de", "en", "hu", None)
    'de'
    >>> page_language(None, None, "", "de-AT,de;q=0.9"), page_language(None, "xx", "", None)
    ('de', 'en')
    """
    for lang in (asked, chosen, class_language, accepted_language(accept_language)):
        if lang in PAGE_LANGUAGES:
            return lang
    return "en"


def request_language(handler: tornado.web.RequestHandler, asked: str | None) -> str:
    """:func:`page_language` of a request to the course's server: ``asked`` (its ``?lang=``, or None), then the
    learner's switch (the cookie), the class language (``--language``), the browser's."""
    app = handler.settings.get("tartli_app")
    return page_language(
        asked,
        handler.get_cookie(LANGUAGE_COOKIE, None),
        str(getattr(app, "language", "") or ""),
        handler.request.headers.get("Accept-Language"),
    )


def busy_page(lang: str, yours: int = 0) -> str:
    """The "course is busy" page, or with ``yours`` the "too many pages open in this browser" page."""
    lang = lang if lang in BUSY_WORDS else "en"
    title, text, again = (YOURS_WORDS if yours else BUSY_WORDS)[lang]
    return BUSY_PAGE.format(lang=lang, title=title, text=text.format(n=yours), again=again)


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
        if self.sent_to_its_language():
            return
        watch = PAGE_START.set(PageStart())
        try:
            await super().get(path)
        finally:
            PAGE_START.reset(watch)

    async def get_generator(self, path: str | None = None) -> AsyncIterator[str]:
        """Voilà's page, ended with a message if its kernel does not start (:class:`tartli.server.kernels.PageStart`
        says why Voilà alone would keep the page waiting for ever): checked at each of Voilà's keep-alives until
        the page names its kernel, and the kernel shut down."""
        watch = PAGE_START.get()
        pieces = super().get_generator(path=path)
        try:
            async for piece in pieces:
                if watch is not None:
                    if piece == VOILA_HEARTBEAT:
                        why = watch.failed(self.start_wait(), time.monotonic())
                        if why is not None:
                            await self.not_started(watch.kernel_id, why)
                            yield not_started_piece(self.page_language())
                            return
                    elif STARTED_MARK in piece:
                        watch = None  # (the kernel has answered: nothing more to watch)
                yield piece
        finally:
            await pieces.aclose()

    def start_wait(self) -> float:
        """Seconds after which a page's kernel that has not answered never will: nbclient's ``startup_timeout``
        (as configured for Voilà's executor, 60 by default), and a little more."""
        executor = VoilaExecutor(nbformat.v4.new_notebook(), config=self.traitlet_config)  # type: ignore[no-untyped-call]
        return float(executor.startup_timeout) + START_GRACE

    async def not_started(self, kernel_id: str | None, why: str) -> None:
        self.log.warning("tartli: a page's kernel did not start (%s): %s was told to try again", why, self.request.path)
        manager = self.kernel_manager
        if kernel_id is not None and kernel_id in manager:
            try:
                await manager.shutdown_kernel(kernel_id, now=True)
            except Exception as problem:  # (the page is ended either way; the cull takes what is left)
                self.log.warning("tartli: shutting down kernel %s failed: %r", kernel_id, problem)

    def class_language(self) -> str:
        """The language the server was told the class learns in (``--language``), ``""`` if none (Binder)."""
        app = self.settings.get("tartli_app")
        return str(getattr(app, "language", "") or "")

    def page_language(self) -> str:
        """This request's language (:func:`page_language`)."""
        return request_language(self, self.get_query_argument("lang", None))

    def sent_to_its_language(self) -> bool:
        """Redirect a page asked for without ``?lang`` to its address in :meth:`page_language` (English
        needs none), before a kernel starts: its kernel reads the address, and a page in the class language
        comes from the pools. Tells the page template the language this browser gets while it chooses
        none (:data:`GUESS_COOKIE`)."""
        guess = page_language(None, None, self.class_language(), self.request.headers.get("Accept-Language"))
        self.set_cookie(GUESS_COOKIE, guess, path=self.base_url, samesite="Lax")
        if self.get_query_argument("lang", None) is not None:
            return False
        wanted = self.page_language()
        if wanted == "en":
            return False
        query = self.request.query
        self.redirect(self.request.path + "?" + (query + "&" if query else "") + "lang=" + wanted)
        return True

    def should_use_rendered_notebook(
        self, notebook_data: Any, pool_size: int, template_name: str, theme: str, request_args: Any
    ) -> bool:
        """A page asked for in another language than the pools' (English unless ``--language``) gets its own
        kernel; so does a page opened from a shared link (``?record=``, :mod:`tartli.share`): a pooled kernel ran its
        notebook before the request came, without the address's query."""
        lang = self.get_argument("lang", "en")
        pooled = getattr(self.kernel_manager, "policy", KernelPolicy()).language
        if (
            lang != pooled
            or self.get_argument("record", None) is not None
            or self.get_argument("duel", None) is not None
        ):
            return False
        return bool(super().should_use_rendered_notebook(notebook_data, pool_size, template_name, theme, request_args))


class CourseVoilaHandler(CookieVoilaHandler):
    """Voilà's page handler, letting a request in only where it has a place (:mod:`tartli.server.kernels`)."""

    _refusals = Throttle(per_window=20, window=60.0)

    async def get(self, path: str | None = None) -> None:
        visitor = self._visitor()
        if visitor is None:
            return  # sent on, with a cookie or to the address without the marker
        if self.sent_to_its_language():
            return  # (before it takes a place: its address in its language is asked for next)
        seat = self._seat()
        if seat is None:
            return  # sent to take a seat at the table first
        manager = self.kernel_manager
        app: TartliVoila = self.settings["tartli_app"]
        established = app.visitor_established(self.get_cookie(VISITOR_COOKIE, "") or "")
        admission = manager.admit(
            visitor,
            needs_place=not self._served_from_pool(path),
            established=established,
            pupils=app.class_pupils.now(),
        )
        if admission.refused is not None:
            self._refuse(admission.refused, visitor)
            return
        mark = serving(admission.token, visitor)
        seated = KERNEL_ENV.set(seat) if seat else None
        self.set_cookie(API_COOKIE, "1", path=self.base_url, samesite="Lax")  # (the template loads the class script)
        try:
            await manager.room_made(admission)
            await super().get(path)  # sets the _xsrf cookie (CookieVoilaHandler), then renders
        finally:
            manager.page_sent(admission.token)
            manager.release(admission.token)
            done_serving(mark)
            if seated is not None:
                KERNEL_ENV.reset(seated)

    def _seat(self) -> dict[str, str] | None:
        """A table for two browsers (``?duel=CODE``, issue 38): the seat this browser holds there, as the
        variables its page's kernel gets (the seat's token and the server's own address, for the kernel to
        call the duel API: :mod:`tartli.widgets.duel`); ``{}`` for a page that names no table. None: the
        browser holds no seat there, and was sent to the page where a seat is taken."""
        code = self.get_query_argument("duel", None)
        if code is None:
            return {}
        code = normal_code(code)
        token = self.get_cookie(SEAT_COOKIE + code, "") or ""
        folder: DuelFolder | None = getattr(self.settings.get("tartli_app"), "duel_folder", None)
        try:
            if folder is None or not token:
                raise DuelNotAllowed()
            folder.store().version_of(code, token)
        except (DuelNotAllowed, sqlite3.Error):
            query = urlencode({"code": code, "lang": self.page_language()})
            self.redirect(f"{self.base_url}tartli/duel?{query}")
            return None
        return {"TARTLI_SEAT": token, "TARTLI_SERVER": self.settings["tartli_app"].own_url}

    def _visitor(self) -> str | None:
        """This browser's visitor name; None if the request was redirected (a cookie was set)."""
        app: TartliVoila = self.settings["tartli_app"]
        cookie = self.get_cookie(VISITOR_COOKIE, "") or ""
        tried = self.get_query_argument(COOKIE_TRIED, None) is not None
        name = app.visitor_of(cookie)
        if name is not None:
            if tried:  # the cookie came back: the same address without the marker
                self.redirect(self._address(drop_marker=True))
                return None
            return name
        if tried or not app.new_visitors.allow(self.request.remote_ip or ""):
            return ANONYMOUS  # keeps no cookies, or this address has had its new cookies for this minute
        self.set_cookie(
            VISITOR_COOKIE,
            app.new_visitor_cookie(),
            path=self.base_url,
            httponly=True,
            samesite="Lax",
            expires_days=365,
        )
        self.redirect(self._address(drop_marker=False))
        return None

    def _address(self, drop_marker: bool) -> str:
        query = [(k, v) for k, v in parse_qsl(self.request.query, keep_blank_values=True) if k != COOKIE_TRIED]
        if not drop_marker:
            query.append((COOKIE_TRIED, "1"))
        path: str = self.request.path
        return path + ("?" + urlencode(query) if query else "")

    def _served_from_pool(self, path: str | None) -> bool:
        """Will a kernel waiting in Voilà's pool serve this request (so that it needs no new place)?"""
        manager = self.kernel_manager
        notebook = self.notebook_path or path or ""
        if not hasattr(manager, "get_rendered_notebook") or not manager.pool_is_ready(notebook):
            return False
        return self.should_use_rendered_notebook(
            manager.notebook_data.get(notebook, {}),
            manager.get_pool_size(notebook),
            self.get_argument("template", None),
            self.get_argument("theme", None),
            self.request.arguments,
        )

    def _refuse(self, why: str, visitor: str) -> None:
        app: TartliVoila = self.settings["tartli_app"]
        allowed, dropped = self._refusals.allow(why)
        if allowed:
            more = f" ({dropped} more in the last minute)" if dropped else ""
            if why == "full":
                self.log.warning(
                    "tartli: every place is taken (%d): %s gets the busy page%s",
                    app.kernel_cap,
                    self.request.path,
                    more,
                )
            else:
                self.log.warning(
                    "tartli: a browser holds its %d kernels: %s gets the too-many-pages page%s",
                    app.kernels_per_visitor,
                    self.request.path,
                    more,
                )
        self.set_status(503 if why == "full" else 429)
        self.set_header("Retry-After", "60")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        lang = self.page_language()
        limit = 1 if visitor == ANONYMOUS else app.kernels_per_visitor
        self.finish(busy_page(lang, yours=0 if why == "full" else limit))


class IndexRedirectHandler(tornado.web.RequestHandler):
    """``/`` and ``/logout`` lead to the lesson index (the course has no log-in, and Voilà's file list
    is not where a learner starts; Voilà's logout page answered 500)."""

    def initialize(self, index: str) -> None:
        self.index = index

    def get(self) -> None:
        self.redirect(self.index)


class WrongHostHandler(tornado.web.RequestHandler):
    """403 for a request whose Host is not one the course serves (DNS rebinding). Its line in the log says the
    host (cut and escaped, as every line: :class:`tartli.server.logs.OneLineRecords`)."""

    def initialize(self, hosts: list[str]) -> None:
        self.hosts = hosts

    def prepare(self) -> None:
        # (said the way tornado says why it refused a request: the log adds it to the request's own line)
        gen_log.warning("%d %s: %s", 403, self._request_summary(), f"not a host of the course: {self.request.host}")
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


def path_problem(path: str) -> str | None:
    """Why a request's path (as sent, %-encoded) is refused with 400 before any handler reads it, or None.

    A path whose bytes are not UTF-8, or with a control character (NUL, CR, LF ...): Voilà's page handler
    put such a path into a redirect's Location header, which tornado refuses (HTTP 500 and a traceback
    for ``/voila/render/%00``), and the file handlers pass it to the file system.

    >>> path_problem("/voila/render/00_index.ipynb"), path_problem("/voila/render/%C3%A1.ipynb")
    (None, None)
    >>> path_problem("/voila/render/%00"), path_problem("/voila/render/a%0d%0ab"), path_problem("/x/%ff")
    ('a control character in the path', 'a control character in the path', 'a path that is not UTF-8')
    """
    try:
        text = unquote_to_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        return "a path that is not UTF-8"
    if _CONTROL.search(text):
        return "a control character in the path"
    return None


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
TEMPLATE_FILE = re.compile(r"[\w.-]+/static/[^\\]+")
"""What ``/voila/templates/`` serves: ``<template>/static/<file>`` (anything else: 404)."""
ERROR_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Tartli: {code} {reason}</title></head>
<body><h1>{code}: {reason}</h1><p><a href="{index}">The course's lessons</a></p></body></html>
"""


class BadPathHandler(tornado.web.RequestHandler):
    """400 for a path no page has (:func:`path_problem`), in one line of the log."""

    def initialize(self, why: str) -> None:
        self.why = why

    def prepare(self) -> None:
        gen_log.warning("%d %s: %s", 400, self._request_summary(), self.why)
        raise tornado.web.HTTPError(400)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(error_page(self, status_code))


def error_page(handler: tornado.web.RequestHandler, status_code: int) -> str:
    """A short error page (no traceback, no path of the machine), with a link to the lessons."""
    index = str(handler.settings.get("base_url", "/")) + "voila/render/"
    reason = http.client.responses.get(status_code, "Error")
    return ERROR_PAGE.format(code=status_code, reason=html.escape(reason), index=html.escape(index))


class CourseTemplateFiles(TemplateStaticFileHandler):  # type: ignore[misc]
    """Voilà's template files, but 404 for a path that is not ``<template>/static/<file>`` (:data:`TEMPLATE_FILE`):
    Voilà's handler split any other path unchecked (HTTP 500 and a traceback for ``/voila/templates/x``)."""

    async def get(self, path: str, include_body: bool = True) -> None:
        if not TEMPLATE_FILE.fullmatch(path) or ".." in path.split("/"):
            raise tornado.web.HTTPError(404)
        try:
            await super().get(path, include_body)
        except (ValueError, OSError) as error:  # (what the file system makes of an odd name)
            raise tornado.web.HTTPError(404) from error


class PlainErrors:
    """For a Jupyter server handler whose error page needs the Jupyter server's own templates and static files
    (Voilà serves neither: the error page itself failed, with a traceback, for ``/voila/labextensions/x``):
    the short :func:`error_page` instead."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        handler: Any = self
        handler.finish(error_page(handler, status_code))


def course_handler(handler: Any) -> Any:
    """The course's class for a handler of Voilà's list: the page handler with the places
    (:class:`CourseVoilaHandler`), the template files checked, and plain error pages for Jupyter's page
    handlers that are not the API's (its JSON errors stay) nor Voilà's pages (which have the course's)."""
    if handler is TornadoVoilaHandler:
        return CourseVoilaHandler
    if handler is TemplateStaticFileHandler:
        return CourseTemplateFiles
    if (
        isinstance(handler, type)
        and issubclass(handler, JupyterHandler)
        and not issubclass(handler, (APIHandler, TornadoVoilaHandler, TornadoVoilaTreeHandler))
    ):
        return type(f"Plain{handler.__name__}", (PlainErrors, handler), {})
    return handler


class CourseApplication(tornado.web.Application):
    """Tornado's application, answering only to the allowed hosts, and only to paths a page can have."""

    allowed_hosts: frozenset[str] = frozenset()

    def find_handler(self, request: Any, **kwargs: Any) -> Any:
        if "*" not in self.allowed_hosts and host_name(request.host or "") not in self.allowed_hosts:
            return self.get_handler_delegate(request, WrongHostHandler, {"hosts": sorted(self.allowed_hosts)})
        why = path_problem(request.path or "")
        if why is not None:
            return self.get_handler_delegate(request, BadPathHandler, {"why": why})
        return super().find_handler(request, **kwargs)


# ---------------------------------------------------------------- the application
class _StartNoise(logging.Filter):
    """Lines a learner cannot act on: every notebook "is not trusted" (the course never shows a
    notebook's stored outputs, it runs its code in the pages' kernels), Voilà's "running at" with the
    address of its file list (the course prints the lesson index's address instead), and tornado's
    note, at the first page, that jupyter_server's websocket ping timeout is longer than its interval."""

    NOISE = ("Notebook %s is not trusted", "Voilà is running at", "The websocket_ping_timeout")

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.NOISE)


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
    kernels_per_visitor = Int(
        4, help="Kernels one browser may hold (requests without the course's cookie share one)."
    ).tag(config=True)
    connect_grace = Float(
        300.0, help="Seconds a page's kernel waits for its page to connect before it is shut down."
    ).tag(config=True)
    unconnected_yield = Float(
        UNCONNECTED_YIELD,
        help="Seconds after its page was sent a page that never connected gives its place up to a visitor when "
        "every place is taken.",
    ).tag(config=True)
    fork_kernels = Bool(
        True,
        help="Start each kernel by forking it from a kernel template: one process that has imported what every "
        "kernel imports (ipykernel, ipywidgets, the course's common modules), so that a cold page's kernel starts in "
        "milliseconds and shares that memory (Linux; elsewhere, or if the template fails, kernels start as usual).",
    ).tag(config=True)
    kernel_log = Unicode(
        "", help="The file the kernels write their log to (default: tartli-kernels-<port>.log in the temp folder)."
    ).tag(config=True)
    announce = Unicode(
        "", help="The page whose address is printed when the server is ready (relative to voila/render/)."
    ).tag(config=True)
    language = Unicode(
        "",
        help="The language the class learns in (en, hu, de): a browser that has chosen none gets its pages in it "
        "(before its own Accept-Language), prepared ahead in the pools; a page asked for in another language starts "
        "its own kernel. Empty (the default): no class language; the pools prepare English.",
    ).tag(config=True)

    data_dir = Unicode(
        "",
        help="The folder the course keeps its classes in (a SQLite file; default: the user's data folder, "
        "e.g. ~/.local/share/tartli).",
    ).tag(config=True)
    duel_away_after = Float(
        120.0,
        help="Seconds a player's page at a table for two must have been gone before the other may let the computer "
        "play for them.",
    ).tag(config=True)
    class_size = Int(
        0,
        help="Pupils expected at once: that many kernels are kept ready for the index and for each page of "
        "--TartliVoila.prepare (within the cap and --TartliVoila.prepare_memory), refilled as pupils take them. "
        "0 (the default): one ready kernel a page.",
    ).tag(config=True)
    prepare = List(
        Unicode(),
        [],
        help="The pages a class opens today (file names, e.g. 03_deal.ipynb): with --TartliVoila.class_size, "
        "kernels are kept ready for them.",
    ).tag(config=True)
    prepare_memory = Int(
        0,
        help="MiB the kernels kept ready may hold in all (0: half the memory available at start).",
    ).tag(config=True)
    class_name = Unicode(
        "",
        help="Open a class of this name at start (made the first time, the same class after a restart): its code "
        "for the pupils and the teacher's link are printed.",
    ).tag(config=True)

    @validate("language")
    def _known_language(self, proposal: Any) -> str:
        value = str(proposal["value"]).strip().lower()
        if value and value not in PAGE_LANGUAGES:
            raise TraitError(f"--language: one of {', '.join(sorted(PAGE_LANGUAGES))}, not {proposal['value']!r}")
        return value

    @validate("prepare")
    def _known_pages(self, proposal: Any) -> list[str]:
        pages = []
        for name in proposal["value"]:
            found = page_named(str(name))
            if found is None:
                known = ", ".join(p.file.removesuffix(".ipynb") for p in PAGES)
                raise TraitError(f"--prepare: a page of the course ({known}), not {name!r}")
            if found not in pages:
                pages.append(found)
        return pages

    @validate("class_size")
    def _class_size(self, proposal: Any) -> int:
        value = int(proposal["value"])
        if not 0 <= value <= MAX_CLASS_SIZE:
            raise TraitError(f"--class-size: 0 to {MAX_CLASS_SIZE} pupils, not {value}")
        return value

    @property
    def course_map(self) -> str:
        """The page the course opens on (``--announce``, else the lesson index): always prepared for a class."""
        return str(self.announce or PAGES[0].file)

    @property
    def prepared_pages(self) -> dict[str, int]:
        """The pages kept ready for a class (``--class-size``), with their pool size: the index first."""
        if self.class_size <= 0:
            return {}
        pages = [self.course_map, *self.prepare]
        return {page: self.class_size for page in dict.fromkeys(pages)}

    def lesson_of_the_day(self) -> dict[str, Any] | None:
        """What the teacher's page says of the class's prepared lesson: ``{"page", "ready", "wanted"}`` (``page``
        None while only the course map is prepared; the first of several ``--prepare`` pages); None without
        ``--class-size`` (nothing is prepared for a class)."""
        if self.class_size <= 0:
            return None
        index = self.course_map
        page = next((p for p in self.prepare if p != index), index if index in self.prepare else None)
        manager = self.kernel_manager
        ready = manager.ready_in_pools().get(page, 0) if page is not None and hasattr(manager, "ready_in_pools") else 0
        return {"page": page, "ready": ready, "wanted": self.class_size}

    def prepare_lesson(self, name: str) -> dict[str, Any]:
        """Make ``name`` (a page of the course: "03", "03_deal" or its file) the lesson of the day while the server
        runs (the teacher's page): its pool grows to the class size, filled gradually; the lesson prepared before
        goes back to the default, its extra waiting kernels shut down; the course map stays prepared. The answer
        is :meth:`lesson_of_the_day` and ``released`` (the kernels shut down now). Refused (``Refused``: 409)
        without ``--class-size``, and (400) for a name that is no page of the course."""
        if self.class_size <= 0:
            raise Refused(409, NO_CLASS_SIZE)
        found = page_named(name)
        if found is None:
            known = ", ".join(p.file.removesuffix(".ipynb") for p in PAGES)
            raise Refused(400, f"page: a page of the course ({known}), not {name[:40]!r}")
        before = [p for p in self.prepared_pages if p != self.course_map]
        self.prepare = [found]
        released = self.kernel_manager.prepare_pools(self.prepared_pages)
        self.log.info(
            "tartli: the lesson of the day is now %s: %d kernels wanted for it%s",
            found.removesuffix(".ipynb"),
            self.class_size,
            "".join(f"; {p.removesuffix('.ipynb')} back to the default" for p in before if p != found),
        )
        return {**(self.lesson_of_the_day() or {}), "released": released}

    def new_visitor_cookie(self) -> str:
        """A visitor cookie's value: a random name and the time it is issued, signed with the server's key."""
        name, issued = secrets.token_hex(16), f"{int(time.time()) & 0xFFFFFFFF:08x}"
        return f"{name}.{issued}.{self._visitor_mac(name + '.' + issued)}"

    def visitor_of(self, cookie: str) -> str | None:
        """The visitor a cookie names, if this server issued it (its signature checks out); else None."""
        found = self._checked_cookie(cookie)
        return None if found is None else found[0]

    def visitor_established(self, cookie: str) -> bool:
        """Was this (issued) cookie given at least :data:`ESTABLISHED_AFTER` seconds ago?"""
        found = self._checked_cookie(cookie)
        return found is not None and time.time() - found[1] >= ESTABLISHED_AFTER

    def _checked_cookie(self, cookie: str) -> tuple[str, int] | None:
        found = _VISITOR_FORMAT.fullmatch(cookie)
        if found is None:
            return None
        name, issued, mac = found.groups()
        if not hmac.compare_digest(mac, self._visitor_mac(name + "." + issued)):
            return None
        return name, int(issued, 16)

    def _visitor_mac(self, name: str) -> str:
        key = getattr(self, "_visitor_key", None)
        if key is None:
            key = self._visitor_key = secrets.token_bytes(32)
        return hmac.new(key, name.encode("ascii"), hashlib.sha256).hexdigest()[:32]

    @property
    def new_visitors(self) -> Limiter:
        """The limiter of new visitor cookies, per address (:data:`NEW_VISITORS_PER_MINUTE`)."""
        found = getattr(self, "_new_visitors", None)
        if found is None:
            found = self._new_visitors = Limiter(per_client=NEW_VISITORS_PER_MINUTE, in_all=10**9, per=60.0)
        return found

    @property
    def kernel_cap(self) -> int:
        if self.max_kernels > 0:
            return self.max_kernels
        if self.class_size > 0:
            # A class's pages in use (the index and the lesson of each pupil) and the ready ones: as many as the
            # memory holds, at 64 MiB a kernel as the default cap counts.
            wanted = self.class_size * (1 + len(self.prepared_pages))
            return max(default_max_kernels(), min(wanted, memory_kernels()))
        return default_max_kernels()

    @property
    def prepare_memory_mib(self) -> float:
        """The memory the kernels kept ready may hold (0: no bound but the cap, without a class size)."""
        if self.class_size <= 0:
            return 0.0
        return float(self.prepare_memory) if self.prepare_memory > 0 else available_memory_mib() / 2

    @property
    def kernel_policy(self) -> KernelPolicy:
        """What the kernel manager reads (:class:`tartli.server.kernels.CourseKernelRules`)."""
        pooled = self.language or "en"
        return KernelPolicy(
            self.kernel_cap,
            max(1, self.kernels_per_visitor),
            self.connect_grace,
            pooled,
            prepare_memory_mib=getattr(self, "_prepare_memory_mib", 0.0),
            unconnected_yield=self.unconnected_yield,
            prepared=tuple(self.prepared_pages),
        )

    def initialize(self, argv: Any = None) -> None:
        super().initialize(argv)
        for logger in (self.log, logging.getLogger("tornado.general")):
            logger.addFilter(_StartNoise())
        for problem in unsupported_versions():
            self.log.warning("tartli: %s", problem)
        self.kernel_websocket_connection_class = FrameCheckedConnection
        share_compiled_templates()  # (every page's render compiled the page's templates again)
        log_path = self.kernel_log or str(Path(tempfile.gettempdir()) / f"tartli-kernels-{self.port}.log")
        self.kernel_log = log_path
        os.environ[KERNEL_LOG_ENV] = log_path  # the kernels inherit the server's environment
        if self.fork_kernels:
            # (here, on the main thread: Linux's parent-death signal follows the thread that started the template)
            forking.start_template(log_path)

    def init_settings(self) -> dict[str, Any]:
        """Voilà's settings, its kernel manager built with the course's rules on top of Voilà's pool.

        Voilà makes its kernel manager class in here (``voila_kernel_manager_factory``) and starts
        the pool's kernels as it makes the manager; the course's rules must sit above Voilà's class
        (:mod:`tartli.server.kernels` says why), so the factory is wrapped for the length of the call.
        """
        voila_factory = voila_app.voila_kernel_manager_factory
        self._prepare_memory_mib = self.prepare_memory_mib  # (read once: the memory available at start)
        if self.prepared_pages:
            # Voilà's pools for the class's pages (kernel_pools_config); every other page keeps the default.
            section = self.config.VoilaKernelManager
            default = {"pool_size": max(0, int(self.voila_configuration.default_pool_size)), "kernel_env_variables": {}}
            section.kernel_pools_config = {"default": default} | {
                page: {**default, "pool_size": size} for page, size in self.prepared_pages.items()
            }

        def course_factory(*args: Any, **kwargs: Any) -> Any:
            return course_kernel_manager(voila_factory(*args, **kwargs))

        voila_app.voila_kernel_manager_factory = course_factory
        try:
            settings: dict[str, Any] = super().init_settings()
        finally:
            voila_app.voila_kernel_manager_factory = voila_factory
        settings["websocket_max_message_size"] = WEBSOCKET_MAX_BYTES
        settings["compress_response"] = True  # gzip for the browsers that ask (tornado, before the app is made)
        return settings

    def start(self) -> None:
        """Voilà's start, with the course's application class and page handler."""
        # every line of the log bounded, one line a record, no path of the machine (tartli.server.logs): from
        # before Voilà names its folder for connection files (it logs it when connection_dir_root is first read)
        bounds = quiet_server_log(self.log, [self.root_dir, str(Path(self.kernel_log).parent)])
        self.connection_dir = tempfile.mkdtemp(prefix="voila_", dir=self.connection_dir_root)
        bounds.folders += [self.connection_dir, str(self.connection_dir_root)]
        if "transport" not in self.config.get("KernelManager", {}):
            self.config.KernelManager.transport = kernel_transport(self.connection_dir)
        settings = self.init_settings()
        settings["tartli_app"] = self
        self.class_pupils = ClassPupils()  # the browsers of pupils in a class: on a full server they come first
        self.app = CourseApplication(**settings)
        hosts = set(self.allowed_hosts)
        if self.ip not in ("", "0.0.0.0", "::"):
            hosts.add(self.ip)
        self.app.allowed_hosts = frozenset(host_name(h) if h != "*" else h for h in hosts)
        self.app.settings.update(self.tornado_settings)
        index = self.base_url + "voila/render/" + (self.announce or "")
        handlers: list[Any] = [
            (self.base_url.rstrip("/") + "/?", IndexRedirectHandler, {"index": index}),
            (self.base_url + "logout", IndexRedirectHandler, {"index": index}),
        ]
        handlers += [(pattern, course_handler(handler), *rest) for pattern, handler, *rest in self.init_handlers()]
        self.class_folder = ClassFolder(self.data_dir or default_data_dir())  # opened when a class is made or joined
        handlers += class_handlers(self.base_url, self.class_folder)
        handlers += class_page_handlers(self.base_url, self.class_folder)
        handlers += worksheet_handlers(self.base_url)
        # Issue 38: the tables for two browsers (tartli.server.duel_api), their store beside the classes'.
        self.duel_folder = DuelFolder(  # opened when a table is opened
            self.data_dir or default_data_dir(), away_after=self.duel_away_after
        )
        handlers += duel_handlers(self.base_url, self.duel_folder, self.class_folder)
        handlers += duel_page_handlers(self.base_url)
        os.environ[DUELS_ENV] = "1"  # the kernels inherit it: the table page offers a game against a classmate
        self.app.add_handlers(".*$", handlers)
        self.log.info("tartli: answering to %s; at most %d kernels", ", ".join(sorted(hosts)), self.kernel_cap)
        self.log.info(
            "tartli: kernel errors are logged to %s and followed here",
            self.kernel_log,
            extra={"tartli_own_path": True},  # (the one path the log names: the operator's, said once)
        )
        follow_kernel_log(Path(self.kernel_log), self.log)
        loop = asyncio.get_event_loop()
        loop.set_exception_handler(_quiet_closed_connections)
        self._announcing = loop.create_task(self._announce())
        self.listen()

    @property
    def own_url(self) -> str:
        """The course's address on this machine, ending in its base URL (``http://127.0.0.1:8866/``): what the
        start prints, and what a seat's kernel calls (a server answering on every address is reached on
        127.0.0.1)."""
        host = self.ip if self.ip not in ("", "0.0.0.0", "::") else "127.0.0.1"
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}{self.base_url}"

    async def _announce(self) -> None:
        """Print the course's address once the announced page's pre-started kernel is ready (at most a
        minute): the first page a learner opens is then served at once. The short address, without
        ``?lang``: it opens in the class language by itself, and leaves a learner's own switch its say."""
        pools = getattr(self.kernel_manager, "_pools", {})
        tasks = list(pools.get(self.announce, [])) or [task for pool in pools.values() for task in pool]
        if tasks:
            await asyncio.wait(tasks, timeout=60)
        url = f"{self.own_url}voila/render/{self.announce}"
        print(f"Tartli course: open {url}  (Ctrl+C stops it)", flush=True)
        if self.class_name:
            opened = open_class(self.class_folder, self.class_name)
            print(
                f"Tartli class {opened.name}: pupils join with the code {opened.code}; the teacher's key is "
                f"{opened.key} (kept in {self.class_folder.folder / TEACHER_FILE}, for you only)",
                flush=True,
            )
            teacher = f"{self.own_url}tartli/teacher#class={opened.code}&key={opened.key}"
            print(f"Tartli class {opened.name}: the teacher's page is {teacher}", flush=True)
        if self.prepared_pages:
            await self._announce_prepared()

    async def _announce_prepared(self) -> None:
        """Say, once the class's pages are ready (or as ready as the cap and the memory bound let them be), how
        many kernels wait for each and the memory they hold."""
        manager = self.kernel_manager
        wanted = self.prepared_pages
        last: dict[str, int] = {}
        still = 0.0
        while still < 60:  # (no kernel more for a minute: the cap or the memory bound holds it there)
            await asyncio.sleep(2)
            ready = {page: manager.ready_in_pools().get(page, 0) for page in wanted}
            if all(ready[page] >= size for page, size in wanted.items()):
                break
            still = still + 2 if ready == last else 0.0
            last = ready
        pages = ", ".join(f"{ready[page]} of {size} for {page.removesuffix('.ipynb')}" for page, size in wanted.items())
        held = manager.pools_memory_mib() / 1024
        bound = self._prepare_memory_mib / 1024
        print(
            f"Tartli course: ready for a class of {self.class_size}: kernels waiting {pages}; they hold "
            f"{held:.1f} GiB of memory (bound {bound:.1f} GiB, at most {self.kernel_cap} kernels)",
            flush=True,
        )


_LOOP_ERRORS = Throttle(per_window=10, window=60.0)


def _quiet_closed_connections(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's handler for errors nobody awaited: a write to a websocket the browser has closed
    is no error (jupyter_server left one traceback in the log for each message a kernel still sent
    there: 143 for one closed page); anything else is logged as asyncio does, at most 10 a minute."""
    error = context.get("exception")
    if isinstance(error, (tornado.websocket.WebSocketClosedError, tornado.iostream.StreamClosedError)):
        return
    allowed, dropped = _LOOP_ERRORS.allow("loop")
    if dropped:
        logging.getLogger("tartli").warning("tartli: %d more event loop errors in the last minute", dropped)
    if allowed:
        loop.default_exception_handler(context)


def main(argv: list[str] | None = None) -> None:
    TartliVoila.launch_instance(argv if argv is not None else sys.argv[1:])
