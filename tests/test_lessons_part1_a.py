"""Lesson 01's exercise, "Name the card" (tartli.widgets.trainers.NameTheCard): judged by Card.name, cites C1;
and lessons 01 and 02 as steps.

No browser: the answer buttons are pressed with ``.click()`` as the front-end would.
"""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as w
import pytest

from tartli import Card
from tartli.cards import CARDS, TOTAL_CARD_POINTS, Rank, Suit
from tartli.course import PAGES
from tartli.game import trick_winner
from tartli.render.cards import card_svg
from tartli.widgets.steps import ExerciseTask, Lesson, Question
from tartli.widgets.trainers import TRAINERS, CountPoints, NameTheCard, WhichCardWins, trainer
from tests.test_steps import run_lesson

SEEDS = range(30)


def feedback_text(ex: NameTheCard) -> str:
    return re.sub(r"<[^>]+>", "", ex.feedback.value)


def button_for(ex: NameTheCard, name: str) -> Any:
    """The answer button showing ``name``."""
    found = [b for b in ex.option_buttons if b.description == name]
    assert len(found) == 1, [b.description for b in ex.option_buttons]
    return found[0]


@pytest.mark.rule("C1")
def test_the_right_name_solves_with_three_stars() -> None:
    for seed in SEEDS:
        ex = NameTheCard(seed=seed)
        assert not ex.solved
        button_for(ex, ex.card.name("en")).click()
        assert ex.solved and ex.stars == 3, seed
        assert "Right" in feedback_text(ex) and "C1" in feedback_text(ex)
        assert all(b.disabled for b in ex.option_buttons)  # solved: no more answers
        assert ex.progress.stage(ex.progress_id) == (1, 0)  # one of the stage's five, right at the first try


@pytest.mark.rule("C1")
def test_a_wrong_name_is_explained_with_c1_and_costs_a_star() -> None:
    for seed in SEEDS:
        ex = NameTheCard(seed=seed)
        wrong = [c for c in ex.options if c != ex.card]
        button_for(ex, wrong[0].name("en")).click()
        text = feedback_text(ex)
        assert not ex.solved and ex.mistakes == 1, seed
        assert "Not quite" in text and "C1" in text and wrong[0].name("en") in text
        assert ex.card.name("en") not in text  # the first hint does not give the answer away
        assert button_for(ex, wrong[0].name("en")).disabled  # a name tried once cannot be chosen again
        button_for(ex, wrong[1].name("en")).click()
        assert ex.card.name("en") in feedback_text(ex)  # the second miss names the card
        assert ex.answer(ex.card) and ex.stars == 1


@pytest.mark.rule("C1")
def test_over_and_under_confusion_points_at_the_pip() -> None:
    ex = NameTheCard(seed=4)
    ex.set_card("OA")
    under = Card.parse("UA")
    assert under in ex.options  # the look-alike is offered
    assert not ex.answer(under)
    assert "pip" in feedback_text(ex) and "Over" in feedback_text(ex) and "C1" in feedback_text(ex)
    assert ex.answer("Over of Acorns") and ex.stars == 2


@pytest.mark.rule("C1")
def test_the_options_are_four_distinct_names_one_right() -> None:
    for seed in SEEDS:
        ex = NameTheCard(seed=seed)
        for _ in range(3):
            names = ex.option_names
            assert len(names) == 4 and len(set(names)) == 4, (seed, names)
            assert names.count(ex.card.name("en")) == 1
            assert [b.description for b in ex.option_buttons] == names
            for card in ex.options:  # every wrong name shares the suit or the rank, never both
                if card != ex.card:
                    assert (card.suit is ex.card.suit) != (card.rank is ex.card.rank)
            ex.new_position()


def test_the_wrong_names_include_the_look_alike_rank() -> None:
    over_under = {Rank.OVER, Rank.UNDER}
    for seed in SEEDS:
        ex = NameTheCard(seed=seed)
        if ex.card.rank in over_under:
            partner = (over_under - {ex.card.rank}).pop()
            assert Card(partner, ex.card.suit) in ex.options, seed


def test_same_seed_same_cards_and_every_card_comes_up() -> None:
    a, b = NameTheCard(seed=7), NameTheCard(seed=7)
    seen = set()
    for _ in range(300):
        assert (a.card, a.options) == (b.card, b.options)
        assert a.board.svg == b.board.svg
        seen.add(a.card)
        a.new_button.click()
        b.new_position()
    assert seen == set(CARDS)
    assert [NameTheCard(seed=s).card for s in range(8)] != [NameTheCard(seed=s + 100).card for s in range(8)]


