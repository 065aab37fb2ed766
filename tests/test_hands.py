"""The hands a learner plays at a table, kept in the browser and reported to a class's teacher (issue 37)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tartli.bots.review import HandSummary
from tartli.classview import Pupil, class_csv, class_view, hands_of, pupil_from_code, pupils_from_csv
from tartli.moves import Play
from tartli.server.classroom import HAND_TABLES, BadReport, checked_browser_progress, checked_progress
from tartli.share import pack
from tartli.widgets import TableController
from tartli.widgets.hands import HandsKept
from tartli.widgets.progress_code import ProgressCodeError, merge_code, progress_code, read_code, read_progress

ROOT = Path(__file__).resolve().parent.parent


def play_to_the_end(table: TableController, seed: int = 4) -> None:
    rng = random.Random(seed)
    while not table.state.is_over:
        if table.pass_button.layout.display != "none":
            table.pass_button.click()
            continue
        plays = [m for m in table.state.legal_moves() if isinstance(m, Play)]
        table.board.pick(rng.choice(plays).card.text)


def test_the_browser_keeps_what_it_held_and_what_the_page_added() -> None:
    kept = HandsKept(key="tartli.hands.table")
    kept.hand_played()
    kept.kept = {"played": 6, "reviewed": 2, "accuracy": 150}  # (the page's answer may come after a hand)
    kept.hand_reviewed(80.6)
    kept.hand_reviewed(None)  # (a hand without a decision has no accuracy)
    assert kept.record == {"played": 7, "reviewed": 3, "accuracy": 231}


def test_a_table_counts_a_hand_played_to_its_end_once_and_its_review_once() -> None:
    table = TableController(seed=21, keep_in_browser="table")
    assert table.hands in table.widget.children and table.hands.key == "tartli.hands.table"
    play_to_the_end(table)
    assert table.hands.record["played"] == 1
    table.refresh()  # drawn again: not a second hand
    assert table.hands.record["played"] == 1
    summary = HandSummary(table.human, (0, 0), (80, 81), "finished", (5, 2, 1, 0, 0), 91.4, 12.0)
    table.note_summary(table.state, summary)
    table.note_summary(table.state, summary)
    assert table.hands.record == {"played": 1, "reviewed": 1, "accuracy": 91}
    table.next_button.click()
    play_to_the_end(table, seed=5)
    assert table.hands.record["played"] == 2


def test_a_table_for_two_or_one_that_keeps_nothing_counts_no_hand() -> None:
    alone = TableController(seed=21)
    assert alone.hands not in alone.widget.children
    two = TableController(seed=21, keep_in_browser="table", two_players=True)
    play_to_the_end(two, seed=2)
    assert two.hands.record.get("played", 0) == 0


def test_a_progress_code_carries_the_hands_and_a_merge_keeps_the_most() -> None:
    have = {"tartli.hands.table": json.dumps({"played": 7, "reviewed": 3, "accuracy": 231})}
    code = progress_code(have)
    assert read_progress(code)[2] == {"table": [7, 3, 231]}
    assert read_code(code) == ({}, {})
    assert progress_code({}) == progress_code({"tartli.hands.table": "{}"}), "no hand: the code is as before"
    mine = {"tartli.hands.table": json.dumps({"played": 9, "reviewed": 1, "accuracy": 60})}
    assert json.loads(merge_code(code, mine)["tartli.hands.table"]) == {"played": 9, "reviewed": 3, "accuracy": 231}
    for bad in ({"table": [1, 1, 101]}, {"table": [1, 2]}, {"table": [-1, 0, 0]}, ["table"]):
        with pytest.raises(ProgressCodeError):
            read_progress("P1" + pack({"p": {}, "s": {}, "h": bad}))


def test_a_report_holds_only_the_courses_tables_and_the_teacher_sees_the_hands() -> None:
    used = set()
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        used |= set(re.findall(r'keep_in_browser=\\"([a-z0-9]+)\\"', notebook.read_text(encoding="utf-8")))
    assert used == HAND_TABLES
    have = {"tartli.hands.lesson10": json.dumps({"played": 2, "reviewed": 2, "accuracy": 170})}
    assert checked_progress(checked_browser_progress(have))["hands"] == {"lesson10": [2, 2, 170]}
    with pytest.raises(BadReport, match="no table"):
        checked_progress(progress_code({"tartli.hands.elsewhere": json.dumps({"played": 1})}))
    pupil = pupil_from_code("Anna", progress_code({**have, "tartli.hands.table": json.dumps({"played": 3})}))
    assert hands_of(pupil) == (5, 2, 85)
    view = class_view([pupil, Pupil("Béla", {}, {})], "en")
    assert "<td data-value='5'>5<br><small title='mean accuracy 85% over 2 reviewed hands'>85%</small></td>" in view
    assert "no hand played" in view
    rows = dict(pupils_from_csv(class_csv([pupil, Pupil("Béla", {}, {})])))
    assert rows["Anna"][-3:] == [5, 2, 85] and rows["Béla"][-3:] == [0, 0, -1]
