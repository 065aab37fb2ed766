"""Kernels forked from the server's kernel template (issue 39: a cheaper cold page), through the real server: a page
opened cold gets a kernel whose parent is the template; a kernel that dies is restarted forked; shutdown and the
cull end it (no process, no zombie); with ``--TartliVoila.fork_kernels=False`` kernels start the usual way. (That
a forked kernel's page draws its widgets: the Chromium tests of pages through the server, e.g. test_server.py's,
run with the template on.)"""

from __future__ import annotations

import http.client
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.browser.conftest import Server, kernel_processes, start_server, stop_server, template_processes
from tests.browser.test_server import _VISITORS, get, kernel_of

COLD = ("--VoilaConfiguration.default_pool_size=0",)
"""No pools: every page starts its own kernel."""


@pytest.fixture
def cold_server(tmp_path: Path) -> Iterator[Server]:
    server = start_server(tmp_path / "voila.log", extra=COLD)
    try:
        yield server
    finally:
        stop_server(server)


def post(server: Server, path: str) -> int:
    """POST ``path`` as the course's browser does (its visitor cookie, the _xsrf cookie the page set and its
    header)."""
    get(server, "/voila/render/00_index.ipynb")  # (the browser's visitor cookie)
    visitor = _VISITORS[server.port]
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    connection.request("GET", "/voila/render/00_index.ipynb", headers={"Cookie": visitor})
    response = connection.getresponse()
    response.read()
    cookies = [v.split(";", 1)[0] for k, v in response.getheaders() if k.lower() == "set-cookie"]
    xsrf = next(c.split("=", 1)[1] for c in cookies if c.startswith("_xsrf="))
    connection.request("POST", path, body=b"", headers={"Cookie": f"{visitor}; _xsrf={xsrf}", "X-XSRFToken": xsrf})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def wait_until(check: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.25)


def kernels_now(server: Server) -> set[int]:
    """The server's kernel processes, once this test's browser has its visitor cookie (getting it opens the index,
    whose kernel is then among these: the next new kernel is the next page's)."""
    get(server, "/voila/render/00_index.ipynb")
    return set(kernel_processes(server.process.pid))


def new_kernel(server: Server, before: set[int]) -> psutil.Process:
    found: dict[int, Any] = {}

    def one_more() -> bool:
        found.update({p: k for p, k in kernel_processes(server.process.pid).items() if p not in before})
        return bool(found)

    wait_until(one_more, "no new kernel process")
    assert len(found) == 1, found
    return next(iter(found.values()))


def gone(pid: int) -> bool:
    """The process has ended and been reaped (no zombie left)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_DEAD
    except psutil.NoSuchProcess:
        return True


def test_a_cold_page_gets_a_kernel_forked_from_the_template(cold_server: Server) -> None:
    templates = template_processes(cold_server.process.pid)
    assert len(templates) == 1, "the server runs no kernel template"
    before = kernels_now(cold_server)
    status, _headers, body = get(cold_server, "/voila/render/01_pack.ipynb")
    assert status == 200
    kernel = new_kernel(cold_server, before)
    assert kernel.ppid() in templates  # forked from the template, not started by the server
    assert kernel.cmdline() == templates[kernel.ppid()].cmdline()  # (a fork: no new program was run)
    assert "tartli-steps" in body  # the page was rendered by that kernel: its notebook ran


def test_a_forked_kernel_that_dies_is_restarted_forked_and_shutdown_ends_it_without_a_zombie(
    cold_server: Server,
) -> None:
    """(Voilà lets a page neither interrupt nor restart its kernel: the server restarts a kernel that died, and a
    page's shutdown ends it. The interrupt is tested through jupyter_client: tests/test_zygote.py.)"""
    templates = template_processes(cold_server.process.pid)
    before = kernels_now(cold_server)
    status, _headers, body = get(cold_server, "/voila/render/05_melds.ipynb")
    assert status == 200
    kernel_id = kernel_of(body)
    first = new_kernel(cold_server, before)
    assert first.ppid() in templates
    first.kill()  # (a crash: the server's restarter sees it through the template and starts it again)
    wait_until(lambda: gone(first.pid), "the killed kernel's process is still there (or a zombie)")
    second = new_kernel(cold_server, before | {first.pid})
    assert second.ppid() in templates  # the restart forked again
    assert get(cold_server, f"/api/kernels/{kernel_id}")[0] == 200
    assert post(cold_server, f"/voila/api/shutdown/{kernel_id}") == 204
    wait_until(lambda: gone(second.pid), "the shut-down kernel's process is still there (or a zombie)")
    assert get(cold_server, f"/api/kernels/{kernel_id}")[0] == 404
    for template in templates.values():
        assert not [c for c in template.children() if c.status() == psutil.STATUS_ZOMBIE]


def test_a_page_that_never_connects_is_culled_and_its_forked_kernel_ends(tmp_path: Path) -> None:
    server = start_server(
        tmp_path / "voila.log",
        extra=(*COLD, "--TartliVoila.connect_grace=2", "--MappingKernelManager.cull_interval=1",
               "--MappingKernelManager.cull_idle_timeout=60"),
    )  # fmt: skip
    try:
        before = kernels_now(server)
        status, _headers, body = get(server, "/voila/render/07_sequences.ipynb")
        assert status == 200
        kernel = new_kernel(server, before)
        assert kernel.ppid() in template_processes(server.process.pid)
        wait_until(lambda: gone(kernel.pid), "the culled kernel's process is still there (or a zombie)", 90)
        # (the server forgets the kernel once its shutdown is over, a moment after its process ends: on the loaded
        # clean run the record was still there when the process had gone)
        kernel_id = kernel_of(body)
        wait_until(lambda: get(server, f"/api/kernels/{kernel_id}")[0] == 404, "the server still lists the kernel", 30)
    finally:
        stop_server(server)


def test_without_the_template_kernels_start_the_usual_way(tmp_path: Path) -> None:
    server = start_server(tmp_path / "voila.log", extra=(*COLD, "--TartliVoila.fork_kernels=False"))
    try:
        assert template_processes(server.process.pid) == {}
        before = kernels_now(server)
        status, _headers, body = get(server, "/voila/render/01_pack.ipynb")
        assert status == 200 and "kernelId" in body
        kernel = new_kernel(server, before)
        assert kernel.ppid() == server.process.pid and "ipykernel_launcher" in " ".join(kernel.cmdline())
    finally:
        stop_server(server)
