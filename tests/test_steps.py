"""The course as short steps: the step runner, and every lesson 01-13 run as its steps.

Each lesson notebook is executed here outside a kernel (its widgets work without a browser),
and the :class:`~tartli.widgets.steps.Lesson` it builds is checked: one idea a step (no step's
text over 120 words), a task in at least every other step, every step reachable by its address,
goals first and a recap last, and every rule ID in its text a rule of RULES.md (linked to the
rule book). The browser tests check the address and the kept step in a real page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tartli import lesson_questions
from tartli.course import PAGES, Page
from tartli.errors import TartliError
from tartli.rulebook import rule_ids
from tartli.widgets.steps import MAX_STEP_WORDS, Lesson, Question, later, markdown_html, words
from tartli.widgets.trainers import WhichCardWins
from tests.helpers import in_language

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = [p for p in PAGES if re.match(r"\d\d_", p.file) and not p.file.startswith("00_")]
ID = re.compile(r"\b([CDTMKBSV]\d{1,2})\b")


def run_lesson(page: Page) -> Lesson:
    """Execute the notebook's code cells (in its folder, as Voilà does) and return its Lesson."""
    nb = json.loads((NOTEBOOKS / page.file).read_text("utf-8"))
    assert not [c for c in nb["cells"] if c["cell_type"] == "markdown"], "the text lives in the steps"
    lesson: Lesson = lesson_questions.run_lesson(page.file)  # (its one Lesson, or a ValueError)
    return lesson


@pytest.fixture(scope="module", params=LESSONS, ids=lambda p: p.file)
def lesson(request: pytest.FixtureRequest) -> Lesson:
    return run_lesson(request.param)


# ---------------------------------------------------------------- every lesson
def test_every_step_holds_one_idea_in_at_most_120_words(lesson: Lesson) -> None:
    assert 4 <= len(lesson.steps) <= 16
    for number, step in enumerate(lesson.steps, 1):
        assert step.words <= MAX_STEP_WORDS, f"{lesson.file} step {number} ({step.title}): {step.words} words"
        assert step.title and step.text


def test_at_least_one_task_in_every_two_steps(lesson: Lesson) -> None:
    for number, (one, two) in enumerate(zip(lesson.steps, lesson.steps[1:], strict=False), 1):
        assert one.task is not None or two.task is not None, f"{lesson.file}: steps {number}-{number + 1} have no task"


def test_goals_first_and_the_recap_last_with_the_link_on(lesson: Lesson) -> None:
    assert lesson.goals
    lesson.go(0)
    assert "In this lesson you will" in lesson.header.value
    lesson.go(1)
    assert "In this lesson you will" not in lesson.header.value  # the goals stand above the first step only
    last = lesson.steps[-1]
    assert last.recap and not any(s.recap for s in lesson.steps[:-1])
    assert 'class="tartli-next"' in str(last.parts) or lesson.file.startswith("13_"), "the recap links on"


def test_every_step_is_reachable_by_its_address(lesson: Lesson) -> None:
    for number in range(1, len(lesson.steps) + 1):
        lesson.address.wanted = number  # what the page sends for #step-N
        assert lesson.current == number - 1
        assert lesson.address.step == number  # and the page's address follows
        assert f"Step {number} of {len(lesson.steps)}" in lesson.where.value
    lesson.address.wanted = len(lesson.steps) + 5  # an address past the end changes nothing
    assert lesson.current == len(lesson.steps) - 1


def test_every_rule_id_in_the_text_is_a_rule_and_links_to_the_rule_book(lesson: Lesson) -> None:
    known = set(rule_ids())
    for step in lesson.steps:
        for found in ID.findall(step.text):
            assert found in known, f"{lesson.file} ({step.title}): {found} is not a rule of RULES.md"
            assert f'href="rules.ipynb#rule-{found}"' in markdown_html(step.text)


def test_no_engine_names_or_player_numbers_in_the_text(lesson: Lesson) -> None:
    engine = re.compile(r"find_melds|legal_moves|same_suit_reason|total\(|Player [01]|four_nines|bela_at|\w+_\w+\(")
    for step in lesson.steps:
        assert not engine.search(step.title + " " + step.text), (lesson.file, step.title)


# ---------------------------------------------------------------- the runner
def small_lesson() -> tuple[Lesson, Question]:
    lesson = Lesson("06_meld_contest.ipynb", goals=["one goal"])
    lesson.step("Reading", "A **trick** is two cards (T1).")
    question = Question("Which?", ["a", "b"], "b", "because (T1).")
    lesson.step("A task", "Answer it.", task=question)
    lesson.recap(["one thing"])
    return lesson, question


