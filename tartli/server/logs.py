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
  the kernels reopen the file by name).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tornado.ioloop

from tartli.errors import cut, printable

LINE_LIMIT = 400
"""Characters of a kernel's line in the server's log, the cut's note included."""
LINES_PER_MINUTE = 60
"""Lines one kernel may put in the server's log each minute."""
ROTATE_BYTES = 2 * 1024 * 1024
"""The kernel log file is moved to ``<file>.1`` when it grows past this."""
READ_BYTES = 256 * 1024
"""The most read from the file at each pass (every two seconds)."""
_KERNEL = re.compile(r"\bkernel (\d+)\b")


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

    def _copy_line(self, line: str) -> None:
        if not line.strip():
            return
        found = _KERNEL.search(line[:200])
        if found:
            self._last_kernel = found.group(1)  # a traceback's later lines belong to the kernel named last
        allowed, dropped = self.throttle.allow(self._last_kernel)
        if dropped:
            self.log.warning("kernel: (%d more lines of kernel %s left out in a minute)", dropped, self._last_kernel)
        if allowed:
            self.log.warning("kernel: %s", bounded(line.rstrip("\r"), self.line_limit))

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
