"""The table for two browsers, widget side (issue 38): two seats' tables (tartli.widgets.duel.DuelTable) on one
real DuelStore, each drawing only its own seat's view and sending its moves to the store. (The same through
the course's server and two Chromium pages: tests/browser/test_duel.py.)"""

from __future__ import annotations

import base64
import html
import io
import json
import random
import re
import zipfile
from pathlib import Path
from typing import Any

import ipywidgets as w
import pytest

from tartli.bots.evaluate import restrict
from tartli.errors import IllegalMoveError, TartliError
from tartli.moves import GoOut, Move, Play, Swap
from tartli.record import Record
from tartli.rules import RuleSet
from tartli.server.duels import DuelStore
from tartli.widgets.duel import DuelError, DuelTable
from tests.conftest import Clock
from tests.test_duels import play_to_the_end


class StoreLink:
    """A seat's link to an in-process store (the kernel's HttpLink goes through the server's API to the same calls)."""

    def __init__(self, store: DuelStore, code: str, token: str) -> None:
        self.store, self.code, self.token = store, code, token

    def state(self, since: int | None = None, wait: float = 0.0) -> dict[str, Any]:
        return self.store.state_for(self.code, self.token)

    def move(self, version: int, move: str) -> dict[str, Any]:
        return self.store.play(self.code, self.token, move, version)

    def next_hand(self, hand: int) -> dict[str, Any]:
        return self.store.next_hand(self.code, self.token, hand)

    def let_computer_play(self, on: bool) -> dict[str, Any]:
        return self.store.let_computer_play(self.code, self.token, on)

    def allow_hints(self, on: bool) -> dict[str, Any]:
        return self.store.allow_hints(self.code, self.token, on)

    def another_match(self, match: int) -> dict[str, Any]:
        return self.store.another_match(self.code, self.token, match)

    def records(self, match: int | None = None) -> list[dict[str, Any]]:
        return self.store.records(self.code, self.token, match)

    def leave(self) -> None:
        self.store.leave(self.code, self.token)


@pytest.fixture
def seats(tmp_path: Path) -> Any:
    clock = Clock()
    store = DuelStore(tmp_path / "duels.sqlite3", clock=clock)
    code, anna = store.open_table("Anna")
    first = DuelTable(StoreLink(store, code, anna), code=code)
    yield store, code, first, anna, clock
    store.close()


def real_state(store: DuelStore, code: str) -> Any:
    return store._matches[code][2].state  # (the referee's hand: only a test looks at it)


def a_move(table: DuelTable, rng: random.Random) -> Move:
    view = restrict(table.state.view(table.seat), table.offered)  # what the table's buttons offer
    moves = [m for m in view.legal_moves if not isinstance(m, (GoOut, Swap))]
    plays = [m for m in moves if isinstance(m, Play)]
    return rng.choice(moves if rng.random() < 0.3 else plays or moves)


def test_a_table_waits_for_the_second_player_and_then_each_seat_sees_only_its_own_view(seats: Any) -> None:
    store, code, anna, _token, _clock = seats
    assert code in anna.duel_status.value and "Waiting for a classmate" in anna.duel_status.value
    with pytest.raises(DuelError, match="not under way"):
        anna.act(Play(0, anna.state.hand(0)[0]))
    _seat, bence_token = store.take_seat(code, "Bence")
    bence = DuelTable(StoreLink(store, code, bence_token), code=code)
    anna._apply(anna.link.state())
    assert "You are playing Bence." in anna.duel_status.value and "You are playing Anna." in bence.duel_status.value
    assert (anna.seat, bence.seat) == (0, 1) and anna.names == ("You", "Bence") and bence.names == ("Anna", "You")
    rng = random.Random(5)
    tables = (anna, bence)
    moved = 0
    while not real_state(store, code).is_over:
        real = real_state(store, code)
        for table in tables:
            mine, theirs = table.state.view(table.seat), real.view(table.seat)
            assert (mine.hand, mine.legal_moves, mine.tricks, mine.totals) == (
                theirs.hand,
                theirs.legal_moves,
                theirs.tricks,
                theirs.totals,
            )
        assert all(t.review_panel.button.layout.display == "none" for t in tables), "no review during the hand"
        assert all(t.download.layout.display == "none" for t in tables), "no record of a hand under way"
        mover = tables[real.to_move]
        waiting = tables[1 - real.to_move]
        assert "waiting for their move" in waiting.status.value
        if waiting.state.hand(waiting.seat):
            with pytest.raises(IllegalMoveError, match=r"^K1: "):  # (the engine's words, its rule)
                waiting.act(Play(waiting.seat, waiting.state.hand(waiting.seat)[0]))
        mover.act(a_move(mover, rng))
        waiting._apply(waiting.link.state())  # (in a page: the long poll brings it)
        moved += 1
    assert moved > 20
    for table in tables:
        assert table.state.is_over and table.state.totals == real_state(store, code).totals
        assert table.next_button.layout.display != "none"
        assert table.hint_button.layout.display == "none", "no Hint against a person"
        assert table.review_panel.button.layout.display != "none", "the hand over: each may review it"
        assert table.download.layout.display != "none", "and save its record"
    decided = anna.learner_review().decisions
    assert decided and all(real_state(store, code).moves[d.index].player == 0 for d in decided), "Anna's own"
    anna.next_hand()
    bence.next_hand()  # (pressed on both: the second finds the hand dealt)
    assert anna.duel["hand_number"] == bence.duel["hand_number"] == 2
    assert not anna.state.moves and anna.state.hand(0) == real_state(store, code).hand(0)


