"""Benchmark of the course's server under a class: ``python tests/browser/bench_class.py [PAGES] [--latency-only]``.

It serves the app as the tests do (``start_server``: a free port, ``tartli.app.voila_command``) and,
with Debian's Chromium, measures:

(a) PAGES (default 30) browser contexts open a lesson at the same moment (each its own browser, as a
    class would): how many reach their first widget within 10 minutes, the time to it (median, p95,
    max), and at the peak the kernels running and their memory (RSS, from /proc) with the server's;
(b) the server's request latency (GET of the lesson index's address, answered at once) over 30 s while one
    client sends 10 MiB websocket frames to a kernel as fast as the server takes them, and the same
    without that client (median, p95).

It prints the figures and asserts nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import os
import re
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

LESSON = "02_ranks_and_points.ipynb"
WIDGET = ".tartli-steps .tartli-step"
WAIT_S = 600.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def kernels_and_memory(server_pid: int) -> tuple[int, float, float]:
    """(kernel processes, their RSS in MiB, the server's RSS in MiB), read from /proc."""
    import psutil

    from tests.browser.conftest import kernel_processes

    kernels = kernel_processes(server_pid)
    rss = 0
    for child in kernels.values():
        with contextlib.suppress(psutil.Error):  # (a kernel gone meanwhile)
            rss += child.memory_info().rss
    return len(kernels), rss / 2**20, psutil.Process(server_pid).memory_info().rss / 2**20


async def open_at_once(server: Any, launch: Any, pages: int) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    peak = [kernels_and_memory(server.process.pid)]
    stop = asyncio.Event()

    async def sample() -> None:
        while not stop.is_set():
            peak.append(kernels_and_memory(server.process.pid))
            await asyncio.sleep(0.5)

    async with async_playwright() as playwright:
        browser = await launch(playwright)
        try:
            contexts = [await browser.new_context() for _ in range(pages)]

            async def one(context: Any) -> float | None:
                page = await context.new_page()
                t0 = time.perf_counter()
                try:
                    await page.goto(server.url(LESSON), wait_until="commit", timeout=WAIT_S * 1000)
                    await page.locator(WIDGET).first.wait_for(state="visible", timeout=WAIT_S * 1000)
                except Exception:
                    return None
                return time.perf_counter() - t0

            sampler = asyncio.ensure_future(sample())
            t0 = time.perf_counter()
            times = await asyncio.gather(*(one(c) for c in contexts))
            wall = time.perf_counter() - t0
            await asyncio.sleep(3)
            stop.set()
            await sampler
            for context in contexts:
                await context.close()
        finally:
            await browser.close()
    reached = [t for t in times if t is not None]
    top = max(peak, key=lambda row: row[0] * 10_000 + row[1])
    return {"reached": reached, "wall": wall, "peak": top, "pages": pages}


def latency_under_frames(server: Any, flood: bool, seconds: float = 30.0) -> list[float]:
    """GET latencies (ms) of an address the server answers at once, 10 a second, while (with ``flood``)
    one client sends 10 MiB frames to a kernel over and over."""
    from tornado.websocket import websocket_connect

    from tests.browser.test_class_server import Browser

    browser = Browser(server)
    status, body = browser.get(f"/voila/render/{LESSON}")
    kernel = re.search(r'"kernelId": "([0-9a-f-]{36})"', body)
    assert status == 200 and kernel, status
    done = threading.Event()
    sent = [0]

    async def send_frames() -> None:
        frame = (1_310_000).to_bytes(8, "little") + bytes(10 * 2**20 - 8)
        url = f"ws://127.0.0.1:{server.port}/api/kernels/{kernel.group(1)}/channels"
        while not done.is_set():
            try:
                connection = await websocket_connect(url, subprotocols=["v1.kernel.websocket.jupyter.org"])
            except Exception:
                await asyncio.sleep(0.01)
                continue
            sent[0] += 1
            try:  # the server closes the connection when the frame's header says it is too large
                await connection.write_message(frame, binary=True)
                await asyncio.sleep(0.01)
            except Exception:
                pass
            connection.close()

    flooder = threading.Thread(target=lambda: asyncio.run(send_frames()))
    if flood:
        flooder.start()
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        t0 = time.perf_counter()
        connection.request("GET", "/")
        connection.getresponse().read()
        times.append((time.perf_counter() - t0) * 1000)
        connection.close()
        time.sleep(0.1)
    done.set()
    if flood:
        flooder.join(30)
        print(f"    ({sent[0]} frames of 10 MiB sent in {seconds:.0f} s, each on a new connection)")
    return times


def main() -> int:
    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root))
    import tempfile

    from tests.browser.conftest import CHROMIUM_ARGS, chromium_path, start_server, stop_server

    if chromium_path() is None:
        print("Chromium is missing: install Debian's chromium (apt-get install chromium)", file=sys.stderr)
        return 2
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    latency_only = "--latency-only" in sys.argv
    pages = int(args[0]) if args else 30

    async def launch(playwright: Any) -> Any:
        return await playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)

    with tempfile.TemporaryDirectory(prefix="tartli-bench-class-") as tmp:
        server = start_server(Path(tmp) / "voila.log", extra=(f"--TartliVoila.max_kernels={pages + 10}",))
        try:
            time.sleep(5)
            print()
            print(f"Tartli course server under a class ({os.cpu_count()} CPUs, Chromium headless, 127.0.0.1)")
            print("-" * 100)
            figures = {"reached": [], "wall": 0.0, "peak": (0, 0.0, 0.0)}
            if not latency_only:
                figures = asyncio.run(open_at_once(server, launch, pages))
            reached = figures["reached"]
            if not latency_only:
                print(
                    f"(a) {pages} pages of {LESSON} opened at once: {len(reached)} reached their first widget"
                    f" (wall {figures['wall']:.1f} s)"
                )
            if reached:
                print(
                    f"    time to the first widget: median {statistics.median(reached):.1f} s,"
                    f" p95 {percentile(reached, 0.95):.1f} s, max {max(reached):.1f} s"
                )
            kernels, rss, server_rss = figures["peak"]
            if not latency_only:
                print(f"    at the peak: {kernels} kernels, {rss:,.0f} MiB; the server {server_rss:,.0f} MiB")
            quiet = latency_under_frames(server, flood=False)
            print(
                f"(b) request latency, no flood:           median {statistics.median(quiet):6.1f} ms,"
                f" p95 {percentile(quiet, 0.95):6.1f} ms ({len(quiet)} requests)"
            )
            flooded = latency_under_frames(server, flood=True)
            print(
                f"    while one client sends 10 MiB frames: median {statistics.median(flooded):6.1f} ms,"
                f" p95 {percentile(flooded, 0.95):6.1f} ms ({len(flooded)} requests)"
            )
            print("-" * 100)
        finally:
            stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
