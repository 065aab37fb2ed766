"""A class at once, measured as a class (issue 39).

``python tests/browser/bench_class_at_once.py [--quick] [--prepared] [--pages] [--pupils=N ...] [--no-chromium]
[--json-protocol] [--py-spy=FILE.svg] [--TartliVoila.fork_kernels=False]``

``--quick`` skips the course's pages opened one at a time, ``--prepared`` the cold classes (and those pages),
``--pages`` runs only those pages;
``--py-spy=FILE.svg`` records the server process with py-spy (``pip install py-spy``, not a dependency) while
the prepared class opens its pages (a flame graph per N: FILE-N.svg; FILE.txt: py-spy's collapsed stacks).
``--no-chromium`` leaves the real Chromium out (it runs on the server's cores); ``--json-protocol`` makes the
pupils speak the kernel websocket's legacy JSON protocol (the server parses and re-serialises every message)
instead of the v1 subprotocol that the page's JavaScript asks for.

Thirty pupils on their own devices do not share the server's cores, so the pupils here are
**protocol-level clients**: each does what a browser does to show a page, and nothing else (no
drawing): it asks for the page with a cookie jar of its own (the course's visitor cookie, its
redirects), connects to its kernel's websocket and asks for the widgets' state as ipywidgets'
manager does (the ``jupyter.widget.control`` comm's ``request_states``). A pupil is **ready** when
the answer with every widget's state has come. One real Chromium page opens the same lesson beside
them, as a check that what the clients measure is what a pupil sees (its first widget drawn).

It serves the app as the tests do (``start_server``) and prints, for N = 10 and 30 pupils opening
lesson 03 at the same moment:

* **cold**: the lesson has no kernels prepared (each page starts its own);
* **prepared**: the server runs with ``--TartliVoila.class_size=N --TartliVoila.prepare=03_deal.ipynb``
  and the pupils come once it says it is ready;

the time to ready (p50, p95, max), the CPU-seconds per page (the new kernels' CPU time and the
server's, from /proc, over the run, divided by N; for prepared pages the kernels' CPU was spent before
the pupils came: it is shown apart), and the memory (PSS) of the kernels and the server. Then (not with
``--quick``; only this with ``--pages``) every page of the course opened cold, one at a time, with its own CPU
figure, and the kernel template's memory and CPU (spent once, at the server's start). The server forks its
kernels from its kernel template (tartli.server.zygote) unless ``--TartliVoila.fork_kernels=False`` is given (the
kernels of a template count as the server's kernels). It asserts nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.browser.bench_class import percentile  # noqa: E402  (run as a script: the checkout's tests first)
from tests.browser.conftest import kernel_processes, template_processes  # noqa: E402

LESSON = "03_deal.ipynb"
NOT_PREPARED = (  # every page but the index and the table: no pool (Voilà's denylist)
    "--VoilaKernelManager.preheat_denylist=.*/(0[1-9]|1[0-9])_[^/]*\\.ipynb$",
    "--VoilaKernelManager.preheat_denylist=.*/(practice|rules)\\.ipynb$",
)
BUT_THE_LESSON = (  # the same, but lesson 03, which the class prepares
    "--VoilaKernelManager.preheat_denylist=.*/(0[124-9]|1[0-9])_[^/]*\\.ipynb$",
    "--VoilaKernelManager.preheat_denylist=.*/(practice|rules)\\.ipynb$",
)
WAIT_S = 900.0
V1 = "v1.kernel.websocket.jupyter.org"
"""The kernel websocket subprotocol the page's JavaScript (JupyterLab's services in Voilà) asks for and gets: the
server passes a kernel's message on as its bytes, without parsing and re-serialising it."""
CONTROL_VERSION = "1.0.0"
"""ipywidgets 8's control protocol (the comm that hands every widget's state over at once)."""