def test_continue_waits_for_the_task_and_back_goes_back() -> None:
    lesson, question = small_lesson()
    assert lesson.current == 0 and not lesson.next_button.disabled and lesson.back_button.disabled
    lesson.next_button.click()
    assert lesson.current == 1 and lesson.next_button.disabled  # the task first
    assert not question.choose("a") and lesson.next_button.disabled
    assert "Not quite" in question.feedback.value
    assert question.choose("b") and not lesson.next_button.disabled
    assert 'href="rules.ipynb#rule-T1"' in question.feedback.value
    lesson.next_button.click()
    assert lesson.current == 2 and lesson.next_button.disabled  # the recap is the last step
    lesson.back_button.click()
    assert lesson.current == 1


def test_the_dots_say_where_you_are_and_jump() -> None:
    lesson, question = small_lesson()
    marks = [b.description for b in lesson.dots.children]
    assert marks == ["●", "○", "○"]
    question.choose("b")
    lesson.dots.children[2].click()
    assert lesson.current == 2 and [b.description for b in lesson.dots.children] == ["○", "✓", "●"]


def test_a_trainer_as_a_task_lets_the_learner_on_once_a_position_is_solved() -> None:
    lesson = Lesson("02_ranks_and_points.ipynb", goals=["g"])
    trainer = WhichCardWins(seed=3)
    lesson.step("Which card wins", "Click the winner.", task=trainer)
    lesson.recap(["r"])
    assert lesson.next_button.disabled
    trainer.answer(trainer.winning_card)
    assert not lesson.next_button.disabled


def test_an_address_that_arrives_before_its_step_is_kept_until_the_step_exists() -> None:
    lesson = Lesson("06_meld_contest.ipynb")
    lesson.address.wanted = 2  # the page asked for #step-2 while the notebook was still running
    lesson.step("One", "one")
    assert lesson.current == 0
    lesson.step("Two", "two")
    assert lesson.current == 1


def test_the_small_markdown() -> None:
    assert markdown_html("1. one\n2. two (K7)") == (
        '<ol><li>one</li><li>two (<a href="rules.ipynb#rule-K7" class="tartli-rule">K7</a>)</li></ol>'
    )
    assert markdown_html("a <b> & c") == "<p>a &lt;b&gt; &amp; c</p>"  # text, never markup
    assert markdown_html("[the table](table.ipynb)") == '<p><a href="table.ipynb" target="_self">the table</a></p>'
    assert words("**Two** words") == 2 and words("[a link](x.ipynb) here") == 3


def test_bad_steps_are_refused() -> None:
    with pytest.raises(TartliError, match="no course page"):
        Lesson("99_nothing.ipynb")
    with pytest.raises(TartliError, match="must be one of the options"):
        Question("?", ["a"], "b")
    with pytest.raises(TartliError, match="task must be"):
        Lesson("06_meld_contest.ipynb").step("x", "y", task=object())


# ---------------------------------------------------------------- the text's Markdown (CommonMark)
def test_the_markdown_is_commonmark_and_shows_no_raw_html() -> None:
    assert markdown_html("Phase 1 ends.\n2. szakasz stays text") == "<p>Phase 1 ends. 2. szakasz stays text</p>"
    assert markdown_html("- one\n  2. still the first item") == "<ul><li>one 2. still the first item</li></ul>"
    assert markdown_html('<script>alert("x")</script> <b>') == (
        "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &lt;b&gt;</p>"
    )
    assert "<a" not in markdown_html("[x](javascript:alert(1))")  # CommonMark's link check
    assert "<pre" not in markdown_html("text\n\n    indented, not code")  # no code blocks in a step
    assert markdown_html("**a** *b* [c](08_phase_two.ipynb#step-2)") == (
        '<p><b>a</b> <i>b</i> <a href="08_phase_two.ipynb#step-2" target="_self">c</a></p>'
    )


NUMBERED_LINE = re.compile(r"(?m)^\s*\d+[.)](\s|$)")


def _numbered_items(html_text: str) -> int:
    return sum(found.count("<li>") for found in re.findall(r"<ol[^>]*>(.*?)</ol>", html_text))