@pytest.mark.rule("C1")
def test_names_follow_the_language() -> None:
    for language in ("hu", "de"):
        ex = NameTheCard(seed=3, language=language)
        en = NameTheCard(seed=3)
        assert ex.card == en.card and ex.options == en.options
        assert ex.option_names == [c.name(language) for c in ex.options]
        assert ex.option_names != en.option_names
        wrong = next(c for c in ex.options if c != ex.card)
        assert not ex.answer(wrong.name("en"))  # an English name is not one of the offered names
        assert ex.attempts == 0 and "Choose one of the four names" in feedback_text(ex)
        button_for(ex, wrong.name(language)).click()
        assert wrong.name(language) in feedback_text(ex)
        button_for(ex, ex.card.name(language)).click()
        assert ex.solved and ex.stars == 2
        assert ex.card.name(language) in feedback_text(ex)


def test_the_picture_does_not_tell_the_name_until_solved() -> None:
    ex = NameTheCard(seed=2)
    name = ex.card.name("en")
    assert f'data-card="{ex.card.text}"' in ex.board.svg
    assert name not in ex.board.svg
    ex.answer(ex.card)
    assert name in ex.board.svg


def test_catalogue_and_lesson_progress_id() -> None:
    assert TRAINERS["name-the-card"] is NameTheCard
    assert isinstance(trainer("name-the-card", seed=1), NameTheCard)
    ex = NameTheCard(seed=1, progress_id="lesson01.name-the-card")
    assert ex.board.storage_key == "tartli.trainers.lesson01.name-the-card"
    ex.answer(ex.card)
    assert ex.progress.stage("lesson01.name-the-card") == (1, 0) and ex.progress.stage("name-the-card") == (0, 0)
    assert isinstance(ex.widget, w.VBox) and all(b in ex.controls.children for b in ex.option_buttons)


# ---------------------------------------------------------------------------- lessons 01 and 02 as steps
def steps_of(file: str) -> Lesson:
    return run_lesson(next(p for p in PAGES if p.file == file))


def step(lesson: Lesson, title: str) -> Any:
    return next(s for s in lesson.steps if s.title == title)


TRICK_WORDS = re.compile(r"\b(trick|lead|trump|follow)", re.IGNORECASE)


def test_lesson_01_says_what_a_trick_is_before_any_step_uses_the_words() -> None:
    lesson = steps_of("01_pack.ipynb")
    first = [s.title for s in lesson.steps].index("Tricks in one minute")
    for earlier in lesson.steps[:first]:
        assert not TRICK_WORDS.search(earlier.title + " " + earlier.text), earlier.title
    tricks = lesson.steps[first]
    for word in ("tricks", "lead", "trumps", "follow suit"):
        assert f"**{word}**" in tricks.text  # each word defined in bold, in plain words
    assert "data-card=" in str(tricks.parts)  # a small picture: the trick
    lead, answer = Card.parse("AA"), Card.parse("7H")
    assert f'data-card="{lead}"' in str(tricks.parts) and f'data-card="{answer}"' in str(tricks.parts)
    assert isinstance(tricks.task, Question) and "T1" in tricks.task.explain
    assert tricks.task.answer_text == tricks.task.options[trick_winner(lead, answer, Suit.HEARTS)]


def test_lesson_01_teaches_the_over_and_under_of_a_real_pack() -> None:
    lesson = steps_of("01_pack.ipynb")
    over_under = step(lesson, "Over or Under?")
    text = " ".join(over_under.text.split())
    assert "top left corner" in text and "lower down the left side" in text  # what a real pack shows
    assert "are its own" in text  # the course's drawings are not a real pack's (ERRATA)
    for card in ("OL", "UL"):  # drawn as a real pack shows them: no corner index, no name ribbon
        assert card_svg(Card.parse(card), width=120, bare=True) in str(over_under.parts)
    which = step(lesson, "Which one is it?")
    assert isinstance(which.task, Question) and which.task.options == ["Over", "Under"]
    found = re.search(r'data-card="(\w\w)"', str(which.parts))
    assert found is not None
    shown = Card.parse(found.group(1))
    assert shown.name() not in str(which.parts)  # the picture does not give the answer away
    assert which.task.answer_text == shown.rank.name_in()
    everything = " ".join(s.text for s in lesson.steps)
    for wrong in ("hawk bell", "because of the Hungarian name", "holds it", "waist"):
        assert wrong not in everything  # errata for lesson 01
    name_the_card = lesson.steps[-2].task
    assert isinstance(name_the_card, ExerciseTask) and isinstance(name_the_card.exercise, NameTheCard)
    assert name_the_card.exercise.progress_id == "lesson01.name-the-card"


