"""Benchmark of the static edition in a real browser: ``python tests/browser/bench_static.py [SITE]``.

A script, not a test: it prints figures and asserts nothing. Without ``SITE`` it builds the
site first (``tartli.site.build`` into a temporary folder, tools cached in ``.site-cache``).
The site is served from 127.0.0.1 by ``tartli.site``'s static server and opened in Debian's
Chromium with no name resolution beyond 127.0.0.1 (offline), as in ``test_static.py``.

It prints:

(a) the site's size on disk, and what a first visit of the table page transfers (the files the
    server sends, the kernel's included);
(b) time to first widget (``.tartli-board svg`` of the table page, from navigation): cold
    (a new browser context, empty cache) and warm (the same page again in that context);
    each includes starting Pyodide and the kernel in the browser, which is most of it;
(c) click latency: a click on a card until the board no longer shows it, over 30 clicks
    (median, p95), as in ``bench_app.py`` (the computer's deliberate delay is not counted).
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

from tartli import site  # noqa: E402
from tests.browser.bench_app import load_table, percentile, play_clicks  # noqa: E402
from tests.browser.conftest import chromium_path, launch_chromium  # noqa: E402
from tests.browser.test_static import OFFLINE  # noqa: E402

CLICKS = 30
LOADS = 3


async def run(base: str, sent: list[int]) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    url = base + "voici/render/table.html"
    figures: dict[str, Any] = {"cold": [], "warm": []}
    async with async_playwright() as playwright:
        browser = await launch_chromium(playwright, OFFLINE)
        try:
            for i in range(LOADS):
                context = await browser.new_context()
                sent.clear()
                page, cold = await load_table(context, url)
                figures["cold"].append(cold)
                if i == 0:
                    await asyncio.sleep(1)
                    figures["transferred"] = sum(sent)
                await page.close()
                page, warm = await load_table(context, url)
                figures["warm"].append(warm)
                if i == 0:
                    figures["clicks"] = await play_clicks(page, CLICKS, seed0=100)
                await context.close()
        finally:
            await browser.close()
    return figures


def main() -> None:
    if chromium_path() is None:
        sys.exit("Debian's chromium is needed (apt-get install chromium)")
    if len(sys.argv) > 1:
        folder = Path(sys.argv[1])
    else:
        folder = Path(tempfile.mkdtemp()) / "site"
        t0 = time.perf_counter()
        site.build(folder, ROOT / ".site-cache")
        print(f"build: {time.perf_counter() - t0:.1f} s (tools cached in .site-cache)")
    sent: list[int] = []
    server, base = site.serve_in_thread(folder, sent=sent)
    try:
        figures = asyncio.run(run(base, sent))
    finally:
        server.shutdown()
    files = [p for p in folder.rglob("*") if p.is_file()]
    runtime = folder / "static" / "pyodide"
    print(f"site: {sum(p.stat().st_size for p in files) / 2**20:.1f} MiB in {len(files)} files", end="")
    print(f" (the local Pyodide with its wheels: {site.size_of(runtime) / 2**20:.1f} MiB)")
    print(f"first visit of the table page transfers {figures['transferred'] / 2**20:.1f} MiB")
    cold, warm = figures["cold"], figures["warm"]
    print(
        f"first widget, cold (new context, empty cache): median {statistics.median(cold):.2f} s "
        f"(runs: {', '.join(f'{t:.2f}' for t in cold)})"
    )
    print(
        f"first widget, warm (same context, cached): median {statistics.median(warm):.2f} s "
        f"(runs: {', '.join(f'{t:.2f}' for t in warm)})"
    )
    clicks = figures["clicks"]
    print(
        f"click -> board updated: median {statistics.median(clicks):.1f} ms, "
        f"p95 {percentile(clicks, 0.95):.1f} ms, max {max(clicks):.1f} ms ({len(clicks)} clicks)"
    )


if __name__ == "__main__":
    main()