def test_a_move_the_rules_refuse_is_refused_with_its_rule_and_nothing_is_sent(seats: Any) -> None:
    store, code, anna, token, _clock = seats
    _seat, bence_token = store.take_seat(code, "Bence")
    anna._apply(anna.link.state())
    bence = DuelTable(StoreLink(store, code, bence_token), code=code)
    real = real_state(store, code)
    mover = real.to_move
    not_mine = real.hand(1 - mover)[0]
    version = store.state_for(code, token)["version"]
    with pytest.raises(IllegalMoveError, match=r"^[A-Z]\d+: "):
        (anna, bence)[mover].act(Play(mover, not_mine))
    assert store.state_for(code, token)["version"] == version


def test_the_other_away_for_two_minutes_lets_the_computer_play_and_their_return_takes_the_seat_back(
    seats: Any,
) -> None:
    store, code, anna, token, clock = seats
    _seat, bence_token = store.take_seat(code, "Bence")
    anna._apply(anna.link.state())
    assert anna.computer_button.layout.display == "none"
    clock.now += 130
    store.seen(code, token)  # Anna's page is open; Bence's went quiet
    anna._apply(anna.link.state())
    assert "away for 2 minutes" in anna.duel_status.value and anna.computer_button.layout.display != "none"
    anna.computer_button.click()
    assert "The computer plays for Bence" in anna.duel_status.value
    assert real_state(store, code).to_move == 0 or real_state(store, code).is_over  # the computer moved at once
    store.seen(code, bence_token)  # Bence is back
    anna._apply(anna.link.state())
    assert "You are playing Bence." in anna.duel_status.value and anna.wait_button.layout.display == "none"


def test_leaving_closes_the_table_for_both(seats: Any) -> None:
    store, code, anna, _token, _clock = seats
    _seat, bence_token = store.take_seat(code, "Bence")
    bence = DuelTable(StoreLink(store, code, bence_token), code=code)
    bence.leave()
    anna._apply(anna.link.state())
    for table in (anna, bence):
        assert "This table is closed." in table.duel_status.value and table.leave_button.layout.display == "none"
    with pytest.raises(TartliError):
        anna.act(Play(0, anna.state.hand(0)[0]))


def test_the_table_page_offers_a_classmate_only_where_a_server_keeps_the_game(monkeypatch: Any) -> None:
    from tartli.course import DUELS_ENV
    from tartli.widgets.duel import classmate_link

    monkeypatch.setenv(DUELS_ENV, "1")
    assert "href='../../tartli/duel'" in classmate_link().value
    monkeypatch.delenv(DUELS_ENV)
    from tartli.widgets.duel import duel_widget

    assert duel_widget("lang=en") is None
    opened_elsewhere = duel_widget("duel=ABC123")  # (a table's link opened on Binder or the static edition)
    assert isinstance(opened_elsewhere, w.HTML) and "needs the course's own server" in html.unescape(
        opened_elsewhere.value
    )
    said = html.unescape(classmate_link().value)
    assert "href" not in said and "needs the course's own server" in said and "Two people at one screen" in said


def test_the_server_pages_of_their_own_share_one_look_and_fill_every_blank() -> None:
    """The teacher's page and the page where a table is opened come from one stylesheet (class_pages.page_css),
    in every language, with no ``__BLANK__`` left unfilled."""
    import re

    from tartli.server.class_pages import page_css, teacher_page
    from tartli.server.duel_pages import duel_page

    for lang in ("en", "hu", "de"):
        for page in (teacher_page(lang, "/"), duel_page(lang, "/")):
            assert page_css() in page and not re.search(r"__[A-Z_]+__", page)
    assert "--page-width: 760px" in duel_page("en", "/") and "Join a table" in duel_page("en", "/")
    assert "Ülj le egy asztalhoz" in duel_page("hu", "/")


