"""Pupil against pupil through the real course server and two Chromium pages (issue 38): Anna opens a table on
a phone, Bence takes the other seat from her link at 1280 px, they play a whole hand each seeing only their own
cards and the other's moves as they come, deal the next hand; a reload and a server restart bring each back to
the same seat of the same game.
"""

from __future__ import annotations

import bisect
import http.client
import json
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from tartli.record import Record
from tests.browser.conftest import PAGE_TIMEOUT_MS, launch_chromium, start_server, stop_server
from tests.browser.test_access import audit
from tests.browser.test_app import STATE_JS, TableState, table_state
from tests.browser.test_class_api import class_line, class_server  # noqa: F401 - the fixture
from tests.browser.test_class_pages import join, teacher_link
from tests.browser.test_class_server import THREE_POOLS

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
MOVE_SEEN_MS = 30_000
"""How long a page waits to show the other's move. The long poll brings it within a fraction of a second on an
idle machine (the test prints the times it saw); the bound is wide for a busy one."""

DUEL_LINE = "() => (document.querySelector('.tartli-duel-status') || {innerText: ''}).innerText"


def duel_line(page: Any) -> str:
    text: str = page.evaluate(DUEL_LINE)
    return text


def wait_for_line(page: Any, words: str, timeout: float = PAGE_TIMEOUT_MS) -> None:
    page.wait_for_function(f"() => ({DUEL_LINE})().includes({words!r})", timeout=timeout)


def seat_at_table(page: Any, name: str, button: str) -> None:
    """On the page where a seat is taken: type the name, press the button, and wait for the table."""
    field = page.locator("#join-name" if button == "Take the seat" else "#open-name")
    field.fill(name)
    page.get_by_role("button", name=button, exact=True).click()
    page.wait_for_url("**/table.ipynb?duel=*", timeout=30_000)
    page.locator(".tartli-duel .tartli-board svg").first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)


def trick_cards(page: Any) -> str:
    """What the board shows besides the player's hand (the trick, the talon, the other's backs): its text."""
    text: str = page.evaluate(
        "() => { const svg = document.querySelector('.tartli-board svg'); return svg ? svg.textContent : ''; }"
    )
    return text


def take_a_turn(page: Any) -> bool:
    """If it is this page's turn: pass a declaration it need not make, else play its first playable card.
    True if it acted."""
    state: TableState = table_state(page)
    if "Your turn" not in state.status:
        return False
    passing = page.get_by_role("button", name="Pass", exact=True)
    if passing.is_visible() and not state.playable:
        passing.click()
        page.wait_for_function(
            "() => !document.querySelector('.tartli-duel .tartli-table').children[0].innerText.includes('Your turn')"
            " || document.querySelector('.tartli-board [data-pick] svg.playable') !== null",
            timeout=MOVE_SEEN_MS,
        )
        return True
    if not state.playable:
        return False
    pick = state.playable[0]
    page.locator(f'.tartli-board [data-pick="{pick}"]').click()
    page.wait_for_function(
        "([pick]) => !Array.from(document.querySelectorAll('.tartli-board [data-pick]'))"
        ".map((n) => n.getAttribute('data-pick')).includes(pick)",
        arg=[pick],
        timeout=MOVE_SEEN_MS,
    )
    return True


CARD = re.compile(r'data-card=\\?"([0-9AKOUX][ABHL])\\?"')
"""A card face in a page or a widget message (tartli.render.cards marks each face it draws)."""


