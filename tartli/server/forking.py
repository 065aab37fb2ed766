"""Kernels forked from the kernel template (issue 39: a cheaper cold page): the server's side.

:class:`KernelTemplate` starts :mod:`tartli.server.zygote` (one process per server, which imports what every
kernel imports and then waits) and asks it for kernels; :class:`ForkProvisioner` is jupyter_client's provisioner
that launches a kernel through it, and through jupyter_client's :class:`LocalProvisioner` (a new Python, the
usual way) whenever the template cannot: not Linux, the template failed to start or has died, a kernel command
that is not ``<this Python> -m ipykernel_launcher ...``, an environment whose Python settings differ from the
template's, or output that is a pipe.

The course's kernel manager (:meth:`tartli.server.kernels.CourseKernelRules.pre_start_kernel`) gives each kernel
this provisioner while the server's template runs (``TartliVoila.fork_kernels``): set on the kernel's manager
before its start rather than registered as an entry point, because the provisioner only works with a template
that the course's server started (an entry point would be found by any Jupyter server in the environment,
and would need the package installed again before it is seen). Binder's server (:mod:`tartli.server.binder`)
keeps jupyter_client's own: one visitor a container, where a template would hold memory for no class.

A forked kernel is not the server's child but the template's: its exit code comes from the template (which reaps
it), it is watched through a pidfd (no message while it runs), and its signals go to its process group as
jupyter_client sends them (the child has its own session: its pid is its group's).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

from tartli.server import zygote

READY_WAIT = 60.0
"""Seconds a kernel start waits for a template that is still importing before it starts the usual way."""
ANSWER_WAIT = 10.0
"""Seconds the server waits for the template's answer to a request (a fork takes milliseconds)."""
PYTHON_SETTINGS = ("PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH", "PYTHONNOUSERSITE", "PYTHONUSERBASE", "PYTHONOPTIMIZE")
"""Variables that change what a Python imports: a kernel whose environment sets them otherwise than the template's
is started the usual way."""


class KernelTemplate:
    """The server's kernel template: its process, and the socket the server asks it through (one request at a time)."""

    def __init__(self, log_file: str | None = None) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        bootstrap = f"import runpy; runpy.run_path({str(Path(zygote.__file__))!r}, run_name='__main__')"
        output: Any = subprocess.DEVNULL
        if log_file:
            try:
                output = open(log_file, "ab")  # noqa: SIM115 (closed below, once the template has it)
            except OSError:
                output = subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", bootstrap, str(theirs.fileno()), str(os.getpid())],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=output,
                start_new_session=True,  # (a Ctrl-C at the server's terminal is the server's to answer)
                env=dict(os.environ),
            )
        finally:
            theirs.close()
            if output is not subprocess.DEVNULL:
                output.close()
        self.environment = dict(os.environ)
        self.socket = ours
        self.pid: int | None = None  # the template's, once it has said it is ready
        self.problem: str | None = None  # why it cannot serve (then kernels start the usual way)
        self._lock = threading.Lock()
        self._requests = itertools.count(1)  # (each request's number, which its answer repeats)

    # ------------------------------------------------------------ the conversation (blocking: run in a thread)
    def _answer(self, timeout: float, wanted: int | None = None) -> dict[str, Any] | None:
        """The template's next message, or (``wanted``) its answer to request ``wanted``: an answer to an earlier
        request, which waited too long for it and went on, is passed over, and a kernel forked for it is ended
        (its manager has started one the usual way, with the same connection file)."""
        deadline = time.monotonic() + timeout
        while True:
            self.socket.settimeout(max(0.001, deadline - time.monotonic()))
            try:
                data = self.socket.recv(zygote.MESSAGE_BYTES)
            except (TimeoutError, OSError):
                return None
            if not data:
                self.problem = "the kernel template has ended"
                return None
            answer: dict[str, Any] = json.loads(data)
            if wanted is None or answer.get("id") == wanted:
                return answer
            late = answer.get("pid")
            if isinstance(late, int) and late > 0:
                with contextlib.suppress(OSError):
                    os.kill(late, signal.SIGKILL)  # (the template reaps it)

    def _ready(self) -> bool:
        if self.pid is not None or self.problem is not None:
            return self.pid is not None
        said = self._answer(READY_WAIT)
        if said is None:
            self.problem = self.problem or f"the kernel template was not ready in {READY_WAIT:.0f} s"
        elif "ready" in said and said.get("threads") == 1:
            self.pid = int(said["ready"])
        else:
            self.problem = f"the kernel template could not start: {said}"
        return self.pid is not None

    def ready(self) -> bool:
        """Is the template serving (waits for it while it imports)?"""
        with self._lock:
            return self._ready()

    def fork(self, argv: list[str], env: dict[str, str], cwd: str, stdio: list[int]) -> int | None:
        """A kernel forked for ``argv`` (its pid), or None (it must be started the usual way)."""
        with self._lock:
            if not self._ready():
                return None
            asked = next(self._requests)
            request = json.dumps({"id": asked, "start": {"argv": argv, "env": env, "cwd": cwd}}).encode()
            try:
                socket.send_fds(self.socket, [request], stdio)
            except OSError as problem:
                self.problem = f"the kernel template has gone: {problem!r}"
                return None
            answer = self._answer(ANSWER_WAIT, asked)
        if answer is None or "pid" not in answer:
            return None
        return int(answer["pid"])

    def exit_code(self, pid: int) -> int:
        """The exit code of a kernel that has ended (-1 if the template cannot tell: it has gone, or forgot)."""
        with self._lock:
            if self.problem is not None:
                return -1
            asked = next(self._requests)
            try:
                self.socket.send(json.dumps({"id": asked, "status": pid}).encode())
            except OSError:
                return -1
            answer = self._answer(ANSWER_WAIT, asked)
        code = None if answer is None else answer.get("code")
        return int(code) if isinstance(code, int) else -1

    def usable_for(self, argv: list[str], env: dict[str, str]) -> bool:
        """Can this command in this environment be forked from the template (it runs ipykernel in this Python)?"""
        if self.problem is not None or argv[:3] != [sys.executable, "-m", "ipykernel_launcher"]:
            return False
        return all(env.get(name) == self.environment.get(name) for name in PYTHON_SETTINGS)

    def close(self) -> None:
        """End the template (its kernels end too: their parent-poller watches it)."""
        self.problem = self.problem or "the kernel template was closed"
        self.socket.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_TEMPLATE: KernelTemplate | None = None


