"""The kernel template (a "zygote"): one Python per server that has imported what every kernel imports, and forks
a kernel from itself for each page (issue 39: a cheaper cold page).

A cold kernel spends most of its CPU-second importing Python, ipykernel, ipywidgets and the course's modules, the
same way in every kernel. This process does it once: it imports :data:`PRELOAD` (nothing started: no thread, no
zmq context, no event loop), then waits on its end of a socket pair from the server
(:mod:`tartli.server.forking`). For each kernel the server sends the kernel's command, environment, working
folder and output files; the template forks, and the child becomes that kernel as ``python -m ipykernel_launcher
-f <connection file>`` would (its own session and process group, the given environment and folder, its output to
the given files), then runs ipykernel's application. The child starts in milliseconds and shares the template's
memory pages until it writes them.

This file imports nothing of the course: the server runs it as a file (``runpy.run_path``), so that a kernel's
modules are those of a kernel started the usual way and not the server's package. The template

* reaps its children (SIGCHLD): the server asks for a kernel's exit code by its pid;
* dies with the server (Linux's parent-death signal) and exits when its socket closes;
* lets the child go: the child closes the template's socket, takes back the default signal handlers, and its
  parent-poller (ipykernel's ``JPY_PARENT_PID``) watches the template.

Messages (one JSON object a datagram, ``SOCK_SEQPACKET``): the template says ``{"ready": pid, "threads": n}``
once imported (or ``{"failed": why}``); the server asks ``{"start": {"argv", "env", "cwd"}}`` with three file
descriptors (stdin, stdout, stderr), answered ``{"pid": pid}`` or ``{"error": why}``, and ``{"status": pid}``,
answered ``{"code": int}`` once the kernel has ended, ``{"code": null}`` while it runs. A request's ``"id"`` is
repeated in its answer.
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import signal
import socket
import sys
import threading
import traceback
from typing import Any

PRELOAD = (
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "ipykernel_launcher",
    "ipywidgets",
    "tartli.course",
    "tartli.i18n",
    "tartli.rulebook",
    "tartli.render.table",
    "tartli.render.slate",
    "tartli.render.page",
    "anywidget",
    "markdown_it",
)
"""What the template imports: ipykernel's own modules (every kernel imports them as it starts), ipywidgets, and
what every page with widgets imports: the course's modules that read nothing of their kernel (not
``tartli.widgets``, which sends the kernel's log to the server under the kernel's id as it is imported), and the
libraries of its widgets (anywidget, markdown-it). The rule book's page, which has no widgets, gets them too
(shared pages of memory, no CPU). tests/test_zygote.py checks that none of them is what a page does not load (no
table, bots, review, site builder or server)."""

PR_SET_PDEATHSIG = 1
MESSAGE_BYTES = 1 << 20
"""The largest message (a kernel's environment is a few kB)."""
ENDED_KEPT = 4096
"""Exit codes kept for the server to ask (the oldest forgotten first)."""

_ended: dict[int, int] = {}
_children: set[int] = set()


def _reap(_signum: int = 0, _frame: Any = None) -> None:
    """Collect every child that has ended (SIGCHLD): its exit code as Popen says it (a signal: minus its number)."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _children.discard(pid)
        _ended[pid] = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        while len(_ended) > ENDED_KEPT:
            del _ended[next(iter(_ended))]


def _die_with(parent: int) -> None:
    """Ask Linux to end this process when the server ends (if the server has already gone: exit now)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # (the socket's end still ends the template)
    if os.getppid() != parent:
        os._exit(0)


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    sock.send(json.dumps(message).encode())


def _become_kernel(sock: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
    """In the forked child: become the kernel ``request`` describes, run it, and exit (never returns)."""
    code = 1
    try:
        sock.close()  # (the template's socket is not the kernel's)
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGPIPE):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setsid()  # its own session and process group, as jupyter_client starts a kernel (an interrupt is for it)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.environ.clear()
        os.environ.update(request["env"])
        os.environ["JPY_PARENT_PID"] = str(os.getppid())  # ipykernel exits when the template does
        os.chdir(request["cwd"])
        sys.path[0] = os.getcwd()  # (as ``python -m`` sets it)
        # What a module did as it was imported, and must do for this kernel: ipykernel reads its parent's pid
        # (JPY_PARENT_PID), given on its command line instead; ipywidgets registers its comm targets with the
        # running shell (there was none in the template), done as an IPython extension once the shell runs.
        sys.argv = [sys.argv[0], *request["argv"][3:], f"--IPKernelApp.parent_handle={os.getppid()}"]
        if "ipywidgets" in sys.modules:
            sys.argv.append("--IPKernelApp.extensions=ipywidgets")
        language = sys.modules.get("tartli.i18n")
        if language is not None:
            language.from_page_address()  # (read at import: the template's environment has no page)
        import runpy

        sys.argv[0] = "ipykernel_launcher"
        runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # (the kernel's crash, told to its log as Python would)
        traceback.print_exc()
    finally:
        try:
            import atexit

            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _start(sock: socket.socket, request: dict[str, Any], fds: list[int]) -> dict[str, Any]:
    if len(fds) != 3 or threading.active_count() != 1:
        for fd in fds:
            os.close(fd)
        return {"error": f"{len(fds)} files, {threading.active_count()} threads"}
    pid = os.fork()
    if pid == 0:
        _become_kernel(sock, request, fds)
    _children.add(pid)
    for fd in fds:
        os.close(fd)
    return {"pid": pid}


def _status(pid: int) -> dict[str, Any]:
    if pid in _ended:
        return {"code": _ended.pop(pid)}
    return {"code": None if pid in _children else -1}


def serve(sock: socket.socket) -> None:
    """Answer the server until its socket closes."""
    while True:
        try:
            data, fds, _flags, _address = socket.recv_fds(sock, MESSAGE_BYTES, 3)
        except OSError:
            return
        if not data:
            return  # the server has closed its end
        message: Any = None
        try:
            message = json.loads(data)
            start = message.get("start")
            answer = _start(sock, start, fds) if start is not None else _status(int(message["status"]))
        except (ValueError, KeyError, TypeError, AttributeError, OSError) as problem:
            answer = {"error": repr(problem)}
        if isinstance(message, dict) and "id" in message:
            answer["id"] = message["id"]  # (the server passes over an answer that comes after it stopped waiting)
        _send(sock, answer)


def main(fd: int, parent: int) -> None:
    """The template's process: ``fd`` its end of the server's socket pair, ``parent`` the server's pid."""
    _die_with(parent)
    sock = socket.socket(fileno=fd)
    signal.signal(signal.SIGCHLD, _reap)
    try:
        import importlib

        for name in PRELOAD:
            importlib.import_module(name)
    except BaseException as problem:  # (told to the server, which starts its kernels the usual way)
        _send(sock, {"failed": repr(problem)})
        return
    # What is imported stays: out of the collector's sight, so that a kernel's collections neither scan nor write
    # (and so copy) the template's objects.
    gc.freeze()
    _send(sock, {"ready": os.getpid(), "threads": threading.active_count()})
    serve(sock)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
