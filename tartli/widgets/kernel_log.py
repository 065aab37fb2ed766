"""In a course server's kernel: errors go to the server's log file, never to the visitor's page.

A kernel's stderr is not private: ipykernel forwards it (even at the file-descriptor level) to
the page as output, so a traceback logged there would reach the learner with full paths and
versions. When the course's server (:mod:`tartli.server.app`) starts a kernel it names a log file
in ``TARTLI_KERNEL_LOG``; :func:`install` then sends the course's log lines, the comm and widget
errors, and any uncaught error in a widget callback to that file (the server copies it into its
own log). The visitor sees a short sentence instead. Outside the course's server (a notebook in
JupyterLab, tests) nothing changes, so a developer still sees their tracebacks.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from tartli.i18n import N_, _

KERNEL_LOG_ENV = "TARTLI_KERNEL_LOG"
SHORT_MESSAGE = N_("Sorry: this part of the page could not respond. The details are in the course's server log.")
"""What the visitor sees instead of a traceback (in English; shown in the page's language)."""
_LOGGERS = ("", "tartli", "Comm", "ipykernel", "traitlets", "ipywidgets")
"""Loggers whose stream handlers would write to the page; the file handler goes on the root logger
(they propagate to it) and on the kernel application's logger (which does not)."""
_installed: list[str] = []


def install(path: str | None = None) -> bool:
    """Send the kernel's error logging to ``path`` (default: ``$TARTLI_KERNEL_LOG``); True if done."""
    path = path or os.environ.get(KERNEL_LOG_ENV)
    if not path or path in _installed:
        return bool(path)
    handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter(f"%(asctime)s kernel {os.getpid()} %(name)s %(levelname)s %(message)s"))
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
