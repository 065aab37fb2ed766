"""Benchmark of the static edition in a real browser: ``python tests/browser/bench_static.py [SITE]``.

A script, not a test: it prints figures and asserts nothing. Without ``SITE`` it builds the
site first (``tartli.site.build`` into a temporary folder, tools cached in ``.site-cache``).
The site is served from 127.0.0.1 by ``python -m tartli.site serve``'s server (which sends the
build's brotli or gzip copies to a browser that asks for them) and opened in Debian's Chromium
with no name resolution beyond 127.0.0.1 (offline), as in ``test_static.py``.

For two profiles, a desktop (1280x900) and a phone (390x844, touch, and the CPU slowed down 4x
with the DevTools protocol's ``Emulation.setCPUThrottlingRate``), and for the index, a lesson (06)
and the table, it prints:

* **first visit (cold)**: a browser with a new profile (an empty disk cache) opens the page: the
  bytes on the wire and the time from navigation to the page's first widget (the course map, the
  lesson's step counter, the table's board);
* **repeat (warm)**: the same page again in that browser: bytes and time;
* **next page**: after the first visit, another page of the site (the index's is the lesson, the
  lesson's the table, the table's the index): bytes and time.

Bytes on the wire are counted by the server: every byte of every response (status line, headers,
body), the kernel's web worker's included (the DevTools protocol's page session does not see the
worker's requests). Times include starting Pyodide and the kernel in the browser. Medians of
``--loads`` runs. Then, on the desktop, the click latency at the table: a click on a card until
the board no longer shows it (median, p95), as in ``bench_app.py``. ``--accept-encoding gzip``
measures a browser that does not take brotli (Firefox or Safari over plain HTTP), ``identity`` a
host that compresses nothing.
"""

from __future__ import annotations

import argparse
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
from tests.browser.bench_app import STATUS_JS, percentile, play_clicks  # noqa: E402
from tests.browser.conftest import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.browser.test_static import OFFLINE  # noqa: E402

PAGES = {
    "index": ("00_index.html", ".tartli-map"),
    "lesson 06": ("06_meld_contest.html", ".tartli-where"),
    "table": ("table.html", ".tartli-board svg"),
}
"""Each page: its file and its first widget."""

NEXT = {"index": "lesson 06", "lesson 06": "table", "table": "index"}
"""The page opened after each one, for the next page's figures."""

PROFILES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 900}, "throttle": 1},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 3,
        "is_mobile": True,
        "has_touch": True,
        "throttle": 4,
    },
}
SETTLE_MS = 1_000
"""After the first widget, late requests still count for this long."""
CLICKS = 30


async def next_hand(page: Any, seed: int) -> None:
    """The table's "Next hand" (the match goes on; a new deal would ask whether to end it)."""
    await page.get_by_role("button", name="Next hand", exact=True).click()
    await page.wait_for_function(f"() => !({STATUS_JS})().includes('Hand over')", timeout=60_000)


async def visit(context: Any, base: str, label: str, sent: list[int], throttle: float) -> tuple[float, int]:
    """Open a page in ``context``: the seconds to its first widget and the bytes on the wire."""
    file, widget = PAGES[label]
    page = await context.new_page()
    if throttle != 1:
        cdp = await context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    sent.clear()
    t0 = time.perf_counter()
    await page.goto(base + "voici/render/" + file, wait_until="commit")
    await page.locator(widget).first.wait_for(state="visible", timeout=300_000)
    elapsed = time.perf_counter() - t0
    await page.wait_for_timeout(SETTLE_MS)
    await page.close()
    return elapsed, sum(sent)