def test_lesson_02_answers_are_the_engines() -> None:
    lesson = steps_of("02_ranks_and_points.ipynb")
    nine = step(lesson, "The trump order").task
    assert isinstance(nine, Question) and nine.answer_text == str(Card.parse("9H").points(Suit.HEARTS)) == "14"
    plain = step(lesson, "The plain order").task
    king, ten = Card.parse("KA"), Card.parse("XA")
    assert isinstance(plain, Question) and plain.answer_text == (king, ten)[trick_winner(king, ten, Suit.HEARTS)].name()
    share = step(lesson, "161 card points in a hand").task
    assert isinstance(share, Question) and share.answer_text == str(TOTAL_CARD_POINTS - 96)
    off_suit = step(lesson, "Who wins a trick").task
    led, second = Card.parse("9A"), Card.parse("AH")
    assert isinstance(off_suit, Question)
    assert off_suit.answer_text == (led, second)[trick_winner(led, second, Suit.BELLS)].name() == "Nine of Acorns"
    trainers = [s.task.exercise for s in lesson.steps if isinstance(s.task, ExerciseTask)]
    assert [(type(t), t.progress_id) for t in trainers] == [
        (WhichCardWins, "lesson02.which-card-wins"),
        (CountPoints, "lesson02.count-points"),
    ]


# ---------------------------------------------------------------- issue 36: no answer readable above its question
def _shown_text(step: Any) -> str:
    """What a learner sees above the question: the step's words and its pictures' words (not a card's
    name for a screen reader, its title)."""
    parts = re.sub(r"<(title|desc)>.*?</\1>", " ", " ".join(p for p in step.parts if isinstance(p, str)))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", step.text + " " + parts))


def test_lesson_01_eight_cards_asks_what_its_list_does_not_say() -> None:
    """01/3 said "There are no Queens", then asked which of King, Queen, Over, Seven is not in the pack. It now
    asks how many Overs and Unders the whole pack holds: the step shows one suit, the pack has four."""
    eight = step(steps_of("01_pack.ipynb"), "Eight cards in a suit")
    task = eight.task
    assert isinstance(task, Question)
    assert task.answer_text == str(sum(c.rank in (Rank.OVER, Rank.UNDER) for c in CARDS))  # the engine's pack
    assert "Queen" not in task.options and "Overs" in task.prompt  # (the words above: "There are no Queens")
    assert task.choose(task.answer_text) and "C1" in task.explain


def test_lesson_01_hungarian_corner_letter_asks_about_a_card_not_shown() -> None:
    """01/8 in Hungarian showed the piros felső with its corner letter, said "a piros felső sarkában F áll",
    then asked which letter stands in the piros felső's corner. It asks about a card the step does not show."""
    from tests.test_steps import run_lesson_in

    lesson = run_lesson_in(next(p for p in PAGES if p.file == "01_pack.ipynb"), "hu")
    written = lesson.steps[7]
    task = written.task
    assert isinstance(task, Question) and task.answer_text in task.options
    shown = {Card.parse(code) for code in re.findall(r'data-card="(\w\w)"', " ".join(map(str, written.parts)))}
    assert shown, "the step shows cards"
    for card in shown:
        assert card.name("hu") not in task.prompt, (card, task.prompt)
    assert task.answer_text != "F" and task.choose(task.answer_text)


def test_lesson_03_table_question_is_read_from_the_cards_not_the_label() -> None:
    """03/4's panel says "trump: Leaves" (and names the indicator) right above "Which suit is trumps on this
    table?". The question asks which card of the learner's hand that makes a trump: the picture says no such
    thing, the learner puts the panel and the hand together."""
    from tartli.game import HandState

    table = step(steps_of("03_deal.ipynb"), "The table")
    task = table.task
    assert isinstance(task, Question)
    view = HandState.from_seed(12).view(0)
    trumps = [card for card in view.hand if card.suit is view.trump]
    assert [task.answer_text] == [card.name() for card in trumps] and len(task.options) == 4
    assert all(option in [card.name() for card in view.hand] for option in task.options)
    assert task.answer_text not in _shown_text(table)
    assert task.choose(task.answer_text) and "D1" in task.explain


def test_lesson_05_vannak_asks_about_more_than_the_step_says() -> None:
    """05/5 said "Four Eights or four Sevens are no meld at all", then asked what four Eights score. It asks
    about four Eights and four Nines together: the table gives the Nines, the words the Eights."""
    from tartli.melds import find_melds
    from tartli.rules import RuleSet

    vannak = step(steps_of("05_melds.ipynb"), "Four of a kind: vannak")
    task = vannak.task
    assert isinstance(task, Question)
    held = [Card.parse(c) for c in ("8A", "8L", "8H", "8B", "9A", "9L", "9H", "9B")]
    assert task.answer_text == str(sum(m.value for m in find_melds(held, RuleSet())))  # the engine's 150
    assert "Eights" in task.prompt and "Nines" in task.prompt
    assert task.choose(task.answer_text) and "M2" in task.explain


def test_lesson_02_sequence_order_row_has_no_empty_line_under_its_cards() -> None:
    """Issue 36: 02/1's row of cards (no points under them) kept an empty line under each card, an empty band
    on a phone where the row wraps in two."""
    first = steps_of("02_ranks_and_points.ipynb").steps[0]
    picture = next(p for p in first.parts if isinstance(p, str) and "data-card" in p)
    assert "&nbsp;" not in picture and "<br>" not in picture and "line-height:0" in picture
