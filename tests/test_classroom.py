"""The class store of the course's server (tartli.server.classroom, issue 37): a class without accounts.

Through the real store on a real SQLite file (a temporary folder), as the server uses it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tartli.server.classroom import (
    CODE_LENGTH,
    CODE_LETTERS,
    EXERCISES,
    MAX_CLASSES,
    NAME_LIMIT,
    BadReport,
    ClassroomError,
    ClassStore,
    Limiter,
    NotAllowed,
    checked_browser_progress,
    checked_progress,
    normal_code,
)
from tartli.share import pack
from tartli.widgets.progress_code import progress_code
from tests.conftest import Clock


def code_with(best: int, exercise: str = "lesson02.which-card-wins", steps: dict[str, list[int]] | None = None) -> str:
    """A progress code as the course map makes it: one exercise's best stars and some lessons' steps done."""
    have = {f"tartli.trainers.{exercise}": json.dumps({exercise: {"best": best, "stages": 1, "solved": 5}})}
    for lesson, done in (steps or {}).items():
        have[f"tartli.steps.{lesson}"] = str(max(done))
        have[f"tartli.steps.{lesson}.done"] = json.dumps(done)
    return progress_code(have)


@pytest.fixture
def store(tmp_path: Path) -> ClassStore:
    return ClassStore.in_folder(tmp_path / "data")


def test_a_class_has_a_short_code_without_look_alikes_and_a_long_key(store: ClassStore) -> None:
    codes = {store.create(f"class {n}").code for n in range(MAX_CLASSES - 1)}
    assert len(codes) == MAX_CLASSES - 1
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS)
    assert not set(CODE_LETTERS) & set("0O1IL2Z5S8B6G")
    made = store.create("7.b")
    assert len(made.key) >= 40 and made.name == "7.b"
    assert normal_code(" " + made.code[:3].lower() + "-" + made.code[3:] + " ") == made.code  # typed as read


def test_pupils_join_report_and_the_teacher_sees_them_also_after_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    store = ClassStore(tmp_path / "classes.sqlite3", clock=clock)
    made = store.create("7.b")
    anna = store.join(made.code, "Anna")
    bela = store.join(made.code.lower(), "  Béla   Kiss ")
    assert bela.name == "Béla Kiss" and anna.token != bela.token
    clock.now += 30
    store.report(
        anna.token, code_with(2, steps={"02_ranks_and_points": [1, 2, 3]}), page="02_ranks_and_points.ipynb", step=4
    )
    store.close()
    again = ClassStore(tmp_path / "classes.sqlite3", clock=clock)  # the server restarted
    pupils = {p.name: p for p in again.pupils(made.code, made.key)}
    assert set(pupils) == {"Anna", "Béla Kiss"}
    assert pupils["Anna"].stars == {"lesson02.which-card-wins": 2}
    assert pupils["Anna"].progress["steps"] == {"02_ranks_and_points": [3, [1, 2, 3]]}
    assert (pupils["Anna"].page, pupils["Anna"].step, pupils["Anna"].last_active) == (
        "02_ranks_and_points.ipynb",
        4,
        clock.now,
    )
    assert pupils["Béla Kiss"].stars == {} and pupils["Béla Kiss"].page is None


def test_the_time_on_a_step_runs_until_the_pupil_moves_on(store: ClassStore) -> None:
    clock = Clock()
    store.clock = clock
    made = store.create("7.b")
    anna = store.join(made.code, "Anna")
    store.report(anna.token, code_with(0), page="03_deal.ipynb", step=2)
    started = clock.now
    clock.now += 400
    store.report(anna.token, code_with(1), page="03_deal.ipynb", step=2)  # still on it, a star more
    (record,) = store.pupils(made.code, made.key)
    assert record.since == started and record.last_active == clock.now  # stuck for 400 s: the teacher sees it
    clock.now += 10
    store.report(anna.token, code_with(1), page="03_deal.ipynb", step=3)
    (record,) = store.pupils(made.code, made.key)
    assert record.since == clock.now and record.step == 3
    store.report(anna.token, code_with(1))  # progress only (a page without steps): the place stays
    assert store.pupils(made.code, made.key)[0].step == 3


def test_only_the_teacher_key_reads_the_class_and_a_wrong_one_learns_nothing(store: ClassStore) -> None:
    made = store.create("7.b")
    store.join(made.code, "Anna")
    for code, key in ((made.code, "wrong"), (made.code, ""), (made.code, None), ("AAAAAA", made.key), ("", "")):
        with pytest.raises(NotAllowed) as refused:
            store.pupils(code, key)  # type: ignore[arg-type]
        assert str(refused.value) == "not allowed"  # the same words for a wrong key and for no class
    fresh = store.new_key(made.code, made.key)
    with pytest.raises(NotAllowed):
        store.pupils(made.code, made.key)  # the old teacher link stops working
    assert [p.name for p in store.pupils(made.code, fresh)] == ["Anna"]


def test_the_keys_and_tokens_are_not_written_to_disk(tmp_path: Path) -> None:
    store = ClassStore.in_folder(tmp_path)
    made = store.create("7.b")
    anna = store.join(made.code, "Anna")
    store.close()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert made.key.encode() not in stored and anna.token.encode() not in stored
    assert b"Anna" in stored  # (what is kept is where it is looked for)


def test_a_forged_report_is_refused_and_changes_nothing(store: ClassStore) -> None:
    made = store.create("7.b")
    anna = store.join(made.code, "Anna")
    store.report(anna.token, code_with(1))
    forged = [
        "P1" + pack({"p": {"trainers.x": {"lesson02.which-card-wins": [10_000, 0, 0, 0, 0, 0]}}, "s": {}}),
        code_with(3, exercise="lesson99.made-up"),
        code_with(3, steps={"99_no_such_lesson": [1]}),
        "P1garbled",
        "",
        None,
    ]
    for code in forged:
        with pytest.raises(BadReport):
            store.report(anna.token, code)
    with pytest.raises(BadReport):
        store.report(anna.token, code_with(3), page="../etc/passwd", step=1)
    with pytest.raises(BadReport):
        store.report(anna.token, code_with(3), page="03_deal.ipynb", step=10_000)
    assert store.pupils(made.code, made.key)[0].stars == {"lesson02.which-card-wins": 1}


def test_a_pupil_writes_only_their_own_progress(store: ClassStore) -> None:
    made = store.create("7.b")
    anna, bela = store.join(made.code, "Anna"), store.join(made.code, "Béla")
    store.report(bela.token, code_with(3))
    with pytest.raises(NotAllowed):
        store.report("a token of nobody", code_with(3))
    with pytest.raises(NotAllowed):
        store.report(None, code_with(3))
    stars = {p.name: p.stars for p in store.pupils(made.code, made.key)}
    assert stars == {"Anna": {}, "Béla": {"lesson02.which-card-wins": 3}}
    assert anna.pupil != bela.pupil


def test_names_are_kept_as_text_cut_to_a_limit(store: ClassStore) -> None:
    made = store.create("  7.b\n ")
    assert made.name == "7.b"
    marked = store.join(made.code, "<img src=x onerror=alert(1)>\x00\u202e")
    assert marked.name == "<img src=x onerror=alert(1)>"  # kept as typed (the page escapes it), no control characters
    long = store.join(made.code, "Á" * 500)
    assert long.name == "Á" * NAME_LIMIT
    for empty in ("", "   ", "\x00\x01", None, 42):
        with pytest.raises(ClassroomError):
            store.join(made.code, empty)
    with pytest.raises(ClassroomError):
        store.create(" ")


def test_leaving_removing_and_closing_delete_what_is_kept(tmp_path: Path) -> None:
    store = ClassStore(tmp_path / "classes.sqlite3")
    made = store.create("7.b")
    anna, bela, cili = (store.join(made.code, n) for n in ("Anna", "Béla", "Cili"))
    store.report(anna.token, code_with(2))
    store.leave(anna.token)
    with pytest.raises(NotAllowed):
        store.report(anna.token, code_with(2))  # gone: her page cannot write again
    with pytest.raises(NotAllowed):
        store.leave(anna.token)
    assert store.remove(made.code, made.key, bela.pupil) and not store.remove(made.code, made.key, bela.pupil)
    assert [p.name for p in store.pupils(made.code, made.key)] == ["Cili"]
    other = store.create("8.a")
    assert not store.remove(other.code, other.key, cili.pupil)  # a teacher removes only their own pupils
    store.close_class(made.code, made.key)
    assert not store.exists(made.code) and store.exists(other.code)
    with pytest.raises(NotAllowed):
        store.report(cili.token, code_with(1))
    store.close()
    with ClassStore(tmp_path / "classes.sqlite3")._db as db:  # nothing of the closed class is left
        assert db.execute("SELECT COUNT(*) FROM pupils").fetchone() == (0,)
        assert db.execute("SELECT name FROM classes").fetchall() == [("8.a",)]


def test_joining_a_class_that_does_not_exist_is_not_allowed(store: ClassStore) -> None:
    with pytest.raises(NotAllowed):
        store.join("ZZZZZZ", "Anna")


def test_guessing_class_codes_is_slowed_per_client_and_in_all() -> None:
    clock = Clock()
    limiter = Limiter(per_client=10, in_all=120, per=60.0, clock=clock)
    assert sum(limiter.allow("one browser") for _ in range(1_000)) == 10  # 1,000 guesses in a moment: 10 tried
    assert limiter.allow("another browser")  # the first one's loop does not lock the others out
    clock.now += 6  # a tenth of a minute: one more try
    assert limiter.allow("one browser") and not limiter.allow("one browser")
    many = sum(limiter.allow(f"browser {n}") for n in range(1_000) for _ in range(2))  # a thousand cookies
    assert many <= 120
    clock.now += 60
    assert limiter.allow("a pupil typing the code")


def test_the_store_folder_is_the_owners(tmp_path: Path) -> None:
    ClassStore.in_folder(tmp_path / "new" / "data").close()
    mode = (tmp_path / "new" / "data").stat().st_mode & 0o777
    assert mode == 0o700, oct(mode)
    assert re.fullmatch(
        r"classes\.sqlite3(-wal|-shm)?", sorted(p.name for p in (tmp_path / "new" / "data").iterdir())[0]
    )


def test_a_browsers_report_is_checked_strictly_not_cut_to_size() -> None:
    """The course's records hold at most 3 stars; the progress code's reader would cut a forged
    10,000 to 3 (as it does for a code a learner loads): a report is refused instead."""
    from tartli.server.classroom import checked_browser_progress

    good = {
        "tartli.trainers.lesson02.which-card-wins": json.dumps({"lesson02.which-card-wins": {"best": 2, "stages": 1}}),
        "tartli.steps.03_deal": "2",
        "tartli.table.game": "{not progress}",
    }
    assert checked_browser_progress(good).startswith("P1")
    for forged in (
        {"tartli.trainers.x": json.dumps({"lesson02.which-card-wins": {"best": 10_000}})},
        {"tartli.trainers.x": json.dumps({"lesson02.which-card-wins": {"best": -1}})},
        {"tartli.trainers.x": json.dumps({"lesson02.which-card-wins": {"tries": 1.5}})},
        {"tartli.trainers.x": json.dumps({"lesson99.made-up": {"best": 1}})},
        {"tartli.trainers.x": "[1, 2]"},
        {"tartli.trainers.x": "{"},
        {f"tartli.steps.{n}": "1" for n in range(500)},
        ["not", "a", "map"],
    ):
        with pytest.raises(BadReport):
            checked_browser_progress(forged)


def test_every_exercise_a_page_keeps_stars_for_may_be_reported() -> None:
    """Lesson 13's challenges kept their stars under ids no page listed: every report of a pupil who had done
    one was refused (400) and their progress never reached the teacher."""
    used = set()
    for notebook in sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb")):
        used |= set(re.findall(r'progress_id=\\?"([a-z0-9.\-]+)\\?"', notebook.read_text(encoding="utf-8")))
    assert len(used) >= 19 and used <= EXERCISES, sorted(used - EXERCISES)
    have = {f"tartli.trainers.{ex}": json.dumps({ex: {"best": 1, "solved": 1}}) for ex in sorted(used)}
    checked_progress(checked_browser_progress(have))  # (no BadReport)