def run_lesson_in(page: Page, lang: str) -> Lesson:
    lesson: Lesson = in_language(lang, run_lesson, page)
    return lesson


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.file)
def test_a_number_starts_a_line_only_in_a_numbered_list_in_every_language(page: Page) -> None:
    """CommonMark reads "2. szakasz" at the start of a paragraph as a list starting at 2: no step's
    text in any language starts a line with a number unless that line is a numbered list's item,
    and a translation has the lists its English has."""
    english = run_lesson_in(page, "en")
    for lang in ("en", "hu", "de"):
        lesson = english if lang == "en" else run_lesson_in(page, lang)
        for number, (mine, theirs) in enumerate(zip(lesson.steps, english.steps, strict=True), 1):
            shown = markdown_html(mine.text)
            where = f"{page.file} step {number} ({lang}): {mine.text!r}"
            assert len(NUMBERED_LINE.findall(mine.text)) == _numbered_items(shown), where
            assert _numbered_items(shown) == _numbered_items(markdown_html(theirs.text)), where


def test_the_hungarian_ordinals_of_lessons_05_and_10_stay_in_their_sentences() -> None:
    lessons = {p.file: run_lesson_in(p, "hu") for p in LESSONS if p.file in ("05_melds.ipynb", "10_play_a_game.ipynb")}
    play, melds = lessons["10_play_a_game.ipynb"], lessons["05_melds.ipynb"]
    expected = [(play, 2, "2. szakasz"), (play, 4, "2. szakasz"), (play, 5, "2. szakasz"), (play, 5, "9. ütés")]
    expected.append((melds, 8, "8. ütés"))
    for lesson, number, words_ in expected:
        shown = markdown_html(lesson.steps[number - 1].text)
        assert "<ol" not in shown, (lesson.file, number, shown)
        assert words_ in re.sub(r"<[^>]+>", "", shown), (lesson.file, number, shown)


# ---------------------------------------------------------------- small things a learner notices (issue 26)
def test_a_lesson_opened_again_shows_the_dots_of_the_steps_done_before() -> None:
    lesson, question = small_lesson()
    lesson.next_button.click()  # step 1 has no task: read and continued from, it is done (issue 26)
    question.choose("b")
    lesson.next_button.click()
    kept = list(lesson.address.done)
    assert kept == [1, 2, 3]  # what the page writes to the browser: step 1 read and left, step 2 answered,
    # the recap reached (issue 36)
    again, _question = small_lesson()  # the next visit: the browser sends what it kept
    assert [b.description for b in again.dots.children] == ["●", "○", "○"]
    again.address.done = kept
    again.go(1)
    assert [b.description for b in again.dots.children] == ["✓", "●", "✓"]
    assert not again.next_button.disabled  # the question was answered on the earlier visit


def test_a_trainer_step_gets_its_tick_when_the_browser_sends_the_kept_stars() -> None:
    lesson = Lesson("02_ranks_and_points.ipynb")
    trainer = WhichCardWins(seed=1, progress_id="lesson02.which-card-wins")
    lesson.step("One", "one")
    lesson.step("Two", "two", task=trainer)
    lesson.recap(["r"])
    assert lesson.dots.children[1].description == "○"
    trainer.board.progress = json.dumps({"lesson02.which-card-wins": {"solved": 3, "tries": 3, "best": 2}})
    assert lesson.dots.children[1].description == "✓"


def test_the_recap_gets_its_tick_once_reached() -> None:
    """Issue 36 item 20: the recap has no task and is the last step, so it is never continued from;
    reaching it is what it asks (read it), so its dot gets a ✓ once the learner is there (shown when
    they go back, and kept for the next visit)."""
    lesson, question = small_lesson()
    lesson.next_button.click()
    question.choose("b")
    lesson.next_button.click()
    assert lesson.current == 2 and 3 in lesson.address.done
    lesson.back_button.click()
    assert [b.description for b in lesson.dots.children] == ["✓", "●", "✓"]
    again, _question = small_lesson()  # a teacher's link straight to the recap marks it too
    again.go(2)
    again.dots.children[0].click()
    assert [b.description for b in again.dots.children] == ["●", "○", "✓"]


def test_the_course_knows_each_lessons_number_of_steps(lesson: Lesson) -> None:
    """The teacher's page says "step 4 of 10" from :attr:`Page.steps`, without running the notebook."""
    page = next(p for p in PAGES if p.file == lesson.file)
    assert page.steps == len(lesson.steps)


def test_the_recap_leads_on_to_the_next_page_where_continue_was(lesson: Lesson) -> None:
    """Issue 36 (the walk-through): the recap's Continue stayed disabled where it could lead to the next page."""
    lesson.go(len(lesson.steps) - 1)
    following = PAGES[[p.file for p in PAGES].index(lesson.file) + 1]
    assert lesson.next_button.layout.display == "none"
    assert f'href="{following.file}"' in lesson.hint.value and f"Next: {following.title} →" in lesson.hint.value
    lesson.go(0)
    assert lesson.next_button.layout.display is None and "tartli-next-page" not in lesson.hint.value