def test_the_hint_is_offered_while_both_players_agree_to_it(seats: Any) -> None:
    store, code, anna, _token, _clock = seats
    _seat, bence_token = store.take_seat(code, "Bence")
    bence = DuelTable(StoreLink(store, code, bence_token), code=code)
    anna._apply(anna.link.state())
    assert anna.hint_button.layout.display == "none" and anna.hints_toggle.layout.display != "none"
    with pytest.raises(DuelError, match="both of you agree"):
        anna.hint()
    anna.hints_toggle.value = True  # Anna agrees
    bence._apply(bence.link.state())
    assert "Anna would like the Hint for both of you." in bence.duel_status.value
    assert "it is offered once Bence agrees too" in anna.duel_status.value
    assert bence.hint_button.layout.display == "none"
    bence.hints_toggle.value = True  # and Bence
    anna._apply(anna.link.state())
    for table in (anna, bence):
        assert table.hint_button.layout.display != "none" and "You both agree to the Hint." in table.duel_status.value
    mover, waiting = (anna, bence) if real_state(store, code).to_move == 0 else (bence, anna)
    assert mover.hint().startswith("Hint: ") and mover.hinted is not None
    assert mover.hinted in mover.state.view(mover.seat).legal_moves, "a move this player may make now"
    assert waiting.hint() == "A hint comes when it is your turn."
    anna.hints_toggle.value = False  # Anna no longer agrees: offered to neither
    bence._apply(bence.link.state())
    assert anna.hint_button.layout.display == bence.hint_button.layout.display == "none"


def test_bela_may_be_said_out_of_turn_at_a_table_for_two(tmp_path: Path) -> None:
    """B1: béla may be declared at any moment, also out of turn; the engine allows it and so does the server, so
    the seat's table sends it (it once refused every move out of turn but going out)."""
    from tartli.moves import Bela

    for seed in range(200):
        store = DuelStore(tmp_path / f"duels-{seed}.sqlite3", deals=random.Random(seed))
        code, anna = store.open_table("Anna")
        _seat, bence = store.take_seat(code, "Bence")
        real = real_state(store, code)
        waiting = 1 - real.to_move
        bela = next((m for m in real.legal_moves(waiting) if isinstance(m, Bela)), None)
        if bela is not None:
            break
        store.close()
    else:
        pytest.fail("no deal of 200 gives the player not to move béla")
    table = DuelTable(StoreLink(store, code, (anna, bence)[waiting]), code=code)
    assert table.bela_button.layout.display != "none", "the table offers béla"
    before = table.version
    table.act(bela)
    assert table.version == before + 1 and real_state(store, code).moves[-1] == bela
    store.close()


def archived(table: DuelTable) -> tuple[str, list[dict[str, Any]]]:
    """The match link's text and the records in its zip (as a browser saves it)."""
    found = re.search(
        r'download="([^"]+)" href="data:application/zip;base64,([^"]+)">([^<]+)<', table.match_download.value
    )
    assert found, table.match_download.value
    with zipfile.ZipFile(io.BytesIO(base64.b64decode(found[2]))) as archive:
        names = archive.namelist()
        assert names == [f"hand-{n:02d}.json" for n in range(1, len(names) + 1)]
        records = [json.loads(archive.read(name)) for name in names]
    return html.unescape(found[3]), records


def test_a_finished_match_is_saved_as_one_file_and_another_match_starts_for_both(tmp_path: Path) -> None:
    """Issue 38: a finished match is one file each player saves (a zip of the hands' tartli/1 records, each
    replayable as it is), and either player starts another match at the same table, both at 0 buli."""
    store = DuelStore(tmp_path / "duels.sqlite3", clock=Clock(), deals=random.Random(7))
    code, anna = store.open_table("Anna", rules=RuleSet(buli_target=1))
    _seat, bence = store.take_seat(code, "Bence")
    first, second = (
        DuelTable(StoreLink(store, code, anna), code=code),
        DuelTable(StoreLink(store, code, bence), code=code),
    )
    assert first.match_download.value == "" and first.again_button.layout.display == "none"
    play_to_the_end(store, code, {0: anna, 1: bence})
    for table in (first, second):
        table._apply(table.link.state())
        assert table.duel["status"] == "match-over" and table.again_button.layout.display == ""
        assert table.next_button.layout.display == "none"  # (no next hand once the match is over)
    text, records = archived(first)
    assert records == store.records(code, anna) and archived(second)[1] == records
    assert text == f"Save the match ({len(records)} hands)" if len(records) > 1 else "Save the match (1 hand)"
    for record in records:
        assert Record.from_dict(record).replay().is_over  # each hand as `tartli replay` reads it
    first.again_button.click()
    assert first.duel["match_number"] == 2 and first.duel["status"] == "playing"
    assert first.again_button.layout.display == "none" and first.match_download.value == ""
    assert "A new match" in first.messages[-1]
    second.again_button.click()  # pressed at the same moment: the second match stays the one
    assert second.duel["match_number"] == 2 and second.duel["version"] == first.duel["version"]
    assert store.records(code, bence, 1) == records
    store.close()
