"""What a page of the app costs a learner: ``python tests/browser/bench_weight.py`` (a script, not a test).

It serves the app as the tests do (``start_server``) and, in Debian's Chromium, for the lesson index, a
lesson (06) and the table, on a desktop profile (1280x900) and on a phone profile (390x844, the CPU
slowed 4x through the DevTools protocol), prints:

- the bytes on the wire (what the network carried, compressed where it was) for the page opened first
  in a new browser (cold) and opened again (warm: the browser's cache), and for the next page;
- the time from navigation to the page's first widget, cold and warm (median of three).

It also prints the memory of the idle pre-started kernels. It asserts nothing.

``--lang hu`` (or ``de``) opens the pages in that language on a server whose pools are English (a
learner who switched language): those pages start a kernel of their own, so "warm" is a second kernel
start with the browser's cache.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM_ARGS, chromium_path, kernel_processes, start_server, stop_server  # noqa: E402

PAGES = ("00_index.ipynb", "06_meld_contest.ipynb", "table.ipynb")
PROFILES = {"desktop": ((1280, 900), 1), "phone": ((390, 844), 4)}
FIRST_WIDGET = """() => { const c = document.getElementById('rendered_cells');
  if (!c || getComputedStyle(c).display === 'none') return false;
  return [...c.querySelectorAll('.tartli-map, .tartli-steps .tartli-step, .tartli-board svg')]
    .some(e => e.getBoundingClientRect().height > 0); }"""
LOADS = 3
LANG = sys.argv[sys.argv.index("--lang") + 1] if "--lang" in sys.argv else None


def idle_kernels(server_pid: int) -> str:
    """The server's kernels: how many, their resident and proportional memory (shared pages counted once)."""
    import psutil

    server = psutil.Process(server_pid)
    rss = pss = count = 0
    for child in kernel_processes(server_pid).values():  # (also those forked from the kernel template)
        try:
            info = child.memory_full_info()
            count, rss, pss = count + 1, rss + info.rss, pss + info.pss
        except psutil.Error:
            pass
    return (
        f"{count} kernels, {pss / 2**20:,.0f} MiB proportional ({rss / 2**20:,.0f} MiB resident);"
        f" the server {server.memory_info().rss / 2**20:,.0f} MiB"
    )


async def visit(page: Any, sizes: dict[str, int], url: str) -> tuple[int, float]:
    """(bytes on the wire, seconds to the first widget) for one navigation (``sizes``: what the browser's
    network events fill in)."""
    sizes.clear()
    t0 = time.perf_counter()
    await page.goto(url, wait_until="commit")
    await page.wait_for_function(FIRST_WIDGET, timeout=180_000)
    seconds = time.perf_counter() - t0
    await page.wait_for_load_state("networkidle")
    return sum(sizes.values()), seconds


async def profile(browser: Any, server: Any, name: str) -> list[str]:
    (width, height), throttle = PROFILES[name]
    rows = []
    for file in PAGES:
        cold_bytes, warm_bytes, colds, warms = [], [], [], []
        for _ in range(LOADS):
            context = await browser.new_context(viewport={"width": width, "height": height}, is_mobile=throttle > 1)
            page = await context.new_page()
            client = await context.new_cdp_session(page)
            await client.send("Network.enable")
            await client.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
            sizes: dict[str, int] = {}
            client.on("Network.loadingFinished", lambda e, k=sizes: k.update({e["requestId"]: e["encodedDataLength"]}))
            url = server.url(file) + (f"?lang={LANG}" if LANG else "")
            size, seconds = await visit(page, sizes, url)
            cold_bytes.append(size)
            colds.append(seconds)
            await asyncio.sleep(8)  # the pool refills the page's kernel
            size, seconds = await visit(page, sizes, url)
            warm_bytes.append(size)
            warms.append(seconds)
            await context.close()
            await asyncio.sleep(4)
        label = file + (f" ({LANG})" if LANG else "")
        rows.append(
            f"{name:<8} {label:<29} first {statistics.median(cold_bytes) / 1e6:5.2f} MB, again"
            f" {statistics.median(warm_bytes) / 1e3:6.0f} KB; first widget cold {statistics.median(colds):5.2f} s,"
            f" warm {statistics.median(warms):5.2f} s"
        )
        print(rows[-1], flush=True)
    return rows


async def run(server: Any) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        try:
            for name in PROFILES:
                await profile(browser, server, name)
        finally:
            await browser.close()


def main() -> int:
    if chromium_path() is None:
        print("Chromium is missing: install Debian's chromium (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="tartli-bench-weight-") as tmp:
        server = start_server(Path(tmp) / "voila.log")
        try:
            time.sleep(60)  # every page's pool filled (2 s apart) and rendered
            print(f"\nidle, pre-started: {idle_kernels(server.process.pid)}")
            asyncio.run(run(server))
        finally:
            stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
