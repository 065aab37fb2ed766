"""Logs with a bound: what the course's server copies from its kernels, and how much.

A kernel writes the course's errors to a log file (:mod:`tartli.widgets.kernel_log`, which already
cuts its lines and limits how many it writes); the server follows that file into its own log
(:func:`follow_kernel_log`). Neither side trusts the other to be small: before, one widget message
with a 5 MB value gave a 5,000,266-character line, and 20 MB of such messages 32 MB of log in 26 s.

* every line copied is cut to :data:`LINE_LIMIT` characters (with its length), and its control
  and invisible format characters are shown escaped (a log is read in a terminal);
* each kernel gets at most :data:`LINES_PER_MINUTE` lines a minute in the server's log; what is
  left out is counted in one line;
* the file is rotated when it passes :data:`ROTATE_BYTES` (one old copy, ``<file>.1``, is kept;
  the kernels reopen the file by name);
* a kernel's traceback is not copied: its record gives one line, with the kernel's id and the name of
  the error (a malformed message on a kernel's shell channel copied 14 lines a message, with the
  machine's file paths, into the server's log).

The server's own log has its bounds too (:class:`OneLineRecords`, on every handler of the server's
log): before, each request refused for its Host or its path was logged with its whole address (a page
of another site made a browser send 1,017 requests of 180 KB each: 183 MB of log in 10 s), and
odd paths left tracebacks of up to 8,028 characters, naming the machine's files.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import tornado.ioloop

from tartli.errors import cut, printable

LINE_LIMIT = 400
"""Characters of a kernel's line in the server's log, the cut's note included."""
LINES_PER_MINUTE = 20
"""Lines one kernel may put in the server's log each minute."""
ROTATE_BYTES = 2 * 1024 * 1024
"""The kernel log file is moved to ``<file>.1`` when it grows past this."""
READ_BYTES = 256 * 1024
"""The most read from the file at each pass (every two seconds)."""
_RECORD_START = re.compile(r"(?:\S.{0,60}?)?\bkernel ([0-9a-f-]{36}|\d+)\b")
"""How a record of the kernel log starts: its time, then ``kernel <id>`` (``tartli.widgets.kernel_log``'s
format); the lines after it, up to the next such line, continue it."""
_ERROR_LINE = re.compile(r"([A-Za-z_][\w.]*)(?::|$)")
"""The last line of a traceback: the error's (dotted) name, then its message."""


def bounded(line: str, limit: int = LINE_LIMIT) -> str:
    r"""``line`` with what is not printable escaped, cut to at most ``limit`` characters, its note included.

    >>> bounded("x" * 1000, 40)
    'xxxxxxxxxxxxxxxxxxxx… (1,000 characters)'
    >>> len(bounded("y" * 5_000_266)), bounded("ok\x1b[2J")
    (400, 'ok\\u001b[2J')
    """
    return cut(printable(line), limit)