class Sent:
    """Every HTTP response body and websocket frame the server sends one page, with the time it came; the
    test notes when each move began (``starts``), to know which moment of the hand a frame belongs to."""

    def __init__(self, page: Any) -> None:
        self.frames: list[tuple[float, str]] = []
        self.responses: list[Any] = []
        self.starts: list[float] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        page.on("response", lambda response: self.responses.append(response))

    def _frame(self, payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode("utf-8", errors="replace")
        self.frames.append((time.monotonic(), text))

    def check(self, record: Record, seat: int) -> str:
        """No card the other player held hidden from ``seat`` (their hand less the cards ``seat`` knows, and the
        talon less the indicator) appears in anything sent to the page, at the moments it was hidden."""
        state = record.new_state()
        hidden = []
        for move in [None, *record.moves]:
            if move is not None:
                state.push(move)
            view = state.view(seat)
            other = set(state.hand(1 - seat)) - set(view.opponent_known)
            hidden.append({c.text for c in other | set(state.talon)} - {view.indicator.text if view.indicator else ""})
        bodies = []
        for response in self.responses:
            if "/voila/render/table.ipynb" in response.url and response.status == 200:
                bodies.append((0.0, response.text()))
        shown_mine, checks = set(), 0
        for when, text in [*bodies, *self.frames]:
            cards = set(CARD.findall(text))
            moment = bisect.bisect_right(self.starts, when)  # moves begun before this came
            forbidden = set.intersection(*hidden[max(0, moment - 2) : moment + 1])
            leaked = cards & forbidden
            assert not leaked, f"the page was sent the other's hidden cards {sorted(leaked)} at move {moment}"
            shown_mine |= cards & set(c.text for c in record.deal.hands[seat])
            checks += len(forbidden) if cards else 0
        assert shown_mine and checks > 100, "the check saw the page's own cards: it can see a card"
        return f"{len(self.frames)} frames and {len(bodies)} pages sent to the page: none showed a hidden card"


def test_two_browsers_play_a_hand_through_the_server_and_come_back_to_their_seats(
    tmp_path: Path, playwright_driver: Any
) -> None:
    log = tmp_path / "voila.log"
    server = start_server(log, extra=THREE_POOLS)
    browser = launch_chromium(playwright_driver)
    try:
        anna = browser.new_context(**PHONE).new_page()
        anna.goto(f"{server.base_url}/tartli/duel?lang=en")
        audit(anna, "the page where a table is opened, 390 px")
        anna.screenshot(path=str(tmp_path / "duel-page-390.png"), full_page=True)  # (pictures to look at)
        seat_at_table(anna, "Anna", "Open a table")
        wait_for_line(anna, "Waiting for a classmate")
        anna.screenshot(path=str(tmp_path / "waiting-390.png"), full_page=True)
        code = anna.locator(".tartli-duel-code").inner_text()
        link = anna.locator(".tartli-duel-status a").get_attribute("href") or ""
        assert link.endswith(f"tartli/duel?code={code}") and link.startswith(server.base_url), link

        bence = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        seen = Sent(bence)  # everything the server sends Bence's page: checked against Anna's hidden cards below
        bence.goto(link)
        assert bence.locator("#join-code").input_value() == code, "the link's code is filled in"
        seat_at_table(bence, "Bence", "Take the seat")
        wait_for_line(bence, "You are playing Anna.")
        sat = time.monotonic()
        wait_for_line(anna, "You are playing Bence.", timeout=MOVE_SEEN_MS)
        seen_sitting = time.monotonic() - sat
        audit(anna, "a seat at a table for two, 390 px")
        bence.screenshot(path=str(tmp_path / "bence-join-1280.png"), full_page=True)

        # the whole hand: each page plays when the status says it is its turn; the other sees the move
        pages = {"Anna": anna, "Bence": bence}
        waits: list[float] = []
        moves = 0
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            states = {name: table_state(page) for name, page in pages.items()}
            if all("Hand over" in s.status for s in states.values()):
                break
            mover = next((name for name, s in states.items() if "Your turn" in s.status), None)
            if mover is None:
                time.sleep(0.2)
                continue
            other = pages["Bence" if mover == "Anna" else "Anna"]
            before = other.evaluate(STATE_JS)["status"], trick_cards(other)
            started = time.monotonic()
            if not take_a_turn(pages[mover]):  # (its page was still showing the move before: look again)
                time.sleep(0.2)
                continue
            seen.starts.append(started)
            other.wait_for_function(
                "([status, board]) => { const t = document.querySelector('.tartli-duel .tartli-table');"
                " const svg = document.querySelector('.tartli-board svg');"
                " return (t && t.children[0].innerText.trim() !== status) || (svg && svg.textContent !== board); }",
                arg=list(before),
                timeout=MOVE_SEEN_MS,
            )
            waits.append(time.monotonic() - started)
            moves += 1
            if moves == 9:
                anna.screenshot(path=str(tmp_path / "playing-390.png"), full_page=True)
                bence.screenshot(path=str(tmp_path / "playing-1280.png"), full_page=True)
        else:
            anna.screenshot(path=str(tmp_path / "anna.png"), full_page=True)
            bence.screenshot(path=str(tmp_path / "bence.png"), full_page=True)
            pytest.fail(f"the hand did not end within 5 minutes: {table_state(anna)} / {table_state(bence)}")
        assert moves >= 20, moves
        # the hand's record is offered once it is over: the real hand, the same for both
        hand_file = ".tartli-duel a[download='tartli-hand.json']"
        saved = [page.locator(hand_file).get_attribute("href") or "" for page in pages.values()]
        for page in pages.values():  # and the match's hands so far, as one file (a zip of tartli/1 records)
            match_file = page.locator(".tartli-duel a[download$='.zip']")
            assert (match_file.get_attribute("href") or "").startswith("data:application/zip;base64,")
            assert match_file.inner_text() == "Save the hand played (1)"
        assert saved[0] and saved[0] == saved[1], "both players save the same, real record"
        record = Record.from_json(unquote(saved[0].split(",", 1)[1]))
        assert len(record.moves) == moves, "the record holds every move the two pages made, and replays"
        checked = seen.check(record, seat=1)
        print(f"\n{checked}")
        for page in pages.values():
            assert "Hand over" in table_state(page).status

        # the next hand, dealt once for both
        anna.get_by_role("button", name="Next hand", exact=True).click()
        bence.wait_for_function(
            "() => document.querySelectorAll('.tartli-board [data-pick]').length === 9", timeout=MOVE_SEEN_MS
        )
        hand_before = table_state(bence).hand

        # a reload keeps the seat
        bence.reload()
        bence.locator(".tartli-duel .tartli-board svg").first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        wait_for_line(bence, "You are playing Anna.")
        assert table_state(bence).hand == hand_before

        # a restart of the server keeps the game (the same port: the browsers keep their seats' cookies)
        stop_server(server)
        server = start_server(log, extra=THREE_POOLS, port=server.port)
        bence.reload()
        bence.locator(".tartli-duel .tartli-board svg").first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        wait_for_line(bence, "You are playing Anna.")
        assert table_state(bence).hand == hand_before, "the same hand after the restart"

        # a browser without the seat is sent to take one, and a full table says so
        stranger = browser.new_context().new_page()
        stranger.goto(server.url("table.ipynb") + f"?duel={code}")
        stranger.wait_for_url("**/tartli/duel?code=*", timeout=30_000)
        stranger.locator("#join-name").fill("Cili")
        stranger.get_by_role("button", name="Take the seat", exact=True).click()
        stranger.get_by_text("already has two players").wait_for(timeout=15_000)
        waits.sort()
        print(
            f"\nsitting down seen by the other in {seen_sitting:.2f} s; {moves} moves, each seen by the other in "
            f"{waits[len(waits) // 2]:.2f} s (median), {waits[int(len(waits) * 0.95)]:.2f} s (p95)"
        )
    finally:
        browser.close()
        stop_server(server)


def test_in_a_class_the_course_map_and_the_teacher_see_the_class_tables(
    class_server: Any,  # noqa: F811
    playwright_driver: Any,
    tmp_path: Path,
) -> None:
    """Anna and Bence are in the class: Anna opens a table from the class; Bence's course map says a table waits
    and leads to it, where he joins with one press; the teacher's page shows who plays whom."""
    server = class_server()
    _name, code, _key = class_line(server)
    browser = launch_chromium(playwright_driver)
    try:
        anna = join(browser.new_context(**PHONE), server, code, "Anna")
        bence = join(browser.new_context(**PHONE), server, code, "Bence")
        anna.goto(f"{server.base_url}/tartli/duel?lang=en")
        assert anna.locator("#open-name").input_value() == "Anna", "the class's name is filled in"
        seat_at_table(anna, "Anna", "Open a table")
        bence.reload()
        bence.locator("#tartli-class-tables").get_by_text("Tables waiting for a player in your class: 1.").wait_for(
            timeout=30_000
        )
        bence.locator("#tartli-class-tables a").click()
        bence.get_by_role("button", name="Join Anna's table", exact=True).click()
        bence.wait_for_url("**/table.ipynb?duel=*", timeout=30_000)
        wait_for_line(bence, "You are playing Anna.")
        wait_for_line(anna, "You are playing Bence.", timeout=MOVE_SEEN_MS)

        teacher = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        teacher.goto(teacher_link(server))
        teacher.locator("#games li").get_by_text(
            "Anna against Bence: hand 1, trick 1, points 0:0, games won 0:0"
        ).wait_for(timeout=30_000)
        teacher.locator("#games li", has_text="Anna against Bence").get_by_role("button", name="Watch").click()
        teacher.locator("#watch-view > svg").wait_for(timeout=30_000)
        watched = teacher.locator("#watch-view").inner_html()
        assert "Anna · 9 cards" in watched and "Bence · 9 cards" in watched and "your hand" not in watched
        teacher.screenshot(path=str(tmp_path / "teacher-watching-1280.png"), full_page=True)  # (to look at)
        held = set(table_state(anna).hand) | set(table_state(bence).hand)
        assert len(held) == 18 and not set(CARD.findall(watched)) & held, "no card of either hand is face up"
        audit(teacher, "the teacher's page with the class's games, 1280 px")
        teacher.get_by_role("button", name="Stop watching").click()
        assert teacher.locator("#watching").is_hidden()
    finally:
        browser.close()


def test_a_player_gone_lets_the_computer_play_and_forged_or_guessed_seats_are_refused(
    tmp_path: Path, playwright_driver: Any
) -> None:
    """Through the real server (a player counts as gone after 3 s here, 2 minutes in a course): Bence's page
    closes; Anna is offered the computer for him, takes it, and the computer plays his turns. A forged seat cookie
    is sent to take a seat, and 1,000 guessed codes from one browser are refused after a few."""
    server = start_server(tmp_path / "voila.log", extra=(*THREE_POOLS, "--TartliVoila.duel_away_after=3"))
    browser = launch_chromium(playwright_driver)
    try:
        anna = browser.new_context(**PHONE).new_page()
        anna.goto(f"{server.base_url}/tartli/duel?lang=en")
        seat_at_table(anna, "Anna", "Open a table")
        code = anna.locator(".tartli-duel-code").inner_text()
        bence_context = browser.new_context()
        bence = bence_context.new_page()
        bence.goto(f"{server.base_url}/tartli/duel?code={code}")
        seat_at_table(bence, "Bence", "Take the seat")
        wait_for_line(anna, "You are playing Bence.", timeout=MOVE_SEEN_MS)
        bence.close()  # his phone locked, his page is gone
        wait_for_line(anna, "let the computer play for them", timeout=60_000)
        anna.get_by_role("button", name="Let the computer play for Bence", exact=True).click()
        wait_for_line(anna, "The computer plays for Bence while they are away.", timeout=MOVE_SEEN_MS)
        for _ in range(3):  # Anna plays; the computer answers for Bence each time
            anna.wait_for_function(
                "() => document.querySelector('.tartli-duel .tartli-table').children[0].innerText.includes('Your turn')"
                " && document.querySelector('.tartli-board [data-pick] svg.playable') !== null",
                timeout=MOVE_SEEN_MS,
            )
            assert take_a_turn(anna)

        # Bence comes back: his seat is his again
        bence = bence_context.new_page()
        bence.goto(server.url("table.ipynb") + f"?duel={code}")
        bence.locator(".tartli-duel .tartli-board svg").first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        wait_for_line(anna, "You are playing Bence.", timeout=60_000)

        # a forged seat: the page sends the browser to take one (and the table is full)
        forger = browser.new_context()
        forger.add_cookies([{"name": f"tartli_seat_{code}", "value": "0" * 32, "url": server.base_url}])
        page = forger.new_page()
        page.goto(server.url("table.ipynb") + f"?duel={code}")
        page.wait_for_url("**/tartli/duel?code=*", timeout=30_000)

        # guessing codes: one browser's 1,000 tries are refused after its first few
        statuses = [
            post_duel(server, "join", {"code": f"Q{n:05d}", "name": "Eve"}, visitor="e" * 32) for n in range(1000)
        ]
        assert statuses[:5] == [403] * 5 and statuses.count(429) >= 985, (statuses[:12], statuses.count(429))
    finally:
        browser.close()
        stop_server(server)


def post_duel(server: Any, action: str, body: Any, visitor: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    headers = {"Content-Type": "application/json", "Cookie": f"tartli_visitor={visitor}"}
    connection.request("POST", f"/tartli/duel/{action}", body=json.dumps(body).encode(), headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def test_a_finished_match_shows_its_end_the_match_file_and_another_match(
    tmp_path: Path, playwright_driver: Any
) -> None:
    """Issue 38's last screen, as both players see it: a match to 1 buli played to its end at the table (store
    level, as two browsers would), then the two seats open the table: no Next hand, the match's file, Play another
    match; on a phone in English and at 1280 px in Hungarian, each passing axe; another match starts at 0."""
    from tartli.rules import RuleSet
    from tartli.server.duels import FILE_NAME, DuelStore
    from tests.test_duels import play_to_the_end, seated

    log = tmp_path / "voila.log"
    (tmp_path / "data").mkdir()
    store = DuelStore(tmp_path / "data" / FILE_NAME)  # (start_server keeps the data in log's folder / "data")
    code, anna_token, bence_token = seated(store, RuleSet(buli_target=1))
    play_to_the_end(store, code, {0: anna_token, 1: bence_token})
    hands = len(store.records(code, anna_token))
    store.close()
    server = start_server(log, extra=THREE_POOLS)
    browser = launch_chromium(playwright_driver)
    try:
        pages = {}
        for name, token, options, lang in (
            ("Anna", anna_token, PHONE, "en"),
            ("Bence", bence_token, {"viewport": {"width": 1280, "height": 900}}, "hu"),
        ):
            context = browser.new_context(**options)
            context.add_cookies([{"name": f"tartli_seat_{code}", "value": token, "url": server.base_url + "/"}])
            page = context.new_page()
            page.goto(server.url("table.ipynb") + f"?duel={code}&lang={lang}")
            page.locator(".tartli-duel .tartli-board svg").first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
            pages[name] = page
        anna, bence = pages["Anna"], pages["Bence"]
        wait_for_line(anna, "Your match against Bence is over.")
        again = anna.get_by_role("button", name="Play another match", exact=True)
        again.wait_for(timeout=MOVE_SEEN_MS)
        assert (
            anna.get_by_role("button", name="Next hand", exact=True).count() == 0
            or not anna.get_by_role("button", name="Next hand", exact=True).is_visible()
        ), "a match that is over has no next hand"
        saved = anna.locator(".tartli-duel a[download$='.zip']")
        assert saved.inner_text() == f"Save the match ({hands} hands)", saved.inner_text()
        assert anna.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scroll on a phone"
        bence.get_by_role("button", name="Még egy parti", exact=True).wait_for(timeout=MOVE_SEEN_MS)
        audit(anna, "a finished match, 390 px")
        audit(bence, "a finished match, 1280 px, hu")
        anna.screenshot(path=str(tmp_path / "match-over-en-390.png"), full_page=True)
        bence.screenshot(path=str(tmp_path / "match-over-hu-1280.png"), full_page=True)
        print(f"\nthe pictures: {tmp_path}")
        again.click()
        anna.wait_for_function(
            "() => document.querySelectorAll('.tartli-board [data-pick]').length === 9", timeout=MOVE_SEEN_MS
        )
        again.wait_for(state="hidden", timeout=MOVE_SEEN_MS)  # the new match is on (the board may show it first)
        wait_for_line(anna, "You are playing Bence.")
    finally:
        browser.close()
        stop_server(server)
