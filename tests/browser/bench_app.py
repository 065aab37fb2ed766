"""Benchmark of the course app in a real browser: ``python tests/browser/bench_app.py`` (a script, not a test).

It serves the app like the test fixture (a free port, ``tartli.app.voila_command``)
and measures, with Debian's Chromium:

(a) cold load: navigation to the first widget (``.tartli-board svg``) of the table page on a fresh server;
(b) warm load: the same page again in the same browser context, once the kernel pool has been refilled;
(c) click latency: a click on a card until the board no longer shows it, over 50 clicks (median, p95);
(d) memory: RSS of the kernel processes (from /proc) after start, after the loads, with 10 visitors;
(e) the click latency (median, p95) while 10 browser contexts play at the same time.

It prints the figures and asserts nothing. The computer's answer is delayed on
purpose (``TableController.delay``); the click latency stops when the learner's
card has left the hand, before that delay, and the waits for the computer are
not counted.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

TABLE = "table.ipynb"
CLICKS = 50
VISITORS = 10
CLICKS_PER_VISITOR = 8

CLICK_JS = """async (pick) => {
  const board = document.querySelector('.tartli-board');
  const node = board.querySelector(`[data-pick="${pick}"]`);
  const gone = () => !board.querySelector(`[data-pick="${pick}"]`);
  const t0 = performance.now();
  const done = new Promise((resolve) => {
    const observer = new MutationObserver(() => { if (gone()) { observer.disconnect(); resolve(true); } });
    observer.observe(board, {childList: true, subtree: true});
    setTimeout(() => { observer.disconnect(); resolve(gone()); }, 15000);
  });
  node.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  const ok = await done;
  return ok ? performance.now() - t0 : null;
}"""

MY_TURN_JS = """() => {
  const table = document.querySelector('div.tartli-table');
  if (!table || !table.children.length) return false;
  const status = table.children[0].innerText;
  const playable = document.querySelector('.tartli-board [data-pick] svg.playable') !== null;
  return status.includes('Hand over') || (status.includes('Your turn') && playable);
}"""

PLAYABLE_JS = """() => Array.from(document.querySelectorAll('.tartli-board [data-pick]'))
  .filter((n) => n.querySelector('svg.playable')).map((n) => n.getAttribute('data-pick'))"""

STATUS_JS = "() => document.querySelector('div.tartli-table').children[0].innerText"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


# ---------------------------------------------------------------- /proc


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            found.append(int(entry))
    return found


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def kernel_memory(server_pid: int) -> tuple[int, list[int], int]:
    """(number of kernels, their RSS in KiB, the server's own RSS in KiB)."""
    kernels = []
    for pid in _descendants(server_pid):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"ipykernel" in cmd:
            kernels.append(_rss_kib(pid))
    return len(kernels), kernels, _rss_kib(server_pid)


def pool_fills(log_path: Path) -> int:
    return log_path.read_text(errors="replace").count(f"Kernel pool of {TABLE} is filled")


# ---------------------------------------------------------------- browser steps


async def load_table(context: Any, url: str) -> tuple[Any, float]:
    page = await context.new_page()
    t0 = time.perf_counter()
    await page.goto(url, wait_until="commit")
    await page.locator(".tartli-board svg").first.wait_for(state="visible", timeout=120_000)
    elapsed = time.perf_counter() - t0
    await page.wait_for_function(MY_TURN_JS, timeout=60_000)
    return page, elapsed


async def new_deal(page: Any, seed: int) -> None:
    """Deal ``seed`` (the table's "Deal #" field and "New deal")."""
    box = page.locator(".widget-inline-hbox", has=page.get_by_text("Deal #:", exact=True)).locator("input")
    await box.fill(str(seed))
    await box.press("Enter")
    await page.get_by_role("button", name="New deal", exact=True).click()
    await page.locator(".tartli-message", has_text=f"New deal #{seed}.").wait_for(timeout=30_000)


async def play_clicks(
    page: Any, clicks: int, seed0: int, next_hand: Callable[[Any, int], Awaitable[None]] = new_deal
) -> list[float]:
    """Click playable cards; when a hand ends, ``next_hand(page, seed)`` (by default a new deal of the
    next seed); the click -> board-updated times in ms."""
    times: list[float] = []
    seed = seed0
    while len(times) < clicks:
        await page.wait_for_function(MY_TURN_JS, timeout=60_000)
        if "Hand over" in await page.evaluate(STATUS_JS):
            seed += 1
            await next_hand(page, seed)
            continue
        playable = await page.evaluate(PLAYABLE_JS)
        ms = await page.evaluate(CLICK_JS, playable[0])
        if ms is not None:
            times.append(ms)
    return times


async def run(server: Any, launch: Any) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    figures: dict[str, Any] = {}
    url = server.url(TABLE)
    figures["mem_start"] = kernel_memory(server.process.pid)
    async with async_playwright() as playwright:
        browser = await launch(playwright)
        try:
            context = await browser.new_context()
            page, figures["cold"] = await load_table(context, url)
            await page.close()
            deadline = time.monotonic() + 30  # the pool refills after the cold load took its kernel
            while pool_fills(server.log_path) < 2 and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            page, figures["warm"] = await load_table(context, url)
            figures["mem_loaded"] = kernel_memory(server.process.pid)
            figures["clicks"] = await play_clicks(page, CLICKS, seed0=100)
            await context.close()

            contexts = [await browser.new_context() for _ in range(VISITORS)]
            t0 = time.perf_counter()
            loaded = await asyncio.gather(*(load_table(c, url) for c in contexts))
            figures["loads10"] = [t for _, t in loaded]
            figures["loads10_wall"] = time.perf_counter() - t0
            figures["mem_10"] = kernel_memory(server.process.pid)
            results = await asyncio.gather(
                *(play_clicks(p, CLICKS_PER_VISITOR, seed0=200 + 10 * i) for i, (p, _) in enumerate(loaded))
            )
            figures["clicks10"] = [ms for r in results for ms in r]
            for c in contexts:
                await c.close()
        finally:
            await browser.close()
    return figures


def _mem_row(label: str, mem: tuple[int, list[int], int]) -> str:
    n, rss, server_rss = mem
    mean = statistics.mean(rss) / 1024 if rss else 0.0
    return (
        f"{label:<44} {n:>3} kernels, {mean:6.1f} MiB each (max {max(rss, default=0) / 1024:.1f}),"
        f" total {sum(rss) / 1024:6.1f} MiB; server {server_rss / 1024:.1f} MiB"
    )


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import tempfile

    from conftest import CHROMIUM_ARGS, chromium_path, start_server, stop_server

    if chromium_path() is None:
        print("Chromium is missing: install Debian's chromium (apt-get install chromium)", file=sys.stderr)
        return 2

    async def launch(playwright: Any) -> Any:
        return await playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tartli-bench-") as tmp:
        t0 = time.perf_counter()
        server = start_server(Path(tmp) / "voila.log")
        boot = time.perf_counter() - t0
        try:
            time.sleep(3)  # let the pre-heated kernels of every page finish starting
            figures = asyncio.run(run(server, launch))
        finally:
            stop_server(server)
    total = time.perf_counter() - started
    clicks, clicks10 = figures["clicks"], figures["clicks10"]
    print()
    print(f"Tartli course benchmark ({os.cpu_count()} CPUs, Chromium headless, server on 127.0.0.1)")
    print("-" * 100)
    print(f"{'server start (index page answers 200)':<44} {boot:6.2f} s")
    print(f"{'(a) cold load: navigation -> board svg':<44} {figures['cold']:6.2f} s")
    print(f"{'(b) warm load (same context, pool refilled)':<44} {figures['warm']:6.2f} s")
    print(
        f"{f'(c) click -> board updated ({len(clicks)} clicks)':<44} median {statistics.median(clicks):6.1f} ms,"
        f" p95 {percentile(clicks, 0.95):6.1f} ms, max {max(clicks):6.1f} ms"
    )
    print(_mem_row("(d) kernels after start (pre-heated pool)", figures["mem_start"]))
    print(_mem_row("    after the cold and warm loads", figures["mem_loaded"]))
    print(_mem_row(f"    with {VISITORS} more visitors", figures["mem_10"]))
    loads10 = figures["loads10"]
    print(
        f"{f'    {VISITORS} loads at once':<44} median {statistics.median(loads10):6.2f} s,"
        f" max {max(loads10):6.2f} s (wall {figures['loads10_wall']:.2f} s)"
    )
    print(
        f"{f'(e) click latency, {VISITORS} playing at once':<44} median {statistics.median(clicks10):6.1f} ms,"
        f" p95 {percentile(clicks10, 0.95):6.1f} ms, max {max(clicks10):6.1f} ms ({len(clicks10)} clicks)"
    )
    print("-" * 100)
    print(f"total run time {total:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