class Throttle:
    """At most ``per_window`` events a key in each ``window`` seconds; counts what it turned away."""

    def __init__(self, per_window: int, window: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_window = per_window
        self.window = window
        self.clock = clock
        self._start: dict[str, float] = {}
        self._used: dict[str, int] = {}
        self._dropped: dict[str, int] = {}

    def allow(self, key: str) -> tuple[bool, int]:
        """(may this event go through, events dropped for ``key`` in the window that just ended)."""
        now = self.clock()
        dropped = 0
        if now - self._start.get(key, -1e18) >= self.window:
            self._start[key] = now
            self._used[key] = 0
            dropped = self._dropped.pop(key, 0)
        if self._used[key] >= self.per_window:
            self._dropped[key] = self._dropped.get(key, 0) + 1
            return False, dropped
        self._used[key] += 1
        if len(self._start) > 10_000:  # keys of kernels long gone
            self._forget(now)
        return True, dropped

    def _forget(self, now: float) -> None:
        for key in [k for k, t in self._start.items() if now - t >= self.window]:
            self._start.pop(key, None)
            self._used.pop(key, None)
            self._dropped.pop(key, None)


class KernelLogFollower:
    """Copies new lines of the kernels' log file into the server's log, with the bounds above."""

    def __init__(
        self,
        path: Path,
        log: Any,
        *,
        line_limit: int = LINE_LIMIT,
        per_minute: int = LINES_PER_MINUTE,
        rotate_bytes: int = ROTATE_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = path
        self.log = log
        self.line_limit = line_limit
        self.rotate_bytes = rotate_bytes
        self.throttle = Throttle(per_minute, 60.0, clock)
        self.position = path.stat().st_size if path.exists() else 0
        self._last_kernel = "?"
        self._partial = ""
        self._record: str | None = None  # the first line of the record read last (sent when it ends)
        self._more = 0  # the lines that continued it
        self._error = ""  # the name of the error its traceback ended with
        self._in_traceback = False

    def follow(self) -> None:
        """One pass: copy what was added since the last one; rotate a file grown too large."""
        try:
            size = self.path.stat().st_size
        except OSError:
            return
        if size < self.position:  # a new file (rotated, or removed and made again)
            self.position = 0
        if size > self.position:
            self._copy(self.path)
        if size > self.rotate_bytes:
            self._rotate()

    def _copy(self, path: Path) -> None:
        try:
            with path.open("rb") as file:
                file.seek(self.position)
                data = file.read(READ_BYTES)
                self.position = file.tell()
                more = len(file.read(1)) > 0
        except OSError:
            return
        if more:  # more than one pass may read: skip the rest rather than fall behind for ever
            size = path.stat().st_size
            self.log.warning(
                "kernel: (%s bytes of kernel log skipped: written faster than copied)", f"{size - self.position:,}"
            )
            self.position = size
            self._partial = ""
        text = self._partial + data.decode("utf-8", errors="replace")
        lines = text.split("\n")
        self._partial = lines.pop() if not more else ""
        if len(self._partial) > self.line_limit * 4:  # a line that never ends: copy its start now
            lines.append(self._partial)
            self._partial = ""
        for line in lines:
            self._copy_line(line)
        self._send_record()  # (the kernels write a record at once: it ends with what was read)

    def _copy_line(self, line: str) -> None:
        """One line of the file: a record's first line is kept (and sent when the record ends); the lines that
        continue it (a traceback, a message of several lines) are only counted, and a traceback's error named."""
        line = line.rstrip("\r")
        if not line.strip() or (self._in_traceback and line[:1].isspace()):
            self._more += self._record is not None
            return
        if self._in_traceback:
            error = _ERROR_LINE.match(line)
            if error:  # the traceback's last line: the error's name (its message may quote anything)
                self._error = error.group(1).rsplit(".", 1)[-1]
                self._in_traceback = False
                self._more += self._record is not None
                return
        if line.startswith("Traceback (most recent call last)"):
            self._in_traceback = True
            self._more += self._record is not None
            return
        if self._record is not None and not _RECORD_START.match(line):
            self._more += 1  # a message of several lines
            return
        self._send_record()
        found = _RECORD_START.match(line)
        if found:
            self._last_kernel = found.group(1)  # a record without its kernel's name belongs to the kernel named last
        self._record = line

    def _send_record(self) -> None:
        """The record read last, as one line: with the name of its error, or the count of its other lines."""
        if self._record is None:
            return
        line = self._record
        if self._error:
            line = f"{line} ({self._error})"
        elif self._more:
            line = f"{line} (+{self._more} lines)"
        self._record, self._error, self._more = None, "", 0
        allowed, dropped = self.throttle.allow(self._last_kernel)
        if dropped:
            self.log.warning("kernel: (%d more lines of kernel %s left out in a minute)", dropped, self._last_kernel)
        if allowed:
            self.log.warning("kernel: %s", bounded(line, self.line_limit))

    def _rotate(self) -> None:
        old = self.path.with_name(self.path.name + ".1")
        try:
            os.replace(self.path, old)
        except OSError:
            return
        self._copy(old)  # what was written between the last read and the move
        self.position = 0
        self._partial = ""


def follow_kernel_log(path: Path, log: Any, **bounds: Any) -> tornado.ioloop.PeriodicCallback:
    """Copy new lines of the kernels' log file ``path`` into the server's ``log`` every two seconds."""
    follower = KernelLogFollower(path, log, **bounds)
    callback = tornado.ioloop.PeriodicCallback(follower.follow, 2000)
    callback.start()
    return callback


# ---------------------------------------------------------------- the server's own log
REFUSED_LINE_LIMIT = 240
"""Characters of the line of a refused request (its address cut first)."""
ADDRESS_LIMIT = 120
"""Characters of a refused request's address (its method and client included) in its line."""
REFUSALS_PER_MINUTE = 10
"""Lines of refused requests (4xx) in the server's log each minute; the rest are counted in one line."""
ERRORS_PER_MINUTE = 10
"""Lines of errors (5xx, uncaught exceptions) in the server's log each minute; the rest counted likewise."""
_SUMMARIES = {
    "refused": "tartli: %d more requests refused in the last minute (not logged one by one)",
    "errors": "tartli: %d more errors in the last minute (not logged one by one)",
}
_ACCESS_LINE = re.compile(r"[45]\d\d (?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) ")
"""The start of jupyter_server's line for a refused or failed request (``log_request``: "404 GET /path (...)")."""
_REFUSAL_TEMPLATES = (
    "wrote error",
    "Blocking ",
    "Refusing ",
    "Could not open static file",
    "Malformed HTTP",
    "No channel specified",
    "No such channel",
    "Received message of type",
    "tartli: every place is taken",  # (the course's own refusals: their lines share the bound)
    "tartli: a browser holds",
)
"""The Jupyter server's and tornado's lines about a request it refused (logged once for each request)."""
_TOP_FOLDER = re.compile(r"(?<![\w.~/-])/(?:[\w.-]+/)*[\w.-]+")


def machine_folders(extra: Iterable[str] = ()) -> list[str]:
    """The folders of this machine whose names the server's log never shows (longest first): Python's, the
    course's package, the temporary folder, the home folder, the working folder, and ``extra``."""
    found = {sys.prefix, sys.base_prefix, sys.exec_prefix, tempfile.gettempdir(), os.getcwd(), *extra}
    found.add(str(Path(__file__).resolve().parents[2]))  # the folder the tartli package is in
    for path in sys.path:
        if path and os.path.isabs(path):
            found.add(path)
    with contextlib.suppress(RuntimeError, KeyError):  # (no home folder)
        found.add(str(Path.home()))
    folders = {os.path.normpath(folder) for folder in found if folder and os.path.isabs(folder)}
    return sorted((f for f in folders if f != os.sep), key=len, reverse=True)


class OneLineRecords(logging.Filter):
    """A filter for the handlers of the server's log: each record becomes one bounded line.

    * its message is cut to :data:`LINE_LIMIT` characters (the line of a refused request to
      :data:`REFUSED_LINE_LIMIT`, its address cut first), what is not printable escaped;
    * a traceback is not written: the line ends with the error's name (``tornado``'s "Uncaught exception"
      with its request's dump is its first line and the name); a message of several lines keeps its first;
    * the machine's folders (:func:`machine_folders`) and any absolute path under one of the machine's top
      folders are shown as ``…``;
    * refused requests (tornado's access lines of 4xx, their reasons, the Jupyter server's "wrote error"
      and "Blocking ...") are limited to :data:`REFUSALS_PER_MINUTE` lines a minute, errors to
      :data:`ERRORS_PER_MINUTE`; :meth:`summaries` counts the rest (logged once a minute:
      :func:`quiet_server_log`). A refusal's reason (tornado logs it on a line of its own before the
      access line) is added to its access line: one line a request.
    """

    def __init__(
        self,
        folders: Iterable[str] = (),
        *,
        refusals: int = REFUSALS_PER_MINUTE,
        errors: int = ERRORS_PER_MINUTE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.folders = list(folders)
        self.clock = clock
        self.limits = {"refused": refusals, "errors": errors}
        self._start: dict[str, float] = {}
        self._used: dict[str, int] = {}
        self._dropped: dict[str, int] = {}
        self._reason: tuple[str, str] | None = None  # (request, why) of the refusal logged last
        try:
            tops = [name for name in os.listdir("/") if os.path.isdir(os.path.join("/", name))]
        except OSError:
            tops = []
        self._tops = frozenset(tops)

    def filter(self, record: logging.LogRecord) -> bool:
        done = getattr(record, "tartli_one_line", None)
        if done is not None:  # (the same record at a second handler)
            return bool(done)
        kind = self._kind(record)
        if kind == "reason":  # tornado's reason for a refusal: said on the request's access line
            args = record.args if isinstance(record.args, tuple) else ()
            request = str(args[1]) if len(args) >= 2 else ""  # (whole: compared with the access line's)
            why = self._message(record, ADDRESS_LIMIT).split(": ", 1)[-1]
            self._reason = (request, why)
            record.tartli_one_line = False
            return False
        keep = kind is None or self._allow(kind)
        if keep:
            record.msg = self._line(record, kind)
            record.args = None
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
        record.tartli_one_line = keep
        return keep

    def summaries(self) -> list[str]:
        """The lines that count what was left out in each minute that has ended (once each)."""
        now = self.clock()
        lines = []
        for kind, dropped in list(self._dropped.items()):
            if dropped and now - self._start.get(kind, now) >= 60.0:
                lines.append(_SUMMARIES[kind] % dropped)
                self._dropped[kind] = 0
        return lines

    def _kind(self, record: logging.LogRecord) -> str | None:
        """``"refused"``, ``"errors"``, ``"reason"`` (a refusal's reason, said on its access line), or None."""
        if getattr(record, "tartli_summary", False):
            return None
        name = record.name
        template = str(record.msg)
        if name.endswith("access") and record.levelno >= logging.WARNING:
            return "errors" if record.levelno >= logging.ERROR else "refused"
        if template.startswith("%d %s: ") and record.levelno == logging.WARNING:
            return "reason"  # (tornado's, logged by tornado.general or, on a Jupyter server, by the handler's log)
        if template.startswith(_REFUSAL_TEMPLATES) or getattr(record, "tartli_refused", False):
            return "refused"
        if record.levelno >= logging.WARNING and _ACCESS_LINE.match(template):
            # jupyter_server's access line (its handlers' own log: the Binder server's, Voilà's): formatted already
            return "errors" if record.levelno >= logging.ERROR else "refused"
        if record.exc_info or (name.startswith(("tornado", "asyncio")) and record.levelno >= logging.ERROR):
            return "errors"
        return None

    def _allow(self, kind: str) -> bool:
        now = self.clock()
        if now - self._start.get(kind, -1e18) >= 60.0:
            self._start[kind] = now
            self._used[kind] = 0
        if self._used[kind] >= self.limits[kind]:
            self._dropped[kind] = self._dropped.get(kind, 0) + 1
            return False
        self._used[kind] += 1
        return True

    def _message(self, record: logging.LogRecord, limit: int = LINE_LIMIT) -> str:
        """The record's message, its long arguments cut to ``limit`` before it is formatted (a request's address
        of 180 KB; a refusal's address is cut shorter, so that its line keeps its end: the time, the reason)."""
        if isinstance(record.args, tuple) and any(isinstance(a, str) and len(a) > limit for a in record.args):
            record.args = tuple(cut(a, limit) if isinstance(a, str) else a for a in record.args)
        try:
            return record.getMessage()
        except Exception:  # a record whose arguments do not fit its message
            return str(record.msg)

    def _line(self, record: logging.LogRecord, kind: str | None) -> str:
        original = record.args if isinstance(record.args, tuple) else ()
        message = self._message(record, LINE_LIMIT if kind is None else ADDRESS_LIMIT)
        line, _, rest = message.partition("\n")
        access = _ACCESS_LINE.match(line) if kind is not None else None
        if access is not None and not record.args:  # jupyter_server's, formatted already: its address cut here
            address, _, after = line[access.end() :].partition(" ")
            line = f"{access.group()}{cut(address, ADDRESS_LIMIT)} {after}"
        if kind is not None and self._reason is not None:
            request, why = self._reason
            if record.name.endswith("access"):  # tornado's access line: "%d %s %.2fms" (status, request, time)
                self._reason = None
                if len(original) >= 2 and str(original[1]) == request:
                    line = f"{line}: {cut(why, 80)}"
            elif access is not None:  # jupyter_server's: "404 GET /path (user@address) 1.00ms"
                self._reason = None
                if message.split(" ", 1)[1].startswith(request.rsplit(" (", 1)[0] + " "):
                    line = f"{line}: {cut(why, 80)}"
        if record.exc_info and record.exc_info[0] is not None:
            line = f"{line.rstrip(': ')} ({record.exc_info[0].__name__})"
        elif rest.strip():
            line = f"{line} (+{rest.count(chr(10)) + 1} lines)"
        if not getattr(record, "tartli_own_path", False):
            line = self._without_paths(line)
        return bounded(line, LINE_LIMIT if kind is None else REFUSED_LINE_LIMIT)

    def _without_paths(self, text: str) -> str:
        for folder in self.folders:
            if folder in text:
                text = text.replace(folder, "…")
        return _TOP_FOLDER.sub(self._hide_path, text)

    def _hide_path(self, found: re.Match[str]) -> str:
        path = found.group()
        top = path[1:].split("/", 1)[0]
        return "…" if top in self._tops and "/" in path[1:] else path


def quiet_server_log(logger: logging.Logger, folders: Iterable[str] = ()) -> OneLineRecords:
    """Put :class:`OneLineRecords` on every handler of ``logger`` (the server's log) and on a handler of the
    root logger that writes what tornado, asyncio and Python's warnings log (before, they had none: Python's
    last resort wrote them whole), and log the count of what it left out once a minute."""
    bounds = OneLineRecords(machine_folders(folders))
    handlers = list(logger.handlers)
    root = logging.getLogger()
    if not root.handlers:
        fallback = logging.StreamHandler(sys.stderr)
        fallback.setLevel(logging.WARNING)
        fallback.setFormatter(logging.Formatter("%(message)s"))
        root.addHandler(fallback)
    handlers += root.handlers
    for handler in handlers:
        for old in [f for f in handler.filters if isinstance(f, OneLineRecords)]:
            handler.removeFilter(old)
        handler.addFilter(bounds)
    logging.captureWarnings(True)  # Python's warnings name the file they come from

    def summarize() -> None:
        for line in bounds.summaries():
            logger.warning(line, extra={"tartli_summary": True})

    tornado.ioloop.PeriodicCallback(summarize, 5000).start()
    return bounds
