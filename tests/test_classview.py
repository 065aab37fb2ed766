"""The teacher's view of a class (tartli.classview) and the class pages' words (issue 37)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tartli.classview import (
    ACTIVE_WITHIN,
    COLUMNS,
    STUCK_AFTER,
    Pupil,
    class_csv,
    class_view,
    most_missed,
    needing_help,
    pupil_from_code,
    pupils_from_csv,
)
from tartli.lesson_questions import QUESTIONS_FILE, build, questions
from tartli.server.class_pages import PUPIL_WORDS, TEACHER_WORDS, pupil_script, teacher_page
from tartli.server.classes import _view_pupil
from tartli.server.classroom import ClassStore
from tartli.widgets.class_codes import ClassCodes, read_lines
from tartli.widgets.progress_code import progress_code

NOW = 1_800_000_000.0
HAVE = {
    "tartli.trainers.lesson02.which-card-wins": json.dumps({"lesson02.which-card-wins": {"best": 2, "stages": 1}}),
    "tartli.steps.02_ranks_and_points": "4",
    "tartli.steps.02_ranks_and_points.done": "[1, 2, 3]",
}


def on_step(name: str, minutes: float, *, done: bool = False, away: float = 0) -> Pupil:
    return Pupil(
        name,
        {},
        {"03_deal": [4, [1, 2, 3, 4] if done else [1, 2, 3]]},
        number=1,
        last_active=NOW - away,
        page="03_deal.ipynb",
        step=4,
        since=NOW - minutes * 60,
    )


def test_a_pupil_on_one_step_for_over_five_minutes_needs_help_only_while_working_and_not_done() -> None:
    assert STUCK_AFTER == 300
    stuck = on_step("Anna", 6)
    helps = needing_help(
        [stuck, on_step("Béla", 4), on_step("Cili", 9, done=True), on_step("Dóra", 30, away=ACTIVE_WITHIN + 1)], NOW
    )
    assert [(h.pupil.name, h.step, h.minutes) for h in helps] == [("Anna", 4, 6)]
    view = class_view([stuck], "en", now=NOW)
    assert "<b>Anna</b>: lesson 3 (The deal and the table), step 4, for 6 minutes" in view
    assert needing_help([stuck]) == [], "without the server's clock (progress codes) nobody is stuck by time"


def slipping(name: str, slips: dict[str, int], done: list[int]) -> Pupil:
    return Pupil(name, {}, {"01_pack": [2, done, slips]})


def test_three_wrong_answers_to_a_question_not_yet_answered_is_a_call_for_help_and_the_misses_are_ranked() -> None:
    anna, bela, cili = (
        slipping("Anna", {"2": 3}, [1]),
        slipping("Béla", {"2": 4}, [1, 2]),
        slipping("Cili", {"3": 1}, []),
    )
    assert [(h.pupil.name, h.step, h.slips) for h in needing_help([anna, bela, cili])] == [("Anna", 2, 3)]
    assert [(m.page.file, m.step, m.pupils, m.slips) for m in most_missed([anna, bela, cili])] == [
        ("01_pack.ipynb", 2, 2, 7),
        ("01_pack.ipynb", 3, 1, 1),
    ]
    view = class_view(
        [anna, bela, cili], "en", link=lambda page, step: f"/voila/render/{page.file}?lang=en#step-{step}"
    )
    assert "<b>Anna</b>: lesson 1 (The pack), step 2, 3 wrong answers" in view
    question, answer = questions("en")["01_pack"]["2"]
    assert "Hungarian players call" in question and answer == "Leaves"  # the lesson's own question, as built
    assert (
        "<a href='/voila/render/01_pack.ipynb?lang=en#step-2'>Lesson 1, step 2</a>: "
        f"{question} <i>right answer: {answer}</i> <small>(2 pupils, 7 wrong answers)</small>"
    ) in view


def test_the_shipped_questions_are_the_lessons_own() -> None:
    """``python -m tartli.lesson_questions`` made the file from the lessons as they are now."""
    assert json.loads(QUESTIONS_FILE.read_text(encoding="utf-8")) == build()


def test_the_view_is_the_same_from_a_progress_code_and_counts_steps_and_stars() -> None:
    code = progress_code(HAVE)
    pupil = pupil_from_code("Anna", code)
    view = class_view([pupil], "en", now=NOW)
    assert view == class_view([Pupil("Anna", pupil.records, pupil.steps)], "en", now=NOW)
    assert "3/10 <small>on 4</small>" in view and "★ 2/6" in view  # lesson 02: 3 of 10 steps, 2 of 6 stars
    assert len(COLUMNS) == 14  # lessons 01-13 and the practice page
    csv_rows = pupils_from_csv(class_csv([pupil]))
    assert csv_rows[0][0] == "Anna" and csv_rows[0][1][:4] == [0, 0, 3, 2]  # 01 steps, 01 stars, 02 steps, 02 stars


def test_names_are_text_everywhere_and_a_spreadsheet_reads_no_formula() -> None:
    evil = Pupil("<img src=x onerror=alert(1)>", {}, {}, number=3)
    view = class_view([evil], "en", now=NOW, remove=True)
    assert "<img" not in view and "&lt;img src=x onerror=alert(1)&gt;" in view
    sheet = class_csv([Pupil('=HYPERLINK("http://x")', {}, {})])
    assert "\r\n\"'=HYPERLINK" in sheet
    assert pupils_from_csv(sheet)[0][0] == '=HYPERLINK("http://x")'


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_class_pages_speak_the_pages_language(lang: str) -> None:
    script, page = pupil_script(lang, "/", True), teacher_page(lang, "/")
    for words in PUPIL_WORDS.values():
        assert json.dumps(words)[1:-1] not in script, f"not translated: {words}"
    for words in TEACHER_WORDS.values():
        assert json.dumps(words)[1:-1] not in page, f"not translated: {words}"
    assert f'<html lang="{lang}">' in page and "__" not in page.replace("__proto__", "")
    pupils = [on_step("Anna", 6), slipping("Béla", {"2": 3}, [1])]
    english, view = class_view(pupils, "en", now=NOW), class_view(pupils, lang, now=NOW)
    said = {t.strip() for t in re.findall(r">([^<>]+)<", english)} - {
        "Anna",
        "Béla",
        "",
        "zöld",
    }  # (lesson 01 asks about the word zöld)
    assert [t for t in said if not re.fullmatch(r"[0-9/★ ✓–·,:.]+", t) and f">{t}<" in view] == []
    assert "No pupil has joined yet." not in class_view([], lang, now=NOW)


def test_script_words_cannot_end_their_script() -> None:
    assert (
        "</script"
        not in teacher_page("en", "/</script><script>alert(1)//").split("<script>", 1)[1].rsplit("</script>", 1)[0]
    )


def test_pasted_progress_codes_give_the_same_table_as_the_servers(tmp_path: Any) -> None:
    """Without a server the teacher pastes ``name: code`` lines (tartli.widgets.class_codes); the table is the
    one the server makes of the same pupils' reports."""
    store = ClassStore(tmp_path / "classes.sqlite3")
    made = store.create("7.b")
    codes = {
        "Anna": progress_code(HAVE),
        "Béla": progress_code({**HAVE, "tartli.steps.01_pack.slips": '{"2": 3}', "tartli.steps.01_pack": "2"}),
        "Cili": progress_code({}),
    }
    for name, code in codes.items():
        store.report(store.join(made.code, name).token, code, page="01_pack.ipynb", step=2)
    served = [_view_pupil(p) for p in store.pupils(made.code, made.key)]
    pasted, problems = read_lines("\n".join(f"{name}: {code}" for name, code in codes.items()) + "\nDóra P1garbled")
    assert problems == ["Line 4: That is not a progress code, or not all of it: copy the whole code again."]
    assert class_view(pasted, "en") == class_view(served, "en")
    assert "Who needs help" in class_view(pasted, "en") and "<b>Béla</b>: lesson 1 (The pack), step 2" in class_view(
        pasted, "en"
    )

    codes_widget = ClassCodes()
    codes_widget.text.value = "\n".join(f"{name}\t{code}" for name, code in codes.items())
    codes_widget.draw()
    assert class_view(served, "en", link=lambda page, step: f"{page.file}#step-{step}") in codes_widget.view.value


def test_the_class_table_has_one_look_on_the_teacher_page_and_in_paste_mode() -> None:
    """The table's CSS is one copy (classview.TABLE_CSS): the teacher page and the course map's paste mode
    both carry it, and neither page file writes table rules of its own."""
    from tartli.classview import TABLE_CSS
    from tartli.server.class_pages import PAGES_DIR, teacher_page
    from tartli.widgets import class_codes

    assert TABLE_CSS in teacher_page("en", "/") and TABLE_CSS in class_codes._VIEW_CSS
    assert "border-collapse" not in (PAGES_DIR / "teacher.html").read_text(encoding="utf-8")
    assert 'id="view" class="tartli-class-view"' in teacher_page("hu", "/")
    assert class_codes._VIEW_CSS.count("border-collapse") == 1