async def run(base: str, sent: list[int], profiles: list[str], loads: int, accept: str | None) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    figures: dict[str, Any] = {"pages": {}, "clicks": []}
    headers = {"extra_http_headers": {"Accept-Encoding": accept}} if accept else {}
    async with async_playwright() as playwright:
        for name in profiles:
            options = dict(PROFILES[name])
            throttle = options.pop("throttle")
            for label in PAGES:
                rows = figures["pages"].setdefault((name, label), {"cold": [], "warm": [], "next": []})
                for _ in range(loads):
                    with tempfile.TemporaryDirectory() as profile:
                        context = await playwright.chromium.launch_persistent_context(
                            profile,
                            executable_path=chromium_path(),
                            headless=True,
                            args=[*CHROMIUM_ARGS, OFFLINE],
                            **options,
                            **headers,
                        )
                        try:
                            rows["cold"].append(await visit(context, base, label, sent, throttle))
                            rows["warm"].append(await visit(context, base, label, sent, throttle))
                            rows["next"].append(await visit(context, base, NEXT[label], sent, throttle))
                            if name == "desktop" and label == "table" and not figures["clicks"]:
                                page = await context.new_page()
                                await page.goto(base + "voici/render/table.html")
                                await page.locator(".tartli-board svg").first.wait_for(state="visible")
                                figures["clicks"] = await play_clicks(page, CLICKS, 0, next_hand)
                                await page.close()
                        finally:
                            await context.close()
    return figures


def site_folder(given: Path | None) -> Path:
    """The built site to measure: ``given``, or one built now into a temporary folder."""
    if given is not None:
        return given
    folder = Path(tempfile.mkdtemp()) / "site"
    t0 = time.perf_counter()
    site.build(folder, ROOT / ".site-cache")
    print(f"build: {time.perf_counter() - t0:.1f} s (tools cached in .site-cache)")
    return folder


def _cell(runs: list[tuple[float, int]]) -> str:
    seconds = statistics.median(t for t, _ in runs)
    size = statistics.median(b for _, b in runs)
    shown = f"{size / 2**20:.2f} MiB" if size >= 2**20 else f"{size / 2**10:.0f} KiB"
    return f"{shown:>10} {seconds:5.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", type=Path, help="a built site (default: build one)")
    parser.add_argument("--loads", type=int, default=3, help="runs of each figure (medians are printed)")
    parser.add_argument("--profile", choices=[*PROFILES, "both"], default="both")
    parser.add_argument("--accept-encoding", help="the browser's Accept-Encoding (default: Chromium's own)")
    args = parser.parse_args()
    if chromium_path() is None:
        sys.exit("Debian's chromium is needed (apt-get install chromium)")
    folder = site_folder(args.site)
    profiles = list(PROFILES) if args.profile == "both" else [args.profile]
    sent: list[int] = []
    server, base = site.serve_in_thread(folder, sent=sent)
    try:
        figures = asyncio.run(run(base, sent, profiles, args.loads, args.accept_encoding))
    finally:
        server.shutdown()
        server.server_close()
    files = [p for p in folder.rglob("*") if p.is_file()]
    copies = [p for p in files if p.suffix in {".gz", ".br"}]
    print(
        f"site: {sum(p.stat().st_size for p in files) / 2**20:.1f} MiB in {len(files)} files, "
        f"of which {sum(p.stat().st_size for p in copies) / 2**20:.1f} MiB in {len(copies)} compressed copies"
    )
    print(f"medians of {args.loads}; bytes on the wire and time to the first widget")
    print(f"{'':8} {'page':10} {'first visit (cold)':>21} {'repeat (warm)':>21} {'next page':>28}")
    for (name, label), rows in figures["pages"].items():
        cold, warm, after = (_cell(rows[key]) for key in ("cold", "warm", "next"))
        print(f"{name:8} {label:10} {cold:>21} {warm:>21}   {NEXT[label]:>9} {after}")
    clicks = figures["clicks"]
    if clicks:
        print(
            f"click -> board updated (desktop): median {statistics.median(clicks):.1f} ms, "
            f"p95 {percentile(clicks, 0.95):.1f} ms, max {max(clicks):.1f} ms ({len(clicks)} clicks)"
        )


if __name__ == "__main__":
    main()
