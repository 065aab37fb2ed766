"""Pictures of lesson steps as a learner sees them: ``python tests/browser/shots.py OUT SHOT...`` (a script).

Each SHOT is ``FILE[#N][@LANG][:WIDTH]``, e.g. ``08_phase_two.ipynb#8:390`` or
``10_play_a_game.ipynb#2@hu:390`` (step N of the lesson, in the page's language, at a width of 390 or
1280 px; 390 by default). It serves the app as the tests do (``start_server``), opens each page in
Debian's Chromium at that width (a touch phone at 390), goes to the step by its address and saves a
full-page PNG in the folder OUT, named after the shot. Look at them: a learner judges by what they see.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import (  # noqa: E402
    PAGE_TIMEOUT_MS,
    chromium_path,
    go_to_step,
    launch_chromium,
    start_server,
    stop_server,
)

SHOT = re.compile(r"^(?P<file>[\w.-]+\.ipynb)(?:#(?P<step>\d+))?(?:@(?P<lang>en|hu|de))?(?::(?P<width>\d+))?$")
HEIGHTS = {390: 844, 1280: 900}
SCROLL_DOWN = """() => { window.scrollTo(0, document.body.scrollHeight);
  for (const e of document.querySelectorAll('*')) if (e.scrollHeight > e.clientHeight + 4
      && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)) e.scrollTop = e.scrollHeight; }"""


def take(page, server, file: str, step: int | None, lang: str) -> None:  # type: ignore[no-untyped-def]
    query = "" if lang == "en" else f"?lang={lang}"
    page.goto(server.url(file) + query, wait_until="load", timeout=PAGE_TIMEOUT_MS)
    page.locator("#rendered_cells").wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
    page.wait_for_load_state("networkidle", timeout=PAGE_TIMEOUT_MS)
    if step is not None:
        go_to_step(page, step)
    page.wait_for_timeout(1_500)  # the widgets' drawing at this width


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    for text in argv[1:]:
        found = SHOT.match(text)
        if found is None:
            print(f"not a shot: {text!r} (FILE[#N][@LANG][:WIDTH])", file=sys.stderr)
            return 2
        shots.append(found)
    if chromium_path() is None:
        print("Chromium is missing: apt-get install chromium", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    server = start_server(Path(tempfile.mkdtemp()) / "voila.log")
    try:
        with sync_playwright() as driver:
            browser = launch_chromium(driver)
            for found in shots:
                width = int(found["width"] or 390)
                phone = width < 600
                context = browser.new_context(
                    viewport={"width": width, "height": HEIGHTS.get(width, 900)}, has_touch=phone, is_mobile=phone
                )
                page = context.new_page()
                step = int(found["step"]) if found["step"] else None
                take(page, server, found["file"], step, found["lang"] or "en")
                name = re.sub(r"[^\w.-]+", "-", found.string) + ".png"
                page.screenshot(path=str(out / name), full_page=True)
                print(out / name)
                # the page scrolls inside its own box: the bottom of the step too, as a learner scrolls to it
                page.evaluate(SCROLL_DOWN)
                page.wait_for_timeout(300)
                bottom = out / name.replace(".png", "-bottom.png")
                page.screenshot(path=str(bottom))
                print(bottom)
                context.close()
            browser.close()
    finally:
        stop_server(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
