"""The course server's checks without a server: websocket frame shapes, Host names, the pool clock,
the kernel log. (tests/browser/test_server.py runs the same checks against the real server.)"""

from __future__ import annotations

import asyncio
import datetime
import os
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from jupyter_server.services.kernels import kernelmanager

from tartli.server.app import V1_PROTOCOL, CourseKernelManager, default_max_kernels, frame_problem, host_name
from tartli.widgets import kernel_log


def v1_frame(*parts: bytes) -> bytes:
    """A well-formed v1 frame: the offset count, the offsets, then the parts (channel, header, ...)."""
    count = len(parts) + 1
    start = 8 * (count + 1)
    offsets, position = [], start
    for part in parts:
        offsets.append(position)
        position += len(part)
    offsets.append(position)
    head = count.to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + b"".join(parts)


def test_sound_frames_pass() -> None:
    assert frame_problem(v1_frame(b"shell", b"{}", b"{}", b"{}", b"{}"), V1_PROTOCOL) is None
    assert frame_problem('{"channel": "shell"}', None) is None  # the legacy text protocol
    assert frame_problem((1).to_bytes(4, "big") + (8).to_bytes(4, "big") + b"{}", None) is None


@pytest.mark.parametrize(
    ("frame", "protocol"),
    [
        ((40_000_000).to_bytes(8, "little") + bytes(8), V1_PROTOCOL),  # the 16-byte stall
        ((2**63).to_bytes(8, "little") + bytes(8), V1_PROTOCOL),
        (bytes(4), V1_PROTOCOL),
        ("text", V1_PROTOCOL),
        ((3).to_bytes(8, "little") + (99).to_bytes(8, "little") * 3, V1_PROTOCOL),  # offsets past the end
        ((122_000_000).to_bytes(4, "big") + bytes(4), None),  # the legacy buffer count
        ((-5).to_bytes(4, "big", signed=True) + bytes(4), None),
    ],
)
def test_malformed_frames_are_refused_before_parsing(frame: Any, protocol: str | None) -> None:
    assert frame_problem(frame, protocol) is not None


def test_host_names() -> None:
    assert host_name("127.0.0.1:8866") == "127.0.0.1"
    assert host_name("EVIL.example:80") == "evil.example"
    assert host_name("[::1]:8866") == "::1"
    assert 4 <= default_max_kernels() <= 50


def _run(coroutine: Any) -> None:
    """asyncio.run in a thread of its own (Playwright's sync API may run a loop in this one)."""
    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as err:  # handed back to the test
            errors.append(err)

    worker = threading.Thread(target=target)
    worker.start()
    worker.join(60)
    if errors:
        raise errors[0]


def _kernel(started: datetime.datetime) -> Any:
    return SimpleNamespace(
        execution_state="idle", last_activity=started, kernel_name="python3", kernel_spec=SimpleNamespace(metadata={})
    )


