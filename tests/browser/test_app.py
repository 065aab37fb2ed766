"""The course app in a real browser (Debian's Chromium through Playwright) against a live Voilà server.

Each test opens pages in fresh browser contexts, so each gets its own kernel and
its own game. The table page deals seed 2024; the computer answers after a short
delay (``TableController.delay``), so every step waits for the page to change.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tartli import Card
from tartli.course import PAGES, page_url

from .conftest import assert_no_error_output, leave

pytestmark = pytest.mark.browser

TABLE = "table.ipynb"
DECLARE_SEED = 7
"""A deal whose first move offers the learner a declaration (Bell-Ace-Terc, 20): found with
``TableController(seed=s, autoplay=False)._declare_moves`` over seeds 0, 1, 2, ... (seed 2024, the
page's own deal, offers none on the first move; seeds 0, 2, 7, 12, 14 do)."""

RULE_MESSAGE = re.compile(r"^(?:⚠\s*)?[CDTMKBSV]\d+: ")
"""A refused move's message starts with the RULES.md ID (after the warning sign)."""

STATE_JS = """() => {
  const table = document.querySelector('div.tartli-table');
  const picks = Array.from(document.querySelectorAll('.tartli-board [data-pick]'));
  const pickOf = (n) => n.getAttribute('data-pick');
  const message = document.querySelector('.tartli-message');
  return {
    status: table && table.children.length ? table.children[0].innerText.trim() : '',
    message: message ? message.innerText.trim() : '',
    hand: picks.map(pickOf),
    playable: picks.filter((n) => n.querySelector('svg.playable')).map(pickOf),
    unplayable: picks.filter((n) => n.querySelector('svg.unplayable')).map(pickOf),
  };
}"""

MY_TURN_JS = """() => {
  const table = document.querySelector('div.tartli-table');
  if (!table || !table.children.length) return false;
  const status = table.children[0].innerText;
  if (status.includes('Hand over')) return true;
  return status.includes('Your turn')
    && document.querySelector('.tartli-board [data-pick] svg.playable') !== null;
}"""

CHANGED_JS = """([hand, message]) => {
  const picks = Array.from(document.querySelectorAll('.tartli-board [data-pick]'))
    .map((n) => n.getAttribute('data-pick')).join(' ');
  const node = document.querySelector('.tartli-message');
  const text = node ? node.innerText.trim() : '';
  return picks !== hand || text !== message;
}"""

PLAYED_JS = """([pick, message]) => {
  const picks = Array.from(document.querySelectorAll('.tartli-board [data-pick]'))
    .map((n) => n.getAttribute('data-pick'));
  const node = document.querySelector('.tartli-message');
  const text = node ? node.innerText.trim() : '';
  return !picks.includes(pick) || (text !== message && /^(⚠\\s*)?[A-Z]\\d+: /.test(text));
}"""


@dataclass(frozen=True)
class TableState:
    status: str
    message: str
    hand: list[str]
    playable: list[str]
    unplayable: list[str]


def table_state(page: Any) -> TableState:
    return TableState(**page.evaluate(STATE_JS))


def wait_for_my_turn(page: Any, timeout: float = 20_000) -> TableState:
    """Until the learner may play (the computer has answered) or the hand is over."""
    page.wait_for_function(MY_TURN_JS, timeout=timeout)
    return table_state(page)


def act_and_wait(page: Any, do: Any, timeout: float = 15_000) -> TableState:
    """Do something (a click, a key) and wait until the hand or the message changes."""
    before = table_state(page)
    do()
    page.wait_for_function(CHANGED_JS, arg=[" ".join(before.hand), before.message], timeout=timeout)
    return table_state(page)


def card(page: Any, pick: str) -> Any:
    return page.locator(f'.tartli-board [data-pick="{pick}"]')


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def press_card(page: Any, pick: str, do: Any, timeout: float = 15_000) -> TableState:
    """Click (or key) a card of the hand and wait until it has left the hand, or a rule message refused it."""
    before = table_state(page)
    do()
    page.wait_for_function(PLAYED_JS, arg=[pick, before.message], timeout=timeout)
    after = table_state(page)
    assert pick not in after.hand, f"{pick} was not played: {after.message!r}"
    return after


def play(page: Any, pick: str) -> TableState:
    """Click a card of the hand; the card must leave the hand."""
    return press_card(page, pick, lambda: card(page, pick).click())


def open_table(open_page: Any) -> Any:
    opened = open_page(TABLE)
    page = opened.page
    page.locator(".tartli-board svg").first.wait_for(state="visible", timeout=60_000)
    state = wait_for_my_turn(page)
    assert len(state.hand) == 9, state
    return opened


def new_deal(page: Any, seed: int) -> TableState:
    """Type a deal number and press New deal."""
    field = page.locator(".widget-inline-hbox", has=page.get_by_text("Deal #:", exact=True)).locator("input")
    field.fill(str(seed))
    field.press("Enter")
    button(page, "New deal").click()
    page.locator(".tartli-message", has_text=f"New deal #{seed}.").wait_for(timeout=15_000)
    return wait_for_my_turn(page)


# ---------------------------------------------------------------- 1. every page loads cleanly


@pytest.mark.parametrize("file", [page.file for page in PAGES])
def test_every_page_loads_with_its_widgets_and_no_errors(open_page: Any, file: str) -> None:
    opened = open_page(file)
    page = opened.page
    assert opened.response_status == 200
    if file == PAGES[0].file:
        course_map = page.locator(".tartli-map")
        course_map.wait_for(state="visible")
        links = course_map.locator("a")
        assert links.count() == len(PAGES) - 1
        for link, later in zip(links.all(), PAGES[1:], strict=True):
            assert later.title in link.inner_text()
            assert link.get_attribute("href") == page_url(later)
    if file == TABLE:
        page.locator(".tartli-board svg").first.wait_for(state="visible", timeout=60_000)
        state = wait_for_my_turn(page)
        assert len(state.hand) == 9
        assert sorted(state.playable) == sorted(state.hand)  # phase 1, the learner leads: any card
        assert state.status.startswith("Your turn")
        assert button(page, "New deal").is_visible()
    page.wait_for_timeout(1_000)  # late errors (a widget failing after the first paint) still count
    assert_no_error_output(page)
    title = page.title()
    assert "error" not in title.lower(), title
    opened.watch.assert_clean()


# ---------------------------------------------------------------- 2. a whole hand against the computer


def test_a_whole_hand_is_played_to_the_end_with_a_declaration(open_page: Any) -> None:
    opened = open_table(open_page)
    page = opened.page
    start = new_deal(page, DECLARE_SEED)
    assert len(start.hand) == 9
    assert button(page, "Declare").is_visible(), f"deal #{DECLARE_SEED} should offer a declaration"
    declared: list[str] = []
    plays = 0
    for _ in range(60):
        state = wait_for_my_turn(page)
        if "Hand over" in state.status:
            break
        if not declared and button(page, "Declare").is_visible():
            menu = page.locator(".widget-dropdown", has=page.get_by_text("Melds:", exact=True)).locator("select")
            menu.select_option(index=0)
            label = menu.locator("option").first.inner_text()
            after = act_and_wait(page, lambda: button(page, "Declare").click())
            assert not RULE_MESSAGE.match(after.message), f"the declaration {label!r} was refused: {after.message}"
            assert after.message.startswith("You declare"), after.message
            declared.append(f"{label}: {after.message}")
            continue
        play(page, state.playable[0])
        plays += 1
    else:
        pytest.fail(f"the hand did not end: {table_state(page)}")
    final = table_state(page)
    assert final.status.startswith("Hand over"), final
    assert declared, "no declaration was made"
    assert plays >= 9
    assert final.playable == []
    assert button(page, "Next hand").is_visible() or "wins the match" in final.status
    opened.watch.assert_clean()


def test_the_hint_the_review_and_try_again_at_the_table(open_page: Any) -> None:
    """Through the real kernel: the Hint names a move the learner may make now; a learner who follows
    it to the end of the hand can review the hand (every decision with its class, a progress bar while
    phase 1 is judged) and try a marked decision again."""
    opened = open_table(open_page)
    page = opened.page
    new_deal(page, 3)
    hint_view = page.locator(".tartli-hint")
    for _ in range(60):
        state = wait_for_my_turn(page)
        if "Hand over" in state.status:
            break
        before = hint_view.inner_text()  # (the last hint stays until the next: a move is never advised twice)
        page.get_by_role("button", name="Hint").click()  # (its name has the icon too)
        page.wait_for_function(
            "before => { const t = (document.querySelector('.tartli-hint') || {}).innerText || '';"
            " return t !== before && t.includes('Hint:'); }",
            arg=before,
        )
        advice = hint_view.inner_text().split(" — ")[0]  # the move (its reason may name other cards)
        said = [pick for pick in state.playable if str(Card.parse(pick).name()) in advice]
        if said:  # a card advised: it is one the learner may play now; play it
            play(page, said[0])
        elif "béla" in advice and button(page, "Béla (40)").is_visible():
            act_and_wait(page, lambda: button(page, "Béla (40)").click())
        elif "declare" in advice and button(page, "Declare").is_visible():
            act_and_wait(page, lambda: button(page, "Declare").click())
        else:  # a swap or going out advised: take the first playable card instead
            assert any(word in advice.lower() for word in ("swap", "out", "pass")), (advice, state)
            play(page, state.playable[0])
    else:
        pytest.fail(f"the hand did not end: {table_state(page)}")
    page.get_by_role("button", name="Review this hand").click()
    decisions = page.locator(".tartli-review li.tartli-decision")
    decisions.first.wait_for(timeout=60_000)
    text = page.locator(".tartli-review").inner_text()
    assert "Accuracy" in text and re.search(r"Trick \d+:", text), text[:400]
    retry = page.locator(".tartli-review button", has_text="Try again")
    if retry.count():  # a marked decision to replay (a perfect hand has none)
        retry.first.click()
        page.locator(".tartli-try-again").wait_for(state="visible", timeout=30_000)
    opened.watch.assert_clean()


def test_a_hand_that_follows_the_hint_is_best_at_every_decision_of_the_review(open_page: Any) -> None:
    """Issue 35, through the course's server and the real page: every move of the hand is the Hint's
    (a card clicked, or the button of the declaration, béla, pass or swap it advises; the Hint puts an
    advised declaration in the menu), then *Review this hand*: no decision is classed worse than best,
    and there is nothing to try again."""
    opened = open_table(open_page)
    page = opened.page
    new_deal(page, 5)
    hint_view = page.locator(".tartli-hint")
    followed: list[str] = []
    for _ in range(60):
        state = wait_for_my_turn(page)
        if "Hand over" in state.status:
            break
        before = hint_view.inner_text()
        page.get_by_role("button", name="Hint").click()
        page.wait_for_function(
            "before => { const t = (document.querySelector('.tartli-hint') || {}).innerText || '';"
            " return t !== before && t.includes('Hint:'); }",
            arg=before,
        )
        advice = hint_view.inner_text().split("Hint: ", 1)[1].split(" — ")[0]
        followed.append(advice)
        if advice.startswith(("lead the ", "play the ")):
            name = advice.split(" the ", 1)[1]
            (pick,) = [p for p in state.playable if str(Card.parse(p).name()) == name]
            play(page, pick)
        elif advice.startswith("declare béla"):
            act_and_wait(page, lambda: button(page, "Béla (40)").click())
        elif advice.startswith("declare "):
            act_and_wait(page, lambda: button(page, "Declare").click())
        elif advice.startswith("pass"):
            act_and_wait(page, lambda: button(page, "Pass").click())
        elif advice.startswith("swap"):
            act_and_wait(page, lambda: button(page, "Swap the trump Seven").click())
        else:
            pytest.fail(f"advice not followed: {advice!r}")
    else:
        pytest.fail(f"the hand did not end: {table_state(page)}")
    assert len(followed) >= 9
    page.get_by_role("button", name="Review this hand").click()
    decisions = page.locator(".tartli-review li.tartli-decision")
    decisions.first.wait_for(timeout=90_000)
    page.locator(".tartli-review", has_text="Accuracy").wait_for(timeout=90_000)
    rows = decisions.all_inner_texts()
    assert len(rows) >= 8, rows
    worse = [row for row in rows if "✓ Best" not in row]
    assert not worse, (followed, worse)
    assert "Accuracy 100%" in page.locator(".tartli-review").inner_text()
    assert page.locator(".tartli-review button", has_text="Try again").count() == 0
    opened.watch.assert_clean()


# ---------------------------------------------------------------- 3. an illegal click


def test_an_illegal_click_shows_the_rule_and_changes_nothing(open_page: Any) -> None:
    """In phase 2 a card that does not follow suit is refused (T4); play legal cards until such a position."""
    opened = open_table(open_page)
    page = opened.page
    state = wait_for_my_turn(page)
    for _ in range(40):
        if state.unplayable or "Hand over" in state.status:
            break
        play(page, state.playable[0])
        state = wait_for_my_turn(page)
    assert state.unplayable, f"no position with a refused card came up: {state}"
    bad = state.unplayable[0]
    board_before = page.locator(".tartli-board").first.inner_html()  # (the table's; Try again has its own)
    after = act_and_wait(page, lambda: card(page, bad).click())
    assert RULE_MESSAGE.match(after.message), after.message
    assert after.message.lstrip("⚠ ").startswith(("T4:", "K1:")), after.message
    page.wait_for_timeout(500)  # anything the click changed would have arrived by now
    again = table_state(page)
    assert again.hand == state.hand
    assert again.playable == state.playable and again.unplayable == state.unplayable
    assert again.status == state.status
    assert page.locator(".tartli-board").first.inner_html() == board_before
    # and the game goes on: a legal card is still accepted
    play(page, state.playable[0])
    opened.watch.assert_clean()


# ---------------------------------------------------------------- 4. independent games


def test_two_visitors_have_independent_games(open_page: Any) -> None:
    first = open_table(open_page).page
    second = open_table(open_page).page
    hand_one, hand_two = table_state(first).hand, table_state(second).hand
    assert hand_one == hand_two  # the same seed: any leak between the games would show
    played = hand_one[0]
    play(first, played)
    wait_for_my_turn(first)  # the computer answered in the first game
    second.wait_for_timeout(500)
    other = table_state(second)
    assert other.hand == hand_two
    assert len(other.hand) == 9
    assert other.status.startswith("Your turn")
    assert other.message == ""
    assert played not in table_state(first).hand
    # and the second one still plays on its own
    play(second, hand_two[-1])
    assert played not in table_state(first).hand


# ---------------------------------------------------------------- 5. no code execution from the page


WS_JS = """async ([code]) => {
  const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
  const url = `ws://${location.host}/api/kernels/${config.kernelId}/channels?session_id=visitor-${Date.now()}`;
  const ws = new WebSocket(url);
  const replies = [];
  ws.onmessage = (event) => {
    try {
      const msg = JSON.parse(event.data);
      replies.push((msg.header && msg.header.msg_type) || msg.msg_type);
    } catch (e) {
      replies.push('unparsed');
    }
  };
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error('websocket error'));
    setTimeout(() => reject(new Error('websocket timeout')), 10000);
  });
  const readyState = ws.readyState;
  const message = (type, content) => ({
    header: {msg_id: crypto.randomUUID(), username: 'visitor', session: 'visitor', msg_type: type,
             version: '5.3', date: new Date().toISOString()},
    parent_header: {}, metadata: {}, content, channel: 'shell', buffers: [],
  });
  ws.send(JSON.stringify(message('kernel_info_request', {})));
  ws.send(JSON.stringify(message('execute_request', {
    code, silent: false, store_history: false, user_expressions: {}, allow_stdin: false, stop_on_error: true,
  })));
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const after = ws.readyState;
  ws.close();
  return {url, kernelId: config.kernelId, readyState, after, replies};
}"""


def test_a_visitor_cannot_run_code_through_the_kernel_channel(open_page: Any, tmp_path: Path) -> None:
    opened = open_table(open_page)
    page = opened.page
    kernel_id = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page.content())
    assert kernel_id, "the page does not name its kernel"
    marker = tmp_path / "pwned"
    code = f"open({str(marker)!r}, 'w').write('executed')"
    result = page.evaluate(WS_JS, [code])
    assert result["kernelId"] == kernel_id.group(1)
    assert result["readyState"] == 1, result  # WebSocket.OPEN: the message was really sent
    # the channel is live (an allowed request is answered), so a refused execution is Voilà's doing
    assert "kernel_info_reply" in result["replies"], result
    time.sleep(0.5)
    assert not marker.exists(), "code sent by the page was executed by the kernel"
    assert "execute_reply" not in result["replies"] and "execute_input" not in result["replies"], result
    # the page's own game still works
    state = table_state(page)
    play(page, state.playable[0])


