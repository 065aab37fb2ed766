"""Every page of the app on a 390 px phone, every step of every lesson: it fits the width (no sideways
page scroll, nothing sticking out past the right edge), no text in a picture is under 9 CSS px, no
button's words are cut short ("Továb…"), and no learner reads "Player 0/1"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tartli.course import PAGES
from tests.browser.conftest import go_to_step, leave

AUDIT = r"""
() => {
  const W = document.documentElement.clientWidth;
  const out = {sideways: document.documentElement.scrollWidth > W, outside: [], small: [], player: [], cut: []};
  for (const el of document.querySelectorAll('#rendered_cells *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= W + 1) continue;
    // Inside a box that scrolls or clips within the page, it does not stick out; but a control (a button, a
    // list to choose from, a field) must be whole on the screen: one cut off by its box, or to be found by
    // swiping the box sideways, is one a learner misses (the table's "A trick stays" list was 539 px wide
    // in Hungarian, in a row that scrolled sideways).
    const control = ['BUTTON', 'SELECT', 'INPUT', 'TEXTAREA'].includes(el.tagName);
    let clipped = false;
    for (let a = el.parentElement; a && a !== document.body && !control; a = a.parentElement) {
      const scrolls = getComputedStyle(a).overflowX !== 'visible';
      if (scrolls && a.getBoundingClientRect().right <= W + 1) { clipped = true; break; }
    }
    if (!clipped) out.outside.push(el.tagName + ' ' + String(el.className.baseVal ?? el.className).slice(0, 40));
  }
  for (const t of document.querySelectorAll('svg text')) {
    if (t.getBoundingClientRect().width === 0) continue;
    const m = t.getScreenCTM();
    if (!m) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (px < 8.95) out.small.push(Math.round(px * 10) / 10 + ' px: ' + t.textContent.slice(0, 30));
  }
  const cuttable = '#rendered_cells button, #rendered_cells select, #rendered_cells .widget-label, '
    + '#rendered_cells .lm-TabBar-tabLabel';
  for (const b of document.querySelectorAll(cuttable)) {
    const r = b.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (b.scrollWidth > b.clientWidth + 2) out.cut.push(b.tagName + ': ' + (b.innerText || b.value || '').slice(0, 30));
  }
  const text = document.body.innerText;
  for (const m of text.matchAll(/.{0,30}\b(Player [01]|Játékos [01])\b.{0,30}/g)) out.player.push(m[0]);
  return out;
}
"""


def check(page: Any, where: str) -> None:
    found = page.evaluate(AUDIT)
    assert not found["sideways"], f"{where}: the page scrolls sideways"
    assert not found["outside"], f"{where}: past the right edge: {found['outside'][:5]}"
    assert not found["small"], f"{where}: picture text under 9 px: {found['small'][:5]}"
    assert not found["player"], f"{where}: {found['player'][:3]}"
    assert not found["cut"], f"{where}: words cut short on a button: {found['cut'][:5]}"


@pytest.mark.parametrize("lang", ["en", "hu"])
@pytest.mark.parametrize("file", [page.file for page in PAGES])
def test_every_page_and_every_step_fits_a_phone(chromium: Any, app_server: Any, file: str, lang: str) -> None:
    """In English and in Hungarian (whose words are longer: a button or a table can grow past the edge)."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(app_server.url(file) + ("" if lang == "en" else f"?lang={lang}"), wait_until="load")
        page.locator("#rendered_cells").wait_for(state="visible", timeout=60_000)
        page.wait_for_load_state("networkidle", timeout=60_000)
        if not re.match(r"\d\d_", file) or file.startswith("00_"):
            page.wait_for_timeout(1_500)  # the widgets' first drawing at the phone's width
            check(page, f"{file} ({lang})")
            return
        page.locator(".tartli-steps .tartli-where").wait_for()
        count = page.locator(".tartli-steps .tartli-dots button").count()
        for number in range(1, count + 1):
            go_to_step(page, number)
            page.wait_for_timeout(400)  # a picture redrawn for the phone's width arrives just after
            check(page, f"{file} ({lang}) step {number}")
    finally:
        leave(context)
