"""The step runner and the stages' stars in a real page: addresses, the kept step, and stars after a reload."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tartli.cards import CARDS, Suit
from tartli.game import trick_winner

from .conftest import assert_no_error_output, go_to_step, leave

LESSON = "06_meld_contest.ipynb"
BY_NAME = {card.name("en"): card for card in CARDS}


def where(page: Any) -> str:
    return str(page.locator(".tartli-steps .tartli-where").inner_text())


def wait_for_step(page: Any, number: int) -> None:
    page.wait_for_function(
        "n => { const w = document.querySelector('.tartli-steps .tartli-where');"
        " return w && w.textContent.startsWith('Step ' + n + ' of'); }",
        arg=number,
        timeout=60_000,
    )


def test_a_step_has_an_address_and_the_page_reopens_on_the_last_step(open_page: Any, app_server: Any) -> None:
    opened = open_page(LESSON)
    page = opened.page
    wait_for_step(page, 1)
    assert "In this lesson you will" in page.locator(".tartli-steps").inner_text()  # the goals, on step 1
    page.goto(app_server.url(LESSON) + "#step-3")  # a teacher's link to step 3
    wait_for_step(page, 3)
    assert "Say the kind, not the cards" in page.locator(".tartli-step").inner_text()
    continue_button = page.get_by_role("button", name="Continue →")
    assert continue_button.is_disabled()  # the task first
    page.get_by_role("button", name="“Acorn-Over-Kvart”").click()
    page.locator(".tartli-feedback.wrong").wait_for()
    assert continue_button.is_disabled()
    page.get_by_role("button", name="“kvart”").click()
    page.locator(".tartli-feedback.right").wait_for()
    continue_button.click()
    wait_for_step(page, 4)
    page.wait_for_function("() => location.hash === '#step-4'", timeout=10_000)  # the address follows
    page.goto(app_server.url(LESSON))  # back later, without an address: the last step is kept
    wait_for_step(page, 4)
    page.wait_for_function("() => location.hash === '#step-4'", timeout=10_000)
    page.get_by_role("button", name="← Back").click()
    wait_for_step(page, 3)
    assert_no_error_output(page)
    opened.watch.assert_clean()


def which_card_wins(panel: Any) -> tuple[str, str]:
    """The winning and the losing card (as ``data-pick`` texts) of the trainer's trick, judged by the engine."""
    title = panel.locator("svg.tartli-trainer > title").text_content()
    found = re.match(r"A trick: (.+) led, (.+) second", title or "")
    assert found, title
    trump_name = re.search(r">Trump: (\w+)<", panel.locator("svg.tartli-trainer").inner_html())
    assert trump_name, "the picture names the trump suit"
    trump = next(s for s in Suit if s.name_in("en") == trump_name.group(1))
    lead, second = BY_NAME[found.group(1)], BY_NAME[found.group(2)]
    winner, loser = (lead, second) if trick_winner(lead, second, trump) == 0 else (second, lead)
    return winner.text, loser.text


def test_a_stage_with_one_slip_gives_two_stars_kept_after_a_reload(open_page: Any, app_server: Any) -> None:
    opened = open_page("practice.ipynb")
    page = opened.page
    page.get_by_role("tab", name="Which card wins the trick?").click()
    panel = page.locator(".tartli-trainer", has_text="Which card wins the trick?")
    panel.locator("svg.tartli-trainer").wait_for()
    seen = []
    for number in range(6):  # one slip, then five right at the first try
        right, wrong = which_card_wins(panel)
        seen.append(right + wrong)
        if number == 0:
            panel.locator(f'[data-pick="{wrong}"]').click()
            panel.locator(".tartli-feedback.wrong").wait_for()
        panel.locator(f'[data-pick="{right}"]').click()
        panel.locator(".tartli-feedback.right").wait_for()
        if number == 0:
            assert "earns nothing" in panel.locator(".tartli-feedback").inner_text()
        before = panel.locator("svg.tartli-trainer").inner_html()
        panel.get_by_role("button", name="New position").click()
        panel.locator(".tartli-feedback").wait_for(state="detached")
        # The picture is its own widget: its new position may arrive after the feedback is cleared
        # (a new position is never the one before, so the picture always changes).
        page.wait_for_function(
            "before => [...document.querySelectorAll('svg.tartli-trainer')].some("
            "e => e.offsetParent !== null && e.querySelector('title')?.textContent.startsWith('A trick:') "
            "&& e.innerHTML !== before)",
            arg=before,
            timeout=30_000,
        )
    score = panel.locator(".tartli-best").inner_text()
    assert "★★☆" in score, score
    first_seen = seen[-1]
    page.reload()
    page.get_by_role("tab", name="Which card wins the trick?").click()
    panel = page.locator(".tartli-trainer", has_text="Which card wins the trick?")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.tartli-best')].some(e => e.textContent.includes('★★☆'))",
        timeout=30_000,
    )
    right, wrong = which_card_wins(panel)
    assert right + wrong != seen[0], "the first position of the page is not dealt again after a reload"
    assert first_seen  # (the positions before the reload were all answered)
    opened.watch.assert_clean()


