"""The course server counts each kernel once while it starts (tartli.server.kernels.places_taken).

These tests start real kernels through jupyter_server's real kernel manager with the course's rules on
top (the same stack as the course server, without the web server): at the moment a new kernel enters
the manager's kernels, the start that asked for it (a page request's reservation, or a pool's task) is
not over yet, and the kernel must not be counted twice. jupyter_server's ``start_watching_activity`` is
called in that moment (after the kernel is in the manager's kernels, before ``start_kernel`` returns);
the tests read the count there.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import threading
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets.config import Configurable
from voila.voila_kernel_manager import voila_kernel_manager_factory

from tartli.server.kernels import POOL_ENV, ClassPupils, course_kernel_manager, done_serving, serving


class _Parent(Configurable):
    """What Voilà's pool manager reads of its app (a folder with no notebook: no pool is filled at start)."""

    def __init__(self, root: str) -> None:
        super().__init__()
        self.root_dir = root
        self.notebook_path = None
        self.base_url = "/"
        self.server_url = "/"
        self.port = 0


def _manager() -> Any:
    """The course server's kernel manager class (the course's rules on Voilà's pool manager)."""
    voila_class = voila_kernel_manager_factory(AsyncMappingKernelManager, preheat_kernel=True, default_pool_size=0)
    root = tempfile.mkdtemp()
    manager = course_kernel_manager(voila_class)(parent=_Parent(root), root_dir=root)
    seen: list[tuple[int, int]] = []
    watch = manager.start_watching_activity

    def start_watching_activity(kernel_id: str) -> None:
        seen.append((len(manager._kernels), manager.places_taken()))
        watch(kernel_id)

    manager.start_watching_activity = start_watching_activity
    manager.seen = seen
    return manager


class _Renderer:
    def __init__(self) -> None:
        self.stop_generator = False
        self.rendered_cache: list[str] = []


def _run(body: Any) -> None:
    """Run ``body`` on an event loop of its own, in a thread (a browser test may hold this thread's loop)."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(asyncio.wait_for(body(), timeout=120))
        except BaseException as err:  # handed to the test
            failure.append(err)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(180)
    assert not worker.is_alive(), "the kernels did not start within 180 s"
    if failure:
        raise failure[0]


def test_a_pages_kernel_and_its_reservation_are_one_place() -> None:
    async def body() -> None:
        manager = _manager()
        try:
            admission = manager.admit("a-browser")
            assert admission.token is not None and manager.places_taken() == 1
            mark = serving(admission.token, "a-browser")
            try:
                kernel_id = await manager.start_kernel(kernel_name="python3")
            finally:
                done_serving(mark)
            # the kernel was running and its request's start not over: one place, not two
            assert manager.seen == [(1, 1)]
            assert manager.places_taken() == 1
            manager.release(admission.token)
            assert manager.places_taken() == 1 and manager.kernels_of("a-browser") == [kernel_id]
        finally:
            await manager.shutdown_all()
        assert manager.places_taken() == 0

    _run(body)


def test_a_pool_kernel_and_its_pools_task_are_one_place() -> None:
    async def body() -> None:
        manager = _manager()
        try:

            async def fill() -> dict[str, Any]:
                """As Voilà's pool task (``_initialize``): the kernel is started in the task, by the class
                below the course's rules, and the task's result names it (its notebook is not run here)."""
                kernel_id = await AsyncMappingKernelManager.start_kernel(
                    manager, kernel_name="python3", env={**os.environ, POOL_ENV: "True"}
                )
                done: asyncio.Future[tuple[list[str], None]] = asyncio.get_running_loop().create_future()
                done.set_result(([], None))
                return {"kernel_id": kernel_id, "task": done, "renderer": _Renderer()}

            task = asyncio.ensure_future(fill())
            manager._pools = {"page.ipynb": [task]}
            assert manager.places_taken() == 1  # a kernel starting for a pool holds its place
            await task
            assert manager.seen == [(1, 1)]
            assert manager.places_taken() == 1
            # a request that took the pool's task while it was starting counts it once too
            second = asyncio.ensure_future(fill())
            manager._pools["page.ipynb"] = [second]
            admission = manager.admit("a-browser")
            mark = serving(admission.token, "a-browser")
            try:
                taken = asyncio.ensure_future(manager.get_rendered_notebook("page.ipynb"))
                await asyncio.sleep(0)
                assert manager._pools["page.ipynb"] == []  # Voilà took the task
                assert manager.places_taken() == 2
                _render, _cache, kernel_id = await taken
            finally:
                done_serving(mark)
            assert manager.seen == [(1, 1), (2, 2)]
            assert manager.places_taken() == 2 and manager.kernels_of("a-browser") == [kernel_id]
        finally:
            await manager.shutdown_all()

    _run(body)


def test_the_culler_leaves_a_kernel_that_is_still_starting_alone() -> None:
    """jupyter_client puts a new kernel among the manager's kernels a step before jupyter_server gives it
    its activity markers; a cull pass in that step logged a TraitError (last_activity None) in the
    server's log. The course's culler skips such a kernel."""

    async def body() -> None:
        manager = _manager()
        manager.cull_idle_timeout = 1
        met: list[str] = []
        errors: list[BaseException] = []
        try:
            start = asyncio.ensure_future(manager.start_kernel(kernel_name="python3"))
            while not start.done():
                for kernel_id in list(manager._kernels):
                    if kernel_id not in manager._kernel_connections:
                        met.append(kernel_id)
                        try:
                            await manager.cull_kernel_if_idle(kernel_id)
                        except Exception as err:  # what jupyter_server's culler would log
                            errors.append(err)
                await asyncio.sleep(0)
            kernel_id = await start
            assert met, "the cull never met the kernel while it started (nothing was tested)"
            assert errors == []
            assert kernel_id in manager._kernels  # not culled either
        finally:
            await manager.shutdown_all()

    _run(body)


def test_a_browser_counts_as_a_pupils_from_its_last_report_until_it_leaves_or_is_forgotten() -> None:
    """Issue 42: the class's browsers the server puts first (in its memory only)."""
    clock = [1000.0]
    pupils = ClassPupils(fresh=600.0, clock=lambda: clock[0])
    pupils.note("anna")
    pupils.note("bela")
    assert pupils.now() == {"anna", "bela"}
    pupils.note("bela", present=False)  # left, or removed (a report refused)
    clock[0] += 599.0
    pupils.note("csilla")
    assert pupils.now() == {"anna", "csilla"}
    clock[0] += 2.0  # anna has not reported for 601 s: her page is closed, or hidden since
    assert pupils.now() == {"csilla"}