def test_a_later_part_and_task_are_made_when_their_step_is_first_shown() -> None:
    """Issue 39: a step's table or trainer given as ``later`` is made when the learner first reaches the step
    (or reopens the page on it), once, and then works as one made at once: Continue waits for its task, a
    wrong answer is counted for that step, the dot gets its tick."""
    made: list[str] = []

    def picture() -> str:
        made.append("picture")
        return "<p>a picture</p>"

    def question() -> Question:
        made.append("question")
        return Question("Which?", ["a", "b"], "b", "because (T1).")

    lesson = Lesson("02_ranks_and_points.ipynb", goals=["g"])
    lesson.step("One", "one")
    lesson.step("Two", "two", later(picture), task=later(question))
    lesson.recap(["r"])
    assert made == [] and not lesson.steps[1].made
    lesson.next_button.click()  # step 2 is shown: made now
    assert made == ["picture", "question"] and lesson.current == 1 and lesson.next_button.disabled
    task = lesson.steps[1].task
    assert isinstance(task, Question) and "a picture" in str(lesson.steps[1].box.children)
    assert not task.choose("a") and lesson.address.slips == {"2": 1}
    assert task.choose("b") and not lesson.next_button.disabled
    lesson.back_button.click()
    lesson.next_button.click()
    assert made == ["picture", "question"]  # once
    assert [b.description for b in lesson.dots.children] == ["✓", "●", "○"]


def test_a_later_step_reopened_by_its_address_is_made_and_a_bad_later_is_refused() -> None:
    lesson = Lesson("06_meld_contest.ipynb")
    lesson.address.wanted = 3  # the browser reopens the lesson on step 3
    for name in ("One", "Two", "Three"):  # (step 1 is on screen while the page is still coming)
        lesson.step(name, name.lower(), later(lambda: "<p>a part</p>"))
    assert lesson.current == 2 and [s.made for s in lesson.steps] == [True, False, True]
    with pytest.raises(TartliError, match="later"):
        later("not a function")  # type: ignore[arg-type]


def test_a_steps_widgets_are_made_when_it_is_first_shown() -> None:
    """A page's kernel sends the browser every widget it has made when the page connects: the steps not shown yet
    (their pictures are most of a lesson's widget state) make none until shown."""
    from ipywidgets.widgets.widget import _instances

    def pictures() -> list[str]:
        return [x.value for x in list(_instances.values()) if "picture-of-step" in str(getattr(x, "value", ""))]

    lesson = Lesson("03_deal.ipynb")
    lesson.step("One", "one", "<p>picture-of-step-1</p>")
    lesson.step("Two", "two", "<p>picture-of-step-2</p>")
    lesson.recap(["r"])
    assert pictures() == ["<p>picture-of-step-1</p>"]
    lesson.next_button.click()
    assert sorted(pictures()) == ["<p>picture-of-step-1</p>", "<p>picture-of-step-2</p>"]
    assert lesson.body.children == (lesson.steps[1].box,) and "picture-of-step-2" in str(lesson.steps[1].box.children)


def test_a_question_makes_its_widgets_when_its_step_is_first_shown() -> None:
    """Issue 39: a lesson's questions are made with the page; their buttons (some 20 widgets a question) were
    most of what a page's kernel sent at its start. They are made when the step is shown, or an answer chosen."""
    from ipywidgets.widgets.widget import _instances

    def buttons(*labels: str) -> list[str]:
        return [x.description for x in list(_instances.values()) if getattr(x, "description", None) in labels]

    lesson = Lesson("03_deal.ipynb")
    lesson.step("One", "one", task=Question("First?", ["a-first", "b-first"], "a-first"))
    lesson.step("Two", "two", task=Question("Second?", ["a-second", "b-second"], "b-second"))
    lesson.recap(["r"])
    assert sorted(buttons("a-first", "b-first")) == ["a-first", "b-first"]  # step 1 is on screen
    assert buttons("a-second", "b-second") == []  # step 2 is not, nor its question's buttons
    second = lesson.steps[1].task
    assert isinstance(second, Question) and not second.choose("a-second") and second.mistakes == 1
    assert second.choose("b-second") and all(b.disabled for b in second.buttons)
    lesson.steps[0].task.choose("a-first")  # type: ignore[union-attr]
    lesson.next_button.click()
    shown = lesson.steps[1].box.children[-1].children[0]
    assert shown is second.widget and "Right." in second.feedback.value
    assert [b.description for b in shown.children[1].children] == ["a-second", "b-second"]
