"""An HTML sheet of the whole pack, and ``python -m tartli.render.sheet OUT.html [--png OUT.png]``.

The page shows the 32 faces (one row per suit, one column per rank) at hand
size, the back, and one example of each state; ``--slate`` writes the page of
chalk signs instead. With ``--png`` it is also screenshotted with headless
Chromium (``/usr/bin/chromium`` or ``chromium`` on PATH).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from tartli.render.page import sheet_html
from tartli.render.slate import demo_html

CHROMIUM_FLAGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
"""Flags for headless Debian Chromium on a machine with no network (also used by the browser tests)."""


def chromium_command(html: Path, png: Path, window: str = "1100,900") -> list[str]:
    """The headless Chromium command line that screenshots ``html`` into ``png``."""
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    return [
        exe,
        "--headless",
        *CHROMIUM_FLAGS,
        "--hide-scrollbars",
        f"--screenshot={png.resolve()}",
        f"--window-size={window}",
        html.resolve().as_uri(),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tartli.render.sheet", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the HTML file to write")
    parser.add_argument("--png", type=Path, help="also screenshot the page into this PNG (headless Chromium)")
    parser.add_argument("--language", choices=("en", "hu", "de"), help="default: the current language (en)")
    parser.add_argument("--width", type=float, default=90, help="card width in CSS px (default 90)")
    parser.add_argument("--window", default="1100,900", help="browser window size for --png (default 1100,900)")
    parser.add_argument("--slate", action="store_true", help="the chalk score signs instead of the pack")
    args = parser.parse_args(argv)
    page = demo_html() if args.slate else sheet_html(args.language, width=args.width)
    args.out.write_text(page, encoding="utf-8")
    print(f"wrote {args.out}")
    if args.png is not None:
        cmd = chromium_command(args.out, args.png, args.window)
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0 or not args.png.exists():
            print(f"chromium failed ({done.returncode}): {done.stderr.strip()[-500:]}", file=sys.stderr)
            return 1
        print(f"wrote {args.png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