def start_template(log_file: str | None = None) -> KernelTemplate | None:
    """Start the server's kernel template (once; None where kernels cannot be forked: not Linux)."""
    global _TEMPLATE
    if _TEMPLATE is None and sys.platform.startswith("linux") and hasattr(socket, "send_fds"):
        _TEMPLATE = KernelTemplate(log_file)
    return _TEMPLATE


def template() -> KernelTemplate | None:
    """The server's kernel template, if it was started and still serves."""
    return _TEMPLATE if _TEMPLATE is not None and _TEMPLATE.problem is None else None


def stop_template() -> None:
    global _TEMPLATE
    if _TEMPLATE is not None:
        _TEMPLATE.close()
        _TEMPLATE = None


class ForkedKernel:
    """A forked kernel as jupyter_client handles a kernel's ``Popen``: poll, wait, signals (to the process only;
    the provisioner sends to the process group first)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, owner: KernelTemplate) -> None:
        self.pid = pid
        self.owner = owner
        self.returncode: int | None = None
        try:
            self.pidfd: int | None = os.pidfd_open(pid)
        except (OSError, AttributeError):
            self.pidfd = None

    def _running(self) -> bool:
        if self.pidfd is not None:
            readable, _w, _x = select.select([self.pidfd], [], [], 0)
            return not readable
        try:
            os.kill(self.pid, 0)  # (without a pidfd: a zombie still answers, and the template reaps at once)
        except ProcessLookupError:
            return False
        return True

    def poll(self) -> int | None:
        if self.returncode is None and not self._running():
            self.returncode = self.owner.exit_code(self.pid)
            if self.pidfd is not None:
                os.close(self.pidfd)
                self.pidfd = None
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout or 0)
            time.sleep(0.05)
        return self.returncode or 0

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signum)
            else:
                os.kill(self.pid, signum)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _descriptor(stream: Any, default: int) -> int | None:
    """A file descriptor for the kernel's stdout/stderr as Popen takes them (None: a pipe, which a fork cannot be
    given)."""
    if stream is None:
        return default
    if stream == subprocess.DEVNULL:
        return -1
    if isinstance(stream, int):
        return stream if stream >= 0 else None
    fileno = getattr(stream, "fileno", None)
    return int(fileno()) if fileno is not None else None


class ForkProvisioner(LocalProvisioner):
    """jupyter_client's local provisioner, with the kernel forked from the server's template when it can be."""

    forked = False

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        chosen = template()
        env: dict[str, str] = dict(kwargs.get("env") or os.environ)
        stdio = [_descriptor(kwargs.get("stdout"), 1), _descriptor(kwargs.get("stderr"), 2)]
        cmd = [os.path.expanduser(part) for part in cmd]
        if chosen is None or None in stdio or not chosen.usable_for(cmd, env):
            self.forked = False
            connection: KernelConnectionInfo = await super().launch_kernel(cmd, **kwargs)
            return connection
        cwd = str(kwargs.get("cwd") or os.getcwd())
        nothing = os.open(os.devnull, os.O_RDWR)
        files = [nothing] + [nothing if fd == -1 else fd for fd in stdio if fd is not None]
        try:
            pid = await asyncio.to_thread(chosen.fork, cmd, env, cwd, files)
        finally:
            os.close(nothing)
        if pid is None:
            self.forked = False
            connection = await super().launch_kernel(cmd, **kwargs)
            return connection
        self.forked = True
        self.process = ForkedKernel(pid, chosen)  # type: ignore[assignment]
        self.pid = self.pgid = pid  # (the child has its own session: jupyter_client signals its process group)
        self.cwd = cwd
        return self.connection_info

    async def poll(self) -> int | None:
        if isinstance(self.process, ForkedKernel) and self.process.returncode is None and self.process._running():
            return None  # (no thread and no message while it runs)
        result: int | None = await asyncio.to_thread(super_poll, self)
        return result


def super_poll(provisioner: ForkProvisioner) -> int | None:
    """LocalProvisioner's poll, synchronously (a forked kernel's exit code is a message to the template)."""
    process = provisioner.process
    if process is None:
        return 0
    code: int | None = process.poll()
    return code