# ---------------------------------------------------------------- 6. keyboard


def test_a_card_is_played_with_the_keyboard(open_page: Any) -> None:
    opened = open_table(open_page)
    page = opened.page
    state = table_state(page)
    card(page, state.hand[0]).locator(".tartli-hit").focus()  # the button laid over the card
    focused = "document.activeElement.closest('[data-pick]').getAttribute('data-pick')"
    assert page.evaluate(focused) == state.hand[0]
    page.keyboard.press("ArrowRight")
    second = state.hand[1]
    assert page.evaluate(focused) == second
    after = press_card(page, second, lambda: page.keyboard.press("Enter"))
    assert len(after.hand) == len(state.hand) - 1, after
    assert after.message.startswith("You play"), after.message
    opened.watch.assert_clean()


# ---------------------------------------------------------------- the trick is seen (issue 17, first part)


def test_both_cards_of_a_trick_stay_on_screen_with_its_winner(open_page: Any, tmp_path: Path) -> None:
    opened = open_table(open_page)
    page = opened.page
    first = table_state(page).playable[0]
    play(page, first)
    result = page.locator(".tartli-board .tartli-trick-result")
    result.wait_for(state="visible", timeout=20_000)  # after the computer's reply
    text = " ".join((result.text_content() or "").split())
    assert re.match(r"Trick 1: (You win|The computer wins) · \d+ card points", text), text
    board = page.locator(".tartli-board").first.inner_html()
    assert board.count("tartli-card") >= 2
    page.locator(".tartli-board").first.screenshot(path=str(tmp_path / "trick.png"))
    # The last-trick view is one click away once the next trick has begun.
    state = wait_for_my_turn(page, timeout=30_000)
    if state.status.startswith("Your turn") and state.playable:
        play(page, state.playable[0])
    page.get_by_role("button", name="Last trick").click()
    page.locator(".tartli-last-trick").wait_for(state="visible", timeout=15_000)
    assert "Trick" in page.locator(".tartli-last-trick").inner_text()
    visible = page.locator("#rendered_cells").inner_text()
    assert "Player 0" not in visible and "Player 1" not in visible
    opened.watch.assert_clean()


