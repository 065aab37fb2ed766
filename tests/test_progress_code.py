"""Progress that moves (tartli.widgets.progress_code and the course map's buttons): a code made from
one browser's progress, loaded in another, merges the best of each and never loses a star; a garbled
code is refused with a message and nothing is written."""

from __future__ import annotations

import json

import pytest

from tartli.share import pack
from tartli.widgets.course_map import CourseMap
from tartli.widgets.progress_code import ProgressCodeError, merge_code, progress_code, read_code, stars

SCHOOL = {
    "tartli.trainers.lesson02.which-card-wins": json.dumps(
        {"lesson02.which-card-wins": {"best": 3, "stages": 2, "solved": 11, "tries": 12, "clean": 1, "slips": 0}}
    ),
    "tartli.trainers.lesson05.find-melds": json.dumps({"lesson05.find-melds": {"best": 1, "stages": 1, "solved": 5}}),
    "tartli.steps.04_phase_one.ipynb": "6",
    "tartli.steps.04_phase_one.ipynb.done": "[1, 2, 3, 4, 5]",
    "tartli.table.table": '{"tartli-table": 1}',  # the kept game: not progress
}
PHONE = {
    "tartli.trainers.lesson05.find-melds": json.dumps({"lesson05.find-melds": {"best": 2, "stages": 1, "solved": 6}}),
    "tartli.trainers.lesson02.which-card-wins": json.dumps({"lesson02.which-card-wins": {"best": 1, "stages": 1}}),
    "tartli.steps.04_phase_one.ipynb": "8",
    "tartli.steps.04_phase_one.ipynb.done": "[7]",
}


def _after(have: dict[str, str], writes: dict[str, str]) -> dict[str, str]:
    return {**have, **writes}


def test_a_code_is_short_and_leaves_the_kept_game_out() -> None:
    code = progress_code(SCHOOL)
    assert code.startswith("P1") and len(code) < 200
    records, steps = read_code(code)
    assert set(records) == {"trainers.lesson02.which-card-wins", "trainers.lesson05.find-melds"}
    assert steps == {"04_phase_one.ipynb": [6, [1, 2, 3, 4, 5]]}


def test_loading_in_an_empty_browser_gives_the_same_stars() -> None:
    writes = merge_code(progress_code(SCHOOL), {})
    assert stars(writes) == stars(SCHOOL) == 4
    assert "tartli.table.table" not in writes
    assert json.loads(writes["tartli.steps.04_phase_one.ipynb.done"]) == [1, 2, 3, 4, 5]


def test_loading_merges_the_best_of_each_and_never_loses_a_star() -> None:
    phone = _after(PHONE, merge_code(progress_code(SCHOOL), PHONE))
    melds = json.loads(phone["tartli.trainers.lesson05.find-melds"])["lesson05.find-melds"]
    cards = json.loads(phone["tartli.trainers.lesson02.which-card-wins"])["lesson02.which-card-wins"]
    assert (melds["best"], melds["solved"], cards["best"], cards["stages"]) == (2, 6, 3, 2)
    assert phone["tartli.steps.04_phase_one.ipynb"] == "8"  # the further step stays
    assert json.loads(phone["tartli.steps.04_phase_one.ipynb.done"]) == [1, 2, 3, 4, 5, 7]
    assert stars(phone) == 5
    again = merge_code(progress_code(SCHOOL), phone)  # the same code twice, or an old one: nothing lowered
    assert again == {}
    school = _after(SCHOOL, merge_code(progress_code(phone), SCHOOL))  # and back: both browsers agree
    assert stars(school) == stars(phone) == 5


@pytest.mark.parametrize(
    "code",
    [
        "hello",
        "P1",
        "P1!!!!",
        progress_code(SCHOOL)[:-6],  # cut short
        "P1" + pack({"p": {"trainers.x": {"x": [9, 0, 0, 0, 0, 0]}}, "s": {}}),  # 9 stars: not a code we made
        "P1" + pack({"p": {"table.table": {}}, "s": {}}),
        "P1" + pack([1, 2]),
        "P1" + "A" * 30_000,
    ],
    ids=["words", "prefix-only", "not-base64url", "cut-short", "nine-stars", "table-key", "a-list", "too-long"],
)
def test_a_garbled_code_is_refused_and_nothing_is_written(code: str) -> None:
    with pytest.raises(ProgressCodeError):
        merge_code(code, PHONE)
    widget = CourseMap.of()
    sent = widget.load_progress(code, PHONE)
    assert sent["event"] == "said" and sent["error"] is True and "writes" not in sent


def test_the_course_map_copies_and_loads_through_its_messages() -> None:
    school, phone = CourseMap.of(), CourseMap.of()
    school._on_message(school, {"event": "copy", "have": SCHOOL}, [])
    code = school.sent[-1]["code"]
    assert "4 stars" in school.sent[-1]["said"]
    phone._on_message(phone, {"event": "load", "code": " " + code + "\n", "have": PHONE}, [])
    reply = phone.sent[-1]
    assert reply["event"] == "apply" and "5 stars" in reply["said"]
    assert stars(_after(PHONE, reply["writes"])) == 5
    phone._on_message(phone, {"event": "load", "code": "", "have": PHONE}, [])
    assert phone.sent[-1]["error"] is True
    phone._on_message(phone, {"event": "load", "code": 7, "have": "nonsense"}, [])  # a crafted message
    assert phone.sent[-1]["error"] is True
    assert {"copy", "load", "field"} <= set(phone.words)


def test_a_code_carries_the_wrong_answers_to_each_question_and_merging_keeps_the_most() -> None:
    """Issue 37: the teacher sees slips per question; a code made before them (no third part) still reads."""
    have = {
        "tartli.steps.01_pack": "3",
        "tartli.steps.01_pack.done": "[1, 2]",
        "tartli.steps.01_pack.slips": '{"2": 2, "x": 5, "3": 0}',
    }
    code = progress_code(have)
    assert read_code(code)[1] == {"01_pack": [3, [1, 2], {"2": 2}]}
    mine = {"tartli.steps.01_pack.slips": '{"2": 1, "4": 1}'}
    assert merge_code(code, mine)["tartli.steps.01_pack.slips"] == '{"2":2,"4":1}'
    old = progress_code({"tartli.steps.01_pack": "3"})
    assert read_code(old)[1] == {"01_pack": [3, []]}


def test_exercises_the_course_does_not_have_are_ignored() -> None:
    """A code claiming 1,000 made-up exercises (3 stars each) brings no star and writes nothing for
    them; the course's own exercise in the same code is taken in (ignored, not refused: a code of an
    older course keeps the rest of its progress)."""
    made_up = {f"trainers.fake{n}": {f"fake{n}": [3, 3, 9, 9, 9, 0]} for n in range(999)}
    real = {"trainers.lesson01.name-the-card": {"lesson01.name-the-card": [2, 1, 5, 6, 0, 0]}}
    code = "P1" + pack({"p": {**made_up, **real}, "s": {}})
    assert len(read_code(code)[0]) == 1000  # read as they are (a class's report refuses such a code)
    writes = merge_code(code, {})
    assert list(writes) == ["tartli.trainers.lesson01.name-the-card"]
    assert stars(writes) == 2
    # A browser that holds made-up records (written by hand) is not counted for them either.
    assert stars({**writes, "tartli.trainers.fake": json.dumps({"fake": {"best": 3}})}) == 2