def test_a_pool_kernel_older_than_the_timeout_survives_its_handout(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock: the kernel waits 1,000 s in the pool (timeout 180 s, cull every 30 s), is handed out,
    and a cull pass before the browser connects must not shut it down; a visitor who never comes is culled."""
    start = datetime.datetime(2026, 11, 24, 8, 0, tzinfo=datetime.timezone.utc)
    now = [start]
    monkeypatch.setattr(kernelmanager, "utcnow", lambda: now[0])
    manager = CourseKernelManager(cull_idle_timeout=180, cull_interval=30)
    culled: list[str] = []

    async def shutdown(kernel_id: str, *args: Any, **kwargs: Any) -> None:
        culled.append(kernel_id)
        manager._kernels.pop(kernel_id)

    monkeypatch.setattr(manager, "shutdown_kernel", shutdown)

    async def run() -> None:
        manager._kernels["pooled"] = _kernel(start)
        ready: asyncio.Future[dict[str, str]] = asyncio.get_running_loop().create_future()
        ready.set_result({"kernel_id": "pooled"})
        manager._pools = {"01_pack.ipynb": [ready]}

        async def cull_pass() -> None:
            for kernel_id in list(manager._kernels):
                await manager.cull_kernel_if_idle(kernel_id)

        for _ in range(33):  # 1,000 s in the pool, a cull pass every 30 s
            now[0] += datetime.timedelta(seconds=30)
            await cull_pass()
        assert culled == []
        manager._pools["01_pack.ipynb"].pop(0)  # handed out to a visitor (Voilà pops it from the pool)
        now[0] += datetime.timedelta(seconds=25)  # the browser has not connected yet
        await cull_pass()
        assert culled == []  # the dead page at the start of a class
        now[0] += datetime.timedelta(seconds=200)  # nobody came: no connection for longer than the timeout
        await cull_pass()
        assert culled == ["pooled"]

    _run(run())


def test_without_the_fix_the_handed_out_kernel_is_culled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same story with Voilà's plain manager: the check above can fail."""
    start = datetime.datetime(2026, 11, 24, 8, 0, tzinfo=datetime.timezone.utc)
    monkeypatch.setattr(kernelmanager, "utcnow", lambda: start + datetime.timedelta(seconds=1025))
    manager = kernelmanager.AsyncMappingKernelManager(cull_idle_timeout=180)
    culled: list[str] = []

    async def shutdown(kernel_id: str, *args: Any, **kwargs: Any) -> None:
        culled.append(kernel_id)

    monkeypatch.setattr(manager, "shutdown_kernel", shutdown)
    manager._kernels["pooled"] = _kernel(start)
    _run(manager.cull_kernel_if_idle("pooled"))
    assert culled == ["pooled"]


def test_kernel_log_sends_errors_to_the_file_not_to_stderr(tmp_path: Path) -> None:
    """In a process of its own (as a kernel is): the course's log and other loggers go to the file."""
    path = tmp_path / "kernels.log"
    script = (
        "import logging, sys\n"
        "import tartli.widgets\n"  # installs from TARTLI_KERNEL_LOG on import
        "logging.getLogger('tartli.widgets.table').exception('table callback failed')\n"
        "logging.getLogger('Comm').error('Exception in comm_msg for x')\n"
    )
    env = {**os.environ, kernel_log.KERNEL_LOG_ENV: str(path)}
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and proc.stdout == ""  # nothing on the streams a kernel forwards to the page
    logged = path.read_text(encoding="utf-8")
    assert "table callback failed" in logged and "Exception in comm_msg" in logged


# ---------------------------------------------------------------- Binder (tartli.server.binder)


def test_binder_gives_voilas_extension_the_course_settings() -> None:
    """What the Jupyter server on Binder gets is voila.json's, less what only Voilà's own server uses."""
    from traitlets.config import Config

    from tartli.app import settings
    from tartli.server.binder import EXTENSION, NOT_FOR_THE_EXTENSION, server_config

    shipped = settings()
    c = server_config()
    voila = {k: v for k, v in shipped["VoilaConfiguration"].items() if k not in NOT_FOR_THE_EXTENSION}
    assert dict(c.VoilaConfiguration) == voila
    assert voila["template"] == "tartli" and voila["show_tracebacks"] is False
    assert dict(c.VoilaExecutor) == shipped["VoilaExecutor"]
    assert dict(c.MappingKernelManager) == shipped["MappingKernelManager"]
    # Merged into the extensions and settings other configuration files give, not replacing them.
    merged = Config({"ServerApp": {"jpserver_extensions": {"voila.server_extension": True}}})
    merged.merge(c)
    assert merged.ServerApp.jpserver_extensions == {"voila.server_extension": True, EXTENSION: True}
    assert c.ServerApp.tornado_settings.get_value({"x": 1}) == {"x": 1, "mathjax_url": None, "mathjax_config": None}


def test_binder_swaps_voilas_page_handler_when_voila_loaded_first() -> None:
    """Extensions load alphabetically (Voilà's after the course's); in the other order the rule is swapped."""
    import tornado.web
    from voila.tornado.handler import TornadoVoilaHandler

    from tartli.server.app import CookieVoilaHandler
    from tartli.server.binder import _swap_page_handler

    web_app = tornado.web.Application()
    web_app.add_handlers(".*$", [(r"/user/x/voila/render/(.*)", TornadoVoilaHandler, {})])
    assert _swap_page_handler(web_app.default_router, CookieVoilaHandler) == 1
    assert _swap_page_handler(web_app.default_router, CookieVoilaHandler) == 0  # nothing left to swap
