"""Lighthouse's mobile scores of the static edition: ``python tests/browser/lighthouse.py [SITE]``.

A benchmark, not a test: it prints figures and asserts nothing. Without ``SITE`` it builds the
site first (``tartli.site.build`` into a temporary folder, tools cached in ``.site-cache``). The
site is served from 127.0.0.1 by ``python -m tartli.site serve``'s server, and Lighthouse (npm
``lighthouse``, :data:`VERSION`, installed once into ``.site-cache/lighthouse``; never committed)
runs Debian's Chromium (``CHROME_PATH=/usr/bin/chromium``) with its default settings: the mobile
preset (a phone's screen, simulated slow 4G, 4x CPU slowdown) and a new profile each run, so every
figure is a first visit. For the index, a lesson and the table it prints the performance score,
first contentful paint (FCP), largest contentful paint (LCP), total blocking time (TBT), the total
bytes Lighthouse counted, and the accessibility score (the median run of ``--runs``, by score).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tartli import site  # noqa: E402
from tests.browser.bench_static import site_folder  # noqa: E402
from tests.browser.conftest import chromium_path  # noqa: E402

VERSION = "12.8.2"
"""The Lighthouse release (the issue's figures before this change were measured with 12.8)."""

INSTALL = ROOT / ".site-cache" / "lighthouse"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking"
PAGES = {"index": "00_index.html", "lesson 06": "06_meld_contest.html", "table": "table.html"}


def lighthouse_cli() -> Path:
    """The pinned Lighthouse's command-line script, installed with npm on first use."""
    cli = INSTALL / "node_modules" / "lighthouse" / "cli" / "index.js"
    package = INSTALL / "node_modules" / "lighthouse" / "package.json"
    if not cli.exists() or json.loads(package.read_text(encoding="utf-8"))["version"] != VERSION:
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("npm is needed to install Lighthouse (Node.js 18.20 or later)")
        INSTALL.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--prefix", str(INSTALL), f"lighthouse@{VERSION}", "--no-audit", "--no-fund", "--silent"],
            check=True,
        )
    return cli


def audit(cli: Path, url: str) -> dict[str, Any]:
    """One Lighthouse run of ``url``: its figures."""
    node = shutil.which("node") or "node"
    result = subprocess.run(
        [
            node,
            str(cli),
            url,
            "--output=json",
            "--output-path=stdout",
            "--quiet",
            "--only-categories=performance,accessibility",
            f"--chrome-flags={CHROME_FLAGS}",
            "--max-wait-for-load=180000",
        ],
        env=dict(os.environ, CHROME_PATH=chromium_path() or "/usr/bin/chromium"),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"lighthouse failed ({result.returncode}): {result.stderr[-2000:]}")
    report = json.loads(result.stdout)
    audits = report["audits"]
    return {
        "performance": report["categories"]["performance"]["score"],
        "accessibility": report["categories"]["accessibility"]["score"],
        "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt": audits["total-blocking-time"]["numericValue"] / 1000,
        "bytes": audits["total-byte-weight"]["numericValue"],
        "warnings": report.get("runWarnings", []),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", type=Path, help="a built site (default: build one)")
    parser.add_argument("--runs", type=int, default=1, help="runs per page (the median is printed)")
    args = parser.parse_args()
    if chromium_path() is None:
        sys.exit("Debian's chromium is needed (apt-get install chromium)")
    cli = lighthouse_cli()
    folder = site_folder(args.site)
    server, base = site.serve_in_thread(folder)
    print(f"Lighthouse {VERSION}, mobile preset (simulated slow 4G, 4x CPU), Chromium {chromium_path()}")
    try:
        for label, page in PAGES.items():
            runs = sorted(
                (audit(cli, base + "voici/render/" + page) for _ in range(args.runs)), key=lambda r: r["performance"]
            )
            run = runs[len(runs) // 2]
            scores = ", ".join(f"{r['performance']:.2f}" for r in runs)
            print(
                f"{label:10} performance {run['performance']:.2f} (runs: {scores})  FCP {run['fcp']:.1f} s  "
                f"LCP {run['lcp']:.1f} s  TBT {run['tbt']:.2f} s  total {run['bytes'] / 2**20:.1f} MiB  "
                f"accessibility {run['accessibility']:.2f}"
            )
            for warning in run["warnings"]:
                print(f"           warning: {warning}")
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