def test_the_dots_of_the_steps_done_are_kept_after_a_reload(open_page: Any, app_server: Any) -> None:
    """Issue 26: a step without a task gets its ✓ once left, and a lesson opened again shows it."""
    opened = open_page("10_play_a_game.ipynb")
    page = opened.page
    wait_for_step(page, 1)
    page.get_by_role("button", name="Continue →").click()
    wait_for_step(page, 2)
    page.wait_for_function(
        "() => (localStorage.getItem('tartli.steps.10_play_a_game.done') || '').includes('1')", timeout=20_000
    )
    page.goto(app_server.url("10_play_a_game.ipynb") + "#step-3")
    wait_for_step(page, 3)
    page.wait_for_function(
        "() => document.querySelector('.tartli-dots button') && "
        "document.querySelector('.tartli-dots button').textContent.includes('✓')",
        timeout=30_000,
    )
    assert_no_error_output(page)


def test_the_recap_dot_gets_its_tick(open_page: Any) -> None:
    """Issue 36 item 20: the recap (the last step, no task) is never continued from; reaching it marks it
    done, so its dot shows ✓ when the learner goes back, and the browser keeps it."""
    opened = open_page("10_play_a_game.ipynb")
    page = opened.page
    wait_for_step(page, 1)
    count = int(re.search(r"of (\d+)", where(page)).group(1))  # type: ignore[union-attr]
    go_to_step(page, count)
    wait_for_step(page, count)
    assert "recap" in where(page)
    page.get_by_role("button", name="← Back").click()
    wait_for_step(page, count - 1)
    page.wait_for_function(
        "() => { const dots = document.querySelectorAll('.tartli-dots button');"
        " return dots.length && dots[dots.length - 1].textContent.includes('✓'); }",
        timeout=30_000,
    )
    page.wait_for_function(
        "n => JSON.parse(localStorage.getItem('tartli.steps.10_play_a_game.done') || '[]').includes(n)",
        arg=count,
        timeout=20_000,
    )
    assert_no_error_output(page)


EMPTY_BOXES_JS = """() => Array.from(document.querySelectorAll('.tartli-step *')).filter((e) => {
  const cs = getComputedStyle(e), r = e.getBoundingClientRect();
  const bordered = ['Top', 'Bottom', 'Left', 'Right'].some(
    (s) => parseFloat(cs['border' + s + 'Width']) > 0 && cs['border' + s + 'Style'] !== 'none');
  return bordered && r.width > 0 && r.height > 0 && !e.innerText.trim()
    && !e.querySelector('svg, img, input, select, button, progress');
}).map((e) => e.outerHTML.slice(0, 160))"""

LABEL_BY_ITS_BUTTONS_JS = """text => {
  const label = Array.from(document.querySelectorAll('.tartli-step label, .tartli-step .widget-label'))
    .find((l) => l.textContent.trim() === text && l.getBoundingClientRect().width > 0);
  const first = label && label.parentElement.querySelector('.widget-toggle-buttons button');
  if (!first) return null;
  const a = label.getBoundingClientRect(), b = first.getBoundingClientRect();
  return {label: [a.left, a.right, a.top, a.bottom], button: [b.left, b.right, b.top, b.bottom]};
}"""


def open_at(chromium: Any, app_server: Any, file: str, step: int, width: int, lang: str) -> tuple[Any, Any]:
    phone = width < 600
    context = chromium.new_context(
        viewport={"width": width, "height": 844 if phone else 900}, has_touch=phone, is_mobile=phone
    )
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(app_server.url(file) + ("" if lang == "en" else f"?lang={lang}"), wait_until="load", timeout=120_000)
    go_to_step(page, step)  # (it waits for the step counter, in the page's language)
    page.wait_for_timeout(1_000)  # the widgets' drawing at this width
    return context, page


@pytest.mark.parametrize(("width", "lang", "names"), [(390, "hu", "Nevek:"), (1280, "en", "Names in:")])
def test_lesson_01s_names_label_stands_by_its_buttons(
    chromium: Any, app_server: Any, width: int, lang: str, names: str
) -> None:
    """Issue 36 item 20: lesson 01 step 9's "Names in:" belongs to its three language buttons: it stood at
    the end of the suit's row while its buttons wrapped to the next line (390 px), and touched the list
    before it (1280 px). Label and buttons are one piece of the row: on their line, just before them."""
    context, page = open_at(chromium, app_server, "01_pack.ipynb", 9, width, lang)
    try:
        found = page.evaluate(LABEL_BY_ITS_BUTTONS_JS, names)
        assert found is not None, "the label and the language buttons are not one piece of the row"
        (l_left, l_right, l_top, l_bottom), (b_left, _b_right, b_top, b_bottom) = found["label"], found["button"]
        assert abs((l_top + l_bottom) / 2 - (b_top + b_bottom) / 2) < 8, found  # on the buttons' line
        assert 0 <= b_left - l_right < 24, found  # just before them
        select = page.locator(".tartli-step select").first.bounding_box()
        if abs(select["y"] - l_top) < 20:  # on the suit's line: apart from its list
            assert l_left - (select["x"] + select["width"]) >= 8, (select, found)
    finally:
        leave(context)


def test_no_empty_box_is_drawn_under_the_tables_buttons(chromium: Any, app_server: Any) -> None:
    """Issue 36 item 20: lesson 03 step 8's table drew its log, empty before the first move, as an empty
    bordered box under its buttons."""
    context, page = open_at(chromium, app_server, "03_deal.ipynb", 8, 1280, "en")
    try:
        page.locator(".tartli-step .tartli-board svg").first.wait_for(state="visible")
        assert page.evaluate(EMPTY_BOXES_JS) == []
    finally:
        leave(context)
