"""Everyone can take the course: touch, keyboard and screen reader, checked in Chromium.

axe-core (the accessibility engine behind Lighthouse; npm package pinned in tests/run.sh, installed
into .test-tools/ by the test setup, never fetched while the tests run) is injected into every page in
English and Hungarian at a phone's size (390x844) and a desktop's (1280x900), with the widgets drawn,
and into every step of three lessons that between them hold every kind of widget the course has (the
trainers and quizzes of lesson 06, the full table of lesson 10 with its hint and review, the lab of
lesson 13): no critical or serious violation. The moderate ones are counted and printed (pytest -s).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tartli import Record
from tartli.course import PAGES
from tests.browser.conftest import PAGE_TIMEOUT_MS, STEP_WHERE, go_to_step, leave, wait_for_cells
from tests.browser.test_app import table_state, wait_for_my_turn

AXE = Path(__file__).resolve().parents[2] / ".test-tools" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
WALKED = ("06_meld_contest.ipynb", "10_play_a_game.ipynb", "13_scenario_lab.ipynb")
"""Lessons whose every step is checked: between them every kind of widget of the course."""
MODERATE: dict[str, int] = {}


def axe_script() -> str:
    if not AXE.exists():
        message = "axe-core is missing: bash tests/run.sh installs it into .test-tools/ (npm install axe-core)"
        if os.environ.get("CI") == "true":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


def audit(page: Any, where: str) -> None:
    """Run axe-core on the page: no critical or serious violation; the moderate ones counted."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_script())
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations.map(
             v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
                    where: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"""
    )
    bad = [v for v in found if v["impact"] in ("critical", "serious")]
    assert not bad, f"{where}: {bad}"
    MODERATE[where] = sum(v["nodes"] for v in found if v["impact"] == "moderate")


def open_at(chromium: Any, app_server: Any, file: str, lang: str, size: str) -> tuple[Any, Any]:
    width, height = SIZES[size]
    phone = size == "phone"
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(app_server.url(file) + ("" if lang == "en" else f"?lang={lang}"), wait_until="load")
    wait_for_cells(page)
    page.wait_for_load_state("networkidle", timeout=60_000)
    page.wait_for_timeout(1_200)  # the widgets' first drawing at this width
    return context, page


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_every_page_passes_axe(chromium: Any, app_server: Any, lang: str, size: str) -> None:
    for file in (page.file for page in PAGES):
        context, page = open_at(chromium, app_server, file, lang, size)
        try:
            audit(page, f"{file} {lang} {size}")
            if file == "table.ipynb":  # and after a card is played (the learner leads deal 2024: any card)
                pick = page.locator(".tartli-board [data-pick]").first
                card = pick.get_attribute("data-pick")
                pick.click()
                page.wait_for_function("c => !document.querySelector(`.tartli-board [data-pick='${c}']`)", arg=card)
                page.wait_for_timeout(3_000)  # the computer's answer
                audit(page, f"{file} {lang} {size} after a card")
        finally:
            leave(context)
    counts = {k: v for k, v in MODERATE.items() if f" {lang} {size}" in k}
    print(f"\nmoderate axe findings ({lang}, {size}): {counts}")


@pytest.mark.parametrize("file", WALKED)
def test_every_step_of_three_lessons_passes_axe(chromium: Any, app_server: Any, file: str) -> None:
    context, page = open_at(chromium, app_server, file, "en", "phone")
    try:
        page.locator(".tartli-steps .tartli-where").wait_for()
        count = page.locator(".tartli-steps .tartli-dots button").count()
        for number in range(1, count + 1):
            go_to_step(page, number)
            page.wait_for_timeout(500)
            # the step counter says where the learner is (lesson 13's fourth step once read "Step 3 of 8")
            where = page.evaluate(STEP_WHERE)
            assert f"Step {number} of {count}" in where, (number, where)
            audit(page, f"{file} step {number}")
    finally:
        leave(context)


# ---------------------------------------------------------------- touch and screens
TARGETS = """() => {
  const small = [];
  const seen = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
                        return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
  // (links too: the page links, the rule book's chips, the sources; and a slider's handle. A link in
  // running text keeps its line, so only its tappable box's height counts: a link in a picture is the
  // picture's, and is not checked here)
  for (const e of document.querySelectorAll(
      '#rendered_cells button, #rendered_cells select, #rendered_cells input, #rendered_cells .lm-TabBar-tab, '
      + '.tartli-languages a, #rendered_cells a, #rendered_cells .noUi-handle')) {
    if (!seen(e) || e.closest('svg')) continue;
    const r = e.getBoundingClientRect();
    const inText = e.tagName === 'A' && getComputedStyle(e).display === 'inline';
    if ((r.width < 44 && !inText) || r.height < 44)
      small.push(`${e.tagName} '${(e.innerText || e.value || '').slice(0, 20)}' `
                 + `${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
  }
  const hits = [...document.querySelectorAll('.tartli-board .tartli-hit')].filter(seen)
    .map(e => e.getBoundingClientRect());
  const narrow = hits.filter(r => r.width < 32).length;
  return {small, narrow, hits: hits.length};
}"""


@pytest.mark.parametrize("file", [page.file for page in PAGES])
def test_touch_targets_and_the_first_continue_on_a_phone(chromium: Any, app_server: Any, file: str) -> None:
    """At 390x844: every button, toggle, dot, answer, field and tab at least 44x44 px, cards to tap at least
    32 px wide, and a lesson's Continue on its first screen without scrolling."""
    context, page = open_at(chromium, app_server, file, "en", "phone")
    try:
        found = page.evaluate(TARGETS)
        assert not found["small"], f"{file}: targets under 44x44 px: {found['small'][:6]}"
        assert found["narrow"] == 0, f"{file}: {found['narrow']} of {found['hits']} cards narrower than 32 px"
        if re.match(r"(0[1-9]|1\d)_", file):
            box = page.get_by_role("button", name=re.compile("Continue")).last.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, f"{file}: {box}"
    finally:
        leave(context)


@pytest.mark.parametrize(
    ("file", "step"),
    [
        pytest.param("rules.ipynb", None, id="rule-book"),  # its chips, contents and rule links
        pytest.param("09_scoring.ipynb", 11, id="slider"),  # the slider's handles
        pytest.param("12_history.ipynb", 6, id="rule-links"),  # rule links in running text
        pytest.param("12_history.ipynb", 11, id="sources"),  # a list of links
    ],
)
def test_links_and_handles_are_touch_targets_on_a_phone(
    chromium: Any, app_server: Any, file: str, step: int | None
) -> None:
    """Issue 36: a teacher's phone found inline rule links of 17x15 px, the rule book's chips 31 px tall, the
    previous/next lesson links 22-28 px, lesson 12's source links and 09/11's slider handles (16 px): every
    link and handle a learner taps is a 44 px target (a link in running text 44 px tall), in Hungarian."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(app_server.url(file) + "?lang=hu", wait_until="load", timeout=PAGE_TIMEOUT_MS)  # (run on demand)
        wait_for_cells(page)
        page.wait_for_load_state("networkidle", timeout=60_000)
        page.wait_for_timeout(1_200)
        if step is not None:
            go_to_step(page, step)
            page.wait_for_timeout(800)
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the page links at the bottom
        found = page.evaluate(TARGETS)
        assert not found["small"], f"{file} step {step}: targets under 44x44 px: {found['small'][:8]}"
    finally:
        leave(context)


def test_the_desktop_table_fits_the_first_screen(chromium: Any, app_server: Any) -> None:
    """At 1280x900 the table page shows the computer's cards, the trick, the scores and the learner's
    whole hand without scrolling, and no text of the table is under 12 px."""
    context, page = open_at(chromium, app_server, "table.ipynb", "en", "desktop")
    try:
        wait_for_my_turn(page)
        found = page.evaluate(
            """() => { const t = document.querySelector('.tartli-board svg.tartli-table').getBoundingClientRect();
                 const cards = [...document.querySelectorAll('.tartli-board .tartli-hit')]
                   .map(e => e.getBoundingClientRect());
                 const small = [];
                 for (const x of document.querySelectorAll('.tartli-board svg.tartli-table > text')) {
                   const m = x.getScreenCTM();
                   const px = parseFloat(getComputedStyle(x).fontSize) * Math.hypot(m.a, m.b);
                   if (px < 11.95) small.push(px.toFixed(1) + ' ' + x.textContent.slice(0, 20)); }
                 return {top: t.top, bottom: t.bottom, lowest: Math.max(...cards.map(r => r.bottom)), small}; }"""
        )
        assert found["top"] >= 0 and found["bottom"] <= 900, found
        assert found["lowest"] <= 900, found
        assert not found["small"], found["small"]
    finally:
        leave(context)


# ---------------------------------------------------------------- keyboard and screen reader
def test_a_hand_is_played_with_the_keyboard_alone(chromium: Any, app_server: Any) -> None:
    """Tab to the hand, arrows to a card, Enter to play it, to the end of the hand: no mouse."""
    context, page = open_at(chromium, app_server, "table.ipynb", "en", "desktop")
    try:
        wait_for_my_turn(page)
        focused = "document.activeElement && document.activeElement.closest('[data-pick]')"
        for _ in range(80):  # from the top of the page to the first card of the hand
            page.keyboard.press("Tab")
            if page.evaluate(f"!!({focused})"):
                break
        assert page.evaluate(f"!!({focused})"), "Tab never reached a card"
        plays = 0
        while True:
            state = wait_for_my_turn(page, timeout=60_000)
            if "Hand over" in state.status:
                break
            if page.evaluate(f"!({focused})"):  # the focus left the cards (a button came and went): Tab back
                for _ in range(80):
                    page.keyboard.press("Tab")
                    if page.evaluate(f"!!({focused})"):
                        break
            target = state.playable[0]
            for _ in range(len(state.hand) + 1):  # arrows to a card that may be played
                if page.evaluate(f"{focused}.getAttribute('data-pick')") == target:
                    break
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            page.wait_for_function("pick => !document.querySelector(`.tartli-board [data-pick='${pick}']`)", arg=target)
            plays += 1
            assert plays <= 16
        assert plays >= 8 and "Hand over" in table_state(page).status
    finally:
        leave(context)


def _saved_table(seed: int, scores: tuple[int, int]) -> str:
    from tartli.widgets import TableController

    record = Record.from_state(TableController(seed=seed).state).to_dict()
    record["scores"] = list(scores)
    return json.dumps(
        {
            "tartli-table": 1,
            "record": record,
            "buli": [0, 0],
            "tie_pending": False,
            "hands": 0,
            "level": "medium",
            "seed": seed,
        }
    )


def test_the_live_region_says_a_meld_a_trick_and_a_claim(chromium: Any, app_server: Any) -> None:
    """Deal 2 with the learner at 481: a terc declared, the trick played (the terc lifts the learner to 501),
    the claim made: each said once in the page's polite live region."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(f"localStorage.setItem('tartli.table.table', {json.dumps(_saved_table(2, (481, 0)))});")
    page = context.new_page()
    try:
        page.goto(app_server.url("table.ipynb"))
        wait_for_my_turn(page, timeout=60_000)
        live = page.locator(".tartli-live[role='status'][aria-live='polite']")
        assert live.count() == 1
        said = "document.querySelector('.tartli-live').textContent"
        page.get_by_role("button", name="Declare", exact=True).click()
        page.wait_for_function(f"{said}.includes('You declare: terc')")
        state = table_state(page)
        page.locator(f'.tartli-board [data-pick="{state.playable[0]}"]').click()
        page.wait_for_function(f"{said}.includes('You win trick 1')", timeout=30_000)
        text = page.evaluate(said)
        assert "You score" in text and "terc" in text.lower(), text
        page.get_by_role("button", name="Go out (501)").click()
        page.wait_for_function(f"{said}.includes('You go out with 501')", timeout=30_000)
        assert page.evaluate(said).count("You go out") == 1
    finally:
        leave(context)
