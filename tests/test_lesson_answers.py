"""Every answer a lesson accepts follows from what its step shows (issue 26).

A score question draws its numbers with a :class:`~tartli.widgets.steps.ScoreSheet` made from the state
it asks about; here every lesson is walked, in English and Hungarian, and each question with a sheet
is checked: every number the answer is made of is drawn, and the accepted answer is what the drawn
numbers give (their sum; after a stichmatsch without the card points; a claim's verdict by S4).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_steps import LESSONS, run_lesson_in

from tartli import i18n
from tartli.course import Page
from tartli.widgets.steps import Lesson, Question, ScoreSheet


def shown(widget: Any) -> str:
    """Every text a widget tree shows (HTML values and button labels)."""
    out = []
    value = getattr(widget, "value", None)
    if isinstance(value, str):
        out.append(value)
    out += [shown(child) for child in getattr(widget, "children", ())]
    return " ".join(out)


def step_html(lesson: Lesson, number: int) -> str:
    step = lesson.steps[number - 1]
    parts = [p if isinstance(p, str) else shown(p) for p in step.parts]
    if step.task is not None:
        parts.append(shown(step.task.widget))
    return " ".join(parts)


def numbers(html_text: str) -> list[int]:
    return [int(n) for n in re.findall(r"(?<![\w#-])\d+(?![\w-])", re.sub(r"<[^>]+>", " ", html_text))]


@pytest.fixture(scope="module", params=[(p, lang) for p in LESSONS for lang in ("en", "hu")], ids=str)
def walked(request: pytest.FixtureRequest) -> tuple[Page, str, Lesson]:
    page, lang = request.param
    return page, lang, run_lesson_in(page, lang)


def test_every_score_question_accepts_what_its_drawn_numbers_give(walked: tuple[Page, str, Lesson]) -> None:
    page, lang, lesson = walked
    before = i18n.language()
    i18n.set_language(lang)
    try:
        for number, step in enumerate(lesson.steps, 1):
            task = step.task
            if not isinstance(task, Question) or task.sheet is None:
                continue
            sheet: ScoreSheet = task.sheet
            where = f"{page.file} step {number} ({lang})"
            drawn = numbers(step_html(lesson, number))
            for row in sheet.rows:
                for _label, value in row:
                    assert value in drawn, (where, value, drawn)
            kind, player = sheet.asks
            if kind == "claim":
                right, buli = sheet.claim(player)
                assert right == (sheet.total(player) >= 501)
                words = {
                    (False, 1): i18n._("No: a wrong claim"),
                    (True, 1): i18n._("Yes: 1 buli"),
                    (True, 2): i18n._("Yes: 2 buli (maccs)"),
                }
                assert task.answer_text == words[right, buli], where
                assert sheet.total(0) in drawn and sheet.total(1) in drawn, where
            else:
                assert task.answer_text == str(sheet.value()), where
    finally:
        i18n.set_language(before)


SCORE_QUESTIONS = {
    "08_phase_two.ipynb": (8,),
    "09_scoring.ipynb": (1, 2, 6, 7),
}
"""The steps that ask about a score and draw its numbers: each must draw them with a sheet."""


@pytest.mark.parametrize("file", sorted(SCORE_QUESTIONS))
def test_the_score_questions_draw_their_numbers_from_the_state_they_ask_about(file: str) -> None:
    page = next(p for p in LESSONS if p.file == file)
    lesson = run_lesson_in(page, "en")
    for number in SCORE_QUESTIONS[file]:
        task = lesson.steps[number - 1].task
        assert isinstance(task, Question) and getattr(task, "sheet", None) is not None, (file, number)


@pytest.mark.rule("S2", "M4")
@pytest.mark.parametrize(("file", "number"), [("08_phase_two.ipynb", 8), ("09_scoring.ipynb", 2)])
def test_the_stichmatsch_question_shows_the_meld_of_trick_8_it_counts(file: str, number: int) -> None:
    """The computer declared a terc in trick 8: the answer counts it, so the page shows it."""
    lesson = run_lesson_in(next(p for p in LESSONS if p.file == file), "en")
    task = lesson.steps[number - 1].task
    assert isinstance(task, Question)
    drawn = numbers(step_html(lesson, number))
    answer = int(task.answer_text)
    computer_melds = 20  # the Bell-Nine terc of trick 8
    assert computer_melds in drawn
    assert "after trick 7" not in step_html(lesson, number).lower()
    assert answer in (computer_melds, 300 + computer_melds)


@pytest.mark.rule("S3")
def test_the_silent_answer_step_shows_the_count_the_answer_uses() -> None:
    lesson = run_lesson_in(next(p for p in LESSONS if p.file == "09_scoring.ipynb"), "en")
    html_text = step_html(lesson, 7)
    task = lesson.steps[6].task
    assert isinstance(task, Question) and task.answer_text == "Yes: 2 buli (maccs)"
    assert "251" not in numbers(html_text) and 240 in numbers(html_text) and 505 in numbers(html_text)