# ---------------------------------------------------------------- what the server's processes use
def cpu_seconds(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
        return times.user + times.system
    except psutil.Error:
        return 0.0


def pss_mib(process: psutil.Process) -> float:
    try:
        return process.memory_full_info().pss / 2**20
    except psutil.Error:
        return 0.0


# ---------------------------------------------------------------- one pupil, as a browser speaks
class Pupil:
    """One device: its own cookies; :meth:`open` times the page until its widgets' state is complete."""

    def __init__(self, port: int, protocol: str = V1) -> None:
        self.port = port
        self.protocol = protocol  # V1 as Chromium's page, or "" (the legacy JSON protocol)
        self.cookies: dict[str, str] = {}

    async def get(self, path: str) -> str:
        client = AsyncHTTPClient()
        for _ in range(5):
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
            request = HTTPRequest(
                f"http://127.0.0.1:{self.port}{path}",
                headers=headers,
                follow_redirects=False,
                request_timeout=WAIT_S,
                connect_timeout=WAIT_S,
            )
            try:
                response = await client.fetch(request, raise_error=False)
            except HTTPClientError as err:  # pragma: no cover - a bench prints what it met
                raise RuntimeError(f"GET {path}: {err}") from err
            for line in response.headers.get_list("Set-Cookie"):
                key, _, rest = line.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
            if response.code in (301, 302, 303, 307):
                path = response.headers.get("Location", path)
                continue
            if response.code != 200:
                raise RuntimeError(f"GET {path}: {response.code}")
            return response.body.decode("utf-8", errors="replace")
        raise RuntimeError(f"GET {path}: too many redirects")

    async def open(self, page: str) -> dict[str, float]:
        began = time.monotonic()
        html = await self.get(f"/voila/render/{page}")
        fetched = time.monotonic() - began
        found = re.search(r'"kernelId": "([0-9a-f-]{36})"', html)
        if found is None:
            raise RuntimeError(f"{page}: no kernel in the page")
        url = f"ws://127.0.0.1:{self.port}/api/kernels/{found.group(1)}/channels?session_id={uuid.uuid4().hex}"
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        connection = await websocket_connect(
            HTTPRequest(url, headers=headers, request_timeout=WAIT_S),
            max_message_size=64 * 2**20,
            subprotocols=[self.protocol] if self.protocol else None,
        )
        session, comm = uuid.uuid4().hex, uuid.uuid4().hex
        opening = {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}
        asking = {"comm_id": comm, "data": {"method": "request_states"}}
        for kind, content, metadata in (("comm_open", opening, {"version": CONTROL_VERSION}), ("comm_msg", asking, {})):
            frame = message(session, kind, content, metadata, self.protocol)
            await connection.write_message(frame, binary=isinstance(frame, bytes))
        states = 0
        while True:
            frame = await asyncio.wait_for(connection.read_message(), timeout=WAIT_S)
            if frame is None:
                raise RuntimeError(f"{page}: the kernel's websocket closed")
            msg = decode(frame, self.protocol)
            data = msg.get("content", {}).get("data", {}) if msg.get("msg_type") == "comm_msg" else {}
            if isinstance(data, dict) and data.get("method") == "update_states":
                states = len(data.get("states", {}))
                break
        ready = time.monotonic() - began
        connection.close()
        return {"fetched": fetched, "ready": ready, "widgets": float(states)}


def message(
    session: str, kind: str, content: dict[str, Any], metadata: dict[str, Any] | None = None, protocol: str = V1
) -> str | bytes:
    """A shell message as the page's JavaScript sends it: a v1 frame (``protocol`` V1, what Chromium's page speaks),
    else the legacy JSON text."""
    header = {
        "msg_id": uuid.uuid4().hex,
        "msg_type": kind,
        "session": session,
        "username": "",
        "date": "2026-11-29T00:00:00Z",
        "version": "5.3",
    }
    if protocol == V1:
        parts = [json.dumps(part).encode() for part in (header, {}, metadata or {}, content)]
        return v1_frame(b"shell", *parts)
    return json.dumps(
        {
            "header": header,
            "parent_header": {},
            "metadata": metadata or {},
            "content": content,
            "channel": "shell",
            "buffers": [],
        }
    )


def v1_frame(*parts: bytes) -> bytes:
    """The v1 kernel websocket frame of ``parts`` (the channel, header, parent header, metadata, content, buffers):
    the count of offsets and the offsets (64-bit little-endian), then the parts."""
    offsets = [8 * (len(parts) + 2)]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    return b"".join([len(offsets).to_bytes(8, "little"), *(o.to_bytes(8, "little") for o in offsets), *parts])


def decode(frame: str | bytes, protocol: str = V1) -> dict[str, Any]:
    """A kernel message as jupyter_server sends it: in v1, the offsets, then the channel, header, parent header,
    metadata, content (and buffers); without a subprotocol, JSON text, or (with binary buffers) the count of parts,
    their offsets, the JSON, then the buffers."""
    if protocol == V1 and isinstance(frame, bytes):
        count = int.from_bytes(frame[:8], "little")
        offsets = struct.unpack_from(f"<{count}Q", frame, 8)
        header, content = (frame[offsets[i] : offsets[i + 1]] for i in (1, 4))
        return {"msg_type": json.loads(header)["msg_type"], "content": json.loads(content)}
    if isinstance(frame, str):
        return dict(json.loads(frame))
    count = struct.unpack("!I", frame[:4])[0]
    offsets = list(struct.unpack(f"!{count}I", frame[4 : 4 + 4 * count]))
    end = offsets[1] if count > 1 else len(frame)
    return dict(json.loads(frame[offsets[0] : end]))


# ---------------------------------------------------------------- a class at once
async def class_opens(
    port: int, page: str, pupils: int, chromium: Any = None, protocol: str = V1
) -> tuple[list[dict[str, float]], Any, list[str]]:
    AsyncHTTPClient.configure(None, max_clients=pupils + 5)
    crowd = [Pupil(port, protocol) for _ in range(pupils)]
    tasks = [asyncio.ensure_future(p.open(page)) for p in crowd]
    seen = asyncio.ensure_future(chromium(port, page)) if chromium is not None else None
    results = await asyncio.gather(*tasks, return_exceptions=True)
    return (
        [r for r in results if isinstance(r, dict)],
        (await seen if seen is not None else None),
        [repr(r) for r in results if not isinstance(r, dict)],
    )


def run_class(
    server: Any, page: str, pupils: int, chromium: Any = None, py_spy: str = "", protocol: str = V1
) -> dict[str, Any]:
    pid = server.process.pid
    spy = None
    if py_spy:  # (SPY_ALL=1 in the environment: the kernels too)
        every = ["--subprocesses"] if os.environ.get("SPY_ALL") else []
        form = "flamegraph" if py_spy.endswith(".svg") else "raw"
        command = [str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(pid), "--output", py_spy]
        command += [*every, "--rate", "200", "--nonblocking", "--format", form]
        spy = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)  # (py-spy attaches)
    before = kernel_processes(pid)
    kernel_cpu_before = {p: cpu_seconds(proc) for p, proc in before.items()}
    server_process = psutil.Process(pid)
    server_cpu = cpu_seconds(server_process)
    began = time.monotonic()
    opened, seen, failed = asyncio.run(class_opens(server.port, page, pupils, chromium, protocol))
    wall = time.monotonic() - began
    if spy is not None:
        spy.send_signal(signal.SIGINT)  # (py-spy writes its flame graph when interrupted)
        spy.wait(60)
    after = kernel_processes(pid)
    new = [proc for p, proc in after.items() if p not in before]
    used_before = sum(cpu_seconds(after[p]) - kernel_cpu_before[p] for p in after if p in before)
    return {
        "pupils": pupils,
        "ready": [o["ready"] for o in opened],
        "fetched": [o["fetched"] for o in opened],
        "widgets": [o["widgets"] for o in opened],
        "failed": failed,
        "wall": wall,
        "new_kernels": len(new),
        "new_cpu": sum(cpu_seconds(p) for p in new),
        "old_cpu": used_before,
        "server_cpu": cpu_seconds(server_process) - server_cpu,
        "kernels_pss": sum(pss_mib(p) for p in after.values()),
        "kernels": len(after),
        "server_pss": pss_mib(server_process),
        "chromium": seen,
    }


