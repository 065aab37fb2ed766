"""Positions opened from a link (tartli.share) at the table and in the lab, and their Share buttons:
the position shown is the engine's after N moves, the learner in the link's seat; a bad link leaves a
fresh deal and a message. No browser: widgets are read and clicked from Python."""

from __future__ import annotations

from pathlib import Path

import pytest

from tartli.i18n import set_language
from tartli.record import Record, result
from tartli.share import SharedPosition, share_query
from tartli.widgets.lab import linked_lab
from tartli.widgets.table import TableController

WHOLE_HAND = Path(__file__).resolve().parent / "data" / "conformance" / "rand_0182.json"


def _engine_after(record: Record, n: int) -> dict[str, object]:
    return result(SharedPosition(record, n).state())


def _table() -> TableController:
    return TableController(seed=2024, keep_in_browser="table", offer_two_players=True)


@pytest.mark.parametrize(("move", "seat"), [(0, 0), (11, 1), (20, 0), (44, 1)])
def test_the_table_shows_the_position_after_n_moves_in_the_seat(move: int, seat: int) -> None:
    record = Record.load(WHOLE_HAND)
    table = _table()
    assert table.open_from_address(share_query(record, move=move, seat=seat) + "&lang=en")
    assert [str(m) for m in table.state.moves] == record.moves[:move]
    assert result(table.state) == _engine_after(record, move)
    assert table.human == seat and table.names[seat] == "You"
    for card in table.state.hand(seat):  # the learner's own cards are drawn, face up and pickable
        assert f'data-pick="{card.text}"' in table.board.svg
    assert table.messages[-1].startswith("The position of the link")


def test_the_computer_waits_and_redo_steps_through_the_game() -> None:
    record = Record.load(WHOLE_HAND)
    table = _table()
    table.open_from_address(share_query(record, move=11, seat=1))
    assert table.state.to_move == 0  # the computer's turn: it waits for the learner
    assert table.run_opponent() == 0 and len(table.state.moves) == 11
    assert table.play_on_button.layout.display != "none"
    assert "Play on" in table.status.value
    table.redo_button.click()  # the game's own next move
    assert [str(m) for m in table.state.moves] == record.moves[:12]
    table.play_on_button.click()  # or the computer plays on from here
    assert table.play_on_button.layout.display == "none"


def test_the_learner_plays_on_from_a_position() -> None:
    record = Record.load(WHOLE_HAND)
    table = _table()
    table.autoplay = False
    table.open_from_address(share_query(record, move=4, seat=0))
    assert table.state.to_move == 0
    move = next(m for m in table.state.legal_moves() if type(m).__name__ == "Play")
    table.act(move)
    assert len(table.state.moves) == 5
    assert table.redo_button.disabled  # a move of one's own replaces the rest of the game


def test_the_share_button_holds_the_position_and_the_rest_of_the_game() -> None:
    record = Record.load(WHOLE_HAND)
    table = _table()
    table.open_from_address(share_query(record, move=20, seat=1))
    shared = SharedPosition.from_query(table.share_button.query)
    assert shared is not None
    assert (shared.move, shared.seat, shared.record.moves) == (20, 1, record.moves)
    fresh = _table()
    again = SharedPosition.from_query(fresh.share_button.query)
    assert again is not None and again.move == 0 and result(again.state()) == result(fresh.state)


@pytest.mark.parametrize(
    "query",
    [
        "record=not-a-game",
        "record=" + "A" * 5000,
        "record=eJyrVkrLL8pVslIqSS0uUdJRSs7PS8tMBwA1xQYG",  # JSON, but no record
        "record=" + share_query(Record.load(WHOLE_HAND)).split("=", 1)[1] + "&move=99",
    ],
    ids=["garbled", "too-long", "not-a-record", "move-out-of-range"],
)
def test_a_bad_link_leaves_a_fresh_deal_and_says_why(query: str) -> None:
    table = _table()
    fresh = result(table.state)
    assert not table.open_from_address(query)
    assert result(table.state) == fresh and table.messages[-1].startswith("This link cannot be opened: ")
    assert "⚠" in table.message.value and "Traceback" not in table.message.value
    table.board.progress = '{"tartli-table": 1}'  # a game kept in the browser does not hide the message
    assert table.messages[-1].startswith("This link cannot be opened")
    table.click_card(str(next(iter(table.state.hand(0)))))  # still playable (or a rule said why)
    assert table.messages[-1] != ""


def test_an_illegal_move_in_a_link_is_refused_by_the_rule() -> None:
    import base64
    import json
    import zlib

    data = Record.load(WHOLE_HAND).to_dict()
    data["moves"][1] = data["moves"][0].replace("0:", "1:", 1)
    code = base64.urlsafe_b64encode(zlib.compress(json.dumps(data).encode())).decode().rstrip("=")
    table = _table()
    assert not table.open_from_address("record=" + code)
    assert "move 1" in table.messages[-1]


def test_the_message_is_in_the_page_language() -> None:
    set_language("hu")
    try:
        table = _table()
        table.open_from_address("record=garbled")
        assert not table.messages[-1].startswith("This link")
        lab = linked_lab("record=garbled").lab
        assert lab is not None and "This link" not in lab.message.value
    finally:
        set_language("en")


def test_the_lab_opens_a_link_with_its_table() -> None:
    record = Record.load(WHOLE_HAND)
    assert linked_lab("lang=hu").lab is None
    lab = linked_lab(share_query(record, move=30, seat=1)).lab
    assert lab is not None and lab.table is not None
    assert result(lab.table.state) == _engine_after(record, 30) and lab.table.human == 1
    assert "The position from your link" in lab.widget.children[0].value
    assert [sorted(h) for h in lab.deal().hands] == [sorted(h) for h in record.deal.hands]
    shared = SharedPosition.from_query(lab.share_button.query)
    assert shared is not None and (shared.move, shared.seat) == (30, 1)
    bad = linked_lab("record=%%%").lab
    assert bad is not None and bad.table is None and "cannot be opened" in bad.message.value
    fresh = SharedPosition.from_query(bad.share_button.query)
    assert fresh is not None and fresh.move == 0  # a fresh deal, shareable too


def test_a_page_not_given_its_address_opens_the_link_the_browser_sends(monkeypatch: pytest.MonkeyPatch) -> None:
    """The static edition's kernel has no QUERY_STRING: the Share button sends the address once shown."""
    monkeypatch.delenv("QUERY_STRING", raising=False)
    record = Record.load(WHOLE_HAND)
    table = _table()
    assert not table.open_from_address()
    assert table.share_button.listen_address and not table.share_button.address_handled
    table.share_button._on_message(table.share_button, {"event": "address", "query": share_query(record, 9)}, [])
    assert len(table.state.moves) == 9 and table.share_button.address_handled
    table.share_button.address(share_query(record, 3))  # once only
    assert len(table.state.moves) == 9
    linked = linked_lab()
    assert linked.lab is None and linked.widget.children[0].listen_address
    linked.widget.children[0].address(share_query(record, 30, seat=1) + "&lang=en")
    assert linked.lab is not None and linked.lab.table is not None and len(linked.lab.table.state.moves) == 30
    assert len(linked.widget.children) == 2


def test_a_page_given_its_address_does_not_ask_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", share_query(Record.load(WHOLE_HAND), 5) + "&lang=en")
    table = _table()
    assert table.open_from_address() and table.share_button.address_handled
    assert linked_lab().widget.children[0].address_handled
