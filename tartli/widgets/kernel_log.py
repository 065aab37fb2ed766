"""In a course server's kernel: errors go to the server's log file, never to the visitor's page.

A kernel's stderr is not private: ipykernel forwards it (even at the file-descriptor level) to
the page as output, so a traceback logged there would reach the learner with full paths and
versions. When the course's server (:mod:`tartli.server.app`) starts a kernel it names a log file
in ``TARTLI_KERNEL_LOG``; :func:`install` then sends the course's log lines, the comm and widget
errors, and any uncaught error in a widget callback to that file (the server copies it into its
own log). The visitor sees a short sentence instead. Outside the course's server (a notebook in
JupyterLab, tests) nothing changes, so a developer still sees their tracebacks.

The log is bounded where it is written: each line cut to :data:`LINE_LIMIT` characters (a trait
error quotes the whole value it refused: one widget message could write a 5 MB line), a
traceback to :data:`TRACEBACK_LINES` lines, and a kernel to :data:`RECORDS_PER_MINUTE` records a
minute (the rest counted in one line). The server rotates the file (:mod:`tartli.server.logs`);
the handler reopens it by name.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
import time
from typing import Any

from tartli.errors import cut
from tartli.i18n import N_, _

KERNEL_LOG_ENV = "TARTLI_KERNEL_LOG"
SHORT_MESSAGE = N_("Sorry: this part of the page could not respond. The details are in the course's server log.")
"""What the visitor sees instead of a traceback (in English; shown in the page's language)."""
_LOGGERS = ("", "tartli", "Comm", "ipykernel", "traitlets", "ipywidgets")
"""Loggers whose stream handlers would write to the page; the file handler goes on the root logger
(they propagate to it) and on the kernel application's logger (which does not)."""
_installed: list[str] = []
LINE_LIMIT = 400
"""Characters of one line of the kernel log (a longer one is cut, with its length)."""
TRACEBACK_LINES = 40
"""Lines of one record (a traceback is cut in the middle, keeping its start and its last lines)."""
RECORDS_PER_MINUTE = 30
"""Records one kernel writes to the log each minute; the rest are counted in the next record let through."""


class BoundedFormatter(logging.Formatter):
    """A formatter whose output has at most TRACEBACK_LINES lines of at most LINE_LIMIT characters.

    >>> record = logging.LogRecord("tartli", logging.ERROR, "", 0, "value %s", ("x" * 5_000_000,), None)
    >>> text = BoundedFormatter("%(message)s").format(record)
    >>> len(text), text[-22:]
    (400, '(5,000,006 characters)')
    """

    def format(self, record: logging.LogRecord) -> str:
        lines = [cut(line, LINE_LIMIT) for line in super().format(record).split("\n")]
        if len(lines) > TRACEBACK_LINES:
            head, tail = TRACEBACK_LINES // 2, TRACEBACK_LINES // 2 - 1
            lines = [*lines[:head], f"… ({len(lines) - head - tail} lines left out)", *lines[-tail:]]
        return "\n".join(lines)


class RateLimit(logging.Filter):
    """Lets at most ``per_minute`` records through each minute; the next one let through says how many were not."""

    def __init__(self, per_minute: int = RECORDS_PER_MINUTE) -> None:
        super().__init__()
        self.per_minute = per_minute
        self._start = -1e18
        self._count = 0
        self._dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if now - self._start >= 60:
            self._start, self._count = now, 0
        if self._count >= self.per_minute:
            self._dropped += 1
            return False
        self._count += 1
        if self._dropped:
            record.msg = f"({self._dropped} log records left out in the last minute) {record.msg}"
            self._dropped = 0
        return True


def install(path: str | None = None) -> bool:
    """Send the kernel's error logging to ``path`` (default: ``$TARTLI_KERNEL_LOG``); True if done."""
    path = path or os.environ.get(KERNEL_LOG_ENV)
    if not path or path in _installed:
        return bool(path)
    # WatchedFileHandler: reopened by name after the server rotates the file.
    handler = logging.handlers.WatchedFileHandler(path, encoding="utf-8", delay=True)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(BoundedFormatter(f"%(asctime)s kernel {_kernel_id()} %(name)s %(levelname)s %(message)s"))
    handler.addFilter(RateLimit())
    loggers = [logging.getLogger(name) for name in _LOGGERS]
    app_log = _kernel_app_log()
    if app_log is not None:
        loggers.append(app_log)
    for logger in loggers:
        for old in list(logger.handlers):
            if isinstance(old, logging.StreamHandler) and not isinstance(old, logging.FileHandler):
                logger.removeHandler(old)  # a stream handler writes to the page
        if logger is logging.getLogger() or not logger.propagate:
            logger.addHandler(handler)
    _show_short_messages()
    _installed.append(path)
    return True


def _kernel_id() -> str:
    """The kernel's id as its server knows it (its connection file is ``kernel-<id>.json``), else the process's
    id: the server's log names the kernel a line came from."""
    try:
        from traitlets.config import Application
    except ImportError:  # pragma: no cover - traitlets comes with ipywidgets
        return str(os.getpid())
    if Application.initialized():
        name = os.path.basename(str(getattr(Application.instance(), "connection_file", "") or ""))
        if name.startswith("kernel-") and name.endswith(".json") and len(name) <= 64:
            return name[len("kernel-") : -len(".json")]
    return str(os.getpid())


def _kernel_app_log() -> logging.Logger | None:
    """The running kernel application's logger (ipykernel logs comm errors there), if any."""
    try:
        from traitlets.config import Application
    except ImportError:  # pragma: no cover - traitlets comes with ipywidgets
        return None
    if not Application.initialized():
        return None
    log = Application.instance().log
    return log if isinstance(log, logging.Logger) else None


def _show_short_messages() -> None:
    """An error shown as a traceback (ipywidgets shows one for a callback that raised) is logged to
    the file instead; the page gets one short line. (IPython's ``set_custom_exc`` would do the same
    for cells too, but it slowed every click of ten learners playing at once by about half.)"""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return
    shell = get_ipython()
    if shell is None:
        return

    def short(*args: Any, **kwargs: Any) -> None:
        logging.getLogger("tartli").error("uncaught error in the page", exc_info=True)
        print(_(SHORT_MESSAGE), file=sys.stderr)

    shell.showtraceback = short