def report(name: str, figures: dict[str, Any], prepared_cpu: float | None = None) -> None:
    ready, n = figures["ready"], figures["pupils"]
    widgets = sorted(set(int(w) for w in figures["widgets"]))
    print(
        f"{name:9} N={n:2}: ready {len(ready)}/{n}  p50 {statistics.median(ready):5.1f} s  "
        f"p95 {percentile(ready, 0.95):5.1f} s  max {max(ready):5.1f} s   (page fetched p50 "
        f"{statistics.median(figures['fetched']):.1f} s; widgets {widgets})"
    )
    per_page = (figures["new_cpu"] + figures["old_cpu"] + figures["server_cpu"]) / n
    print(
        f"{'':9}       CPU per page {per_page:.2f} s (new kernels {figures['new_cpu']:.1f} s in "
        f"{figures['new_kernels']}, kernels that waited {figures['old_cpu']:.1f} s, server "
        f"{figures['server_cpu']:.1f} s)"
        + (f"; the prepared kernels had spent {prepared_cpu:.1f} s before" if prepared_cpu is not None else "")
    )
    print(
        f"{'':9}       memory: {figures['kernels']} kernels {figures['kernels_pss']:,.0f} MiB PSS "
        f"({figures['kernels_pss'] / max(1, figures['kernels']):.0f} MiB each), server {figures['server_pss']:.0f} MiB"
    )
    if figures["chromium"] is not None:
        print(f"{'':9}       one Chromium beside them: first widget drawn after {figures['chromium']:.1f} s")
    if figures["failed"]:
        print(f"{'':9}       FAILED {len(figures['failed'])}: {figures['failed'][:3]}")