def test_a_pool_kernel_is_ready_for_a_class_only_once_its_page_is_rendered() -> None:
    """The "ready for a class" line and the teacher's page count the kernels whose page Voilà has rendered: a kernel
    that has started but is still running its notebook would take the cores from the pupils who come then."""

    async def body() -> None:
        manager = _manager()
        loop = asyncio.get_running_loop()
        render: asyncio.Future[tuple[list[str], None]] = loop.create_future()
        started: asyncio.Future[dict[str, Any]] = loop.create_future()
        started.set_result({"kernel_id": "k1", "task": render, "renderer": _Renderer()})
        starting: asyncio.Future[dict[str, Any]] = loop.create_future()
        manager._pools = {"03_deal.ipynb": [started, starting]}
        assert manager.ready_in_pools() == {"03_deal.ipynb": 0}
        render.set_result((["<html>"], None))
        assert manager.ready_in_pools() == {"03_deal.ipynb": 1}
        starting.cancel()

    _run(body)


def test_the_memory_of_a_waiting_kernel_is_measured_on_a_few_of_them(monkeypatch: Any) -> None:
    """Each measure reads a kernel's smaps_rollup (some 10 ms of the event loop): a class's 60 waiting kernels are not
    all read while the pools refill behind its pupils."""
    import types

    import tartli.server.kernels as kernels

    read: list[int] = []
    monkeypatch.setattr(kernels, "kernel_memory_mib", lambda pid: read.append(pid) or 50.0 + pid % 2)

    async def body() -> None:
        manager = _manager()
        loop = asyncio.get_running_loop()
        pool = []
        for n in range(60):
            render: asyncio.Future[Any] = loop.create_future()
            render.set_result(([], None))
            task: asyncio.Future[dict[str, Any]] = loop.create_future()
            task.set_result({"kernel_id": f"k{n}", "task": render, "renderer": _Renderer()})
            pool.append(task)
            process = types.SimpleNamespace(pid=1000 + n)
            manager._kernels[f"k{n}"] = types.SimpleNamespace(provisioner=types.SimpleNamespace(process=process))
        manager._pools = {"03_deal.ipynb": pool}
        assert manager.memory_per_kernel() == 50.5
        assert len(read) == kernels.MEMORY_SAMPLE
        manager._kernels.clear()

    _run(body)