PHONE_MEASURE_JS = """() => {
  const board = document.querySelector('.tartli-board');
  const cards = Array.from(board.querySelectorAll('[data-pick]')).map((n) => n.getBoundingClientRect());
  const texts = Array.from(board.querySelectorAll('svg.tartli-table > text'))
    .map((n) => n.getBoundingClientRect().height);
  texts.sort((a, b) => a - b);
  const page = document.documentElement;
  return {
    cards: cards.map((r) => [r.width, r.height]),
    text10: texts.length ? texts[Math.floor(texts.length / 10)] : 0,
    overflow: page.scrollWidth - page.clientWidth,
    narrow: board.querySelector('svg').classList.contains('narrow'),
  };
}"""


def test_the_table_can_be_played_on_a_phone(chromium: Any, app_server: Any, tmp_path: Path) -> None:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{app_server.base_url}/voila/render/{TABLE}", wait_until="load")
        page.wait_for_function(
            "() => { const s = document.querySelector('.tartli-board svg');"
            " return s && s.classList.contains('narrow'); }",
            timeout=60_000,
        )
        wait_for_my_turn(page)
        sizes = page.evaluate(PHONE_MEASURE_JS)
        assert sizes["narrow"] and len(sizes["cards"]) == 9
        assert all(w >= 32 and h >= 48 for w, h in sizes["cards"]), sizes["cards"]  # each card a tap target
        assert sizes["text10"] >= 9, sizes["text10"]  # the table's words, 10th percentile, in CSS px
        assert sizes["overflow"] <= 1, sizes["overflow"]  # no sideways scroll of the page
        first = table_state(page).playable[0]
        page.locator(f'.tartli-board [data-pick="{first}"]').first.tap()
        page.locator(".tartli-board .tartli-trick-result").wait_for(state="visible", timeout=20_000)
        page.screenshot(path=str(tmp_path / "phone-table.png"))
    finally:
        leave(context)