def chromium_check() -> Any:
    """An async function (port, page) -> seconds until a real Chromium page draws its first widget."""
    from tests.browser.conftest import CHROMIUM_ARGS, chromium_path

    path = chromium_path()
    if path is None:
        return None

    async def look(port: int, page: str) -> float:
        from playwright.async_api import async_playwright

        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
            try:
                tab = await browser.new_page()
                began = time.monotonic()
                await tab.goto(f"http://127.0.0.1:{port}/voila/render/{page}", timeout=WAIT_S * 1000)
                await tab.wait_for_selector(".tartli-steps .tartli-step", timeout=WAIT_S * 1000)
                return time.monotonic() - began
            finally:
                await browser.close()

    return look


def wait_for_line(server: Any, text: str, timeout: float = 900) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log = server.log_path.read_text(errors="replace")
        if text in log:
            return log
        time.sleep(1)
    raise RuntimeError(f"the server never said {text!r}")


def main() -> int:
    from tests.browser.conftest import start_server, stop_server

    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__)
        return 0
    quick = "--quick" in sys.argv or "--prepared" in sys.argv
    cold = "--prepared" not in sys.argv
    spy = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--py-spy=")), "")
    sizes = [int(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--pupils=")] or [10, 30]
    look = None if "--no-chromium" in sys.argv else chromium_check()
    protocol = "" if "--json-protocol" in sys.argv else V1
    speaking = "the v1 websocket protocol" if protocol else "the legacy JSON websocket protocol"
    print(f"A class at once ({os.cpu_count()} CPUs; pupils as protocol-level clients speaking {speaking}; {LESSON})")
    print("-" * 110)
    pages_only = "--pages" in sys.argv  # (only every page opened cold, one at a time)
    fork = [a for a in sys.argv[1:] if a.startswith("--TartliVoila.fork_kernels=")]  # (True by default)
    with tempfile.TemporaryDirectory(prefix="tartli-bench-class-at-once-") as tmp:
        for pupils in [] if pages_only else sizes:
            cap = f"--TartliVoila.max_kernels={3 * pupils + 20}"
            if cold:
                server = start_server(Path(tmp) / f"cold-{pupils}.log", extra=(*NOT_PREPARED, cap, *fork))
                try:
                    time.sleep(10)  # (the index's and the table's pools are filled; the lesson has none)
                    figures = run_class(server, LESSON, pupils, look if pupils == sizes[0] else None, protocol=protocol)
                    report("cold", figures)
                finally:
                    stop_server(server)
            extra = (
                *BUT_THE_LESSON,
                cap,
                f"--TartliVoila.class_size={pupils}",
                f"--TartliVoila.prepare={LESSON}",
                *fork,
            )
            server = start_server(Path(tmp) / f"prepared-{pupils}.log", extra=extra)
            try:
                log = wait_for_line(server, f"ready for a class of {pupils}")
                start_line = next(line for line in log.splitlines() if "ready for a class" in line)
                kernels = kernel_processes(server.process.pid)
                spent = sum(cpu_seconds(p) for p in kernels.values()) / max(1, len(kernels))
                print(f"prepared N={pupils:2}: {start_line.split('Tartli course: ', 1)[-1]}")
                flame = f"{Path(spy).with_suffix('')}-{pupils}{Path(spy).suffix}" if spy else ""
                chromium = look if pupils == sizes[0] else None
                report("prepared", run_class(server, LESSON, pupils, chromium, flame, protocol), spent * pupils)
            finally:
                stop_server(server)
        if not quick:
            print("-" * 110)
            print("Every page opened cold, one at a time (no pools; the kernel's and the server's CPU for that page):")
            server = start_server(Path(tmp) / "pages.log", extra=("--VoilaConfiguration.default_pool_size=0", *fork))
            try:
                from tartli.course import PAGES

                for page in PAGES:
                    figures = run_class(server, page.file, 1, protocol=protocol)
                    cpu = figures["new_cpu"] + figures["server_cpu"]
                    ready = figures["ready"][0] if figures["ready"] else float("nan")
                    print(f"  {page.file:28} {cpu:5.2f} CPU-s  (kernel {figures['new_cpu']:.2f}, server "
                          f"{figures['server_cpu']:.2f}); ready after {ready:.1f} s, kernels' PSS "
                          f"{figures['kernels_pss'] / max(1, figures['kernels']):.0f} MiB each")  # fmt: skip
                for template in template_processes(server.process.pid).values():
                    once, pss = cpu_seconds(template), pss_mib(template)
                    print(f"  the kernel template: {once:.2f} CPU-s once, PSS {pss:.0f} MiB")
            finally:
                stop_server(server)
    print("-" * 110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
