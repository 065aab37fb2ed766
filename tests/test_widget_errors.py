"""Widget callbacks never let an error through to the page: a rule message is said as it is, anything
else becomes a short sentence and a log line (which a course server's kernel writes to its file)."""

from __future__ import annotations

import json
import logging

import pytest

from tartli import TartliError
from tartli.widgets import SvgBoard, trainer
from tartli.widgets.trainers import FRIENDLY_ERROR, Progress


def test_a_failing_pick_handler_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    board = SvgBoard()

    def handler(pick: str) -> None:  # like lesson 05's own board handler: Card.parse of what came
        raise TartliError(f"C1: {pick!r} is not a card")

    board.on_pick(handler)
    with caplog.at_level(logging.ERROR, logger="tartli"):
        board._on_message(board, {"event": "pick", "pick": "ZZ" * 1000}, [])  # a crafted message
    assert "a pick handler failed" in caplog.text
    board._on_message(board, {"event": "pick", "pick": None}, [])  # ignored quietly
    board._on_message(board, ["not", "a", "dict"], [])


def test_a_trainer_says_a_rule_message_as_it_is() -> None:
    ex = trainer("which-card-wins", seed=1)
    ex.board.pick("ZZ")  # not a card: the parser's rule message, not "something went wrong"
    assert ">C1<" in ex.feedback.value and FRIENDLY_ERROR not in ex.feedback.value


def test_deeply_nested_or_huge_saved_progress_is_ignored() -> None:
    deep = "[" * 5000 + "]" * 5000
    assert Progress.from_json(deep).to_dict() == {}
    board = SvgBoard()
    board.progress = deep
    assert board.load_progress() == {}
    board.progress = json.dumps({"x": {"best": 3}}) + " " * 200_000
    assert board.load_progress() == {}