def test_a_reload_in_the_middle_of_a_match_brings_back_the_same_position(open_page: Any) -> None:
    opened = open_table(open_page)
    page = opened.page
    play(page, table_state(page).playable[0])
    before = wait_for_my_turn(page, timeout=30_000)
    page.wait_for_timeout(500)  # the kept game reaches localStorage
    page.reload(wait_until="load")
    page.locator(".tartli-board svg").first.wait_for(state="visible", timeout=60_000)
    page.wait_for_function(
        "() => (document.querySelector('.tartli-message') || {}).innerText?.includes('back where you left it')",
        timeout=30_000,
    )
    after = wait_for_my_turn(page, timeout=30_000)
    assert after.hand == before.hand and len(after.hand) == 9
    opened.watch.assert_clean()


def test_a_saved_game_is_opened_from_a_file_with_a_plain_button(open_page: Any, tmp_path: Path) -> None:
    from tartli.game import HandState
    from tartli.record import Record

    state = HandState.from_seed(7)
    for _ in range(3):
        state.push(next(m for m in state.legal_moves() if str(m).split(": ")[1].startswith("play")))
    saved = tmp_path / "game.json"
    saved.write_text(Record.from_state(state).to_json(), encoding="utf-8")
    page = open_table(open_page).page
    assert page.get_by_role("button", name="Open a saved game").is_visible()
    assert "Load record (0)" not in page.locator("body").inner_text()
    page.locator("input[type=file][accept='.json']").first.set_input_files(str(saved))
    page.locator(".tartli-message", has_text="Record loaded: 3 moves.").wait_for(timeout=15_000)
    (tmp_path / "junk.json").write_bytes(b"\xff\xfe")
    page.locator("input[type=file][accept='.json']").first.set_input_files(str(tmp_path / "junk.json"))
    page.locator(".tartli-message", has_text="not UTF-8").wait_for(timeout=15_000)


