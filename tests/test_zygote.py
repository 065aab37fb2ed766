"""The kernel template (tartli.server.zygote, tartli.server.forking; issue 39): real kernels forked from a real
template through jupyter_client, as the course's kernel manager starts them: the kernel is the template's child,
runs in its page's language, takes an interrupt, restarts forked, ends without a zombie and reports how it ended;
without a template the provisioner starts kernels the usual way; the template loads nothing a page does not."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from jupyter_client.manager import AsyncKernelManager

from tartli.server import forking, zygote
from tests.test_page_imports import HEAVY, modules_of


def run_apart(scenario: Any) -> None:
    """Run a coroutine on an event loop of its own, in a thread of its own: in the whole suite an earlier test may
    leave an event loop running in the main thread, where ``asyncio.run`` refuses to start."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario)
        except BaseException as error:  # (raised again in the test's thread)
            failed.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="kernels are forked on Linux only")


@pytest.fixture(scope="module")
def template() -> Iterator[forking.KernelTemplate]:
    started = forking.start_template()
    assert started is not None and started.ready(), started and started.problem
    try:
        yield started
    finally:
        forking.stop_template()


async def start(env: dict[str, str] | None = None) -> tuple[AsyncKernelManager, Any]:
    manager = AsyncKernelManager(kernel_name="python3")
    manager.provisioner = forking.ForkProvisioner(kernel_id="test", kernel_spec=manager.kernel_spec, parent=manager)
    await manager.start_kernel(env={**os.environ, **(env or {})})
    client = manager.client()
    client.start_channels()
    await client.wait_for_ready(timeout=60)
    return manager, client


async def run(client: Any, code: str) -> tuple[str, str]:
    """Run ``code``: (what it printed, the error's name or "")."""
    printed, error = [], ""

    def seen(message: dict[str, Any]) -> None:
        nonlocal error
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])
        elif message["msg_type"] == "error":
            error = message["content"]["ename"]

    await client.execute_interactive(code, timeout=60, output_hook=seen)
    return "".join(printed), error


def ended(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() in (psutil.STATUS_DEAD,)
    except psutil.NoSuchProcess:
        return True


def test_a_kernel_is_forked_from_the_template_and_speaks_its_pages_language(template: forking.KernelTemplate) -> None:
    async def scenario() -> None:
        manager, client = await start({"QUERY_STRING": "lang=hu"})
        try:
            assert manager.provisioner.forked
            pid = manager.provisioner.pid
            printed, error = await run(
                client,
                "import os, comm, tartli.i18n as i\n"
                "print(os.getppid(), i.language(), 'jupyter.widget.control' in comm.get_comm_manager().targets)",
            )
            assert error == ""
            # the template's child; the page's language; ipywidgets (imported in the template) answers the page
            assert printed.split() == [str(template.pid), "hu", "True"]
            assert psutil.Process(pid).ppid() == template.pid
        finally:
            client.stop_channels()
            await manager.shutdown_kernel(now=True)
        assert ended(pid)

    run_apart(scenario())


def test_interrupt_restart_and_the_end_of_a_forked_kernel(template: forking.KernelTemplate) -> None:
    async def scenario() -> None:
        manager, client = await start()
        try:
            first = manager.provisioner.pid
            busy = asyncio.ensure_future(run(client, "import time\ntime.sleep(60)"))
            await asyncio.sleep(1.0)
            await manager.interrupt_kernel()
            _printed, error = await asyncio.wait_for(busy, 30)
            assert error == "KeyboardInterrupt"
            await manager.restart_kernel(now=True)
            second = manager.provisioner.pid
            assert manager.provisioner.forked and second != first
            assert ended(first)  # (reaped by the template: no zombie)
            await client.wait_for_ready(timeout=60)
            client.execute("import os\nos._exit(3)")
            for _ in range(200):
                if await manager.provisioner.poll() is not None:
                    break
                await asyncio.sleep(0.05)
            assert await manager.provisioner.poll() == 3  # how it ended, from the template
            assert ended(second)
            assert not [c for c in psutil.Process(template.pid).children() if c.status() == psutil.STATUS_ZOMBIE]
        finally:
            client.stop_channels()
            await manager.shutdown_kernel(now=True)

    run_apart(scenario())


def test_an_answer_that_comes_too_late_is_passed_over_and_its_kernel_ended(
    template: forking.KernelTemplate, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fork whose answer came after the server stopped waiting (its kernel's manager then started the kernel the
    usual way, with the same connection file): the next request's answer is its own, not the late one, and the
    kernel forked for nobody is ended. Before, the next fork was told the late kernel's pid, and each later answer
    was one behind."""
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f"]
    files = [os.open(os.devnull, os.O_RDWR) for _ in range(3)]
    template_process = psutil.Process(template.pid)
    known = {child.pid for child in template_process.children()}
    try:
        monkeypatch.setattr(forking, "ANSWER_WAIT", 0.5)
        os.kill(template.pid, signal.SIGSTOP)  # (a template too busy to answer in time)
        try:
            assert template.fork([*argv, str(tmp_path / "late.json")], dict(os.environ), str(tmp_path), files) is None
        finally:
            os.kill(template.pid, signal.SIGCONT)
        deadline = time.monotonic() + 30
        while not (late := {child.pid for child in template_process.children()} - known):
            assert time.monotonic() < deadline, "the template never forked the late kernel"
            time.sleep(0.05)
        (orphan,) = late
        monkeypatch.setattr(forking, "ANSWER_WAIT", 10.0)
        second = template.fork([*argv, str(tmp_path / "next.json")], dict(os.environ), str(tmp_path), files)
        assert second is not None and second != orphan
        deadline = time.monotonic() + 10
        while not ended(orphan):
            assert time.monotonic() < deadline, "the kernel forked for nobody is still running"
            time.sleep(0.05)
        assert template.exit_code(orphan) == -signal.SIGKILL
    finally:
        for fd in files:
            os.close(fd)
        for child in template_process.children():
            if child.pid not in known:
                child.kill()


def test_without_a_template_the_kernel_starts_the_usual_way() -> None:
    forking.stop_template()

    async def scenario() -> None:
        manager, client = await start()
        try:
            assert not manager.provisioner.forked
            printed, _error = await run(client, "import os\nprint(os.getppid())")
            assert printed.split() == [str(os.getpid())]
        finally:
            client.stop_channels()
            await manager.shutdown_kernel(now=True)

    run_apart(scenario())


PRELOADED = """
import json, runpy, sys
code = open(sys.argv[1], encoding="utf-8").read()
names = {"__name__": "template"}
exec(compile(code, sys.argv[1], "exec"), names)
import importlib
for name in names["PRELOAD"]:
    importlib.import_module(name)
print(json.dumps(sorted(sys.modules)))
"""


def test_the_template_loads_nothing_a_page_does_not_load() -> None:
    """The template's modules are ipykernel's (every kernel's) and what each page with widgets loads: never the
    table, the bots, the review, the site builder, the server, nor tartli.widgets (it names the kernel's log)."""
    done = subprocess.run(
        [sys.executable, "-c", PRELOADED, str(Path(zygote.__file__))], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert [m for m in loaded if m.startswith((*HEAVY, "tartli.widgets"))] == []
    course = {m for m in loaded if m.startswith("tartli")}
    for page in ("00_index", "03_deal", "rules"):
        assert course <= set(modules_of(page)), f"{page} does not load {sorted(course - set(modules_of(page)))}"