TRY_AGAIN_CARDS_JS = """() => Array.from(
  document.querySelectorAll('.tartli-try-again .tartli-board .tartli-hit')).map((h) => {
  const box = h.getBoundingClientRect();
  return {role: h.getAttribute('role'), name: h.getAttribute('aria-label') || '',
          tabindex: h.getAttribute('tabindex'), width: box.width, height: box.height};
})"""


def test_try_agains_cards_are_buttons_the_keyboard_plays(open_page: Any) -> None:
    """Issue 36 item 20: the cards of Try again's table are buttons with names, as the main table's are
    (reached with Tab, played with Enter), not pictures: a keyboard or screen-reader user plays them."""
    import random

    from tartli.moves import Declare, Play
    from tartli.widgets import TableController

    table = TableController(seed=11, level="medium", keep_in_browser="table")
    rng = random.Random(11)
    while not table.state.is_over:  # a hand played at random: the review marks decisions to try again
        table.act(rng.choice([m for m in table.offered_moves() if isinstance(m, (Play, Declare))]))
    opened = open_table(open_page)
    page = opened.page
    page.evaluate("text => localStorage.setItem('tartli.table.table', text)", table.saved_game())
    page.reload(wait_until="load")
    page.wait_for_function(
        "() => (document.querySelector('.tartli-message') || {}).innerText?.includes('back where you left it')",
        timeout=120_000,
    )
    page.get_by_role("button", name="Review this hand").click()
    retry = page.locator(".tartli-review button", has_text="Try again")
    retry.first.wait_for(timeout=180_000)
    retry.first.click()
    page.locator(".tartli-try-again").wait_for(state="visible", timeout=30_000)
    page.wait_for_function(f"() => ({TRY_AGAIN_CARDS_JS})().length > 0", timeout=30_000)
    cards = page.evaluate(TRY_AGAIN_CARDS_JS)
    for hit in cards:
        assert hit["role"] == "button" and hit["tabindex"] == "0", hit
        assert re.search(r"\b(of|Ace|King|Over|Under|Ten|Nine|Eight|Seven)\b", hit["name"]), hit
        assert hit["width"] >= 24 and hit["height"] >= 24, hit  # a button over the whole card, not a dot
    in_retry = "() => !!document.activeElement.closest('.tartli-try-again .tartli-board')"
    for _ in range(12):  # from the Try again button pressed, Tab reaches the position's first card
        page.keyboard.press("Tab")
        if page.evaluate(in_retry):
            break
    assert page.evaluate(in_retry), page.evaluate("() => document.activeElement.outerHTML.slice(0, 200)")
    page.keyboard.press("ArrowRight")  # the arrow keys move along the cards, as at the main table
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.classList.contains('tartli-hit')")
    page.keyboard.press("Enter")
    page.locator(".tartli-try-again [role=status]").wait_for(state="visible", timeout=60_000)
    assert page.locator(".tartli-try-again [role=status]").inner_text().strip()
    opened.watch.assert_clean()
